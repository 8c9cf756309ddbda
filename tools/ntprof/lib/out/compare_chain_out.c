// SPDX-License-Identifier: GPL-2.0
/*
 * compare's chains (analysis/compare_chain.c) as text and JSON: under a
 * chained pair's own table, the hops' stages in path order with both
 * runs' means and LADs, each pair of legs' stages the same way, and the
 * chain's answer: which hop's stage moved, and which leg; in compare
 * --html the same tables under the pair's own, every name escaped.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "out/compare_chain_out.h"
#include "out/html.h"

static void lad_str(double lad, char *buf, size_t size)
{
	if (isnan(lad))
		snprintf(buf, size, "n/a");
	else
		snprintf(buf, size, "%.2f", lad);
}

/* Rows as compare's own table has them, @indent more to the right. */
static void rows_print(FILE *f, const struct cmp_group *g, int indent,
		       bool *had_na)
{
	const struct cmp_row *r;
	char lad[32];
	size_t i;
	int w;

	for (i = 0; i < g->nr_rows; i++) {
		r = &g->rows[i];
		lad_str(r->lad, lad, sizeof(lad));
		*had_na |= isnan(r->lad);
		/* Wider than a hop's table: "hop 2: " comes first. */
		w = 54 - indent - (int)strlen(r->name);
		if (w < 8)
			w = 8;
		fprintf(f, "  %*s%s%*.2f%10.2f%8s\n", indent, "", r->name, w,
			r->base_ns / 1e3, r->load_ns / 1e3, lad);
	}
}

static void held_print(FILE *f, const struct ntprof_chain_leg_stats *ls)
{
	if (ls->held_n)
		fprintf(f, "%.2f", ls->held_sum / (double)ls->held_n / 1e3);
	else
		fputc('-', f);
}

void cmp_chain_print(FILE *f, const struct cmp_chain *cc, bool *had_na)
{
	const struct cmp_chain_leg *cl;
	size_t i;

	fprintf(f, "  chain: baseline %" PRIu64 " commands followed to a leaf, loaded %" PRIu64 "\n",
		cc->base->followed, cc->load->followed);
	if (cc->hops_differ) {
		fprintf(f, "  (the runs' critical paths have %u and %u hops: the legs only)\n",
			cc->base->hops, cc->load->hops);
	} else {
		fprintf(f, "  %-44s%10s%10s%8s\n", "hop: stage", "base us",
			"load us", "LAD");
		rows_print(f, &cc->hops, 0, had_na);
	}
	for (i = 0; i < cc->nr_legs; i++) {
		cl = &cc->legs[i];
		fprintf(f, "  leg %s: n %" PRIu64 " -> %" PRIu64 ", critical %" PRIu64 " -> %" PRIu64,
			cl->cmp.label, cl->base->n, cl->load->n,
			cl->base->critical, cl->load->critical);
		/* Held: how long it kept the writes past the other legs. */
		if (cl->base->held_n || cl->load->held_n) {
			fputs(", held ", f);
			held_print(f, cl->base);
			fputs(" -> ", f);
			held_print(f, cl->load);
			fputs(" us", f);
		}
		fputc('\n', f);
		rows_print(f, &cl->cmp, 2, had_na);
	}
	fprintf(f, "  chain answer: %s\n", cc->answer);
}

static void row_json(struct ntprof_json *js, const struct cmp_row *r,
		     unsigned int hop)
{
	ntprof_json_obj_start(js, NULL);
	if (hop)
		ntprof_json_u64(js, "hop", hop);
	ntprof_json_str(js, "id", r->id);
	ntprof_json_str(js, "name", r->name);
	if (strcmp(r->base_name, r->load_name)) {
		ntprof_json_str(js, "base_name", r->base_name);
		ntprof_json_str(js, "load_name", r->load_name);
	}
	ntprof_json_num(js, "base_us", r->base_ns / 1e3, 3);
	ntprof_json_num(js, "load_us", r->load_ns / 1e3, 3);
	ntprof_json_num(js, "delta_us", (r->load_ns - r->base_ns) / 1e3, 3);
	ntprof_json_num(js, "lad", r->lad, 4);
	ntprof_json_num(js, "share", r->share, 4);
	ntprof_json_obj_end(js);
}

/* "largest": the row that changed the most, with its hop; or null. */
static void largest_json(struct ntprof_json *js, const struct cmp_group *g,
			 const uint8_t *row_hop)
{
	const struct cmp_row *r;

	if (g->largest < 0) {
		ntprof_json_str(js, "largest", NULL);
		return;
	}
	r = &g->rows[g->largest];
	ntprof_json_obj_start(js, "largest");
	if (row_hop)
		ntprof_json_u64(js, "hop", row_hop[g->largest]);
	ntprof_json_str(js, "id", r->id);
	ntprof_json_str(js, "name", r->name);
	ntprof_json_num(js, "delta_us", (r->load_ns - r->base_ns) / 1e3, 3);
	ntprof_json_num(js, "lad", r->lad, 4);
	ntprof_json_obj_end(js);
}

