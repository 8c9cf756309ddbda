// SPDX-License-Identifier: GPL-2.0
/*
 * What report --html says in words and tables beside its charts: every
 * line of the text report, so that the page tells what the text tells.
 * The lines are the text's own, printed by table.c and run_notes.c into
 * memory and set as HTML here, so that no number can differ; the stage
 * and component tables are the text's columns as HTML tables.
 */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/names.h"
#include "common/util.h"
#include "out/html.h"
#include "out/report_html_text.h"
#include "out/run_notes.h"
#include "out/table.h"

/* The text @print writes, in memory (NULL when out of memory). */
static char *text_of(void (*print)(FILE *f, const void *arg), const void *arg)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *m = open_memstream(&buf, &size);

	if (!m)
		return NULL;
	print(m, arg);
	if (fclose(m)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * Each line of @text that starts with @prefix (after its indent; NULL:
 * every line) as a <p> of class @cls, its indent and @strip characters
 * taken off; a WARNING line gets the class "warning".
 */
static void html_lines(FILE *f, const char *text, const char *prefix,
		       size_t strip, const char *cls)
{
	const char *line, *end, *p;
	char *s;

	for (line = text; line && *line; line = *end ? end + 1 : end) {
		end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line);
		for (p = line; *p == ' ' && p < end; p++)
			;
		if (p == end || (prefix && strncmp(p, prefix, strlen(prefix))))
			continue;
		s = strndup(p + strip, (size_t)(end - p) - strip);
		if (!s)
			return;
		fprintf(f, "<p class=\"%s\">",
			!strncmp(s, "WARNING:", 8) ? "warning" : cls);
		html_escape_us(f, s);
		fputs("</p>\n", f);
		free(s);
	}
}

static void print_origin(FILE *f, const void *run)
{
	recording_run_print_origin(f, run);
}

static void print_throughput(FILE *f, const void *run)
{
	ntprof_print_throughput(f, ((const struct recording_run *)run)->an);
}

static void print_records(FILE *f, const void *run)
{
	recording_run_print_records(f, run);
}

/* The page's notes are --detail's: its components are on the page. */
static void print_notes(FILE *f, const void *run)
{
	recording_run_print_notes(f, run, true);
}

static const char *role_name(const struct recording *rec)
{
	return rec->hdr->role == NTPROF_ROLE_HOST ? "host" : "target";
}

void report_html_head(FILE *f, const struct recording_run *run)
{
	const struct recording *rec;
	char *text;
	size_t i;

	text = text_of(print_origin, run);
	html_lines(f, text, NULL, 0, "origin");
	free(text);
	fputs("<table class=\"files\"><tr><th>file</th><th>side</th><th>transport</th><th>machine</th><th>kernel</th><th>records</th></tr>\n", f);
	for (i = 0; i < run->nr_files; i++) {
		rec = &run->files[i];
		fputs("<tr><td>", f);
		html_escape(f, rec->path);
		if (rec->nr_parts > 1)
			fprintf(f, " (%zu parts)", rec->nr_parts);
		fprintf(f, "</td><td>%s</td><td>%s</td><td>", role_name(rec),
			rec->hdr->transport == NTPROF_TRANSPORT_NONE ? "any" :
			ntprof_transport_id(rec->hdr->transport));
		html_escape(f, rec->hdr->hostname);
		fputs("</td><td>", f);
		html_escape(f, rec->hdr->kernel_release);
		fprintf(f, "</td><td>%zu</td></tr>\n", rec->n);
	}
	fputs("</table>\n", f);
	text = text_of(print_throughput, run);
	html_lines(f, text, NULL, 0, "throughput");
	free(text);
}

void report_html_foot(FILE *f, const struct recording_run *run)
{
	char *text;

	text = text_of(print_records, run);
	html_lines(f, text, NULL, 0, "records");
	free(text);
	text = text_of(print_notes, run);
	html_lines(f, text, NULL, 0, "note");
	free(text);
}

static void print_group(FILE *f, const void *g)
{
	ntprof_print_group(f, NULL, g, false);
}

void report_html_group_head(FILE *f, const struct ntprof_group *g)
{
	const struct ntprof_stats *e2e = &g->comp[NTPROF_COMP_E2E];
	char *text = text_of(print_group, g);

	/* "== read 4KiB nvme1n1: 2999 commands sampled (...)" */
	html_lines(f, text, "== ", 3, "group-head");
	free(text);
	if (!g->n_table)
		return;
	fprintf(f, "<p class=\"latency\">latency%s: mean %.2f µs, p50 %.2f µs, p99 %.2f µs, p99.9 %.2f µs</p>\n",
		g->kind == NTPROF_KIND_TARGET ? " at the target" : "",
		e2e->mean / 1e3, e2e->p50 / 1e3, e2e->p99 / 1e3,
		e2e->p999 / 1e3);
}

