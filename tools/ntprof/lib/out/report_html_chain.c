// SPDX-License-Identifier: GPL-2.0
/*
 * report --html for a chained group (Documentation/report.rst, "Chains"):
 * the page's counterpart of the text report's hops and legs tables.
 *
 * The hops: one bar per hop on one axis of microseconds, each hop's bar
 * starting where the hop before it ended, so that the hops' stages, in
 * path order, run from 0 to the followed commands' mean end to end, as
 * the hops table adds up. The legs: one bar per replica device of its
 * own stages' means, on one axis so that they can be set side by side,
 * and a table with a column per leg (its hop, n, critical count, held
 * time, mean and stages). Every label goes through html_escape(): a
 * leg's label holds a hostname and a device name from the recordings.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "analysis/chain.h"
#include "analysis/chain_names.h"
#include "analysis/recording.h"
#include "common/names.h"
#include "common/util.h"
#include "out/html.h"
#include "out/report_html_chain.h"
#include "out/svg_axes.h"

#define PLOT_L		80.0
#define PLOT_R		700.0
#define ROW_H		30.0
#define BAR_H		20.0

/* A stage's colour: the middle's own grey, else the stage's. */
static const char *stage_colour(int s)
{
	return s == NTPROF_CHAIN_STAGE_MIDDLE ? "#8c8c8c" : html_colour(s);
}

static const char *leg_label(const struct recording_run *run,
			     const struct ntprof_chain_leg_stats *ls)
{
	return run->chain->legs[ls->leg].label;
}

static void bar_part(FILE *f, double x0, double x1, double y, int s,
		     const char *who, const char *name, double us,
		     double share)
{
	fprintf(f, "<rect class=\"stage\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>",
		x0, y, x1 - x0 > 0 ? x1 - x0 : 0, BAR_H, stage_colour(s));
	html_escape(f, who);
	fputs(": ", f);
	html_escape(f, name);
	fprintf(f, ": %.2f µs mean", us);
	if (!isnan(share))
		fprintf(f, ", %.0f %% of the end to end", share);
	fputs("</title></rect>\n", f);
}

static void hops_chart(FILE *f, const struct ntprof_chain_group *cg)
{
	double e2e = cg->e2e_mean / 1e3, sum = 0, mean, x0, y;
	char who[32], legend[160];
	struct svg_scale xs;
	size_t k;
	int h, s, nl = 0;

	svg_scale_linear(&xs, 0, e2e > 0 ? e2e : 1, 6, PLOT_L, PLOT_R, SVG_US);
	for (h = 0; h < cg->hops; h++)
		for (k = 0; k < ntprof_chain_path_len; k++)
			nl += !!(cg->hop[h].stage_has &
				 (1U << ntprof_chain_path_order[k]));
	fprintf(f, "<svg class=\"chain-hops\" width=\"720\" height=\"%.0f\" role=\"img\">\n",
		ROW_H * cg->hops + 70 + 20.0 * nl);
	svg_axis_x(f, &xs, 10 + ROW_H * cg->hops, 10,
		   "mean time per command, hop after hop along the critical path");
	for (h = 0; h < cg->hops; h++) {
		y = 12 + ROW_H * h;
		fprintf(f, "<text class=\"hop-label\" x=\"4\" y=\"%.1f\">hop %d</text>\n",
			y + 14, h + 1);
		fprintf(f, "<g class=\"hop\" data-hop=\"%d\">\n", h + 1);
		snprintf(who, sizeof(who), "hop %d", h + 1);
		for (k = 0; k < ntprof_chain_path_len; k++) {
			s = ntprof_chain_path_order[k];
			if (!(cg->hop[h].stage_has & (1U << s)))
				continue;
			mean = ntprof_chain_stage_mean(cg, h, s) / 1e3;
			x0 = svg_pos(&xs, sum);
			sum += mean > 0 ? mean : 0;
			bar_part(f, x0, svg_pos(&xs, sum), y, s, who,
				 ntprof_chain_hop_stage_name(cg, h, s), mean,
				 100 * mean / e2e);
		}
		fputs("</g>\n", f);
	}
	fputs("<g class=\"legend\">\n", f);
	y = ROW_H * cg->hops + 74;
	for (h = 0; h < cg->hops; h++)
		for (k = 0; k < ntprof_chain_path_len; k++) {
			s = ntprof_chain_path_order[k];
			if (!(cg->hop[h].stage_has & (1U << s)))
				continue;
			snprintf(legend, sizeof(legend), "hop %d: %s: %.2f µs",
				 h + 1, ntprof_chain_hop_stage_name(cg, h, s),
				 ntprof_chain_stage_mean(cg, h, s) / 1e3);
			svg_legend_item(f, PLOT_L, y, stage_colour(s),
					SVG_SWATCH_BOX, legend);
			y += 20;
		}
	fputs("</g>\n</svg>\n", f);
}

