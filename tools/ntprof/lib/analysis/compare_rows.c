// SPDX-License-Identifier: GPL-2.0
/*
 * The rows of compare's table for a pair of groups: the stages both runs
 * hold and the end to end, each with both runs' means and its LAD; the
 * common ground when one run has the target's side and the other not;
 * with --detail, the components both hold. Each row is named for both
 * runs, which may differ in transport.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/compare.h"
#include "common/util.h"

/* cut_after() - tell whether a name may be cut after @c. */
static bool cut_after(char c)
{
	return c == ' ' || c == '(';
}

/* cut_before() - tell whether a name may be cut before @c. */
static bool cut_before(char c)
{
	return c == ' ' || c == ',' || c == ')';
}

void cmp_merge_names(char *buf, size_t size, const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), p = 0, s = 0;

	if (!strcmp(a, b)) {
		snprintf(buf, size, "%s", a);
		return;
	}
	while (p < la && p < lb && a[p] == b[p])
		p++;
	while (p && !cut_after(a[p - 1]))
		p--;
	while (s < la - p && s < lb - p && a[la - 1 - s] == b[lb - 1 - s])
		s++;
	while (s && !cut_before(a[la - s]))
		s--;
	snprintf(buf, size, "%.*s%.*s -> %.*s%s", (int)p, a,
		 (int)(la - p - s), a + p, (int)(lb - p - s), b + p,
		 a + la - s);
}

/*
 * row_set() - set a row's means and LAD (n/a when the base is under
 * CMP_LAD_MIN_BASE_NS).
 */
static void row_set(struct cmp_row *r, double base, double load)
{
	r->base_ns = base;
	r->load_ns = load;
	r->lad = base >= CMP_LAD_MIN_BASE_NS && !isnan(load) ? load / base :
							       NAN;
	r->share = NAN;
}

static struct cmp_row *row_add(struct cmp_row *v, size_t *n, int stage,
			       int comp, const char *id, const char *base_name,
			       const char *load_name)
{
	struct cmp_row *r = &v[(*n)++];

	r->stage = stage;
	r->comp = comp;
	r->sub = false;
	r->id = id;
	r->base_name = base_name;
	r->load_name = load_name;
	cmp_merge_names(r->name, sizeof(r->name), base_name, load_name);
	return r;
}

static const char *stage_name(const struct ntprof_group *g, int s)
{
	return ntprof_stage_name(s, g->transport, g->kind, g->stacks);
}

/*
 * recv_ns() - return a run's host receive path per command of its table. A
 * host record alone has it as its network stage; a joined record has it as a
 * component of its network, counted over the commands that have it. It
 * returns NAN when there is none.
 */
static double recv_ns(const struct ntprof_group *g)
{
	const struct ntprof_stats *st = &g->comp[NTPROF_COMP_HOST_RECV];

	if (g->kind == NTPROF_KIND_HOST)
		return g->stage_has & BIT(NTPROF_STAGE_NETWORK) ?
		       g->stage_mean[NTPROF_STAGE_NETWORK] : NAN;
	return st->n && g->n_table ?
	       st->mean * (double)st->n / (double)g->n_table : NAN;
}

/*
 * stage_in() - tell whether stage @s is a row: both runs hold it, or it
 * is the outage, which a run without an outage holds as 0 (its commands
 * waited through none), so that the rows still add up to the end to end.
 */
static bool stage_in(const struct ntprof_group *b,
		     const struct ntprof_group *l, int s)
{
	if (s == NTPROF_STAGE_OUTAGE)
		return (b->stage_has | l->stage_has) & BIT(s);
	return b->stage_has & l->stage_has & BIT(s);
}

static double stage_mean(const struct ntprof_group *g, int s)
{
	return g->stage_has & BIT(s) ? g->stage_mean[s] : 0;
}

/*
 * common_rows() - make the rows for one run with the target's side and one
 * without. The host's stages and its receive path mean the same in both, and
 * the rest of the end to end is the network and the target in both, recorded
 * or not. Comparing that rest as one stage keeps all of the change in the
 * table, where the host's stages alone would lose what the network and the
 * target did.
 */
