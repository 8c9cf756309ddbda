/* SPDX-License-Identifier: GPL-2.0 */
/* ntprof report --tail: the slow commands against the others (report_tail.c). */
#ifndef NTPROF_REPORT_TAIL_H
#define NTPROF_REPORT_TAIL_H

#include <stdio.h>

struct ntprof_json;
struct recording_run;

/* Per group, the commands above the @p-th percentile; 0 or -ENOMEM. */
int report_tail_print(FILE *f, const struct recording_run *run, double p);
/* The same as the member "tail" of the report's JSON object. */
int report_tail_json(struct ntprof_json *js, const struct recording_run *run,
		     double p);

#endif /* NTPROF_REPORT_TAIL_H */
