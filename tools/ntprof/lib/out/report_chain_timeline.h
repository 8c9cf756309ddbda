/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report --timeline on chains (report_chain_timeline.c): per chained
 * group, a line per slice of the origin commands: each hop's and each
 * middle's share of the end to end, and how many commands each leg was
 * critical for. Nothing for a run without chains.
 */
#ifndef NTPROF_REPORT_CHAIN_TIMELINE_H
#define NTPROF_REPORT_CHAIN_TIMELINE_H

#include <stdio.h>

struct ntprof_json;
struct recording_run;

/* 0, -E2BIG (more than 100,000 slices), -EINVAL or -ENOMEM. */
int report_chain_timeline_print(FILE *f, const struct recording_run *run,
				double slice_s);
/* The same as the run's "chain_timeline" member. */
int report_chain_timeline_json(struct ntprof_json *js,
			       const struct recording_run *run,
			       double slice_s);

#endif /* NTPROF_REPORT_CHAIN_TIMELINE_H */