static void common_rows(struct cmp_group *cg)
{
	static const int host_stages[] = {
		NTPROF_STAGE_OUTAGE, NTPROF_STAGE_HOST_BLK,
		NTPROF_STAGE_HOST_DRV,
	};
	const struct ntprof_group *b = cg->base, *l = cg->load;
	double rest_b = b->comp[NTPROF_COMP_E2E].mean;
	double rest_l = l->comp[NTPROF_COMP_E2E].mean;
	double vb, vl;
	struct cmp_row *r;
	size_t i;
	int s;

	cg->common_ground = true;
	for (i = 0; i < ARRAY_SIZE(host_stages); i++) {
		s = host_stages[i];
		if (!stage_in(b, l, s))
			continue;
		r = row_add(cg->rows, &cg->nr_rows, s, -1, ntprof_stage_id(s),
			    stage_name(b, s), stage_name(l, s));
		row_set(r, stage_mean(b, s), stage_mean(l, s));
		rest_b -= r->base_ns;
		rest_l -= r->load_ns;
	}
	vb = recv_ns(b);
	vl = recv_ns(l);
	if (!isnan(vb) && !isnan(vl)) {
		r = row_add(cg->rows, &cg->nr_rows, NTPROF_STAGE_NETWORK, -1,
			    ntprof_comp_id(NTPROF_COMP_HOST_RECV),
			    "host receive path", "host receive path");
		row_set(r, vb, vl);
		rest_b -= vb;
		rest_l -= vl;
	}
	r = row_add(cg->rows, &cg->nr_rows, NTPROF_STAGE_NET_TARGET, -1,
		    ntprof_stage_id(NTPROF_STAGE_NET_TARGET),
		    "network and target", "network and target");
	row_set(r, rest_b, rest_l);
}

/*
 * stage_rows() - add the rows of the stages that both runs hold, in path
 * order.
 */
static void stage_rows(struct cmp_group *cg)
{
	const struct ntprof_group *b = cg->base, *l = cg->load;
	struct cmp_row *r;
	size_t i;
	int s;

	for (i = 0; i < NTPROF_STAGE_COUNT; i++) {
		s = ntprof_stage_order[i];
		if (!stage_in(b, l, s))
			continue;
		r = row_add(cg->rows, &cg->nr_rows, s, -1, ntprof_stage_id(s),
			    stage_name(b, s), stage_name(l, s));
		row_set(r, stage_mean(b, s), stage_mean(l, s));
	}
}

/* The RDMA data transfer's places in comp_rows()'s order: one is used. */
#define DATA_UNDER_WIRE		(-1)
#define DATA_AFTER_TARGET	(-2)

/*
 * comp_rows() - add, for --detail, the components of both runs in report
 * --detail's order.
 */
static void comp_rows(struct cmp_group *cg)
{
	static const int order[] = {
		NTPROF_COMP_HOST_BLK_SUB, NTPROF_COMP_HOST_DRV_SUB,
		NTPROF_COMP_WIRE, DATA_UNDER_WIRE, NTPROF_COMP_NET_TARGET,
		NTPROF_COMP_TGT_DRV_SUB, NTPROF_COMP_HOST_DATA,
		NTPROF_COMP_STORAGE_BLK, NTPROF_COMP_DRIVE,
		NTPROF_COMP_TGT_DRV_COMP, DATA_AFTER_TARGET,
		NTPROF_COMP_HOST_RECV, NTPROF_COMP_HOST_DRV_COMP,
		NTPROF_COMP_HANDOFF, NTPROF_COMP_HOST_BLK_COMP,
	};
	const struct ntprof_group *b = cg->base, *l = cg->load;
	bool wire = b->comp[NTPROF_COMP_WIRE].n && l->comp[NTPROF_COMP_WIRE].n;
	struct cmp_row *r;
	size_t i;
	int c;

	for (i = 0; i < ARRAY_SIZE(order); i++) {
		c = order[i];
		/*
		 * The data transfer belongs under the wire when there is
		 * one (reads: it is the wire's), else after the target.
		 */
		if (c == DATA_UNDER_WIRE || c == DATA_AFTER_TARGET) {
			if (wire != (c == DATA_UNDER_WIRE))
				continue;
			c = NTPROF_COMP_DATA_XFER;
		}
		if (!b->comp[c].n || !l->comp[c].n)
			continue;
		r = row_add(cg->comps, &cg->nr_comps, ntprof_comp_stage(c), c,
			    ntprof_comp_id(c),
			    ntprof_comp_name(c, b->transport, b->stacks),
			    ntprof_comp_name(c, l->transport, l->stacks));
		r->sub = c == NTPROF_COMP_DATA_XFER || c == NTPROF_COMP_HANDOFF;
		row_set(r, b->comp[c].mean, l->comp[c].mean);
	}
}

void cmp_rows_fill(struct cmp_group *cg, bool detail)
{
	const struct ntprof_group *b = cg->base, *l = cg->load;
	struct cmp_row *r;

	cg->nr_rows = 0;
	cg->nr_comps = 0;
	cg->common_ground = false;
	if (b->kind != l->kind)
		common_rows(cg);
	else
		stage_rows(cg);
	r = row_add(cg->rows, &cg->nr_rows, -1, -1, "end_to_end",
		    "end to end", "end to end");
	row_set(r, b->comp[NTPROF_COMP_E2E].mean, l->comp[NTPROF_COMP_E2E].mean);
	if (detail)
		comp_rows(cg);
}