/* The text's stage table: mean, share, average queue depth. */
void report_html_stages(FILE *f, const struct ntprof_group *g)
{
	char *text;
	size_t i;
	int s;

	fputs("<table class=\"stages\"><tr><th>stage</th><th>mean µs</th><th>share</th><th>avg QD</th></tr>\n", f);
	for (i = 0; i < NTPROF_STAGE_COUNT; i++) {
		s = ntprof_stage_order[i];
		if (!(g->stage_has & BIT(s)))
			continue;
		fprintf(f, "<tr%s><td>", s == g->largest ?
			" class=\"largest\"" : "");
		html_escape(f, ntprof_stage_name(s, g->transport, g->kind,
						 g->stacks));
		fprintf(f, "</td><td>%.2f</td>", g->stage_mean[s] / 1e3);
		if (isnan(g->stage_share[s]))
			fputs("<td>-</td>", f);
		else
			fprintf(f, "<td>%.0f %%</td>",
				fabs(g->stage_share[s]) < 0.5 ? 0 :
				g->stage_share[s]);
		if (isnan(g->stage_qd[s]))
			fputs("<td>-</td></tr>\n", f);
		else
			fprintf(f, "<td>%.2f</td></tr>\n", g->stage_qd[s]);
	}
	fputs("</table>\n", f);
	text = text_of(print_group, g);
	html_lines(f, text, "largest: ", 0, "largest");
	free(text);
}

/* One row of the component table; @sub: a part already in another row. */
static void comp_row(FILE *f, const struct ntprof_group *g, int c, bool sub)
{
	const struct ntprof_stats *st = &g->comp[c];
	int owner = -1;

	if (!st->n) {
		owner = ntprof_group_merged_into(g, c);
		if (owner < 0)
			return;	/* not on this path */
	}
	fprintf(f, "<tr%s><td>", sub ? " class=\"sub\"" : "");
	html_escape(f, ntprof_comp_name(c, g->transport, g->stacks));
	fprintf(f, "</td><td>%" PRIu64 "</td>", st->n);
	if (owner >= 0) {
		fputs("<td colspan=\"4\">merged into ", f);
		html_escape(f, ntprof_comp_name(owner, g->transport,
						g->stacks));
		fputs("</td></tr>\n", f);
		return;
	}
	fprintf(f, "<td>%.2f</td>", st->mean / 1e3);
	if (isnan(g->comp_qd[c]))
		fputs("<td>-</td>", f);
	else
		fprintf(f, "<td>%.2f</td>", g->comp_qd[c]);
	fprintf(f, "<td>%.2f</td><td>%.2f</td></tr>\n", st->p50 / 1e3,
		st->p99 / 1e3);
}

/*
 * The --detail table, in the text's order (table.c's print_components):
 * the data transfer under the wire it belongs to for reads, else after
 * the target; the sub-rows indented.
 */
void report_html_components(FILE *f, const struct ntprof_group *g)
{
	static const int path[] = {
		NTPROF_COMP_HOST_BLK_SUB, NTPROF_COMP_HOST_DRV_SUB,
		NTPROF_COMP_WIRE, -1, NTPROF_COMP_NET_TARGET,
		NTPROF_COMP_TGT_DRV_SUB, NTPROF_COMP_HOST_DATA,
		NTPROF_COMP_STORAGE_BLK, NTPROF_COMP_DRIVE,
		NTPROF_COMP_TGT_DRV_COMP, -2, NTPROF_COMP_HOST_RECV,
		NTPROF_COMP_HOST_DRV_COMP, NTPROF_COMP_HANDOFF,
		NTPROF_COMP_HOST_BLK_COMP, NTPROF_COMP_E2E,
	};
	bool wire = g->comp[NTPROF_COMP_WIRE].n;
	char *text;
	size_t i;
	int c;

	fputs("<table class=\"components\"><caption>components, in path order (L: commands in each, by Little's law); an indented row is a part of the row above it, already counted there: the rows above the end to end that are not indented add up to it</caption>\n"
	      "<tr><th>component</th><th>n</th><th>mean µs</th><th>L</th><th>p50 µs</th><th>p99 µs</th></tr>\n", f);
	for (i = 0; i < ARRAY_SIZE(path); i++) {
		c = path[i];
		if (c == -1 || c == -2) {
			if (wire == (c == -1))
				comp_row(f, g, NTPROF_COMP_DATA_XFER, true);
			continue;
		}
		comp_row(f, g, c, c == NTPROF_COMP_HANDOFF);
	}
	fputs("</table>\n", f);
	/* The text's notes under its tables: merged components, drops. */
	text = text_of(print_group, g);
	html_lines(f, text, "merged: ", 0, "note");
	html_lines(f, text, "note: ", 0, "note");
	free(text);
}
