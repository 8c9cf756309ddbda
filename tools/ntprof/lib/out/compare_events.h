/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare's control-path events (compare_events.c): per run, its
 * controllers' episodes counted by kind and its outage seconds, and a
 * verdict when one run had an outage and the other none, for the slow
 * commands of such a run may be the outage's, not a stage's.
 */
#ifndef NTPROF_COMPARE_EVENTS_H
#define NTPROF_COMPARE_EVENTS_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/recording.h"
#include "out/ctl_marks.h"
#include "out/json.h"

struct cmp_events_side {
	struct ctl_mark *m;
	size_t n;
	uint64_t lost;		/* events the modules dropped */
	size_t outages;		/* resets, losses, recoveries */
	size_t open;		/* of them, still out at the recording's end */
	double outage_s;	/* their seconds, an open one's to the end */
	bool machines;		/* from more than one machine */
};

struct cmp_events {
	struct cmp_events_side side[2];	/* base, load */
	/* The verdict, or "" when neither or both runs had an outage. */
	char verdict[512];
};

/* Both runs' events and the verdict; 0 or -ENOMEM. */
int cmp_events_make(const struct recording_run *base,
		    const struct recording_run *load, struct cmp_events *ce);
void cmp_events_free(struct cmp_events *ce);

/* Whether either run has an event (or lost one): else nothing is shown. */
bool cmp_events_any(const struct cmp_events *ce);

/* The section "events": a line per run. */
void cmp_events_print(FILE *f, const struct cmp_events *ce);
/* "outage: ...", the verdict's line, when there is one. */
void cmp_events_print_verdict(FILE *f, const struct cmp_events *ce);
/*
 * compare --html's: the section's lines in a <section class="events">,
 * the verdict in a <p class="answer outage">; nothing without events.
 */
void cmp_events_html(FILE *f, const struct cmp_events *ce);
/* A run's "events" member of its JSON object (@load: the load run's). */
void cmp_events_json_side(struct ntprof_json *js, const struct cmp_events *ce,
			  bool load);

#endif /* NTPROF_COMPARE_EVENTS_H */
