/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The charts of report --html (report_charts.c): a group's stage bar,
 * its CDFs and its timeline, each an inline SVG with axes, ticks in
 * units, a legend and a hover title on every bar and point.
 */
#ifndef NTPROF_REPORT_CHARTS_H
#define NTPROF_REPORT_CHARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "analysis/stats.h"

#define CHART_PARTS	(NTPROF_STAGE_COUNT + 1)	/* and the end to end */

/* Part @s of @g: a stage's name, or "end to end". */
const char *chart_part_name(const struct ntprof_group *g, int s);

/* The stages' means as one bar on an axis of us, and their legend. */
void chart_stagebar(FILE *f, const struct ntprof_group *g);
/*
 * A CDF per part from its values, sorted, in ns (@part[s].n == 0: not
 * drawn), with the end to end's p50, p99 and p99.9 marked.
 */
void chart_cdf(FILE *f, const struct ntprof_group *g,
	       const struct ntprof_vec part[CHART_PARTS]);
/*
 * A control-path episode on the timeline's axis: seconds since the first
 * command (negative: before it); @end_s == @start_s: an instant.
 */
struct chart_band {
	double start_s, end_s;
	bool open;		/* to the recording's end, still out */
	char label[96];		/* "loss nvme1" */
};

/*
 * The mean end to end in each of @nr slices of a run of @span_ns: @n
 * commands started in slice k, @sum_ns their end to ends; @nb bands
 * shaded under it, each labelled, the axis stretched to hold them.
 */
void chart_timeline(FILE *f, uint64_t span_ns, const uint64_t *n,
		    const double *sum_ns, size_t nr,
		    const struct chart_band *bands, size_t nb);

#endif /* NTPROF_REPORT_CHARTS_H */
