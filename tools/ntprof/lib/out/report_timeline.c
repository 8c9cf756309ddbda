// SPDX-License-Identifier: GPL-2.0
/*
 * ntprof report --timeline SECONDS: when it got slow. Per group, a line
 * per slice of SECONDS since the run's first command (its start time in
 * the first column): the commands' rate
 * (sampled ones times N, by their first point), their mean end to end and
 * each stage's mean. The commands are those of the group's tables
 * (report_rows.c); times are the side's own clock (the host's, or the
 * target's with targets alone). The control path's episodes mark the
 * slices they overlap (report_timeline_marks.c).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/recording.h"
#include "analysis/report_rows.h"
#include "out/json.h"
#include "out/report_timeline.h"
#include "out/report_timeline_marks.h"
#include "out/table.h"

/* A recording of a day in 1 s slices; more is a usage error. */
#define SLICES_MAX	100000

struct slice {
	uint64_t n;
	double e2e;
	double stage[NTPROF_STAGE_COUNT];
	uint64_t stage_n[NTPROF_STAGE_COUNT];
};

struct timeline_ctx {
	const struct ntprof_analysis *an;
	uint64_t t0, slice_ns;
	double span_s;		/* the first command to the last */
	size_t nr_slices;
	struct slice *s;	/* [group][slice] */
	struct tl_marks marks;	/* the control path's episodes */
};

static int timeline_add(const struct report_row *row, void *arg)
{
	struct timeline_ctx *c = arg;
	const struct ntprof_breakdown *bd = &row->bd;
	uint64_t t;
	struct slice *sl;
	size_t k;
	int s;

	if (!row->in_table || !(bd->has & (1U << NTPROF_COMP_E2E)))
		return 0;
	t = row->start_ns;
	if (t < c->t0)
		return 0;
	k = (size_t)((t - c->t0) / c->slice_ns);
	if (k >= c->nr_slices)
		k = c->nr_slices - 1;
	sl = &c->s[(size_t)(row->group - c->an->groups) * c->nr_slices + k];
	sl->n++;
	sl->e2e += (double)bd->comp[NTPROF_COMP_E2E];
	for (s = 0; s < NTPROF_STAGE_COUNT; s++) {
		if (!(bd->stage_has & (1U << s)))
			continue;
		sl->stage[s] += (double)bd->stage[s];
		sl->stage_n[s]++;
	}
	return 0;
}

/* The stages' short names, as the live table has them. */
static const char *const stage_short[NTPROF_STAGE_COUNT] = {
	[NTPROF_STAGE_HOST_BLK] = "h.block",
	[NTPROF_STAGE_HOST_DRV] = "h.driver",
	[NTPROF_STAGE_NETWORK] = "network",
	[NTPROF_STAGE_NET_TARGET] = "net+tgt",
	[NTPROF_STAGE_TGT_DRV] = "t.driver",
	[NTPROF_STAGE_STORAGE] = "storage",
	[NTPROF_STAGE_OUTAGE] = "outage",
};

static void timeline_print_group(FILE *f, const struct timeline_ctx *c,
				 size_t gi, double slice_s)
{
	const struct ntprof_group *g = &c->an->groups[gi];
	const struct slice *sl = &c->s[gi * c->nr_slices];
	/* Enough decimals that the slices' start times differ. */
	int prec = slice_s >= 1 ? 0 : slice_s >= 0.1 ? 1 : slice_s >= 0.01 ? 2 : 3;
	double len;
	size_t k;
	int s, stages = 0;

	fprintf(f, "\n== %s, every %g s\n  %8s %10s %10s", g->label, slice_s,
		"time", "cmds/s", "mean us");
	for (s = 0; s < NTPROF_STAGE_COUNT; s++)
		if (g->stage_has & (1U << s)) {
			fprintf(f, " %9s", stage_short[s]);
			stages++;
		}
	if (c->marks.n)
		fputs("  events (<< the controller's episode in the slice)", f);
	fputc('\n', f);
	for (k = 0; k < c->nr_slices; k++) {
		/* The last slice ends with the last command, and is short. */
		len = k + 1 < c->nr_slices ? slice_s :
		      c->span_s - (double)k * slice_s;
		if (len <= 0)
			len = slice_s;
		fprintf(f, "  %7.*fs %10.1f", prec, (double)k * slice_s,
			(double)sl[k].n * c->an->opts.sample / len);
		if (!sl[k].n) {
			fputs("          -", f);
			/* The marks in their column, after the stages'. */
			if (c->marks.n)
				fprintf(f, "%*s", 10 * stages, "");
			tl_marks_row(f, &c->marks, k);
			fputc('\n', f);
			continue;
		}
		fprintf(f, " %10.2f", sl[k].e2e / (double)sl[k].n / 1e3);
		for (s = 0; s < NTPROF_STAGE_COUNT; s++) {
			if (!(g->stage_has & (1U << s)))
				continue;
			if (sl[k].stage_n[s])
				fprintf(f, " %9.2f", sl[k].stage[s] /
					(double)sl[k].stage_n[s] / 1e3);
			else
				fprintf(f, " %9s", "-");
		}
		tl_marks_row(f, &c->marks, k);
		fputc('\n', f);
	}
	tl_marks_lines(f, &c->marks);
}

