// SPDX-License-Identifier: GPL-2.0
/*
 * ntprof report --html FILE: the report as one self-contained page, its
 * charts inline SVG, nothing fetched from anywhere (no script, no font).
 * Per group: the stage bar, the --detail component table, a CDF of each
 * stage and of the end to end, the timeline of the mean and the tail
 * view; then the records line. The numbers are the text report's
 * (report_rows.c feeds the per-command charts).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/recording.h"
#include "analysis/report_rows.h"
#include "common/util.h"
#include "out/html.h"
#include "out/report_html.h"
#include "out/table.h"

#define PARTS		(NTPROF_STAGE_COUNT + 1)	/* and the end to end */
#define SLICES		40
#define CDF_POINTS	200

struct vec {
	int64_t *v;
	size_t n, cap;
};

/* A command's stages and end to end, ns; @has: bit s for part s. */
struct cmd {
	int64_t v[PARTS];
	uint32_t has;
};

struct html_group {
	struct cmd *cmd;
	size_t n, cap;
	uint64_t slice_n[SLICES];
	double slice_e2e[SLICES];
};

struct html_ctx {
	const struct ntprof_analysis *an;
	struct html_group *g;
	uint64_t t0, span_ns;
	int err;
};

static int vec_push(struct vec *v, int64_t x)
{
	int64_t *n;

	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 256;
		n = realloc(v->v, v->cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		v->v = n;
	}
	v->v[v->n++] = x;
	return 0;
}

static int html_add(const struct report_row *row, void *arg)
{
	struct html_ctx *c = arg;
	const struct ntprof_breakdown *bd = &row->bd;
	struct html_group *g;
	uint64_t t;
	size_t k;
	int s;

	if (!row->in_table || !(bd->has & (1U << NTPROF_COMP_E2E)))
		return 0;
	g = &c->g[row->group - c->an->groups];
	if (g->n == g->cap) {
		struct cmd *n;

		g->cap = g->cap ? 2 * g->cap : 256;
		n = realloc(g->cmd, g->cap * sizeof(*n));
		if (!n)
			goto nomem;
		g->cmd = n;
	}
	g->cmd[g->n] = (struct cmd){ .has = 1U << NTPROF_STAGE_COUNT };
	for (s = 0; s < NTPROF_STAGE_COUNT; s++) {
		if (!(bd->stage_has & (1U << s)))
			continue;
		g->cmd[g->n].v[s] = bd->stage[s];
		g->cmd[g->n].has |= 1U << s;
	}
	g->cmd[g->n++].v[NTPROF_STAGE_COUNT] = bd->comp[NTPROF_COMP_E2E];
	t = row->start_ns;
	if (c->span_ns && t >= c->t0) {
		k = (size_t)((t - c->t0) * SLICES / (c->span_ns + 1));
		if (k >= SLICES)
			k = SLICES - 1;
		g->slice_n[k]++;
		g->slice_e2e[k] += (double)bd->comp[NTPROF_COMP_E2E];
	}
	return 0;
nomem:
	c->err = -ENOMEM;
	return 1;
}

static const char *part_name(const struct ntprof_group *g, int s)
{
	return s < NTPROF_STAGE_COUNT ?
	       ntprof_stage_name(s, g->transport, g->kind, g->stacks) :
	       "end to end";
}

/* The stages' means as one bar, a segment and a legend entry each. */
static void html_bar(FILE *f, const struct ntprof_group *g)
{
	double e2e = g->comp[NTPROF_COMP_E2E].mean, x = 0, w;
	int s, y = 0;

	fputs("<svg class=\"stagebar\" width=\"720\" height=\"170\" role=\"img\">\n", f);
	for (s = 0; s < NTPROF_STAGE_COUNT; s++) {
		if (!(g->stage_has & (1U << s)) || !(e2e > 0))
			continue;
		w = g->stage_mean[s] > 0 ? 700 * g->stage_mean[s] / e2e : 0;
		fprintf(f, "<rect class=\"stage\" x=\"%.1f\" y=\"0\" width=\"%.1f\" height=\"30\" fill=\"%s\"><title>",
			10 + x, w, html_colour(s));
		html_escape(f, part_name(g, s));
		fprintf(f, ": %.2f us</title></rect>\n", g->stage_mean[s] / 1e3);
		x += w;
		fprintf(f, "<rect x=\"10\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
			"<text class=\"stage-label\" x=\"28\" y=\"%d\">", 44 + y,
			html_colour(s), 54 + y);
		html_escape(f, part_name(g, s));
		fprintf(f, "</text><text x=\"420\" y=\"%d\">%.2f us, %.0f %%</text>\n",
			54 + y, g->stage_mean[s] / 1e3, g->stage_share[s]);
		y += 20;
	}
	fputs("</svg>\n", f);
}

