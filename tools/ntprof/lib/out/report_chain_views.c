// SPDX-License-Identifier: GPL-2.0
/*
 * Views of a run's chains made of each origin command: --tail (which hop
 * and stage grow in the slow commands, and which legs were critical for
 * them) and --csv's chain columns (each hop's stages along the critical
 * path, the critical leg, each leg's end to end).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/chain.h"
#include "analysis/recording.h"
#include "analysis/report_rows.h"
#include "common/util.h"
#include "out/report_chain.h"
#include "out/report_csv.h"

/* The stages of a hop, in path order, as report_chain.c shows them. */
static const int stage_order[] = {
	NTPROF_STAGE_HOST_BLK, NTPROF_STAGE_HOST_DRV, NTPROF_STAGE_NETWORK,
	NTPROF_STAGE_TGT_DRV, NTPROF_CHAIN_STAGE_MIDDLE, NTPROF_STAGE_STORAGE,
	NTPROF_STAGE_NET_TARGET,
};

static const char *stage_id(int s)
{
	return s == NTPROF_CHAIN_STAGE_MIDDLE ? "middle" : ntprof_stage_id(s);
}

/* Per chain group: the tail's and the others' sums. */
struct tail_acc {
	double thr;
	uint64_t n[2];			/* [0] others, [1] tail */
	double sum[2][NTPROF_CHAIN_MAX_HOPS][NTPROF_CHAIN_STAGES];
	uint64_t critical[2][NTPROF_CHAIN_MAX_LEGS];
};

struct tail_walk {
	const struct recording_run *run;
	struct tail_acc *acc;
};

static int tail_cmd(const struct ntprof_chain_cmd *c, void *arg)
{
	struct tail_walk *tw = arg;
	const struct ntprof_chain_stats *cs = tw->run->chain->stats;
	struct ntprof_chain_group *cg;
	struct tail_acc *a;
	size_t i, k;
	int side, leg;

	if (!c->followed)
		return 0;
	cg = ntprof_chain_group_find(tw->run, c);
	if (!cg)
		return 0;
	a = &tw->acc[cg - cs->g];
	side = (double)c->e2e_ns > a->thr;
	a->n[side]++;
	for (i = 0; i < c->nr_stages; i++)
		a->sum[side][c->stages[i].hop - 1][c->stages[i].stage] +=
			(double)c->stages[i].ns;
	for (i = 1; i < c->nr; i++) {
		if (!c->node[i].critical || c->node[i].parent)
			continue;
		leg = ntprof_chain_leg_of(tw->run, &c->node[i]);
		for (k = 0; k < cg->nr_legs; k++)
			if (cg->legs[k].leg == leg)
				a->critical[side][k]++;
	}
	return 0;
}

static void tail_group(FILE *f, const struct recording_run *run,
		       const struct ntprof_chain_group *cg,
		       const struct tail_acc *a, double p)
{
	double mt, mo, grow, best = -INFINITY;
	int h, s, bh = -1, bs = -1;
	size_t k;

	fprintf(f, "\n== tail of %s through the chain: ", cg->group->label);
	report_tail_caption(f, a->n[1], p, a->thr, a->n[0], "us");
	fputc('\n', f);
	if (!a->n[1] || !a->n[0]) {
		fputs("  (no tail: the commands' latencies are all alike)\n", f);
		return;
	}
	fprintf(f, "  %-4s%-40s%10s%10s%10s\n", "hop", "stage", "tail us",
		"others us", "grows us");
	for (h = 0; h < cg->hops; h++) {
		for (k = 0; k < ARRAY_SIZE(stage_order); k++) {
			s = stage_order[k];
			if (!(cg->hop[h].stage_has & (1U << s)))
				continue;
			mt = a->sum[1][h][s] / (double)a->n[1];
			mo = a->sum[0][h][s] / (double)a->n[0];
			grow = mt - mo;
			if (grow > best) {
				best = grow;
				bh = h;
				bs = s;
			}
			fprintf(f, "  %-4d%-40s%10.2f%10.2f%+10.2f\n", h + 1,
				s == NTPROF_CHAIN_STAGE_MIDDLE ?
				(cg->middle[h][0] ? cg->middle[h] : "middle") :
				ntprof_stage_name(s, cg->hop[h].transport,
						  NTPROF_KIND_JOINED, 0),
				mt / 1e3, mo / 1e3, grow / 1e3);
		}
	}
	if (bh >= 0)
		fprintf(f, "  grows the most: hop %d (%s -> %s), %s, by %.2f us\n",
			bh + 1, cg->hop[bh].host,
			cg->hop[bh].target ? cg->hop[bh].target : "-",
			bs == NTPROF_CHAIN_STAGE_MIDDLE ? "the middle" :
			ntprof_stage_name(bs, cg->hop[bh].transport,
					  NTPROF_KIND_JOINED, 0), best / 1e3);
	for (k = 0; k < cg->nr_legs; k++) {
		if (cg->legs[k].hop != 2)
			continue;
		fprintf(f, "  critical leg %s: %" PRIu64 " of the tail's %" PRIu64 " (%.0f %%), %" PRIu64 " of the others' %" PRIu64 " (%.0f %%)\n",
			run->chain->legs[cg->legs[k].leg].label,
			a->critical[1][k], a->n[1],
			100.0 * (double)a->critical[1][k] / (double)a->n[1],
			a->critical[0][k], a->n[0],
			100.0 * (double)a->critical[0][k] / (double)a->n[0]);
	}
}

