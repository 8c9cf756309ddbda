// SPDX-License-Identifier: GPL-2.0
/*
 * The control path in report --html: each episode of the hosts'
 * controllers (ctl_marks.c) as a band of every group's timeline, from
 * its start to its end (to the recording's end when it had none), and a
 * table of them in the words and numbers of the text report's events
 * section (report_events.c), which the page must agree with, over a
 * chart of its own: a row per controller, each episode a bar on the
 * seconds from its recording's start, so that the page shows the events
 * in time even where no group has a timeline (no command at all).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "out/ctl_marks.h"
#include "out/html.h"
#include "out/report_events.h"
#include "out/report_html_events.h"
#include "out/svg_axes.h"

/* The events chart: its plot from EV_L to EV_R, a row per controller. */
#define EV_L		110.0
#define EV_R		700.0
#define EV_TOP		30.0
#define EV_ROW		22.0
#define EV_COLOUR	"#e15759"

/* Seconds from @t0 (negative: before it). */
static double since(uint64_t t0, uint64_t t)
{
	return t >= t0 ? (double)(t - t0) / 1e9 : -((double)(t0 - t) / 1e9);
}

int report_html_bands(const struct recording_run *run, int role,
		      uint64_t t0, struct chart_band **out, size_t *n)
{
	struct chart_band *b;
	struct ctl_mark *m;
	size_t i, nm;
	bool machines;
	int err;

	*out = NULL;
	*n = 0;
	err = ctl_marks_collect(run, role, &m, &nm);
	if (err || !nm) {
		free(m);
		return err;
	}
	b = calloc(nm, sizeof(*b));
	if (!b) {
		free(m);
		return -ENOMEM;
	}
	machines = ctl_marks_machines(m, nm);
	for (i = 0; i < nm; i++) {
		b[i].start_s = since(t0, m[i].start_ns);
		b[i].end_s = since(t0, m[i].end_ns);
		b[i].open = m[i].open;
		ctl_mark_name(&m[i], machines, b[i].label, sizeof(b[i].label));
	}
	free(m);
	*out = b;
	*n = nm;
	return 0;
}

/* Seconds from the session's start of @file, as the text report's. */
static double session_s(const struct recording_run *run, uint32_t file,
			uint64_t t)
{
	return since(run->files[file].parts[0].hdr->start_mono_ns, t);
}

/* The row of @m: the first mark of its file and controller. */
static size_t row_of(const struct ctl_mark *m, size_t i, size_t *rows)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (m[j].file == m[i].file && m[j].ctrl == m[i].ctrl)
			return rows[j];
	return SIZE_MAX;
}

/* One episode's bar on the row at @y, with its hover title. */
static void events_bar(FILE *f, const struct ctl_mark *m, bool machines,
		       const struct svg_scale *xs, double s0, double y)
{
	double s1 = s0 + ctl_mark_duration_s(m);
	double x0 = svg_pos(xs, s0), x1 = svg_pos(xs, s1);
	char name[96];

	ctl_mark_name(m, machines, name, sizeof(name));
	fputs("<g class=\"event-bar\"><title>", f);
	html_escape(f, name);
	if (m->instant)
		fprintf(f, ": at %.3f s", s0);
	else
		fprintf(f, ": %.3f s to %.3f s, %.3f s%s", s0, s1, s1 - s0,
			m->open ? " at least, still out at the recording's end" :
			"");
	fprintf(f, "</title><rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" fill-opacity=\"%s\"/>",
		x0, y + 3, x1 - x0 < 1.5 ? 1.5 : x1 - x0, EV_ROW - 6,
		EV_COLOUR, m->kind == NTPROF_CTL_CONNECT ? "0.35" : "0.8");
	/* Its kind beside its start, left of it near the plot's right end. */
	fprintf(f, "<text class=\"bar-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text></g>\n",
		x0 > EV_R - 80 ? x0 - 3 : x0 + 3, y + EV_ROW / 2 + 4,
		x0 > EV_R - 80 ? "end" : "start",
		ntprof_ctl_kind_name(m->kind));
}

/*
 * The chart of the events: a row per controller (and machine), from the
 * recordings' start to the last one's end, each episode a bar.
 */
