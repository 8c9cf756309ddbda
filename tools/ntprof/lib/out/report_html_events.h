/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report --html's control-path events (report_html_events.c): the bands
 * of the timelines, and the events table the text report has.
 */
#ifndef NTPROF_REPORT_HTML_EVENTS_H
#define NTPROF_REPORT_HTML_EVENTS_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/recording.h"
#include "out/report_charts.h"

/*
 * The episodes of @run's files of @role as bands of a timeline from @t0
 * on that side's clock: *@out (free it; NULL when none), *@n. 0 or
 * -ENOMEM.
 */
int report_html_bands(const struct recording_run *run, int role,
		      uint64_t t0, struct chart_band **out, size_t *n);

/* The events section: a table of the text report's events. 0 or -ENOMEM. */
int report_html_events(FILE *f, const struct recording_run *run);

#endif /* NTPROF_REPORT_HTML_EVENTS_H */
