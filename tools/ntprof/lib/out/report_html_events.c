// SPDX-License-Identifier: GPL-2.0
/*
 * The control path in report --html: each episode of the hosts'
 * controllers (ctl_marks.c) as a band of every group's timeline, from
 * its start to its end (to the recording's end when it had none), and a
 * table of them in the words and numbers of the text report's events
 * section (report_events.c), which the page must agree with.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "out/ctl_marks.h"
#include "out/html.h"
#include "out/report_events.h"
#include "out/report_html_events.h"

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

int report_html_events(FILE *f, const struct recording_run *run)
{
	struct ntprof_ctl_event *ev;
	uint64_t lost;
	size_t i, n;
	int err;

	err = report_events_collect(run, &ev, &n, &lost);
	if (err || (!n && !lost)) {
		free(ev);
		return err;
	}
	fputs("<section class=\"events\"><h2>events</h2>\n"
	      "<table class=\"events\"><caption>control path, seconds from the recording's start</caption>\n"
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
