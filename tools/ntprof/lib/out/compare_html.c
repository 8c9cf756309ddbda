// SPDX-License-Identifier: GPL-2.0
/*
 * ntprof compare --html FILE: the comparison as one self-contained page.
 * Per group of commands (op, size, device), the figure of the busy-drive
 * use case: a stacked bar of the mean stage times for each run, base and
 * load, and for each transport when both runs hold both, on one axis of
 * us; the stage with the largest LAD outlined and named. Then, per
 * transport, the table of each stage's means and LAD, and the answer.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "analysis/recording.h"
#include "common/names.h"
#include "out/compare_chain_out.h"
#include "out/compare_detail.h"
#include "out/compare_events.h"
#include "out/compare_html.h"
#include "out/html.h"
#include "out/svg_axes.h"

/* The figure's bars run from FIG_L (their labels left of it) to FIG_R. */
#define FIG_L		150.0
#define FIG_R		620.0
#define FIG_TOP		10.0
#define ROW_H		34.0
#define BAR_H		24.0
#define LEGEND_H	18.0
/* A segment narrower than this has no room for its LAD's label. */
#define LAD_LABEL_W	64.0

/*
 * The length of @g's label without its transport: the groups of one op,
 * size and device that differ in transport alone share a figure, whose
 * rows name the transport instead.
 */
static size_t family_len(const struct ntprof_group *g)
{
	const char *t = ntprof_transport_name(g->transport);
	size_t n = strlen(g->label), k = strlen(t);

	if (n > k + 1 && g->label[n - k - 1] == ' ' &&
	    !strcmp(g->label + n - k, t))
		return n - k - 1;
	return n;
}

static bool same_family(const struct cmp_group *a, const struct cmp_group *b)
{
	size_t n = family_len(a->base);

	return n == family_len(b->base) &&
	       !strncmp(a->base->label, b->base->label, n);
}

/* A run's value of row @r, us; 0 when it has none. */
static double row_us(const struct cmp_row *r, bool load)
{
	double v = (load ? r->load_ns : r->base_ns) / 1e3;

	return v > 0 ? v : 0;
}

/* The length of a run's bar: its stages' sum, or its end to end if longer. */
static double bar_us(const struct cmp_group *cg, bool load)
{
	double sum = 0;
	size_t i;

	for (i = 0; i + 1 < cg->nr_rows; i++)
		sum += row_us(&cg->rows[i], load);
	return fmax(sum, row_us(&cg->rows[cg->nr_rows - 1], load));
}

static void segment_title(FILE *f, const char *who, bool load,
			  const struct cmp_row *r)
{
	fprintf(f, "<title>%s%s%s: ", who, *who ? ", " : "",
		load ? "load" : "base");
	html_escape(f, r->name);
	fprintf(f, ": %.2f µs mean (base %.2f µs, load %.2f µs, LAD ",
		row_us(r, load), r->base_ns / 1e3, r->load_ns / 1e3);
	if (isnan(r->lad))
		fputs("n/a)</title>", f);
	else
		fprintf(f, "%.2f)</title>", r->lad);
}

/* One run's stages as a stacked bar at row @y, labelled @who ("tcp"). */
static void fig_bar(FILE *f, const struct cmp_group *cg, bool load,
		    const char *who, double y, const struct svg_scale *xs)
{
	const char *run = load ? "load" : "base";
	const struct cmp_row *r;
	double sum = 0, x0, x1;
	bool top;
	size_t i;

	fprintf(f, "<text class=\"bar-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s%s%s</text>\n",
		FIG_L - 8, y + 16, who, *who ? ", " : "", run);
	for (i = 0; i + 1 < cg->nr_rows; i++) {
		r = &cg->rows[i];
		top = (int)i == cg->largest;
		x0 = svg_pos(xs, sum);
		sum += row_us(r, load);
		x1 = svg_pos(xs, sum);
		fprintf(f, "<rect class=\"stage %s%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"%s>",
			run, top ? " largest" : "", x0, y, x1 - x0, BAR_H,
			html_colour(r->stage),
			top ? " stroke=\"#000\" stroke-width=\"2.5\"" : "");
		segment_title(f, who, load, r);
		fputs("</rect>\n", f);
		if (top && load && !isnan(r->lad) && x1 - x0 >= LAD_LABEL_W)
			fprintf(f, "<text class=\"lad-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#fff\" font-weight=\"bold\">LAD %.2f</text>\n",
				(x0 + x1) / 2, y + 16, r->lad);
		/* Without a LAD (n/a), the change it made. */
		else if (top && load && x1 - x0 >= LAD_LABEL_W)
			fprintf(f, "<text class=\"lad-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#fff\" font-weight=\"bold\">%+.1f µs</text>\n",
				(x0 + x1) / 2, y + 16,
				(r->load_ns - r->base_ns) / 1e3);
	}
	fprintf(f, "<text class=\"bar-total\" x=\"%.1f\" y=\"%.1f\">%.1f µs</text>\n",
		svg_pos(xs, bar_us(cg, load)) + 6, y + 16,
		row_us(&cg->rows[cg->nr_rows - 1], load));
}

