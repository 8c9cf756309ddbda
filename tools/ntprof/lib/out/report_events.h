/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report's control-path events (Documentation/stages.rst, "Control-path
 * events"): what happened to the hosts' controllers while they recorded,
 * in text and in JSON's "events".
 */
#ifndef NTPROF_REPORT_EVENTS_H
#define NTPROF_REPORT_EVENTS_H

#include <stdio.h>

#include "analysis/ctl_events.h"
#include "analysis/recording.h"
#include "out/json.h"

/*
 * The episodes of every file of @run, a file's in its order: *@out (free
 * it; NULL when none), *@n, and the events the modules dropped, *@lost.
 * 0 or -ENOMEM.
 */
int report_events_collect(const struct recording_run *run,
			  struct ntprof_ctl_event **out, size_t *n,
			  uint64_t *lost);

/* The "events" section, when there is one. 0 or -ENOMEM. */
int report_events_print(FILE *f, const struct recording_run *run);

/* "events": [...] and "events_lost", when there are any. 0 or -ENOMEM. */
int report_events_json(struct ntprof_json *js,
		       const struct recording_run *run);

#endif /* NTPROF_REPORT_EVENTS_H */