/*
 * Each chained group's tail and others, in *@accp (free it); 0, 1 for a
 * run without chains, or -errno.
 */
static int tail_make(const struct recording_run *run, double p,
		     struct tail_acc **accp)
{
	struct ntprof_chain_stats *cs;
	struct tail_walk tw = { run, NULL };
	size_t i;
	int err;

	if (!ntprof_chain_present(run) || !run->chain->stats ||
	    !run->chain->stats->nr)
		return 1;
	cs = run->chain->stats;
	tw.acc = calloc(cs->nr, sizeof(*tw.acc));
	if (!tw.acc)
		return -ENOMEM;
	/* The same estimator as the tables' (report_tail_threshold()). */
	for (i = 0; i < cs->nr; i++)
		tw.acc[i].thr = report_tail_threshold(&cs->g[i].e2e, p);
	err = ntprof_chain_each(run, tail_cmd, &tw);
	if (err) {
		free(tw.acc);
		return err;
	}
	*accp = tw.acc;
	return 0;
}

int report_chain_tail_print(FILE *f, const struct recording_run *run,
			    double p)
{
	const struct ntprof_chain_stats *cs;
	struct tail_acc *acc;
	size_t i;
	int err = tail_make(run, p, &acc);

	if (err)
		return err > 0 ? 0 : err;
	cs = run->chain->stats;
	for (i = 0; i < cs->nr; i++)
		if (cs->g[i].followed)
			tail_group(f, run, &cs->g[i], &acc[i], p);
	free(acc);
	return 0;
}

static void tail_group_json(struct ntprof_json *js,
			    const struct recording_run *run,
			    const struct ntprof_chain_group *cg,
			    const struct tail_acc *a)
{
	double mt, mo, best = -INFINITY;
	int h, s, bh = -1, bs = -1;
	bool both = a->n[0] && a->n[1];
	size_t k;

	ntprof_json_obj_start(js, NULL);
	ntprof_json_str(js, "label", cg->group->label);
	ntprof_json_str(js, "critical_leg", cg->leg >= 0 ?
			run->chain->legs[cg->leg].label : NULL);
	ntprof_json_num(js, "threshold_us", a->thr / 1e3, 3);
	ntprof_json_u64(js, "n_tail", a->n[1]);
	ntprof_json_u64(js, "n_rest", a->n[0]);
	ntprof_json_arr_start(js, "stages");
	for (h = 0; h < cg->hops; h++) {
		for (k = 0; k < ARRAY_SIZE(stage_order); k++) {
			s = stage_order[k];
			if (!(cg->hop[h].stage_has & (1U << s)))
				continue;
			mt = a->n[1] ? a->sum[1][h][s] / (double)a->n[1] : NAN;
			mo = a->n[0] ? a->sum[0][h][s] / (double)a->n[0] : NAN;
			if (both && mt - mo > best) {
				best = mt - mo;
				bh = h;
				bs = s;
			}
			ntprof_json_obj_start(js, NULL);
			ntprof_json_u64(js, "hop", (uint64_t)h + 1);
			ntprof_json_str(js, "id", stage_id(s));
			ntprof_json_num(js, "tail_us", mt / 1e3, 3);
			ntprof_json_num(js, "rest_us", mo / 1e3, 3);
			ntprof_json_num(js, "growth_us", (mt - mo) / 1e3, 3);
			ntprof_json_obj_end(js);
		}
	}
	ntprof_json_arr_end(js);
	if (bh < 0) {
		ntprof_json_str(js, "largest", NULL);
	} else {
		ntprof_json_obj_start(js, "largest");
		ntprof_json_u64(js, "hop", (uint64_t)bh + 1);
		ntprof_json_str(js, "id", stage_id(bs));
		ntprof_json_num(js, "growth_us", best / 1e3, 3);
		ntprof_json_obj_end(js);
	}
	ntprof_json_arr_start(js, "legs");
	for (k = 0; k < cg->nr_legs; k++) {
		if (cg->legs[k].hop != 2)
			continue;
		ntprof_json_obj_start(js, NULL);
		ntprof_json_str(js, "label",
				run->chain->legs[cg->legs[k].leg].label);
		ntprof_json_u64(js, "critical_tail", a->critical[1][k]);
		ntprof_json_u64(js, "critical_rest", a->critical[0][k]);
		ntprof_json_obj_end(js);
	}
	ntprof_json_arr_end(js);
	ntprof_json_obj_end(js);
}