/* Row of stage @s in @cg, or NULL. */
static const struct cmp_row *stage_row(const struct cmp_group *cg, int s)
{
	size_t i;

	for (i = 0; i + 1 < cg->nr_rows; i++)
		if (cg->rows[i].stage == s)
			return &cg->rows[i];
	return NULL;
}

/* @cg's row of the largest change if it is stage @s's, else NULL. */
static const struct cmp_row *largest_of(const struct cmp_group *cg, int s)
{
	if (cg->largest < 0 || cg->rows[cg->largest].stage != s)
		return NULL;
	return &cg->rows[cg->largest];
}

/*
 * The legend entry of stage @s over the figure's groups @m: with several
 * transports, the stage's name without its driver's ("host driver"); the
 * stage with the largest LAD outlined, its LAD (per transport) named.
 * Returns whether the stage is in any group.
 */
static bool fig_legend_item(FILE *f, const struct cmp_group *const *m,
			    size_t nm, int s, double y)
{
	const struct cmp_row *r = NULL, *top;
	const char *cut;
	size_t k, nt = 0, nlad = 0;
	bool all_lad;

	for (k = 0; k < nm && !r; k++)
		r = stage_row(m[k], s);
	for (k = 0; k < nm; k++) {
		nt += !!largest_of(m[k], s);
		nlad += largest_of(m[k], s) && m[k]->largest_lad;
	}
	if (!r)
		return false;
	cut = nm > 1 ? strstr(r->name, " (") : NULL;
	fprintf(f, "<g class=\"legend-item%s\"><rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"%s/>"
		"<text class=\"legend-label\" x=\"%.1f\" y=\"%.1f\"%s>%.*s",
		nt ? " largest" : "", FIG_L, y - 10, html_colour(s),
		nt ? " stroke=\"#000\" stroke-width=\"2\"" : "", FIG_L + 18, y,
		nt ? " font-weight=\"bold\"" : "",
		(int)(cut ? (size_t)(cut - r->name) : strlen(r->name)), r->name);
	/*
	 * Its LAD where it is the largest LAD as well, else the change it
	 * made (a stage too small for a LAD, a run that got faster).
	 */
	all_lad = nlad == nt;
	for (k = 0, nt = 0; k < nm; k++) {
		top = largest_of(m[k], s);
		if (!top)
			continue;
		fprintf(f, "%s%s%s", nt++ ? ", " :
			all_lad ? ": largest LAD " : ": largest change ",
			nm > 1 ? ntprof_transport_name(m[k]->base->transport) : "",
			nm > 1 ? " " : "");
		if (all_lad)
			fprintf(f, "%.2f", top->lad);
		else
			fprintf(f, "%+.2f µs", (top->load_ns - top->base_ns) / 1e3);
	}
	fputs("</text></g>\n", f);
	return true;
}

/* The figure of the groups @m of one op, size and device. */
static void figure(FILE *f, const struct cmp_group *const *m, size_t nm)
{
	double hi = 0, axis = FIG_TOP + 2 * ROW_H * (double)nm + 4;
	const char *who;
	struct svg_scale xs;
	size_t k, i, nl = 0;

	for (k = 0; k < nm; k++)
		hi = fmax(hi, fmax(bar_us(m[k], false), bar_us(m[k], true)));
	for (i = 0; i < NTPROF_STAGE_COUNT; i++)
		for (k = 0; k < nm; k++)
			if (stage_row(m[k], ntprof_stage_order[i])) {
				nl++;
				break;
			}
	svg_scale_linear(&xs, 0, hi > 0 ? hi : 1, 5, FIG_L, FIG_R, SVG_US);
	fprintf(f, "<figure>\n<svg class=\"compare\" width=\"720\" height=\"%.0f\" role=\"img\">\n",
		axis + 56 + LEGEND_H * (double)nl);
	svg_axis_x(f, &xs, axis, FIG_TOP, "mean time per command, stage after stage");
	for (k = 0; k < nm; k++) {
		who = nm > 1 ? ntprof_transport_name(m[k]->base->transport) : "";
		fig_bar(f, m[k], false, who, FIG_TOP + 2 * ROW_H * (double)k, &xs);
		fig_bar(f, m[k], true, who, FIG_TOP + ROW_H * (2 * (double)k + 1), &xs);
	}
	fputs("<g class=\"legend\">\n", f);
	for (i = 0, k = 0; i < NTPROF_STAGE_COUNT; i++)
		k += fig_legend_item(f, m, nm, ntprof_stage_order[i],
				     axis + 60 + LEGEND_H * (double)k);
	fputs("</g>\n</svg>\n<figcaption>Mean stage times of the sampled commands, base and load on one scale; outlined: the stage that changed the most.</figcaption>\n</figure>\n", f);
}

