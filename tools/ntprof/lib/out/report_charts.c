// SPDX-License-Identifier: GPL-2.0
/*
 * report --html's charts. Each is an SVG 720 pixels wide whose plot runs
 * from x = PLOT_L to PLOT_R, with its axes (svg_axes.c) drawn first so
 * that their grid lies under the data. Every bar and point carries a
 * <title>, which a browser shows on hover: what it is, its value, its unit.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "out/html.h"
#include "out/report_charts.h"
#include "out/svg_axes.h"

#define PLOT_L		80.0
#define PLOT_R		700.0
/* A CDF's points: its line's vertices, by rank. */
#define CDF_POINTS	200
/* Above this ratio of slowest to fastest, a CDF's latency axis is log. */
#define CDF_LOG_RATIO	10.0

const char *chart_part_name(const struct ntprof_group *g, int s)
{
	return s < NTPROF_STAGE_COUNT ?
	       ntprof_stage_name(s, g->transport, g->kind, g->stacks) :
	       "end to end";
}

static int stages_of(const struct ntprof_group *g)
{
	int s, n = 0;

	for (s = 0; s < NTPROF_STAGE_COUNT; s++)
		n += !!(g->stage_has & (1U << s));
	return n;
}

static void stagebar_legend(FILE *f, const struct ntprof_group *g, int s,
			    double y)
{
	fprintf(f, "<g class=\"legend-item\"><rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>"
		"<text class=\"stage-label\" x=\"%.1f\" y=\"%.1f\">", PLOT_L,
		y - 10, html_colour(s), PLOT_L + 18, y);
	html_escape(f, chart_part_name(g, s));
	fprintf(f, "</text><text x=\"460\" y=\"%.1f\">%.2f µs, %.0f %%</text></g>\n",
		y, g->stage_mean[s] / 1e3, g->stage_share[s]);
}

void chart_stagebar(FILE *f, const struct ntprof_group *g)
{
	double e2e = g->comp[NTPROF_COMP_E2E].mean / 1e3, sum = 0, x0, x1;
	struct svg_scale xs;
	int s, k = 0;

	svg_scale_linear(&xs, 0, e2e > 0 ? e2e : 1, 6, PLOT_L, PLOT_R, SVG_US);
	fprintf(f, "<svg class=\"stagebar\" width=\"720\" height=\"%d\" role=\"img\">\n",
		110 + 20 * stages_of(g));
	svg_axis_x(f, &xs, 50, 10, "mean time per command, stage after stage");
	for (s = 0; s < NTPROF_STAGE_COUNT; s++) {
		if (!(g->stage_has & (1U << s)))
			continue;
		x0 = svg_pos(&xs, sum);
		sum += g->stage_mean[s] > 0 ? g->stage_mean[s] / 1e3 : 0;
		x1 = svg_pos(&xs, sum);
		fprintf(f, "<rect class=\"stage\" x=\"%.1f\" y=\"12\" width=\"%.1f\" height=\"36\" fill=\"%s\"><title>",
			x0, x1 - x0, html_colour(s));
		html_escape(f, chart_part_name(g, s));
		fprintf(f, ": %.2f µs mean, %.0f %% of the end to end</title></rect>\n",
			g->stage_mean[s] / 1e3, g->stage_share[s]);
	}
	fputs("<g class=\"legend\">\n", f);
	for (s = 0; s < NTPROF_STAGE_COUNT; s++)
		if (g->stage_has & (1U << s))
			stagebar_legend(f, g, s, 104 + 20 * k++);
	fputs("</g>\n</svg>\n", f);
}

/* A CDF's y: the share of commands at or below, in % (0 at the bottom). */
#define CDF_TOP		66.0
#define CDF_BOTTOM	266.0
#define CDF_LEGEND	322.0

/* @part's line, and a point with a title at each decile and at the tail. */
static void cdf_line(FILE *f, const struct ntprof_group *g, int s,
		     const struct ntprof_vec *part, const struct svg_scale *xs,
		     const struct svg_scale *ys)
{
	static const double pct[] = { 10, 20, 30, 40, 50, 60, 70, 80, 90, 99, 99.9 };
	size_t i, k;
	double v;

	fprintf(f, "<polyline class=\"cdf-line\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"",
		html_colour(s));
	for (k = 0; k <= CDF_POINTS; k++) {
		i = (size_t)((double)k / CDF_POINTS * (double)(part->n - 1));
		fprintf(f, "%.1f,%.1f ", svg_pos(xs, (double)part->v[i] / 1e3),
			svg_pos(ys, 100.0 * (double)(i + 1) / (double)part->n));
	}
	fputs("\"><title>", f);
	html_escape(f, chart_part_name(g, s));
	fputs("</title></polyline>\n", f);
	for (k = 0; k < sizeof(pct) / sizeof(pct[0]); k++) {
		v = ntprof_percentile_i64(part->v, part->n, pct[k]) / 1e3;
		fprintf(f, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"><title>",
			svg_pos(xs, v), svg_pos(ys, pct[k]), html_colour(s));
		html_escape(f, chart_part_name(g, s));
		fprintf(f, ": p%g %.2f µs</title></circle>\n", pct[k], v);
	}
}

