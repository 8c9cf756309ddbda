/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The control-path episodes (analysis/ctl_events.h) as the views with a
 * time axis mark them (ctl_marks.c): report --timeline's rows and marks,
 * report --html's bands, compare's count of outages per run. An episode
 * without an end runs to the end of its recording there.
 */
#ifndef NTPROF_CTL_MARKS_H
#define NTPROF_CTL_MARKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/ctl_events.h"
#include "analysis/recording.h"

struct ctl_mark {
	uint8_t kind;		/* enum ntprof_ctl_kind */
	uint32_t ctrl;		/* N of nvmeN */
	uint32_t file;		/* index in the run's files */
	const char *machine;	/* its file's hostname */
	uint64_t start_ns;	/* CLOCK_MONOTONIC of its machine */
	/* Its end, or the recording's end when @open; @start_ns: an instant. */
	uint64_t end_ns;
	bool open;		/* no end within the recording */
	bool instant;		/* a delete */
};

/*
 * ctl_marks_collect() - the episodes of the files of @run of role @role
 * (NTPROF_ROLE_*; -1: every file) as marks, in the files' order: *@out
 * (free it; NULL when none) and *@n. A view on one side's clock takes
 * that side's alone. 0 or -ENOMEM.
 */
int ctl_marks_collect(const struct recording_run *run, int role,
		      struct ctl_mark **out, size_t *n);

/*
 * ctl_mark_is_outage() - tell whether @kind is a time the controller was
 * not live after it had been (a reset, a loss, a recovery): the commands
 * sent to it wait, or fail over.
 */
bool ctl_mark_is_outage(uint8_t kind);

/* @m's duration in seconds (to the recording's end when open). */
double ctl_mark_duration_s(const struct ctl_mark *m);

/*
 * ctl_mark_name() - "loss nvme1", with " (host1)" when @machine is set:
 * a run of more than one host machine.
 */
void ctl_mark_name(const struct ctl_mark *m, bool machine, char *buf,
		   size_t size);

/*
 * ctl_marks_machines() - tell whether @run's marks come from more than
 * one machine, so that a mark must name its machine.
 */
bool ctl_marks_machines(const struct ctl_mark *m, size_t n);

#endif /* NTPROF_CTL_MARKS_H */
