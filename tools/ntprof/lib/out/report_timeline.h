/* SPDX-License-Identifier: GPL-2.0 */
/* ntprof report --timeline: the stages per time slice (report_timeline.c). */
#ifndef NTPROF_REPORT_TIMELINE_H
#define NTPROF_REPORT_TIMELINE_H

#include <stdio.h>

struct ntprof_json;
struct recording_run;

/*
 * Per group, a line per @slice_s seconds; 0, -E2BIG (more than 100,000
 * slices), -EINVAL (a slice under a nanosecond) or -ENOMEM.
 */
int report_timeline_print(FILE *f, const struct recording_run *run,
			  double slice_s);
/* The same as the member "timeline" of the report's JSON object. */
int report_timeline_json(struct ntprof_json *js,
			 const struct recording_run *run, double slice_s);

#endif /* NTPROF_REPORT_TIMELINE_H */
