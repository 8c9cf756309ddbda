/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report --detail on chains (chain_detail.c): per chained group, each
 * hop's stages broken into their components along the critical path, a
 * middle's time into the two parts around its critical leg, and each
 * leg's own components. Made only when asked: each component keeps its
 * values for the percentiles, which a report without --detail does not
 * pay for.
 */
#ifndef NTPROF_CHAIN_DETAIL_H
#define NTPROF_CHAIN_DETAIL_H

#include "analysis/chain.h"

/*
 * A middle's two parts, past the components of enum ntprof_comp: its
 * target's TARGET_EXEC to the critical leg's first point, and the
 * leg's last point to TARGET_COMPLETE.
 */
#define NTPROF_CHAIN_COMP_MIDDLE_SUB	NTPROF_COMP_COUNT
#define NTPROF_CHAIN_COMP_MIDDLE_COMP	(NTPROF_COMP_COUNT + 1)
#define NTPROF_CHAIN_COMPS		(NTPROF_COMP_COUNT + 2)

/* The components of a hop, or of a leg, over its commands. */
struct ntprof_chain_comps {
	uint32_t has;				/* bits of NTPROF_CHAIN_COMPS */
	struct ntprof_vec val[NTPROF_CHAIN_COMPS];	/* ns */
	uint32_t merged[NTPROF_CHAIN_COMPS];
	uint64_t merged_n[NTPROF_CHAIN_COMPS];
	struct ntprof_stats st[NTPROF_CHAIN_COMPS];	/* when made */
};

/* A chained group's: run.chain->stats->g[i] is detail->g[i]. */
struct ntprof_chain_detail_group {
	struct ntprof_chain_comps hop[NTPROF_CHAIN_MAX_HOPS];
	struct ntprof_chain_comps leg[NTPROF_CHAIN_MAX_LEGS];	/* as cg->legs */
};

struct ntprof_chain_detail {
	struct ntprof_chain_detail_group *g;
	size_t nr;
};

/*
 * ntprof_chain_detail_make() - compute the groups' components into
 * run.chain->detail; call it after ntprof_chain_stats_make(). It returns
 * 0 (also when there are no chains) or -ENOMEM.
 */
int ntprof_chain_detail_make(struct recording_run *run);
void ntprof_chain_detail_free(struct ntprof_chain *ch);

/*
 * ntprof_chain_comp_name() - return a component's name, including the
 * middle's parts; ntprof_chain_comp_id() returns its JSON id.
 */
const char *ntprof_chain_comp_name(const struct ntprof_chain_group *cg,
				   int hop, int comp, char *buf, size_t size);
const char *ntprof_chain_comp_id(int comp);
/*
 * ntprof_chain_comp_stage() - return the stage that a component is part
 * of, which may also be NTPROF_CHAIN_STAGE_MIDDLE.
 */
int ntprof_chain_comp_stage(int comp);

#endif /* NTPROF_CHAIN_DETAIL_H */
