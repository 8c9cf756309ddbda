// SPDX-License-Identifier: GPL-2.0
/*
 * The events section of a report: each episode of a host's controllers
 * (analysis/ctl_events.h) at its time on its recording's clock (seconds
 * from the session's start), with its duration where it has an end
 * within the recording, and the attempts to connect it made, each with
 * its time and result.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "out/report_events.h"

/* A recording's events, its parts' in their order, in one array. */
static int recording_events(const struct recording *rec,
			    struct ntp_event **ev, size_t *n, uint64_t *lost)
{
	const struct ntp_event *e;
	struct ntp_event *all;
	uint64_t drops;
	size_t i, k;

	*ev = NULL;
	*n = 0;
	for (i = 0; i < rec->nr_parts; i++) {
		if (!rec->parts[i].file)
			continue;
		e = ntp_events(rec->parts[i].file, &k, &drops);
		/* Each part counts the session's drops so far. */
		if (drops > *lost)
			*lost = drops;
		if (!k)
			continue;
		all = realloc(*ev, (*n + k) * sizeof(*all));
		if (!all)
			return -ENOMEM;
		memcpy(all + *n, e, k * sizeof(*all));
		*ev = all;
		*n += k;
	}
	return 0;
}

int report_events_collect(const struct recording_run *run,
			  struct ntprof_ctl_event **out, size_t *n,
			  uint64_t *lost)
{
	const struct recording *rec;
	struct ntp_event *ev;
	size_t i, nev, cap = 0;
	uint64_t drops;
	int err = 0;

	*out = NULL;
	*n = 0;
	*lost = 0;
	for (i = 0; i < run->nr_files && !err; i++) {
		rec = &run->files[i];
		drops = 0;
		err = recording_events(rec, &ev, &nev, &drops);
		if (!err)
			err = ntprof_ctl_events(ev, nev,
						rec->parts[0].hdr->start_mono_ns,
						i, out, n, &cap);
		*lost += drops;
		free(ev);
	}
	return err;
}

/* Seconds from the file's session start. */
static double ctl_time_s(const struct recording_run *run, uint32_t file,
			 uint64_t t)
{
	uint64_t start = run->files[file].parts[0].hdr->start_mono_ns;

	return t >= start ? (t - start) / 1e9 : -((start - t) / 1e9);
}

static double ctl_duration_s(const struct ntprof_ctl_event *e)
{
	if (e->kind == NTPROF_CTL_DELETE || !e->end_ns)
		return NAN;
	return (e->end_ns - e->start_ns) / 1e9;
}

/* nvmeN on a host; a target's controller by its id, cntlid=N. */
static void ctl_name(const struct ntprof_ctl_event *e, char *buf,
		     size_t size)
{
	snprintf(buf, size, e->kind == NTPROF_CTL_NVMET_CTRL ?
		 "cntlid=%" PRIu32 : "nvme%" PRIu32, e->ctrl);
}

static const char *ctl_machine(const struct recording_run *run,
			       uint32_t file)
{
	return run->files[file].hdr->hostname;
}

/* The attempts line under an episode that made any. */
static void print_attempts(FILE *f, const struct recording_run *run,
			   const struct ntprof_ctl_event *e)
{
	uint32_t i, shown = e->attempts < NTPROF_CTL_ATTEMPTS_MAX ?
			    e->attempts : NTPROF_CTL_ATTEMPTS_MAX;

	fprintf(f, "  %12s  %" PRIu32 " attempt%s:", "", e->attempts,
		e->attempts == 1 ? "" : "s");
	for (i = 0; i < shown; i++)
		fprintf(f, "%s %.6f %s", i ? "," : "",
			ctl_time_s(run, e->file, e->attempt_ns[i]),
			ntprof_ctl_attempt_result(e, i));
	if (shown < e->attempts)
		fprintf(f, ", and %" PRIu32 " more", e->attempts - shown);
	fputc('\n', f);
}