static double held_us(const struct ntprof_chain_leg_stats *ls)
{
	return ls->held_n ? ls->held_sum / (double)ls->held_n / 1e3 : NAN;
}

static void leg_json(struct ntprof_json *js, const struct cmp_chain_leg *cl)
{
	size_t i;

	ntprof_json_obj_start(js, NULL);
	ntprof_json_str(js, "label", cl->cmp.label);
	ntprof_json_u64(js, "hop", cl->base->hop);
	ntprof_json_u64(js, "base_n", cl->base->n);
	ntprof_json_u64(js, "load_n", cl->load->n);
	ntprof_json_u64(js, "base_critical", cl->base->critical);
	ntprof_json_u64(js, "load_critical", cl->load->critical);
	ntprof_json_num(js, "base_held_us", held_us(cl->base), 3);
	ntprof_json_num(js, "load_held_us", held_us(cl->load), 3);
	ntprof_json_arr_start(js, "stages");
	for (i = 0; i < cl->cmp.nr_rows; i++)
		row_json(js, &cl->cmp.rows[i], 0);
	ntprof_json_arr_end(js);
	largest_json(js, &cl->cmp, NULL);
	ntprof_json_str(js, "answer", cl->cmp.answer);
	ntprof_json_obj_end(js);
}

void cmp_chain_json(struct ntprof_json *js, const struct cmp_chain *cc)
{
	size_t i;

	ntprof_json_obj_start(js, "chain");
	ntprof_json_u64(js, "base_followed", cc->base->followed);
	ntprof_json_u64(js, "load_followed", cc->load->followed);
	ntprof_json_bool(js, "hops_differ", cc->hops_differ);
	ntprof_json_arr_start(js, "hops");
	for (i = 0; i < cc->hops.nr_rows; i++)
		row_json(js, &cc->hops.rows[i], cc->row_hop[i]);
	ntprof_json_arr_end(js);
	if (cc->hops_differ)
		ntprof_json_str(js, "largest", NULL);
	else
		largest_json(js, &cc->hops, cc->row_hop);
	ntprof_json_arr_start(js, "legs");
	for (i = 0; i < cc->nr_legs; i++)
		leg_json(js, &cc->legs[i]);
	ntprof_json_arr_end(js);
	ntprof_json_str(js, "moved_leg", cc->moved_leg >= 0 ?
			cc->legs[cc->moved_leg].cmp.label : NULL);
	ntprof_json_str(js, "answer", cc->answer);
	ntprof_json_obj_end(js);
}

/* Rows as compare --html's LAD table has them, the largest marked. */
static void rows_html(FILE *f, const struct cmp_group *g, const char *head)
{
	const struct cmp_row *r;
	size_t i;

	fputs("<tr><th>", f);
	html_escape(f, head);
	fputs("</th><th>base µs</th><th>load µs</th><th>LAD</th></tr>\n", f);
	for (i = 0; i < g->nr_rows; i++) {
		r = &g->rows[i];
		fprintf(f, "<tr%s><td>", (int)i == g->largest ?
			" class=\"largest\"" : "");
		html_escape(f, r->name);
		fprintf(f, "</td><td>%.2f</td><td>%.2f</td><td>", r->base_ns / 1e3,
			r->load_ns / 1e3);
		if (isnan(r->lad))
			fputs("n/a", f);
		else
			fprintf(f, "%.2f", r->lad);
		fputs("</td></tr>\n", f);
	}
}

void cmp_chain_html(FILE *f, const struct cmp_chain *cc)
{
	const struct cmp_chain_leg *cl;
	size_t i;

	fprintf(f, "<div class=\"chain\"><p>through the chain: baseline %" PRIu64 " commands followed to a leaf, loaded %" PRIu64 "</p>\n",
		cc->base->followed, cc->load->followed);
	if (cc->hops_differ) {
		fprintf(f, "<p class=\"note\">the runs' critical paths have %u and %u hops: the legs only</p>\n",
			cc->base->hops, cc->load->hops);
	} else {
		fputs("<table class=\"lad chain-hops\">\n", f);
		rows_html(f, &cc->hops, "hop: stage");
		fputs("</table>\n", f);
	}
	for (i = 0; i < cc->nr_legs; i++) {
		cl = &cc->legs[i];
		fputs("<table class=\"lad chain-leg\"><caption>leg ", f);
		html_escape(f, cl->cmp.label);
		fprintf(f, ": n %" PRIu64 " &#8594; %" PRIu64 ", critical %" PRIu64 " &#8594; %" PRIu64 "</caption>\n",
			cl->base->n, cl->load->n, cl->base->critical,
			cl->load->critical);
		rows_html(f, &cl->cmp, "stage");
		fputs("</table>\n", f);
	}
	fputs("<p class=\"answer chain-answer\">chain answer: ", f);
	html_escape_us(f, cc->answer);
	fputs("</p>\n</div>\n", f);
}