/*
 * The end to end's p50, p99 and p99.9 (the table's, @g's): a dashed line
 * up from the axis to a label above the plot, each label on its own row
 * so that close marks (the tail's often are) stay readable. The lines
 * first, then the labels over them on a white halo, so that no dashed
 * line runs through another mark's label.
 */
static void cdf_marks(FILE *f, const struct ntprof_group *g,
		      const struct svg_scale *xs)
{
	static const double pct[] = { 50, 99, 99.9 };
	const struct ntprof_stats *e2e = &g->comp[NTPROF_COMP_E2E];
	double v[3] = { e2e->p50 / 1e3, e2e->p99 / 1e3, e2e->p999 / 1e3 };
	double x, y;
	bool right;
	size_t k;

	for (k = 0; k < 3; k++) {
		x = svg_pos(xs, v[k]);
		y = 30 + 12 * (double)k;
		fprintf(f, "<g class=\"pmark\"><title>end to end p%g: %.2f µs</title>"
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\" stroke-dasharray=\"4 3\"/></g>\n",
			pct[k], v[k], x, CDF_BOTTOM, x, y + 2);
	}
	for (k = 0; k < 3; k++) {
		x = svg_pos(xs, v[k]);
		y = 30 + 12 * (double)k;
		right = x > PLOT_R - 120;
		fprintf(f, "<text class=\"pmark-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">p%g %.1f µs</text>\n",
			right ? x - 3 : x + 3, y, right ? "end" : "start",
			pct[k], v[k]);
	}
}

static void cdf_legend(FILE *f, const struct ntprof_group *g,
		       const struct ntprof_vec part[CHART_PARTS])
{
	int s, k = 0;

	fputs("<g class=\"legend\">\n", f);
	for (s = 0; s < CHART_PARTS; s++) {
		if (!part[s].n)
			continue;
		svg_legend_item(f, k % 2 ? 400 : PLOT_L, CDF_LEGEND + 18 * (k / 2),
				html_colour(s), SVG_SWATCH_LINE,
				chart_part_name(g, s));
		k++;
	}
	svg_legend_item(f, k % 2 ? 400 : PLOT_L, CDF_LEGEND + 18 * (k / 2),
			"#000", SVG_SWATCH_DASHED,
			"p50, p99, p99.9 of the end to end (dashed)");
	fputs("</g>\n", f);
}

void chart_cdf(FILE *f, const struct ntprof_group *g,
	       const struct ntprof_vec part[CHART_PARTS])
{
	double lo = INFINITY, hi = 0, v;
	struct svg_scale xs, ys;
	int s, k = 1;
	size_t i;

	for (s = 0; s < CHART_PARTS; s++) {
		for (i = 0; i < part[s].n && part[s].v[i] <= 0; i++)
			;
		if (i < part[s].n && (v = (double)part[s].v[i] / 1e3) < lo)
			lo = v;
		if (part[s].n && (v = (double)part[s].v[part[s].n - 1] / 1e3) > hi)
			hi = v;
		k += !!part[s].n;
	}
	if (!(hi > 0) || !isfinite(lo) || !part[NTPROF_STAGE_COUNT].n)
		return;
	/* Stages of a few us beside a drive's hundreds need a log axis. */
	if (hi / lo >= CDF_LOG_RATIO)
		svg_scale_log(&xs, lo, hi, PLOT_L, PLOT_R, SVG_US);
	else
		svg_scale_linear(&xs, lo, hi, 6, PLOT_L, PLOT_R, SVG_US);
	svg_scale_linear(&ys, 0, 100, 5, CDF_BOTTOM, CDF_TOP, SVG_PERCENT);
	fprintf(f, "<svg class=\"cdf\" width=\"720\" height=\"%.0f\" role=\"img\">\n"
		"<text class=\"chart-title\" x=\"10\" y=\"14\">CDF of each stage and of the end to end</text>\n",
		CDF_LEGEND + 18 * ((k + 1) / 2));
	svg_axis_x(f, &xs, CDF_BOTTOM, CDF_TOP, xs.log ?
		   "latency per command (log scale)" : "latency per command");
	svg_axis_y(f, &ys, PLOT_L, PLOT_R, "commands at or below");
	for (s = 0; s < CHART_PARTS; s++)
		if (part[s].n)
			cdf_line(f, g, s, &part[s], &xs, &ys);
	cdf_marks(f, g, &xs);
	cdf_legend(f, g, part);
	fputs("</svg>\n", f);
}

#define TL_TOP		30.0
#define TL_BOTTOM	190.0
#define TL_BAND_COLOUR	"#e15759"

