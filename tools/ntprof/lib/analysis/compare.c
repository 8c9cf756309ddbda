// SPDX-License-Identifier: GPL-2.0
/*
 * Two runs, the same groups, stage by stage (ntprof compare). Each
 * stage's latency amplification degree (LAD) is its loaded mean over its
 * base mean; the stage with the largest one is where a slowdown came
 * from.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "analysis/compare.h"
#include "common/util.h"

/* A stage below this at the base is too small for a ratio. */
#define LAD_MIN_BASE_NS		500.0
/* A stage with less of the end to end's growth is not named largest. */
#define LAD_MIN_SHARE_OF_CHANGE	0.05

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

/* The hostname of @g's machine in @an, or NULL: not keyed by one. */
static const char *group_hostname(const struct ntprof_analysis *an,
				  const struct ntprof_group *g)
{
	if (!g->host || g->machine >= an->opts.nr_machines)
		return NULL;
	return an->opts.machines[g->machine].hostname;
}

/*
 * When both runs hold several machines, a group pairs with the same
 * machine's only, by hostname: a reboot between the runs is the same
 * host. A run of one host compares with a run of another.
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

static void row_set(struct cmp_row *r, double base, double load)
{
	r->base_ns = base;
	r->load_ns = load;
	r->lad = base >= LAD_MIN_BASE_NS && !isnan(load) ? load / base : NAN;
}

/*
 * The stage with the largest LAD (at a tie, the first in path order);
 * material: only among the stages that carry at least
 * LAD_MIN_SHARE_OF_CHANGE of the end to end's growth. A 0.2 us stage
 * that doubles while the read takes 100 us longer is not where the time
 * went, however large its ratio. -1: none.
 */
static int largest_lad(const struct cmp_group *cg, bool material)
{
	const struct cmp_row *e2e = &cg->rows[cg->nr_rows - 1];
	double grown = e2e->load_ns - e2e->base_ns, best = -INFINITY;
	const struct cmp_row *r;
	int largest = -1;
	size_t i;

	for (i = 0; i + 1 < cg->nr_rows; i++) {
		r = &cg->rows[i];
		if (isnan(r->lad) || r->lad <= best)
			continue;
		if (material && grown > 0 &&
		    r->load_ns - r->base_ns < LAD_MIN_SHARE_OF_CHANGE * grown)
			continue;
		best = r->lad;
		largest = (int)i;
	}
	return largest;
}

/* The words: how much slower or faster, where, and the rest. */
static void group_answer(struct cmp_group *cg)
{
	const struct cmp_row *e2e = &cg->rows[cg->nr_rows - 1];
	const struct cmp_row *top;
	double rest = 0, d;
	size_t i;
	int len;

	if (isnan(e2e->lad))
		len = snprintf(cg->answer, sizeof(cg->answer),
			       "the end to end is too small for a ratio");
	else if (fabs(e2e->lad - 1) < 0.05)
		len = snprintf(cg->answer, sizeof(cg->answer),
			       "about the same end to end (%.2f -> %.2f us, LAD %.2f)",
			       e2e->base_ns / 1e3, e2e->load_ns / 1e3,
			       e2e->lad);
	else
		len = snprintf(cg->answer, sizeof(cg->answer),
			       "%.2fx %s end to end (%.2f -> %.2f us)",
			       e2e->lad >= 1 ? e2e->lad : 1 / e2e->lad,
			       e2e->lad >= 1 ? "slower" : "faster",
			       e2e->base_ns / 1e3, e2e->load_ns / 1e3);
	if (cg->largest < 0 || len < 0 || (size_t)len >= sizeof(cg->answer))
		return;
	top = &cg->rows[cg->largest];
	if (fabs(top->lad - 1) < 0.05) {
		snprintf(cg->answer + len, sizeof(cg->answer) - len,
			 "; no stage grew by 5 %% or more");
		return;
	}
	for (i = 0; i + 1 < cg->nr_rows; i++) {
		d = fabs(cg->rows[i].lad - 1);
		if ((int)i != cg->largest && !isnan(d) && d > rest)
			rest = d;
	}
	snprintf(cg->answer + len, sizeof(cg->answer) - len,
		 "; the largest change is in %s: %.2f -> %.2f us (%+.2f us, LAD %.2f); every other stage within %.0f %%",
		 top->name, top->base_ns / 1e3, top->load_ns / 1e3,
		 (top->load_ns - top->base_ns) / 1e3, top->lad, rest * 100);
}

void cmp_group_compare(struct cmp_group *cg)
{
	const struct ntprof_group *b = cg->base, *l = cg->load;
	uint32_t both = b->stage_has & l->stage_has;
	struct cmp_row *r;
	size_t i;
	int s;

	/*
	 * A host record alone has no network stage of its own (its network
	 * row is the host's receive path): across kinds, only the host's
	 * stages mean the same.
	 */
	if (b->kind != l->kind)
		both &= BIT(NTPROF_STAGE_HOST_BLK) | BIT(NTPROF_STAGE_HOST_DRV);

	cg->nr_rows = 0;
	for (i = 0; i < NTPROF_STAGE_COUNT; i++) {
		s = ntprof_stage_order[i];
		if (!(both & BIT(s)))
			continue;
		r = &cg->rows[cg->nr_rows++];
		r->stage = s;
		r->id = ntprof_stage_id(s);
		r->name = ntprof_stage_name(s, b->transport, b->kind,
					    b->stacks);
		row_set(r, b->stage_mean[s], l->stage_mean[s]);
	}
	r = &cg->rows[cg->nr_rows++];
	r->stage = -1;
	r->id = "end_to_end";
	r->name = "end to end";
	row_set(r, b->comp[NTPROF_COMP_E2E].mean, l->comp[NTPROF_COMP_E2E].mean);
	cg->largest = largest_lad(cg, true);
	if (cg->largest < 0)
		cg->largest = largest_lad(cg, false);
	group_answer(cg);
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
