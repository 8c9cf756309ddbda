// SPDX-License-Identifier: GPL-2.0
/*
 * ntprof report --html FILE: the report as one self-contained page, its
 * charts inline SVG, nothing fetched from anywhere (no script, no font).
 * The text report's lines and tables (report_html_text.c) first: where it
 * was recorded, the files, the throughput. Per group: its line, the stage
 * bar, the stage table with the average queue depths and the largest, the
 * --detail component table, for a chained group a bar per hop and its
 * legs side by side (report_html_chain.c), a CDF of each stage and of the
 * end to end, the timeline of the mean with the control path's episodes
 * shaded (report_html_events.c) and the tail view; then the events chart
 * and table, the records line and the notes. The numbers are the text
 * report's (report_rows.c feeds the per-command charts).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/recording.h"
#include "analysis/report_rows.h"
#include "common/util.h"
#include "out/html.h"
#include "out/report_charts.h"
#include "out/report_html.h"
#include "out/report_html_chain.h"
#include "out/report_html_events.h"
#include "out/report_html_text.h"

#define PARTS		CHART_PARTS
#define SLICES		40

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
	const struct recording_run *run;
	const struct ntprof_analysis *an;
	struct html_group *g;
	uint64_t t0, span_ns;
	struct chart_band *bands;	/* the control path's episodes */
	size_t nr_bands;
	int err;
};

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

/* Part @s of every command that has it, sorted; 0 or -ENOMEM. */
static int part_sorted(const struct html_group *hg, int s,
		       struct ntprof_vec *v)
{
	size_t i;

	for (i = 0; i < hg->n; i++)
		if ((hg->cmd[i].has & (1U << s)) &&
		    ntprof_vec_push(v, hg->cmd[i].v[s]))
			return -ENOMEM;
	ntprof_sort_i64(v->v, v->n);
	return 0;
}

/*
 * The tail: above the end to end's p99 against the rest, each stage's two
 * means, split where --tail=99 splits them (the table's p99).
 */
static void html_tail(FILE *f, const struct ntprof_group *g,
		      const struct html_group *hg, struct ntprof_vec *e2e)
{
	double sum[2][PARTS] = { { 0 } }, n[2] = { 0 }, thr;
	size_t i;
	int s, t;

	if (hg->n < 2)
		return;
	thr = report_tail_threshold(e2e, 99);
	for (i = 0; i < hg->n; i++) {
		t = (double)hg->cmd[i].v[NTPROF_STAGE_COUNT] > thr;
		n[t]++;
		for (s = 0; s < PARTS; s++)
			sum[t][s] += (double)hg->cmd[i].v[s];
	}
	if (!n[0] || !n[1])
		return;
	fputs("<table class=\"tail\"><caption>", f);
	report_tail_caption(f, (uint64_t)n[1], 99, thr, (uint64_t)n[0], "µs");
	fputs("</caption>\n<tr><th>stage</th><th>rest µs</th><th>tail µs</th><th>growth µs</th></tr>\n", f);
	for (s = 0; s < PARTS; s++) {
		if (s < NTPROF_STAGE_COUNT && !(g->stage_has & (1U << s)))
			continue;
		fputs("<tr><td>", f);
		html_escape(f, chart_part_name(g, s));
		fprintf(f, "</td><td>%.2f</td><td>%.2f</td><td>%+.2f</td></tr>\n",
			sum[0][s] / n[0] / 1e3, sum[1][s] / n[1] / 1e3,
			(sum[1][s] / n[1] - sum[0][s] / n[0]) / 1e3);
	}
	fputs("</table>\n", f);
}

static int html_group(FILE *f, const struct html_ctx *c, size_t i)
{
	const struct ntprof_group *g = &c->an->groups[i];
	struct ntprof_vec part[PARTS] = { 0 };
	struct html_group *hg = &c->g[i];
	int s, err = 0;

	for (s = 0; !err && s < PARTS; s++)
		err = part_sorted(hg, s, &part[s]);
	if (err)
		goto out;
	fputs("<section class=\"group\"><h2>", f);
	html_escape(f, g->label);
	fputs("</h2>\n", f);
	report_html_group_head(f, g);
	chart_stagebar(f, g);
	report_html_stages(f, g);
	report_html_components(f, g);
	/* A chained group's hops and legs; nothing for any other group. */
	report_html_chain(f, c->run, g);
	chart_cdf(f, g, part);
	chart_timeline(f, c->span_ns, hg->slice_n, hg->slice_e2e, SLICES,
		       c->bands, c->nr_bands);
	html_tail(f, g, hg, &part[NTPROF_STAGE_COUNT]);
	fputs("</section>\n", f);
out:
	for (s = 0; s < PARTS; s++)
		ntprof_vec_free(&part[s]);
	return err;
}

int report_html_write(FILE *f, const struct recording_run *run)
{
	const struct ntprof_analysis *an = run->an;
	int side = an->nr_host ? 0 : 1;
	struct html_ctx c = { .run = run, .an = an };
	size_t i;

	c.g = calloc(an->nr_groups ? an->nr_groups : 1, sizeof(*c.g));
	if (!c.g)
		return -ENOMEM;
	if (an->last_ns[side] > an->first_ns[side]) {
		c.t0 = an->first_ns[side];
		c.span_ns = an->last_ns[side] - c.t0;
	}
	report_rows_each(run, html_add, &c);
	if (!c.err)
		c.err = report_html_bands(run, side ? NTPROF_ROLE_TARGET :
					  NTPROF_ROLE_HOST, c.t0, &c.bands,
					  &c.nr_bands);
	html_begin(f, "ntprof report");
	report_html_head(f, run);
	for (i = 0; !c.err && i < an->nr_groups; i++)
		c.err = html_group(f, &c, i);
	if (!an->nr_groups)
		fputs("<p>no command with the points for a latency</p>\n", f);
	if (!c.err)
		c.err = report_html_events(f, run);
	report_html_foot(f, run);
	html_end(f);
	for (i = 0; i < an->nr_groups; i++)
		free(c.g[i].cmd);
	free(c.g);
	free(c.bands);
	if (c.err)
		return c.err;
	fflush(f);
	return ferror(f) ? -EIO : 0;
}