/* The slices of every group in @c->s; 0, -EINVAL, -E2BIG or -ENOMEM. */
static int timeline_compute(const struct recording_run *run, double slice_s,
			    struct timeline_ctx *c)
{
	const struct ntprof_analysis *an = run->an;
	int side = an->nr_host ? 0 : 1;
	double slices;
	int err;

	*c = (struct timeline_ctx){ .an = an };
	if (!an->nr_groups || an->last_ns[side] <= an->first_ns[side])
		return 0;
	c->t0 = an->first_ns[side];
	c->slice_ns = (uint64_t)(slice_s * 1e9);
	if (!c->slice_ns)
		return -EINVAL;
	c->span_s = (double)(an->last_ns[side] - c->t0) / 1e9;
	slices = ceil((double)(an->last_ns[side] - c->t0) /
		      (double)c->slice_ns);
	if (slices > SLICES_MAX)
		return -E2BIG;
	c->nr_slices = slices < 1 ? 1 : (size_t)slices;
	c->s = calloc(an->nr_groups * c->nr_slices, sizeof(*c->s));
	if (!c->s)
		return -ENOMEM;
	/* The events of the side whose clock the timeline is on. */
	err = tl_marks_make(run, side ? NTPROF_ROLE_TARGET : NTPROF_ROLE_HOST,
			    c->t0, c->slice_ns, c->nr_slices, &c->marks);
	if (err)
		return err;
	return report_rows_each(run, timeline_add, c);
}

int report_timeline_print(FILE *f, const struct recording_run *run,
			  double slice_s)
{
	struct timeline_ctx c;
	size_t i;
	int err;

	err = timeline_compute(run, slice_s, &c);
	for (i = 0; !err && c.s && i < run->an->nr_groups; i++)
		timeline_print_group(f, &c, i, slice_s);
	tl_marks_free(&c.marks);
	free(c.s);
	return err;
}

int report_timeline_json(struct ntprof_json *js,
			 const struct recording_run *run, double slice_s)
{
	const struct ntprof_group *g;
	const struct slice *sl;
	struct timeline_ctx c;
	double len;
	size_t i, k;
	int err, s;

	err = timeline_compute(run, slice_s, &c);
	ntprof_json_obj_start(js, "timeline");
	ntprof_json_num(js, "slice_s", slice_s, 3);
	ntprof_json_arr_start(js, "groups");
	for (i = 0; !err && c.s && i < run->an->nr_groups; i++) {
		g = &run->an->groups[i];
		ntprof_json_obj_start(js, NULL);
		ntprof_json_str(js, "label", g->label);
		ntprof_json_arr_start(js, "slices");
		for (k = 0; k < c.nr_slices; k++) {
			sl = &c.s[i * c.nr_slices + k];
			len = k + 1 < c.nr_slices ? slice_s :
			      c.span_s - (double)k * slice_s;
			if (len <= 0)
				len = slice_s;
			ntprof_json_obj_start(js, NULL);
			ntprof_json_num(js, "start_s", (double)k * slice_s, 3);
			ntprof_json_u64(js, "n", sl->n);
			ntprof_json_num(js, "commands_per_s", (double)sl->n *
					run->an->opts.sample / len, 1);
			ntprof_json_num(js, "mean_us", sl->n ?
					sl->e2e / (double)sl->n / 1e3 : NAN, 3);
			ntprof_json_obj_start(js, "stages_us");
			for (s = 0; s < NTPROF_STAGE_COUNT; s++)
				if (g->stage_has & (1U << s))
					ntprof_json_num(js, ntprof_stage_id(s),
							sl->stage_n[s] ?
							sl->stage[s] /
							(double)sl->stage_n[s] /
							1e3 : NAN, 3);
			ntprof_json_obj_end(js);
			ntprof_json_obj_end(js);
		}
		ntprof_json_arr_end(js);
		ntprof_json_obj_end(js);
	}
	ntprof_json_arr_end(js);
	tl_marks_json(js, &c.marks);
	ntprof_json_obj_end(js);
	tl_marks_free(&c.marks);
	free(c.s);
	return err;
}