static double leg_mean(const struct ntprof_chain_leg_stats *ls, int s)
{
	return ls->n_stages && (ls->stage_has & (1U << s)) ?
	       ls->stage_sum[s] / (double)ls->n_stages : NAN;
}

static void legs_chart(FILE *f, const struct recording_run *run,
		       const struct ntprof_chain_group *cg)
{
	const struct ntprof_chain_leg_stats *ls;
	double top = 0, sum, mean, x0, y;
	struct svg_scale xs;
	uint32_t has = 0;
	size_t i, k;
	int s, nl = 0;

	for (i = 0; i < cg->nr_legs; i++)
		if (cg->legs[i].n_stages &&
		    cg->legs[i].e2e_sum / (double)cg->legs[i].n_stages > top)
			top = cg->legs[i].e2e_sum / (double)cg->legs[i].n_stages;
	top /= 1e3;
	for (i = 0; i < cg->nr_legs; i++)
		has |= cg->legs[i].n_stages ? cg->legs[i].stage_has : 0;
	for (k = 0; k < NTPROF_STAGE_COUNT; k++)
		nl += !!(has & (1U << k));
	svg_scale_linear(&xs, 0, top > 0 ? top : 1, 6, PLOT_L + 120, PLOT_R,
			 SVG_US);
	fprintf(f, "<svg class=\"chain-legs\" width=\"720\" height=\"%.0f\" role=\"img\">\n",
		ROW_H * (double)cg->nr_legs + 70 + 20.0 * nl);
	svg_axis_x(f, &xs, 10 + ROW_H * (double)cg->nr_legs, 10,
		   "mean time per downstream command of each leg");
	for (i = 0; i < cg->nr_legs; i++) {
		ls = &cg->legs[i];
		y = 12 + ROW_H * (double)i;
		fprintf(f, "<text class=\"leg-label\" x=\"4\" y=\"%.1f\">", y + 14);
		html_escape(f, leg_label(run, ls));
		fputs("</text>\n<g class=\"leg\">\n", f);
		sum = 0;
		for (k = 0; k < NTPROF_STAGE_COUNT; k++) {
			s = ntprof_stage_order[k];
			mean = leg_mean(ls, s) / 1e3;
			if (isnan(mean))
				continue;
			x0 = svg_pos(&xs, sum);
			sum += mean > 0 ? mean : 0;
			bar_part(f, x0, svg_pos(&xs, sum), y, s,
				 leg_label(run, ls),
				 ntprof_stage_name(s, ls->transport, ls->kind,
						   0), mean, NAN);
		}
		fputs("</g>\n", f);
	}
	/* The legs' stages are named for the first leg's transport. */
	fputs("<g class=\"legend\">\n", f);
	y = ROW_H * (double)cg->nr_legs + 74;
	for (k = 0; k < NTPROF_STAGE_COUNT && cg->nr_legs; k++) {
		s = ntprof_stage_order[k];
		if (!(has & (1U << s)))
			continue;
		svg_legend_item(f, PLOT_L, y, stage_colour(s), SVG_SWATCH_BOX,
				ntprof_stage_name(s, cg->legs[0].transport,
						  cg->legs[0].kind, 0));
		y += 20;
	}
	fputs("</g>\n</svg>\n", f);
}

