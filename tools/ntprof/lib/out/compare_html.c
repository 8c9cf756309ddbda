// SPDX-License-Identifier: GPL-2.0
/*
 * ntprof compare --html FILE: the comparison as one self-contained page.
 * Per group in both runs: the base's and the loaded run's stage bars on
 * one scale, the table of each stage's means and LAD, and the answer.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "analysis/recording.h"
#include "out/compare_html.h"
#include "out/html.h"

/* One run's stage means as a bar, its width in proportion to @scale. */
static void bar(FILE *f, const struct cmp_group *cg, bool load, int y,
		double scale)
{
	const struct cmp_row *r;
	double x = 0, w, v;
	size_t i;

	fprintf(f, "<text x=\"0\" y=\"%d\">%s</text>\n", y + 20,
		load ? "load" : "base");
	for (i = 0; i < cg->nr_rows; i++) {
		r = &cg->rows[i];
		if (r->stage < 0)
			continue;
		v = load ? r->load_ns : r->base_ns;
		w = v > 0 ? 620 * v / scale : 0;
		fprintf(f, "<rect class=\"stage %s\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"28\" fill=\"%s\"><title>",
			load ? "load" : "base", 50 + x, y, w,
			html_colour(r->stage));
		html_escape(f, r->name);
		fprintf(f, ": %.2f us</title></rect>\n", v / 1e3);
		x += w;
	}
}

static void group(FILE *f, const struct cmp_group *cg)
{
	const struct cmp_row *e2e = &cg->rows[cg->nr_rows - 1];
	double scale = fmax(e2e->base_ns, e2e->load_ns);
	const struct cmp_row *r;
	size_t i;

	fputs("<section class=\"group\"><h2>", f);
	html_escape(f, cg->base->label);
	fprintf(f, "</h2>\n<p>baseline %" PRIu64 " commands sampled, loaded %" PRIu64 "</p>\n",
		cg->base->n, cg->load->n);
	if (scale > 0) {
		fputs("<svg class=\"compare\" width=\"720\" height=\"80\" role=\"img\">\n", f);
		bar(f, cg, false, 0, scale);
		bar(f, cg, true, 40, scale);
		fputs("</svg>\n", f);
	}
	fputs("<table class=\"lad\"><tr><th>stage</th><th>base us</th><th>load us</th><th>LAD</th></tr>\n", f);
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
			fputs("n/a", f);
		else
			fprintf(f, "%.2f", r->lad);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n<p class=\"answer\">", f);
	html_escape(f, cg->answer);
	fputs("</p></section>\n", f);
}

int compare_html_write(FILE *f, const struct recording_run *base,
		       const struct recording_run *load,
		       const struct cmp_group *groups, size_t nr)
{
	size_t i;

	html_begin(f, "ntprof compare");
	fprintf(f, "<p>base: %zu recording%s, one command in %u; load: %zu recording%s, one command in %u</p>\n",
		base->nr_files, base->nr_files == 1 ? "" : "s", base->sample,
		load->nr_files, load->nr_files == 1 ? "" : "s", load->sample);
	for (i = 0; i < nr; i++)
		group(f, &groups[i]);
	if (!nr)
		fputs("<p>no group of commands is in both runs: nothing to compare</p>\n", f);
	html_end(f);
	fflush(f);
	return ferror(f) ? -EIO : 0;
}