static void html_components(FILE *f, const struct ntprof_group *g)
{
	int c;

	fputs("<table class=\"components\"><tr><th>component</th><th>n</th><th>mean us</th><th>p50 us</th><th>p99 us</th></tr>\n", f);
	for (c = 0; c < NTPROF_COMP_COUNT; c++) {
		if (!g->comp[c].n)
			continue;
		fputs("<tr><td>", f);
		html_escape(f, ntprof_comp_name(c, g->stacks));
		fprintf(f, "</td><td>%" PRIu64 "</td><td>%.2f</td><td>%.2f</td><td>%.2f</td></tr>\n",
			g->comp[c].n, g->comp[c].mean / 1e3,
			g->comp[c].p50 / 1e3, g->comp[c].p99 / 1e3);
	}
	fputs("</table>\n", f);
}

/* Part @s of every command that has it, sorted; 0 or -ENOMEM. */
static int part_sorted(const struct html_group *hg, int s, struct vec *v)
{
	size_t i;

	for (i = 0; i < hg->n; i++)
		if ((hg->cmd[i].has & (1U << s)) && vec_push(v, hg->cmd[i].v[s]))
			return -ENOMEM;
	qsort(v->v, v->n, sizeof(*v->v), cmp_i64);
	return 0;
}

/* A CDF per stage and of the end to end, on a log scale of us. */
static int html_cdf(FILE *f, const struct ntprof_group *g,
		    const struct html_group *hg)
{
	struct vec part[PARTS] = { 0 };
	double lo = INFINITY, hi = 0, x, y, v;
	int s, err = 0;
	size_t i, k;

	for (s = 0; !err && s < PARTS; s++)
		err = part_sorted(hg, s, &part[s]);
	for (s = 0; !err && s < PARTS; s++) {
		for (i = 0; i < part[s].n; i++) {
			v = (double)part[s].v[i] / 1e3;
			if (v > 0 && v < lo)
				lo = v;
			if (v > hi)
				hi = v;
		}
	}
	if (err || !(hi > 0) || !isfinite(lo))
		goto out;
	if (hi <= lo)
		hi = lo * 2;
	fprintf(f, "<svg class=\"cdf\" width=\"720\" height=\"260\" role=\"img\">\n"
		"<text x=\"10\" y=\"14\">CDF of each stage and of the end to end (black), %.3g us to %.3g us, log scale</text>\n"
		"<rect x=\"40\" y=\"20\" width=\"660\" height=\"200\" fill=\"none\" stroke=\"#999\"/>\n",
		lo, hi);
	for (s = 0; s < PARTS; s++) {
		if (!part[s].n)
			continue;
		fprintf(f, "<polyline class=\"cdf-line\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"",
			html_colour(s));
		for (k = 0; k <= CDF_POINTS; k++) {
			i = (size_t)((double)k / CDF_POINTS *
				     (double)(part[s].n - 1));
			v = (double)part[s].v[i] / 1e3;
			if (v < lo)
				v = lo;
			x = 40 + 660 * log(v / lo) / log(hi / lo);
			y = 220 - 200 * (double)(i + 1) / (double)part[s].n;
			fprintf(f, "%.1f,%.1f ", x, y);
		}
		fputs("\"><title>", f);
		html_escape(f, part_name(g, s));
		fputs("</title></polyline>\n", f);
	}
	fputs("</svg>\n", f);
out:
	for (s = 0; s < PARTS; s++)
		free(part[s].v);
	return err;
}

/* The mean end to end per slice of the run. */
static void html_timeline(FILE *f, const struct html_ctx *c,
			  const struct html_group *hg)
{
	double max = 0, m;
	int k;

	for (k = 0; k < SLICES; k++)
		if (hg->slice_n[k] && hg->slice_e2e[k] / hg->slice_n[k] > max)
			max = hg->slice_e2e[k] / (double)hg->slice_n[k];
	if (!(max > 0))
		return;
	fprintf(f, "<svg class=\"timeline\" width=\"720\" height=\"160\" role=\"img\">\n"
		"<text x=\"10\" y=\"14\">mean end to end over %.2f s (max %.2f us)</text>\n"
		"<polyline fill=\"none\" stroke=\"#4e79a7\" stroke-width=\"2\" points=\"",
		(double)c->span_ns / 1e9, max / 1e3);
	for (k = 0; k < SLICES; k++) {
		if (!hg->slice_n[k])
			continue;
		m = hg->slice_e2e[k] / (double)hg->slice_n[k];
		fprintf(f, "%.1f,%.1f ", 40 + 660.0 * k / (SLICES - 1),
			150 - 120 * m / max);
	}
	fputs("\"/></svg>\n", f);
}