int report_chain_tail_json(struct ntprof_json *js,
			   const struct recording_run *run, double p)
{
	const struct ntprof_chain_stats *cs;
	struct tail_acc *acc;
	size_t i;
	int err = tail_make(run, p, &acc);

	if (err)
		return err > 0 ? 0 : err;
	cs = run->chain->stats;
	ntprof_json_obj_start(js, "chain_tail");
	ntprof_json_num(js, "percentile", p, 6);
	ntprof_json_arr_start(js, "groups");
	for (i = 0; i < cs->nr; i++)
		if (cs->g[i].followed)
			tail_group_json(js, run, &cs->g[i], &acc[i]);
	ntprof_json_arr_end(js);
	ntprof_json_obj_end(js);
	free(acc);
	return 0;
}

/* The most hops of any group: the CSV's hop columns. */
static int csv_hops(const struct recording_run *run)
{
	const struct ntprof_chain_stats *cs = run->chain->stats;
	int hops = 2;
	size_t i;

	for (i = 0; cs && i < cs->nr; i++)
		if (cs->g[i].hops > hops)
			hops = cs->g[i].hops;
	return hops;
}

void report_chain_csv_header(FILE *f, const struct recording_run *run)
{
	int h, hops = csv_hops(run);
	size_t k;

	if (!ntprof_chain_present(run))
		return;
	fputs(",chain_followed,chain_hops,critical_leg", f);
	for (h = 1; h <= hops; h++)
		for (k = 0; k < ARRAY_SIZE(stage_order); k++)
			fprintf(f, ",hop%d_%s_ns", h, stage_id(stage_order[k]));
	fputs(",legs", f);
}


/* "r nullb0=72500;r nullb1=102500": each leg's end to end, ns. */
static void csv_legs(FILE *f, const struct recording_run *run,
		     const struct ntprof_chain_cmd *c)
{
	struct ntprof_breakdown bd;
	const struct ntprof_chain_node *n;
	char buf[2048];
	size_t i, len = 0;
	int leg;

	buf[0] = '\0';
	for (i = 1; i < c->nr && len < sizeof(buf) - 200; i++) {
		n = &c->node[i];
		leg = ntprof_chain_leg_of(run, n);
		if (leg < 0 || ntprof_breakdown(&run->files[n->host.file]
							 .recs[n->host.idx],
						NULL, &bd))
			continue;
		len += (size_t)snprintf(buf + len, sizeof(buf) - len,
					"%s%s=%" PRId64, len ? ";" : "",
					run->chain->legs[leg].label,
					bd.comp[NTPROF_COMP_E2E]);
	}
	report_csv_quoted(f, buf);
}

void report_chain_csv_row(FILE *f, const struct recording_run *run,
			  const struct ntprof_record *host)
{
	struct ntprof_chain_cmd *c = NULL;
	int64_t v[NTPROF_CHAIN_MAX_HOPS][NTPROF_CHAIN_STAGES];
	uint32_t has[NTPROF_CHAIN_MAX_HOPS] = { 0 };
	int h, hops = csv_hops(run), leg = -1;
	const struct recording *rec;
	size_t i, k;

	if (!ntprof_chain_present(run))
		return;
	for (i = 0; host && i < run->nr_files; i++) {
		rec = &run->files[i];
		if (host >= rec->recs && host < rec->recs + rec->n) {
			c = malloc(sizeof(*c));
			if (c && ntprof_chain_cmd_get(run, (uint32_t)i,
						      (uint32_t)(host - rec->recs),
						      c)) {
				free(c);
				c = NULL;
			}
			break;
		}
	}
	if (!c) {
		fprintf(f, ",,,");
		for (h = 0; h < hops; h++)
			for (k = 0; k < ARRAY_SIZE(stage_order); k++)
				fputc(',', f);
		fputs(",", f);
		return;
	}
	for (i = 0; i < c->nr_stages; i++) {
		h = c->stages[i].hop - 1;
		v[h][c->stages[i].stage] = c->stages[i].ns;
		has[h] |= 1U << c->stages[i].stage;
	}
	for (i = 1; i < c->nr; i++)
		if (c->node[i].critical && !c->node[i].parent)
			leg = ntprof_chain_leg_of(run, &c->node[i]);
	fprintf(f, ",%d,%u,", c->followed, c->hops);
	if (leg >= 0)
		report_csv_quoted(f, run->chain->legs[leg].label);
	for (h = 0; h < hops; h++)
		for (k = 0; k < ARRAY_SIZE(stage_order); k++) {
			if (h < NTPROF_CHAIN_MAX_HOPS &&
			    (has[h] & (1U << stage_order[k])))
				fprintf(f, ",%" PRId64, v[h][stage_order[k]]);
			else
				fputc(',', f);
		}
	fputc(',', f);
	csv_legs(f, run, c);
	free(c);
}