static void events_chart(FILE *f, const struct recording_run *run,
			 const struct ctl_mark *m, size_t n)
{
	bool machines = ctl_marks_machines(m, n);
	double hi = 0, s0, y;
	size_t i, nrows = 0, *rows, *first;
	struct svg_scale xs;
	char name[96];

	rows = calloc(n, sizeof(*rows));
	first = calloc(n, sizeof(*first));
	if (!rows || !first)
		goto out;
	for (i = 0; i < n; i++) {
		rows[i] = row_of(m, i, rows);
		if (rows[i] == SIZE_MAX) {
			first[nrows] = i;
			rows[i] = nrows++;
		}
		s0 = session_s(run, m[i].file, m[i].end_ns);
		hi = s0 > hi ? s0 : hi;
	}
	for (i = 0; i < run->nr_files; i++)
		if ((double)run->files[i].duration_ns / 1e9 > hi)
			hi = (double)run->files[i].duration_ns / 1e9;
	svg_scale_linear(&xs, 0, hi > 0 ? hi : 1, 6, EV_L, EV_R, SVG_SECONDS);
	y = EV_TOP + EV_ROW * (double)nrows;
	fprintf(f, "<svg class=\"events-chart\" width=\"720\" height=\"%.0f\" role=\"img\">\n"
		"<text class=\"chart-title\" x=\"10\" y=\"14\">the controllers' episodes over the recording</text>\n",
		y + 60);
	svg_axis_x(f, &xs, y, EV_TOP, "time since the recording's start");
	for (i = 0; i < nrows; i++) {
		snprintf(name, sizeof(name), "nvme%" PRIu32, m[first[i]].ctrl);
		fprintf(f, "<text class=\"row-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">",
			EV_L - 6, EV_TOP + EV_ROW * ((double)i + 0.5) + 4);
		html_escape(f, name);
		if (machines) {
			fputs(" ", f);
			html_escape(f, m[first[i]].machine);
		}
		fputs("</text>\n", f);
	}
	for (i = 0; i < n; i++)
		events_bar(f, &m[i], machines, &xs,
			   session_s(run, m[i].file, m[i].start_ns),
			   EV_TOP + EV_ROW * (double)rows[i]);
	fputs("<g class=\"legend\">\n", f);
	svg_legend_item(f, EV_L, y + 52, EV_COLOUR, SVG_SWATCH_BOX,
			"an episode: reset, loss, recovery (solid), connect (light), delete (a line)");
	fputs("</g>\n</svg>\n", f);
out:
	free(rows);
	free(first);
}

int report_html_events(FILE *f, const struct recording_run *run)
{
	struct ctl_mark *m;
	size_t nm;

	struct ntprof_ctl_event *ev;
	uint64_t lost;
	size_t i, n;
	int err;

	err = report_events_collect(run, &ev, &n, &lost);
	if (err || (!n && !lost)) {
		free(ev);
		return err;
	}
	fputs("<section class=\"events\"><h2>events</h2>\n", f);
	err = ctl_marks_collect(run, -1, &m, &nm);
	if (err) {
		free(ev);
		return err;
	}
	if (nm)
		events_chart(f, run, m, nm);
	free(m);
	fputs("<table class=\"events\"><caption>control path, seconds from the recording's start</caption>\n"
	      "<tr><th>time s</th><th>controller</th><th>event</th><th>duration s</th><th>ended</th><th>machine</th></tr>\n",
	      f);
	for (i = 0; i < n; i++) {
		fprintf(f, "<tr class=\"event\"><td>%.6f</td><td>nvme%" PRIu32 "</td><td>%s</td>",
			session_s(run, ev[i].file, ev[i].start_ns), ev[i].ctrl,
			ntprof_ctl_kind_name(ev[i].kind));
		if (ev[i].kind == NTPROF_CTL_DELETE)
			fputs("<td>-</td><td></td>", f);
		else if (!ev[i].end_ns)
			fputs("<td>-</td><td>not within the recording</td>", f);
		else
			fprintf(f, "<td>%.6f</td><td>%s</td>",
				(double)(ev[i].end_ns - ev[i].start_ns) / 1e9,
				ntprof_ctl_end_name(ev[i].end));
		fputs("<td>", f);
		html_escape(f, run->files[ev[i].file].hdr->hostname);
		if (ev[i].kind == NTPROF_CTL_RECOVERY)
			fputs(" (under way when the recording started)", f);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	if (lost)
		fprintf(f, "<p class=\"warning\">%" PRIu64 " events lost: the module's buffer of them was full</p>\n",
			lost);
	fputs("</section>\n", f);
	free(ev);
	return 0;
}
