// SPDX-License-Identifier: GPL-2.0
/*
 * The control-path episodes of a run as marks on a time axis. The
 * episodes are report's (report_events_collect()); a mark adds what a
 * drawing needs and an episode leaves open: where it ends when the
 * recording stopped first (the recording's end: the controller was out
 * until then at least), and its machine's name.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out/ctl_marks.h"
#include "out/report_events.h"

/* The end of @rec on its clock: its first part's start plus its duration. */
static uint64_t recording_end_ns(const struct recording *rec)
{
	uint64_t start = rec->parts[0].hdr->part_start_mono_ns;

	if (!start)
		start = rec->hdr->start_mono_ns;
	return start + rec->duration_ns;
}

int ctl_marks_collect(const struct recording_run *run, int role,
		      struct ctl_mark **out, size_t *n)
{
	struct ntprof_ctl_event *ev;
	struct ctl_mark *m;
	uint64_t lost, end;
	size_t i, k, nev;
	int err;

	*out = NULL;
	*n = 0;
	err = report_events_collect(run, &ev, &nev, &lost);
	if (err || !nev) {
		free(ev);
		return err;
	}
	m = calloc(nev, sizeof(*m));
	if (!m) {
		free(ev);
		return -ENOMEM;
	}
	for (i = k = 0; i < nev; i++) {
		if (role >= 0 && run->files[ev[i].file].hdr->role != role)
			continue;
		m[k] = (struct ctl_mark) {
			.kind = ev[i].kind, .ctrl = ev[i].ctrl,
			.file = ev[i].file,
			.machine = run->files[ev[i].file].hdr->hostname,
			.start_ns = ev[i].start_ns, .end_ns = ev[i].end_ns,
			.instant = ev[i].kind == NTPROF_CTL_DELETE,
		};
		if (m[k].instant) {
			m[k].end_ns = m[k].start_ns;
		} else if (!ev[i].end_ns) {
			end = recording_end_ns(&run->files[ev[i].file]);
			m[k].open = true;
			m[k].end_ns = end > m[k].start_ns ? end : m[k].start_ns;
		}
		k++;
	}
	free(ev);
	if (!k) {
		free(m);
		m = NULL;
	}
	*out = m;
	*n = k;
	return 0;
}

bool ctl_mark_is_outage(uint8_t kind)
{
	return kind == NTPROF_CTL_RESET || kind == NTPROF_CTL_LOSS ||
	       kind == NTPROF_CTL_RECOVERY;
}

double ctl_mark_duration_s(const struct ctl_mark *m)
{
	return (double)(m->end_ns - m->start_ns) / 1e9;
}

void ctl_mark_name(const struct ctl_mark *m, bool machine, char *buf,
		   size_t size)
{
	if (machine)
		snprintf(buf, size, "%s nvme%" PRIu32 " (%s)",
			 ntprof_ctl_kind_name(m->kind), m->ctrl, m->machine);
	else
		snprintf(buf, size, "%s nvme%" PRIu32,
			 ntprof_ctl_kind_name(m->kind), m->ctrl);
}

bool ctl_marks_machines(const struct ctl_mark *m, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (strcmp(m[i].machine, m[0].machine))
			return true;
	return false;
}