/* The tail: above p99 against the rest, each stage's two means. */
static int html_tail(FILE *f, const struct ntprof_group *g,
		     const struct html_group *hg)
{
	double sum[2][PARTS] = { { 0 } }, n[2] = { 0 };
	struct vec e2e = { 0 };
	int64_t thr;
	size_t i;
	int s, t;

	if (hg->n < 2)
		return 0;
	if (part_sorted(hg, NTPROF_STAGE_COUNT, &e2e))
		return -ENOMEM;
	thr = report_tail_threshold(e2e.v, e2e.n, 99);
	free(e2e.v);
	for (i = 0; i < hg->n; i++) {
		t = hg->cmd[i].v[NTPROF_STAGE_COUNT] > thr;
		n[t]++;
		for (s = 0; s < PARTS; s++)
			sum[t][s] += (double)hg->cmd[i].v[s];
	}
	if (!n[0] || !n[1])
		return 0;
	fprintf(f, "<table class=\"tail\"><caption>the %.0f commands above p99 (%.2f us) against the other %.0f</caption>\n"
		"<tr><th>stage</th><th>rest us</th><th>tail us</th><th>growth us</th></tr>\n",
		n[1], (double)thr / 1e3, n[0]);
	for (s = 0; s < PARTS; s++) {
		if (s < NTPROF_STAGE_COUNT && !(g->stage_has & (1U << s)))
			continue;
		fputs("<tr><td>", f);
		html_escape(f, part_name(g, s));
		fprintf(f, "</td><td>%.2f</td><td>%.2f</td><td>%+.2f</td></tr>\n",
			sum[0][s] / n[0] / 1e3, sum[1][s] / n[1] / 1e3,
			(sum[1][s] / n[1] - sum[0][s] / n[0]) / 1e3);
	}
	fputs("</table>\n", f);
	return 0;
}

static int html_group(FILE *f, const struct html_ctx *c, size_t i)
{
	const struct ntprof_group *g = &c->an->groups[i];
	struct html_group *hg = &c->g[i];
	int err;

	fputs("<section class=\"group\"><h2>", f);
	html_escape(f, g->label);
	fprintf(f, "</h2>\n<p>%" PRIu64 " commands sampled; latency mean %.2f us, p50 %.2f us, p99 %.2f us</p>\n",
		g->n, g->comp[NTPROF_COMP_E2E].mean / 1e3,
		g->comp[NTPROF_COMP_E2E].p50 / 1e3,
		g->comp[NTPROF_COMP_E2E].p99 / 1e3);
	html_bar(f, g);
	html_components(f, g);
	err = html_cdf(f, g, hg);
	html_timeline(f, c, hg);
	if (!err)
		err = html_tail(f, g, hg);
	fputs("</section>\n", f);
	return err;
}

int report_html_write(FILE *f, const struct recording_run *run)
{
	const struct ntprof_analysis *an = run->an;
	int side = an->nr_host ? 0 : 1;
	struct html_ctx c = { .an = an };
	size_t i;

	c.g = calloc(an->nr_groups ? an->nr_groups : 1, sizeof(*c.g));
	if (!c.g)
		return -ENOMEM;
	if (an->last_ns[side] > an->first_ns[side]) {
		c.t0 = an->first_ns[side];
		c.span_ns = an->last_ns[side] - c.t0;
	}
	report_rows_each(run, html_add, &c);
	html_begin(f, "ntprof report");
	fprintf(f, "<p>%zu recording%s, one command in %u sampled</p>\n",
		run->nr_files, run->nr_files == 1 ? "" : "s", run->sample);
	for (i = 0; !c.err && i < an->nr_groups; i++)
		c.err = html_group(f, &c, i);
	fprintf(f, "<p class=\"records\">records: %" PRIu64 " host, %" PRIu64 " target; %" PRIu64 " matched</p>\n",
		run->nr_host, run->nr_target, run->matched);
	html_end(f);
	for (i = 0; i < an->nr_groups; i++)
		free(c.g[i].cmd);
	free(c.g);
	if (c.err)
		return c.err;
	fflush(f);
	return ferror(f) ? -EIO : 0;
}