/*
 * The control path's episodes, under the line: a shaded band from start
 * to end (an instant, a thin one), its label at its top, on one of three
 * rows in turn so that the labels of close episodes do not overlap, and a
 * hover title with its times.
 */
static void timeline_bands(FILE *f, const struct svg_scale *xs,
			   const struct chart_band *b, size_t nb)
{
	double x0, x1;
	size_t i;

	for (i = 0; i < nb; i++) {
		x0 = svg_pos(xs, b[i].start_s);
		x1 = svg_pos(xs, b[i].end_s);
		if (x1 - x0 < 1.5)
			x1 = x0 + 1.5;
		fputs("<g class=\"event-band\"><title>", f);
		html_escape(f, b[i].label);
		if (b[i].end_s == b[i].start_s && !b[i].open)
			fprintf(f, ": at %.3f s", b[i].start_s);
		else
			fprintf(f, ": %.3f s to %.3f s%s, %.3f s%s", b[i].start_s,
				b[i].end_s, b[i].open ? " (the recording's end)" : "",
				b[i].end_s - b[i].start_s,
				b[i].open ? " at least, still out" : "");
		fprintf(f, "</title><rect class=\"band\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" fill-opacity=\"0.22\"/>"
			"<text class=\"band-label\" x=\"%.1f\" y=\"%.1f\">",
			x0, TL_TOP, x1 - x0, TL_BOTTOM - TL_TOP, TL_BAND_COLOUR,
			x0 + 2, TL_TOP + 10 + 11 * (double)(i % 3));
		html_escape(f, b[i].label);
		fputs("</text></g>\n", f);
	}
}

void chart_timeline(FILE *f, uint64_t span_ns, const uint64_t *n,
		    const double *sum_ns, size_t nr,
		    const struct chart_band *bands, size_t nb)
{
	double max = 0, span = (double)span_ns / 1e9, t, lo = 0, hi;
	struct svg_scale xs, ys;
	size_t k;

	for (k = 0; k < nr; k++)
		if (n[k] && sum_ns[k] / (double)n[k] / 1e3 > max)
			max = sum_ns[k] / (double)n[k] / 1e3;
	if (!(max > 0) || !(span > 0))
		return;
	/* An outage often stops the commands: the axis holds it whole. */
	hi = span;
	for (k = 0; k < nb; k++) {
		lo = bands[k].start_s < lo ? bands[k].start_s : lo;
		hi = bands[k].end_s > hi ? bands[k].end_s : hi;
	}
	svg_scale_linear(&xs, lo, hi, 6, PLOT_L, PLOT_R, SVG_SECONDS);
	svg_scale_linear(&ys, 0, max, 4, TL_BOTTOM, TL_TOP, SVG_US);
	fprintf(f, "<svg class=\"timeline\" width=\"720\" height=\"%d\" role=\"img\">\n"
		"<text class=\"chart-title\" x=\"10\" y=\"14\">the mean end to end over the run</text>\n",
		nb ? 280 : 260);
	svg_axis_x(f, &xs, TL_BOTTOM, TL_TOP, "time since the first command");
	svg_axis_y(f, &ys, PLOT_L, PLOT_R, "mean end to end");
	timeline_bands(f, &xs, bands, nb);
	fputs("<polyline class=\"timeline-line\" fill=\"none\" stroke=\"#4e79a7\" stroke-width=\"2\" points=\"", f);
	/* A slice's point at its middle. */
	for (k = 0; k < nr; k++)
		if (n[k])
			fprintf(f, "%.1f,%.1f ",
				svg_pos(&xs, span * ((double)k + 0.5) / (double)nr),
				svg_pos(&ys, sum_ns[k] / (double)n[k] / 1e3));
	fputs("\"/>\n", f);
	for (k = 0; k < nr; k++) {
		if (!n[k])
			continue;
		t = span * ((double)k + 0.5) / (double)nr;
		fprintf(f, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#4e79a7\">"
			"<title>%.3f s to %.3f s: mean end to end %.2f µs, %llu commands</title></circle>\n",
			svg_pos(&xs, t), svg_pos(&ys, sum_ns[k] / (double)n[k] / 1e3),
			span * (double)k / (double)nr,
			span * (double)(k + 1) / (double)nr,
			sum_ns[k] / (double)n[k] / 1e3, (unsigned long long)n[k]);
	}
	fputs("<g class=\"legend\">\n", f);
	svg_legend_item(f, PLOT_L, 250, "#4e79a7", SVG_SWATCH_LINE,
			"mean end to end of the commands started in each slice of the run");
	if (nb)
		svg_legend_item(f, PLOT_L, 270, TL_BAND_COLOUR, SVG_SWATCH_BOX,
				"a controller's episode (control path): reset, loss, connect, ...");
	fputs("</g>\n</svg>\n", f);
}
