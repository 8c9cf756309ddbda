/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare for chains (compare_chain.c): a pair of groups that are both
 * chained, compared hop by hop along the critical path and leg by leg.
 */
#ifndef NTPROF_COMPARE_CHAIN_H
#define NTPROF_COMPARE_CHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/chain.h"
#include "analysis/compare.h"

struct recording_run;

/* A leg of the base run against one of the load run. */
struct cmp_chain_leg {
	const struct ntprof_chain_leg_stats *base;
	const struct ntprof_chain_leg_stats *load;
	/*
	 * Its rows: the leg's own stages and its end to end (a downstream
	 * command's, from the middle's block layer to its completion);
	 * its label both runs' labels in one ("r1 nullb0 -> r2 nullb0").
	 */
	struct cmp_group cmp;
};

struct cmp_chain {
	const struct ntprof_chain_group *base;
	const struct ntprof_chain_group *load;
	/*
	 * The hops: a row per hop's stage in path order, named "hop 2:
	 * storage (...)", and the end to end of the followed commands; its
	 * answer is which hop's stage moved. @hops_differ: the runs' paths
	 * have other numbers of hops, and only the legs are compared.
	 */
	bool hops_differ;
	struct cmp_group hops;
	uint8_t row_hop[CMP_MAX_ROWS];	/* a row's hop, 1-based; 0: e2e */
	struct cmp_chain_leg legs[NTPROF_CHAIN_MAX_LEGS];
	size_t nr_legs;
	int moved_leg;		/* the leg whose end to end moved most, -1 */
	char answer[2048];
};

/*
 * --legs BASE,LOAD: the base run's leg labelled BASE against the load
 * run's labelled LOAD, and no other pair; NULL: each leg against the
 * leg of the same label.
 */
struct cmp_chain_legs {
	const char *base;
	const char *load;
};

/*
 * cmp_chain_legs_parse() - split --legs A,B in place into @l. It returns
 * 0, or -EINVAL when @arg is not two non-empty labels.
 */
int cmp_chain_legs_parse(char *arg, struct cmp_chain_legs *l);
/*
 * cmp_chain_legs_check() - check that the labels of --legs are legs of
 * the runs. It returns 0, or 1 after a one-line message for @cmd that
 * names the missing label and the run's legs.
 */
int cmp_chain_legs_check(const char *cmd, const struct recording_run *base,
			 const struct recording_run *load,
			 const struct cmp_chain_legs *l);
/*
 * cmp_chain_compare() - fill @cc for the pair @cg when both its groups are
 * chained in their runs (after ntprof_chain_stats_make()), and return
 * true; otherwise return false and leave @cc untouched.
 */
bool cmp_chain_compare(struct cmp_chain *cc, const struct recording_run *base,
		       const struct recording_run *load,
		       const struct cmp_group *cg,
		       const struct cmp_chain_legs *legs);

#endif /* NTPROF_COMPARE_CHAIN_H */
