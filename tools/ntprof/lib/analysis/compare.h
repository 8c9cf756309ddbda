/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ntprof compare's groups, as compare.c pairs and compares them
 * (compare_pair.c, compare_rows.c, compare_answer.c), and cmd/compare.c
 * and out/compare_html.c show them.
 */
#ifndef NTPROF_COMPARE_H
#define NTPROF_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/analysis.h"

/*
 * The rows a group's table holds: a chain's hops' stages and its end to
 * end (compare_chain.c) as much as one hop's.
 */
#define CMP_MAX_ROWS		40

/* A stage or component below this at the base is too small for a ratio. */
#define CMP_LAD_MIN_BASE_NS	500.0

/*
 * A row of a group's table: a stage, the end to end (stage -1), or with
 * --detail a component (comp >= 0, stage the one it belongs to, -1 for a
 * sub-row that is in no stage).
 */
struct cmp_row {
	int stage;
	int comp;		/* enum ntprof_comp, -1: a stage's row */
	bool sub;		/* a part shown under another, in no sum */
	const char *id;
	/*
	 * Both runs' names in one: each run's own where they differ, as
	 * runs over two transports have them ("host driver (nvme-tcp ->
	 * nvme-rdma)").
	 */
	char name[160];
	const char *base_name;
	const char *load_name;
	double base_ns;
	double load_ns;
	double lad;		/* NAN: n/a */
	double share;		/* of the end to end's change; NAN: none */
};

struct cmp_group {
	const struct ntprof_group *base;
	const struct ntprof_group *load;
	/* NTPROF_BY_OP, _SIZE, _DEV: what the two groups were paired by. */
	unsigned int match;
	/* Both labels in one where they differ: "read 4KiB nvme1n1 -> nvme2n1". */
	char label[2 * sizeof(((struct ntprof_group *)0)->label)];
	/*
	 * One run has the target's side and the other not: the rows are
	 * the ground both share, the network and the target as one stage.
	 */
	bool common_ground;
	struct cmp_row rows[CMP_MAX_ROWS];
	size_t nr_rows;
	/* --detail: the components both runs hold, in path order. */
	struct cmp_row comps[NTPROF_COMP_COUNT];
	size_t nr_comps;
	/*
	 * The stage that changed the most in microseconds (index into
	 * rows), -1: none; @largest_lad when it has the largest LAD too,
	 * in a run that got slower. --detail: of its components, the one
	 * that changed the most (index into comps), -1: none.
	 */
	int largest;
	bool largest_lad;
	int largest_comp;
	char answer[1536];
};

/*
 * cmp_group_find() - return the group of @an that corresponds to group @g
 * of @other (the same op, size and device, and the same transport when
 * both runs hold both transports), or NULL.
 */
const struct ntprof_group *
cmp_group_find(const struct ntprof_analysis *an,
	       const struct ntprof_analysis *other, const struct ntprof_group *g);
/*
 * cmp_group_compare() - fill @cg's label, rows (and, with @detail, its
 * components), shares, largest change and answer from its base and load
 * groups.
 */
void cmp_group_compare(struct cmp_group *cg, bool detail);
/*
 * cmp_main_group() - return the group that the overall answer speaks of:
 * the one with the most commands.
 */
const struct cmp_group *cmp_main_group(const struct cmp_group *v, size_t n);

/* compare_rows.c */
/*
 * cmp_merge_names() - write @a and @b into @buf as one name: @a when they
 * are the same, or else the part that differs, as "A -> B", between the
 * parts that they share, cut at word boundaries ("network (TCP/IP ->
 * RDMA, NICs, wire)").
 */
void cmp_merge_names(char *buf, size_t size, const char *a, const char *b);
/*
 * cmp_rows_fill() - fill @cg's rows of stages and end to end and, with
 * @detail, its components.
 */
void cmp_rows_fill(struct cmp_group *cg, bool detail);

/*
 * cmp_group_answer() - fill @cg's shares, largest change and the words of
 * its answer (compare_answer.c).
 */
void cmp_group_answer(struct cmp_group *cg);

/* compare_pair.c */
#define CMP_MATCH_DEFAULT	(NTPROF_BY_OP | NTPROF_BY_SIZE | NTPROF_BY_DEV)
/*
 * cmp_match_parse() - parse --match PARTS, a comma-separated list of op,
 * size and dev, into NTPROF_BY_* bits. It returns 0, or -EINVAL.
 */
int cmp_match_parse(const char *s, unsigned int *match);
/*
 * cmp_pair() - pair the groups of @ba (base) and @la (load) by @match's
 * parts into @out, which has room for ba->nr_groups, and set *@nr. With
 * @explicit (--match was given), a run with two groups of one key is an
 * error. Without it, a base group left without a pair for its device
 * still pairs by op and size when each run holds just one group of that
 * op and size (runs over two controllers). It returns 0, or 1 after a
 * one-line message for @cmd.
 */
int cmp_pair(const char *cmd, const struct ntprof_analysis *ba,
	     const struct ntprof_analysis *la, unsigned int match,
	     bool explicit, struct cmp_group *out, size_t *nr);
/*
 * cmp_group_notes() - pass to @emit, one sentence each, what sets @cg's
 * two groups apart besides their stages: devices paired by op and size,
 * two transports, or the common ground of a run with the target's side
 * and one without it.
 */
void cmp_group_notes(const struct cmp_group *cg,
		     void (*emit)(const char *line, void *arg), void *arg);
/*
 * cmp_paired() - tell whether @g is the base group (@load false) or the
 * load group of one of @v.
 */
bool cmp_paired(const struct cmp_group *v, size_t n,
		const struct ntprof_group *g, bool load);

#endif /* NTPROF_COMPARE_H */
