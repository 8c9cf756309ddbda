// SPDX-License-Identifier: GPL-2.0
/*
 * Two runs, the same groups, stage by stage (ntprof compare). Each
 * stage's latency amplification degree (LAD) is its loaded mean over its
 * base mean; the stages' changes in microseconds add up to the end to
 * end's, and the largest is where a slowdown came from, or a saving.
 * The rows are compare_rows.c's, the answer compare_answer.c's.
 */
#include <stdbool.h>
#include <string.h>

#include "analysis/compare.h"

/*
 * @transport: the groups' transports must agree too, when both runs hold
 * both (otherwise a run over TCP compares with one over RDMA).
 */
static bool same_group(const struct ntprof_group *a,
		       const struct ntprof_group *b, bool transport)
{
	return a->target_side == b->target_side && a->op == b->op &&
	       a->length == b->length && !strcmp(a->devname, b->devname) &&
	       (!transport || a->transport == b->transport);
}

const struct ntprof_group *
cmp_group_find(const struct ntprof_analysis *an,
	   const struct ntprof_analysis *other, const struct ntprof_group *g)
{
	bool transport = an->opts.transports && other->opts.transports;
	size_t i;

	for (i = 0; i < an->nr_groups; i++)
		if (same_group(&an->groups[i], g, transport))
			return &an->groups[i];
	return NULL;
}

void cmp_group_compare(struct cmp_group *cg, bool detail)
{
	cmp_merge_names(cg->label, sizeof(cg->label), cg->base->label,
			cg->load->label);
	cmp_rows_fill(cg, detail);
	cmp_group_answer(cg);
}

const struct cmp_group *cmp_main_group(const struct cmp_group *v, size_t n)
{
	const struct cmp_group *best = NULL;
	size_t i;

	for (i = 0; i < n; i++)
		if (!best || v[i].base->n_table > best->base->n_table)
			best = &v[i];
	return best;
}
