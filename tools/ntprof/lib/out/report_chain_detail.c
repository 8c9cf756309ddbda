// SPDX-License-Identifier: GPL-2.0
/*
 * report --detail on chains (Documentation/report.rst, "Chains"): after
 * a chained group's hops and legs tables, the components of each hop
 * along the critical path, in the order of the single hop's --detail
 * table (table.c) with the middle's two parts in place of a middle
 * target's storage, and the components of each leg. In JSON, each of
 * the hops' and legs' stages carries its components, shaped as a
 * group's components.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "analysis/chain_detail.h"
#include "analysis/recording.h"
#include "common/util.h"
#include "out/report_chain_detail.h"

/* Path order; @sub: a part of the row before it, not in a stage's sum. */
static const struct {
	int comp;
	bool sub;
} comp_order[] = {
	{ NTPROF_COMP_HOST_BLK_SUB, false },
	{ NTPROF_COMP_HOST_DRV_SUB, false },
	{ NTPROF_COMP_WIRE, false },
	{ NTPROF_COMP_DATA_XFER, true },	/* with a wire: under it */
	{ NTPROF_COMP_NET_TARGET, false },
	{ NTPROF_COMP_TGT_DRV_SUB, false },
	{ NTPROF_COMP_HOST_DATA, false },
	{ NTPROF_COMP_STORAGE_BLK, false },
	{ NTPROF_COMP_DRIVE, false },
	{ NTPROF_CHAIN_COMP_MIDDLE_SUB, false },
	{ NTPROF_CHAIN_COMP_MIDDLE_COMP, false },
	{ NTPROF_COMP_TGT_DRV_COMP, false },
	{ -NTPROF_COMP_DATA_XFER, true },	/* without: after the target */
	{ NTPROF_COMP_HOST_RECV, false },
	{ NTPROF_COMP_HOST_DRV_COMP, false },
	{ NTPROF_COMP_HANDOFF, true },
	{ NTPROF_COMP_HOST_BLK_COMP, false },
	{ NTPROF_COMP_E2E, false },
};

static const struct ntprof_chain_detail_group *
detail_of(const struct recording_run *run, const struct ntprof_chain_group *cg)
{
	const struct ntprof_chain *ch = run->chain;

	if (!ch || !ch->detail || !ch->stats)
		return NULL;
	return &ch->detail->g[cg - ch->stats->g];
}

/*
 * Component @k of path-order row @i in @cc, or -1: not there. The data
 * transfer sits under the wire when there is one, else after the target.
 */
static int row_comp(const struct ntprof_chain_comps *cc, size_t i)
{
	bool wire = cc->st[NTPROF_COMP_WIRE].n;
	int k = comp_order[i].comp;

	if (k == NTPROF_COMP_DATA_XFER && !wire)
		return -1;
	if (k == -NTPROF_COMP_DATA_XFER) {
		if (wire)
			return -1;
		k = NTPROF_COMP_DATA_XFER;
	}
	return cc->st[k].n ? k : -1;
}

/* Commands in a component by Little's law: its rate times its mean. */
static double comp_l(const struct ntprof_chain_group *cg,
		     const struct ntprof_stats *st)
{
	const struct ntprof_group *g = cg->group;

	if (!g->n || isnan(g->rate))
		return NAN;
	return g->rate * (double)st->n / (double)g->n * st->mean / 1e9;
}

/* "    name", then n ending at column 49, then the numbers. */
static void print_row(FILE *f, const char *lead, int indent, const char *name,
		      const struct ntprof_chain_group *cg,
		      const struct ntprof_stats *st)
{
	int used = (int)strlen(lead) + indent + (int)strlen(name);
	char n[24];
	int w;
	double l = comp_l(cg, st);

	snprintf(n, sizeof(n), "%" PRIu64, st->n);
	w = 49 - used;
	if (w < (int)strlen(n) + 1)
		w = (int)strlen(n) + 1;
	fprintf(f, "%s%*s%s%*s%10.2f", lead, indent, "", name, w, n,
		st->mean / 1e3);
	if (isnan(l))
		fprintf(f, "%8s", "-");
	else
		fprintf(f, "%8.2f", l);
	fprintf(f, "%10.2f%10.2f\n", st->p50 / 1e3, st->p99 / 1e3);
}

static void print_merged(FILE *f, const struct ntprof_chain_group *cg,
			 int hop, const struct ntprof_chain_comps *cc)
{
	char a[96], b[96];
	int k, m;

	for (k = 0; k < NTPROF_CHAIN_COMPS; k++) {
		if (!cc->merged_n[k])
			continue;
		for (m = 0; m < NTPROF_CHAIN_COMPS; m++)
			if (cc->merged[k] & (1U << m))
				fprintf(f, "    merged: %s includes %s in %" PRIu64 " commands: a point between them was not recorded\n",
					ntprof_chain_comp_name(cg, hop, k, a,
							       sizeof(a)),
					ntprof_chain_comp_name(cg, hop, m, b,
							       sizeof(b)),
					cc->merged_n[k]);
	}
}

