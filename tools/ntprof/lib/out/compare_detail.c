// SPDX-License-Identifier: GPL-2.0
/*
 * compare's rows as JSON, and compare --detail's table: each component
 * both runs hold, in path order, with both means and its LAD, so that a
 * stage's change can be told apart (storage: the drive, or the target's
 * block layer). Text, JSON and HTML say the same.
 */
#include <math.h>
#include <string.h>

#include "analysis/compare.h"
#include "out/compare_detail.h"
#include "out/html.h"

void cmp_row_json(struct ntprof_json *js, const struct cmp_row *r)
{
	ntprof_json_obj_start(js, NULL);
	ntprof_json_str(js, "id", r->id);
	ntprof_json_str(js, "name", r->name);
	/* Each run's own name where they differ (two transports). */
	if (strcmp(r->base_name, r->load_name)) {
		ntprof_json_str(js, "base_name", r->base_name);
		ntprof_json_str(js, "load_name", r->load_name);
	}
	if (r->comp >= 0)
		ntprof_json_str(js, "stage", r->stage >= 0 ?
				ntprof_stage_id(r->stage) : NULL);
	ntprof_json_num(js, "base_us", r->base_ns / 1e3, 3);
	ntprof_json_num(js, "load_us", r->load_ns / 1e3, 3);
	ntprof_json_num(js, "delta_us", (r->load_ns - r->base_ns) / 1e3, 3);
	ntprof_json_num(js, "lad", r->lad, 4);
	ntprof_json_num(js, "share", r->share, 4);
	ntprof_json_obj_end(js);
}

void cmp_detail_print(FILE *f, const struct cmp_group *cg)
{
	const struct cmp_row *r;
	char lad[16];
	size_t i;
	int w, ind;

	if (!cg->nr_comps)
		return;
	fputs("  components, in path order\n", f);
	fprintf(f, "  %-38s%10s%10s%8s\n", "component", "base us", "load us",
		"LAD");
	for (i = 0; i < cg->nr_comps; i++) {
		r = &cg->comps[i];
		if (isnan(r->lad))
			snprintf(lad, sizeof(lad), "n/a");
		else
			snprintf(lad, sizeof(lad), "%.2f", r->lad);
		/* A sub-row is a part of the row above, not in the sum. */
		ind = r->sub ? 4 : 2;
		w = 50 - ind - (int)strlen(r->name);
		if (w < 8)
			w = 8;
		fprintf(f, "%*s%s%*.2f%10.2f%8s\n", ind, "", r->name, w,
			r->base_ns / 1e3, r->load_ns / 1e3, lad);
	}
}

void cmp_detail_json(struct ntprof_json *js, const struct cmp_group *cg)
{
	const struct cmp_row *r;
	size_t i;

	if (!cg->nr_comps)
		return;
	ntprof_json_arr_start(js, "components");
	for (i = 0; i < cg->nr_comps; i++)
		cmp_row_json(js, &cg->comps[i]);
	ntprof_json_arr_end(js);
	if (cg->largest_comp < 0) {
		ntprof_json_str(js, "largest_component", NULL);
		return;
	}
	r = &cg->comps[cg->largest_comp];
	ntprof_json_obj_start(js, "largest_component");
	ntprof_json_str(js, "id", r->id);
	ntprof_json_str(js, "name", r->name);
	ntprof_json_num(js, "delta_us", (r->load_ns - r->base_ns) / 1e3, 3);
	ntprof_json_num(js, "lad", r->lad, 4);
	ntprof_json_obj_end(js);
}

void cmp_detail_html(FILE *f, const struct cmp_group *cg)
{
	const struct cmp_row *r;
	size_t i;

	if (!cg->nr_comps)
		return;
	fputs("<table class=\"lad components\"><tr><th>component</th><th>base µs</th><th>load µs</th><th>LAD</th></tr>\n",
	      f);
	for (i = 0; i < cg->nr_comps; i++) {
		r = &cg->comps[i];
		fprintf(f, "<tr%s><td%s>", (int)i == cg->largest_comp ?
			" class=\"largest\"" : "",
			r->sub ? " style=\"padding-left:2em\"" : "");
		if (r->stage >= 0)
			fprintf(f, "<span style=\"color:%s\">&#9632;</span> ",
				html_colour(r->stage));
		html_escape(f, r->name);
		fprintf(f, "</td><td>%.2f</td><td>%.2f</td><td>",
			r->base_ns / 1e3, r->load_ns / 1e3);
		if (isnan(r->lad))
			fputs("n/a", f);
		else
			fprintf(f, "%.2f", r->lad);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}