int report_events_print(FILE *f, const struct recording_run *run)
{
	struct ntprof_ctl_event *ev;
	uint64_t lost;
	double d;
	size_t i, n;
	char name[32];
	int err;

	err = report_events_collect(run, &ev, &n, &lost);
	if (err || (!n && !lost)) {
		free(ev);
		return err;
	}
	fprintf(f, "\nevents (control path, seconds from the recording's start)\n");
	fprintf(f, "  %12s  %-12s  %-10s  %12s  %s\n", "time s", "controller",
		"event", "duration s", "ended");
	for (i = 0; i < n; i++) {
		ctl_name(&ev[i], name, sizeof(name));
		d = ctl_duration_s(&ev[i]);
		fprintf(f, "  %12.6f  %-12s  %-10s  ",
			ctl_time_s(run, ev[i].file, ev[i].start_ns), name,
			ntprof_ctl_kind_name(ev[i].kind));
		if (isnan(d))
			fprintf(f, "%12s  %s", "-",
				ev[i].kind == NTPROF_CTL_DELETE ? "" :
				"not within the recording");
		else
			fprintf(f, "%12.6f  %s", d,
				ntprof_ctl_end_name(ev[i].end));
		if (run->nr_files > 1)
			fprintf(f, "  (%s)", ctl_machine(run, ev[i].file));
		if (ev[i].kind == NTPROF_CTL_RECOVERY)
			fprintf(f, "  under way when the recording started");
		else if (ev[i].before_start)
			fprintf(f, "  created before the recording started");
		fputc('\n', f);
		if (ev[i].attempts)
			print_attempts(f, run, &ev[i]);
	}
	if (lost)
		fprintf(f, "  %" PRIu64 " events lost: the module's buffer of them was full\n",
			lost);
	free(ev);
	return 0;
}

/*
 * An episode's attempts to connect: how many, and the first
 * NTPROF_CTL_ATTEMPTS_MAX with their time and result. Only an episode
 * that made some has them: a recording by a module before these events
 * has none, and says nothing of them rather than 0.
 */
static void json_attempts(struct ntprof_json *js,
			  const struct recording_run *run,
			  const struct ntprof_ctl_event *e)
{
	uint32_t i;

	ntprof_json_u64(js, "attempt_count", e->attempts);
	ntprof_json_arr_start(js, "attempts");
	for (i = 0; i < e->attempts && i < NTPROF_CTL_ATTEMPTS_MAX; i++) {
		ntprof_json_obj_start(js, NULL);
		ntprof_json_num(js, "start_s",
				ctl_time_s(run, e->file, e->attempt_ns[i]), 6);
		ntprof_json_str(js, "result", ntprof_ctl_attempt_result(e, i));
		ntprof_json_obj_end(js);
	}
	ntprof_json_arr_end(js);
}

int report_events_json(struct ntprof_json *js,
		       const struct recording_run *run)
{
	struct ntprof_ctl_event *ev;
	uint64_t lost;
	char name[32];
	size_t i, n;
	int err;

	err = report_events_collect(run, &ev, &n, &lost);
	if (err || (!n && !lost)) {
		free(ev);
		return err;
	}
	ntprof_json_arr_start(js, "events");
	for (i = 0; i < n; i++) {
		ctl_name(&ev[i], name, sizeof(name));
		ntprof_json_obj_start(js, NULL);
		ntprof_json_str(js, "type", ntprof_ctl_kind_name(ev[i].kind));
		ntprof_json_str(js, "controller", name);
		ntprof_json_str(js, "machine", ctl_machine(run, ev[i].file));
		ntprof_json_num(js, "start_s",
				ctl_time_s(run, ev[i].file, ev[i].start_ns), 6);
		ntprof_json_num(js, "duration_s", ctl_duration_s(&ev[i]), 6);
		ntprof_json_str(js, "end", ev[i].kind == NTPROF_CTL_DELETE ?
			       NULL : ntprof_ctl_end_name(ev[i].end));
		ntprof_json_bool(js, "before_start", ev[i].before_start);
		if (ev[i].attempts)
			json_attempts(js, run, &ev[i]);
		ntprof_json_obj_end(js);
	}
	ntprof_json_arr_end(js);
	ntprof_json_u64(js, "events_lost", lost);
	free(ev);
	return 0;
}