void report_chain_detail_print(FILE *f, const struct recording_run *run,
			       const struct ntprof_chain_group *cg)
{
	const struct ntprof_chain_detail_group *dg = detail_of(run, cg);
	const struct ntprof_chain_comps *cc;
	const struct ntprof_chain_leg_stats *ls;
	char name[96], lead[8];
	size_t i, l;
	int h, k;
	bool first;

	if (!dg)
		return;
	if (cg->followed) {
		fputs("  components along the critical path (L: commands in each, by Little's law)\n",
		      f);
		fprintf(f, "  %-4s%-37s%6s%10s%8s%10s%10s   (us)\n", "hop",
			"component", "n", "mean", "L", "p50", "p99");
		for (h = 0; h < cg->hops; h++) {
			cc = &dg->hop[h];
			first = true;
			for (i = 0; i < ARRAY_SIZE(comp_order); i++) {
				k = row_comp(cc, i);
				if (k < 0)
					continue;
				snprintf(lead, sizeof(lead), "  %-4s", "");
				if (first)
					snprintf(lead, sizeof(lead), "  %-4d",
						 h + 1);
				print_row(f, lead, comp_order[i].sub ? 2 : 0,
					  ntprof_chain_comp_name(cg, h, k, name,
								 sizeof(name)),
					  cg, &cc->st[k]);
				first = false;
			}
			print_merged(f, cg, h, cc);
		}
	}
	for (l = 0; l < cg->nr_legs; l++) {
		ls = &cg->legs[l];
		cc = &dg->leg[l];
		if (!cc->has)
			continue;
		fprintf(f, "  components of leg %s (hop %u), over its %" PRIu64 " commands\n",
			run->chain->legs[ls->leg].label, ls->hop,
			cc->st[NTPROF_COMP_E2E].n);
		fprintf(f, "    %-39s%6s%10s%8s%10s%10s   (us)\n", "component",
			"n", "mean", "L", "p50", "p99");
		for (i = 0; i < ARRAY_SIZE(comp_order); i++) {
			k = row_comp(cc, i);
			if (k < 0)
				continue;
			print_row(f, "    ", comp_order[i].sub ? 2 : 0,
				  ntprof_comp_name(k, ls->transport, 0), cg,
				  &cc->st[k]);
		}
		print_merged(f, cg, -1, cc);
	}
}

/* The stage a row shows under in JSON: a sub-row under its row's. */
static int row_stage(const struct ntprof_chain_comps *cc, int k)
{
	if (k == NTPROF_COMP_DATA_XFER)
		return cc->st[NTPROF_COMP_WIRE].n ? NTPROF_STAGE_NETWORK :
						    NTPROF_STAGE_TGT_DRV;
	if (k == NTPROF_COMP_HANDOFF)
		return NTPROF_STAGE_HOST_DRV;
	return ntprof_chain_comp_stage(k);
}

void report_chain_detail_json(struct ntprof_json *js,
			      const struct recording_run *run,
			      const struct ntprof_chain_group *cg, int hop,
			      int leg, int stage)
{
	const struct ntprof_chain_detail_group *dg = detail_of(run, cg);
	const struct ntprof_chain_comps *cc;
	const struct ntprof_stats *st;
	char name[96];
	size_t i;
	int k, m;

	if (!dg)
		return;
	cc = leg < 0 ? &dg->hop[hop] : &dg->leg[leg];
	ntprof_json_arr_start(js, "components");
	for (i = 0; i < ARRAY_SIZE(comp_order); i++) {
		k = row_comp(cc, i);
		if (k < 0 || row_stage(cc, k) != stage)
			continue;
		st = &cc->st[k];
		ntprof_json_obj_start(js, NULL);
		ntprof_json_str(js, "id", ntprof_chain_comp_id(k));
		ntprof_json_str(js, "name", leg < 0 ?
				ntprof_chain_comp_name(cg, hop, k, name,
						       sizeof(name)) :
				ntprof_comp_name(k, cg->legs[leg].transport, 0));
		ntprof_json_u64(js, "n", st->n);
		ntprof_json_num(js, "mean_us", st->mean / 1e3, 3);
		ntprof_json_num(js, "L", comp_l(cg, st), 4);
		ntprof_json_num(js, "p50_us", st->p50 / 1e3, 3);
		ntprof_json_num(js, "p99_us", st->p99 / 1e3, 3);
		ntprof_json_num(js, "p999_us", st->p999 / 1e3, 3);
		ntprof_json_arr_start(js, "merged");
		for (m = 0; m < NTPROF_CHAIN_COMPS; m++)
			if (cc->merged[k] & (1U << m))
				ntprof_json_str(js, NULL,
						ntprof_chain_comp_id(m));
		ntprof_json_arr_end(js);
		ntprof_json_u64(js, "merged_n", cc->merged_n[k]);
		ntprof_json_obj_end(js);
	}
	ntprof_json_arr_end(js);
}
