// SPDX-License-Identifier: GPL-2.0
/*
 * report --timeline on chains (Documentation/report.rst, "Chains"): when
 * a hop, a middle or a leg became the slow one. Per chained group, a
 * line per slice of SECONDS since the run's first command, as the
 * groups' timeline has them (report_timeline.c): the origin commands'
 * rate, the mean end to end of those followed to a leaf, each hop's
 * share of it (its stages along the critical path but the middle's) and
 * each middle's, which add up to 100 %, and per leg how many of the
 * slice's commands it was critical for. A command is in the slice of
 * its origin host record's first point, on that host's clock.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/chain.h"
#include "analysis/recording.h"
#include "out/json.h"
#include "out/report_chain_timeline.h"

/* As report_timeline.c: a day in 1 s slices. */
#define SLICES_MAX	100000

struct cslice {
	uint64_t n;		/* the group's origin commands */
	uint64_t followed;	/* of those, followed to a leaf */
	double e2e;		/* ns, of the followed */
	double hop[NTPROF_CHAIN_MAX_HOPS];	/* its stages but the middle */
	double mid[NTPROF_CHAIN_MAX_HOPS];	/* the middle at its end */
	uint64_t crit[NTPROF_CHAIN_MAX_LEGS];	/* as cg->legs */
};

struct ctl {
	const struct recording_run *run;
	uint64_t t0, slice_ns;
	double span_s;
	size_t nr_slices;
	struct cslice *s;	/* [chain group][slice] */
};

static uint64_t first_point(const struct ntprof_record *r)
{
	uint64_t t = 0;
	int p;

	for (p = 0; p < NTPROF_RECORD_POINTS; p++)
		if (r->ts[p] && (!t || r->ts[p] < t))
			t = r->ts[p];
	return t;
}

static int ctl_cmd(const struct ntprof_chain_cmd *c, void *arg)
{
	struct ctl *x = arg;
	const struct recording_run *run = x->run;
	const struct ntprof_chain_node *n0 = &c->node[0];
	struct ntprof_chain_group *cg;
	struct cslice *sl;
	uint64_t t;
	size_t i, k, l;
	int leg;

	cg = ntprof_chain_group_find(run, c);
	if (!cg)
		return 0;
	t = first_point(&run->files[n0->host.file].recs[n0->host.idx]);
	if (t < x->t0)
		return 0;
	k = (size_t)((t - x->t0) / x->slice_ns);
	if (k >= x->nr_slices)
		k = x->nr_slices - 1;
	sl = &x->s[(size_t)(cg - run->chain->stats->g) * x->nr_slices + k];
	sl->n++;
	for (i = 1; i < c->nr; i++) {
		if (!c->node[i].critical)
			continue;
		leg = ntprof_chain_leg_of(run, &c->node[i]);
		for (l = 0; l < cg->nr_legs; l++)
			if (cg->legs[l].leg == leg)
				sl->crit[l]++;
	}
	if (!c->followed)
		return 0;
	sl->followed++;
	sl->e2e += (double)c->e2e_ns;
	for (i = 0; i < c->nr_stages; i++) {
		if (c->stages[i].stage == NTPROF_CHAIN_STAGE_MIDDLE)
			sl->mid[c->stages[i].hop - 1] += (double)c->stages[i].ns;
		else
			sl->hop[c->stages[i].hop - 1] += (double)c->stages[i].ns;
	}
	return 0;
}

/* The slices of every chained group; x->s NULL: nothing to show. */
static int ctl_compute(const struct recording_run *run, double slice_s,
		       struct ctl *x)
{
	const struct ntprof_analysis *an = run->an;
	double slices;