static void td_us(FILE *f, double ns)
{
	if (isnan(ns))
		fputs("<td>-</td>", f);
	else
		fprintf(f, "<td>%.2f</td>", ns / 1e3);
}

static void legs_table(FILE *f, const struct recording_run *run,
		       const struct ntprof_chain_group *cg)
{
	const struct ntprof_chain_leg_stats *ls;
	uint32_t has = 0;
	size_t i, k;
	int s;

	for (i = 0; i < cg->nr_legs; i++)
		has |= cg->legs[i].stage_has;
	fputs("<table class=\"chain-legs\"><caption>legs side by side: each replica device's downstream commands, how often it completed last (critical), by how much it held the writes</caption>\n<tr><th></th>",
	      f);
	for (i = 0; i < cg->nr_legs; i++) {
		fputs("<th>", f);
		html_escape(f, leg_label(run, &cg->legs[i]));
		fputs("</th>", f);
	}
	fputs("</tr>\n<tr><td>hop</td>", f);
	for (i = 0; i < cg->nr_legs; i++)
		fprintf(f, "<td>%u</td>", cg->legs[i].hop);
	fputs("</tr>\n<tr><td>n</td>", f);
	for (i = 0; i < cg->nr_legs; i++)
		fprintf(f, "<td>%" PRIu64 "</td>", cg->legs[i].n);
	fputs("</tr>\n<tr><td>critical</td>", f);
	for (i = 0; i < cg->nr_legs; i++)
		fprintf(f, "<td>%" PRIu64 "</td>", cg->legs[i].critical);
	fputs("</tr>\n<tr><td>held µs</td>", f);
	for (i = 0; i < cg->nr_legs; i++) {
		ls = &cg->legs[i];
		td_us(f, ls->held_n ? ls->held_sum / (double)ls->held_n : NAN);
	}
	fputs("</tr>\n<tr><td>mean µs</td>", f);
	for (i = 0; i < cg->nr_legs; i++) {
		ls = &cg->legs[i];
		td_us(f, ls->n_stages ? ls->e2e_sum / (double)ls->n_stages :
					NAN);
	}
	fputs("</tr>\n", f);
	for (k = 0; k < NTPROF_STAGE_COUNT; k++) {
		s = ntprof_stage_order[k];
		if (!(has & (1U << s)))
			continue;
		fputs("<tr><td>", f);
		html_escape(f, ntprof_stage_name(s, cg->legs[0].transport,
						 cg->legs[0].kind, 0));
		fputs(", µs</td>", f);
		for (i = 0; i < cg->nr_legs; i++)
			td_us(f, leg_mean(&cg->legs[i], s));
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void chain_group(FILE *f, const struct recording_run *run,
			const struct ntprof_chain_group *cg)
{
	fputs("<div class=\"chain\"><h3>", f);
	if (cg->leg >= 0) {
		fputs("critical leg ", f);
		html_escape(f, run->chain->legs[cg->leg].label);
		fputs(": ", f);
	}
	fprintf(f, "through the chain: %" PRIu64 " command%s, %" PRIu64 " followed to a leaf</h3>\n",
		cg->n, cg->n == 1 ? "" : "s", cg->followed);
	if (cg->followed && cg->hops)
		hops_chart(f, cg);
	if (cg->nr_legs) {
		legs_chart(f, run, cg);
		legs_table(f, run, cg);
	}
	fputs("</div>\n", f);
}

void report_html_chain(FILE *f, const struct recording_run *run,
		       const struct ntprof_group *g)
{
	const struct ntprof_chain_stats *cs;
	size_t i;

	if (!ntprof_chain_present(run) || !run->chain->stats)
		return;
	cs = run->chain->stats;
	for (i = 0; i < cs->nr; i++)
		if (cs->g[i].group == g)
			chain_group(f, run, &cs->g[i]);
}