static void lad_table(FILE *f, const struct cmp_group *cg)
{
	const struct cmp_row *r;
	bool had_na = false;
	size_t i;

	fputs("<table class=\"lad\"><tr><th>stage</th><th>base µs</th><th>load µs</th><th>LAD</th></tr>\n", f);
	for (i = 0; i < cg->nr_rows; i++) {
		r = &cg->rows[i];
		fprintf(f, "<tr%s><td>", (int)i == cg->largest ?
			" class=\"largest\"" : "");
		if (r->stage >= 0)
			fprintf(f, "<span style=\"color:%s\">&#9632;</span> ",
				html_colour(r->stage));
		html_escape(f, r->name);
		fprintf(f, "</td><td>%.2f</td><td>%.2f</td><td>", r->base_ns / 1e3,
			r->load_ns / 1e3);
		if (isnan(r->lad))
			fputs("n/a<sup>*</sup>", f);
		else
			fprintf(f, "%.2f", r->lad);
		fputs("</td></tr>\n", f);
		had_na |= isnan(r->lad);
	}
	fputs("</table>\n", f);
	/* The text's footnote, under the table it explains. */
	if (had_na)
		fputs("<p class=\"note\"><sup>*</sup> n/a: under 0.5 µs at the baseline, too small for a ratio; its change in µs still counts.</p>\n",
		      f);
	cmp_detail_html(f, cg);
	if (cg->largest >= 0) {
		r = &cg->rows[cg->largest];
		fprintf(f, "<p class=\"largest\">largest %s: ",
			cg->largest_lad ? "LAD" : "change");
		html_escape(f, r->name);
		if (cg->largest_lad)
			fprintf(f, ", %.2f</p>\n", r->lad);
		else if (isnan(r->lad))
			fprintf(f, ", %+.2f µs (LAD n/a)</p>\n",
				(r->load_ns - r->base_ns) / 1e3);
		else
			fprintf(f, ", %+.2f µs (LAD %.2f)</p>\n",
				(r->load_ns - r->base_ns) / 1e3, r->lad);
	}
	fputs("<p class=\"answer\">", f);
	html_escape_us(f, cg->answer);
	fputs("</p>\n", f);
}

static void html_note(const char *line, void *arg)
{
	FILE *f = arg;

	fputs("<p class=\"note\">", f);
	html_escape_us(f, line);
	fputs("</p>\n", f);
}

/*
 * The groups of @v that share @v[first]'s op, size and device, as one
 * section: the figure, then each one's table. @first is the first of them.
 */
static void family(FILE *f, const struct cmp_group *v,
		   struct cmp_chain *const *chains, size_t nr, size_t first)
{
	char label[sizeof(v[first].label)];
	const struct cmp_group *m[8];
	size_t nm = 0, i, k;

	for (i = first; i < nr && nm < sizeof(m) / sizeof(m[0]); i++)
		if (same_family(&v[first], &v[i]))
			m[nm++] = &v[i];
	snprintf(label, sizeof(label), "%.*s",
		 (int)(nm > 1 ? family_len(v[first].base) : sizeof(label)),
		 nm > 1 ? v[first].base->label : v[first].label);
	fputs("<section class=\"group\"><h2>", f);
	html_escape(f, label);
	fputs("</h2>\n", f);
	figure(f, m, nm);
	for (k = 0; k < nm; k++) {
		if (nm > 1) {
			fputs("<h3>", f);
			html_escape(f, m[k]->label);
			fputs("</h3>\n", f);
		}
		cmp_group_notes(m[k], html_note, f);
		fprintf(f, "<p>baseline %" PRIu64 " commands sampled, loaded %" PRIu64 "</p>\n",
			m[k]->base->n_table, m[k]->load->n_table);
		lad_table(f, m[k]);
		/* A pair chained in both runs: its hops and legs. */
		if (chains && chains[m[k] - v])
			cmp_chain_html(f, chains[m[k] - v]);
	}
	fputs("</section>\n", f);
}

int compare_html_write(FILE *f, const struct recording_run *base,
		       const struct recording_run *load,
		       const struct cmp_group *groups,
		       struct cmp_chain *const *chains, size_t nr,
		       const struct cmp_events *ce)
{
	size_t i, j;

	html_begin(f, "ntprof compare");
	fprintf(f, "<p>base: %zu recording%s, one command in %u; load: %zu recording%s, one command in %u</p>\n",
		base->nr_files, base->nr_files == 1 ? "" : "s", base->sample,
		load->nr_files, load->nr_files == 1 ? "" : "s", load->sample);
	/* An outage first: it may explain the rest. */
	cmp_events_html(f, ce);
	for (i = 0; i < nr; i++) {
		/* A family's section comes at its first group. */
		for (j = 0; j < i && !same_family(&groups[j], &groups[i]); j++)
			;
		if (j == i)
			family(f, groups, chains, nr, i);
	}
	if (!nr)
		fputs("<p>no group of commands is in both runs: nothing to compare</p>\n", f);
	html_end(f);
	fflush(f);
	return ferror(f) ? -EIO : 0;
}