	*x = (struct ctl){ .run = run };
	if (!ntprof_chain_present(run) || !run->chain->stats ||
	    !run->chain->stats->nr || !an->nr_host ||
	    an->last_ns[0] <= an->first_ns[0])
		return 0;
	x->t0 = an->first_ns[0];
	x->slice_ns = (uint64_t)(slice_s * 1e9);
	if (!x->slice_ns)
		return -EINVAL;
	x->span_s = (double)(an->last_ns[0] - x->t0) / 1e9;
	slices = ceil((double)(an->last_ns[0] - x->t0) / (double)x->slice_ns);
	if (slices > SLICES_MAX)
		return -E2BIG;
	x->nr_slices = slices < 1 ? 1 : (size_t)slices;
	x->s = calloc(run->chain->stats->nr * x->nr_slices, sizeof(*x->s));
	if (!x->s)
		return -ENOMEM;
	return ntprof_chain_each(run, ctl_cmd, x);
}

/* Slice @k's length: the last ends with the last command. */
static double slice_len(const struct ctl *x, size_t k, double slice_s)
{
	double len = k + 1 < x->nr_slices ? slice_s :
		     x->span_s - (double)k * slice_s;

	return len > 0 ? len : slice_s;
}

static const char *mid_name(const struct ntprof_chain_group *cg, int h)
{
	return cg->middle[h][0] ? cg->middle[h] : "middle";
}

/* Whether hop @h (0-based) of @cg ends at a middle: one more hop. */
static bool has_mid(const struct ntprof_chain_group *cg, int h)
{
	return h + 1 < cg->hops;
}

static int col_width(const char *head)
{
	int w = (int)strlen(head) + 2;

	return w < 8 ? 8 : w;
}

static void print_group(FILE *f, const struct recording_run *run,
			const struct ntprof_chain_group *cg,
			const struct cslice *s, const struct ctl *x,
			double slice_s)
{
	int prec = slice_s >= 1 ? 0 : slice_s >= 0.1 ? 1 : slice_s >= 0.01 ? 2 : 3;
	const char *label;
	char head[16];
	size_t k, l;
	int h;

	fprintf(f, "\n== %s", cg->group->label);
	if (cg->leg >= 0)
		fprintf(f, ", critical leg %s", run->chain->legs[cg->leg].label);
	fprintf(f, " through the chain, every %g s: each hop's and middle's share of the end to end, the commands each leg was critical for\n  %8s %10s %10s",
		slice_s, "time", "cmds/s", "mean us");
	for (h = 0; h < cg->hops; h++) {
		snprintf(head, sizeof(head), "hop %d", h + 1);
		fprintf(f, "%*s", col_width(head), head);
		if (has_mid(cg, h))
			fprintf(f, "%*s", col_width(mid_name(cg, h)),
				mid_name(cg, h));
	}
	for (l = 0; l < cg->nr_legs; l++) {
		label = run->chain->legs[cg->legs[l].leg].label;
		fprintf(f, "%*s", col_width(label), label);
	}
	fputc('\n', f);
	for (k = 0; k < x->nr_slices; k++, s++) {
		fprintf(f, "  %7.*fs %10.1f", prec, (double)k * slice_s,
			(double)s->n * run->an->opts.sample /
			slice_len(x, k, slice_s));
		if (s->followed)
			fprintf(f, " %10.2f", s->e2e / (double)s->followed / 1e3);
		else
			fprintf(f, " %10s", "-");
		for (h = 0; h < cg->hops; h++) {
			snprintf(head, sizeof(head), "hop %d", h + 1);
			if (s->followed)
				fprintf(f, "%*.0f%%", col_width(head) - 1,
					100 * s->hop[h] / s->e2e);
			else
				fprintf(f, "%*s", col_width(head), "-");
			if (!has_mid(cg, h))
				continue;
			if (s->followed)
				fprintf(f, "%*.0f%%",
					col_width(mid_name(cg, h)) - 1,
					100 * s->mid[h] / s->e2e);
			else
				fprintf(f, "%*s", col_width(mid_name(cg, h)),
					"-");
		}
		for (l = 0; l < cg->nr_legs; l++)
			fprintf(f, "%*" PRIu64,
				col_width(run->chain->legs[cg->legs[l].leg].label),
				s->crit[l]);
		fputc('\n', f);
	}
}

