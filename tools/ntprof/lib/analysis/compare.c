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
 * same_group() - tell whether @a and @b are the same group: the same side,
 * op, size and device and, with @transport (when both runs hold both
 * transports), the same transport, so that a run over TCP is not compared
 * with one over RDMA.
 */
static bool same_group(const struct ntprof_group *a,
		       const struct ntprof_group *b, bool transport)
{
	return a->target_side == b->target_side && a->op == b->op &&
	       a->length == b->length && !strcmp(a->devname, b->devname) &&
	       (!transport || a->transport == b->transport);
}

/*
 * group_hostname() - return the hostname of @g's machine in @an, or NULL
 * when @g is not keyed by one.
 */
static const char *group_hostname(const struct ntprof_analysis *an,
				  const struct ntprof_group *g)
{
	if (!g->host || g->machine >= an->opts.nr_machines)
		return NULL;
	return an->opts.machines[g->machine].hostname;
}

/*
 * same_host() - tell whether two groups may pair by their machines. When
 * both runs hold several machines, a group pairs only with the same
 * machine's group, by hostname, so that a reboot between the runs is still
 * the same host. A run of one host compares with a run of another.
 */
static bool same_host(const struct ntprof_analysis *an,
		      const struct ntprof_group *a,
		      const struct ntprof_analysis *other,
		      const struct ntprof_group *b)
{
	const char *x, *y;

	if (an->opts.nr_machines < 2 || other->opts.nr_machines < 2)
		return true;
	x = group_hostname(an, a);
	y = group_hostname(other, b);
	return !x || !y || !strcmp(x, y);
}

const struct ntprof_group *
cmp_group_find(const struct ntprof_analysis *an,
	   const struct ntprof_analysis *other, const struct ntprof_group *g)
{
	bool transport = an->opts.transports && other->opts.transports;
	size_t i;

	for (i = 0; i < an->nr_groups; i++)
		if (same_group(&an->groups[i], g, transport) &&
		    same_host(an, &an->groups[i], other, g))
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
