/* SPDX-License-Identifier: GPL-2.0 */
/* ntprof report --hist: log2 histograms per group (report_hist.c). */
#ifndef NTPROF_REPORT_HIST_H
#define NTPROF_REPORT_HIST_H

#include <stdio.h>

struct ntprof_json;
struct recording_run;

/* 0 if @id names "end_to_end", a stage or a component; else -ENOENT. */
int report_hist_check(const char *id);
/* The histogram of @id per group; 0, -ENOENT or -ENOMEM. */
int report_hist_print(FILE *f, const struct recording_run *run,
		      const char *id);
/* The same as the member "histograms" of the report's JSON object. */
int report_hist_json(struct ntprof_json *js, const struct recording_run *run,
		     const char *id);

#endif /* NTPROF_REPORT_HIST_H */