int report_chain_timeline_print(FILE *f, const struct recording_run *run,
				double slice_s)
{
	const struct ntprof_chain_stats *cs;
	struct ctl x;
	size_t i;
	int err = ctl_compute(run, slice_s, &x);

	cs = run->chain ? run->chain->stats : NULL;
	for (i = 0; !err && x.s && i < cs->nr; i++)
		print_group(f, run, &cs->g[i], &x.s[i * x.nr_slices], &x,
			    slice_s);
	free(x.s);
	return err;
}

static void json_slice(struct ntprof_json *js, const struct recording_run *run,
		       const struct ntprof_chain_group *cg,
		       const struct cslice *s, double start, double len)
{
	double e2e = s->followed ? s->e2e : NAN;
	double nf = s->followed ? (double)s->followed : NAN;
	size_t l;
	int h;

	ntprof_json_obj_start(js, NULL);
	ntprof_json_num(js, "start_s", start, 3);
	ntprof_json_u64(js, "n", s->n);
	ntprof_json_u64(js, "n_followed", s->followed);
	ntprof_json_num(js, "commands_per_s",
			(double)s->n * run->an->opts.sample / len, 1);
	ntprof_json_num(js, "mean_us", e2e / nf / 1e3, 3);
	ntprof_json_arr_start(js, "hops");
	for (h = 0; h < cg->hops; h++) {
		ntprof_json_obj_start(js, NULL);
		ntprof_json_u64(js, "hop", (uint64_t)h + 1);
		ntprof_json_num(js, "mean_us", s->hop[h] / nf / 1e3, 3);
		ntprof_json_num(js, "share_pct", 100 * s->hop[h] / e2e, 2);
		ntprof_json_num(js, "middle_us", has_mid(cg, h) ?
				s->mid[h] / nf / 1e3 : NAN, 3);
		ntprof_json_num(js, "middle_share_pct", has_mid(cg, h) ?
				100 * s->mid[h] / e2e : NAN, 2);
		ntprof_json_obj_end(js);
	}
	ntprof_json_arr_end(js);
	ntprof_json_arr_start(js, "legs");
	for (l = 0; l < cg->nr_legs; l++) {
		ntprof_json_obj_start(js, NULL);
		ntprof_json_str(js, "label",
				run->chain->legs[cg->legs[l].leg].label);
		ntprof_json_u64(js, "critical", s->crit[l]);
		ntprof_json_obj_end(js);
	}
	ntprof_json_arr_end(js);
	ntprof_json_obj_end(js);
}

int report_chain_timeline_json(struct ntprof_json *js,
			       const struct recording_run *run,
			       double slice_s)
{
	const struct ntprof_chain_stats *cs;
	const struct ntprof_chain_group *cg;
	struct ctl x;
	size_t i, k;
	int err = ctl_compute(run, slice_s, &x);

	if (err || !x.s) {
		free(x.s);
		return err;
	}
	cs = run->chain->stats;
	ntprof_json_obj_start(js, "chain_timeline");
	ntprof_json_num(js, "slice_s", slice_s, 3);
	ntprof_json_arr_start(js, "groups");
	for (i = 0; i < cs->nr; i++) {
		cg = &cs->g[i];
		ntprof_json_obj_start(js, NULL);
		ntprof_json_str(js, "label", cg->group->label);
		ntprof_json_arr_start(js, "slices");
		for (k = 0; k < x.nr_slices; k++)
			json_slice(js, run, cg, &x.s[i * x.nr_slices + k],
				   (double)k * slice_s,
				   slice_len(&x, k, slice_s));
		ntprof_json_arr_end(js);
		ntprof_json_obj_end(js);
	}
	ntprof_json_arr_end(js);
	ntprof_json_obj_end(js);
	free(x.s);
	return 0;
}
