/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The commands of a run, one at a time, as the report's tables count them:
 * each host record with its matched target record, or with targets alone
 * each target record (report_rows.c). For the views that need each
 * command's own numbers: --csv, --hist, --tail.
 */
#ifndef NTPROF_REPORT_ROWS_H
#define NTPROF_REPORT_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/analysis.h"

struct recording_run;

struct report_row {
	const struct ntprof_record *host;	/* NULL: targets alone */
	const struct ntprof_record *target;	/* NULL: not matched */
	const char *host_path;
	const char *target_path;
	const struct ntprof_group *group;	/* NULL: in no group */
	/* The command is one of its group's tables (its kind's). */
	bool in_table;
	bool usable;			/* @bd holds its breakdown */
	/* Its first point, on its side's clock (the host's if any). */
	uint64_t start_ns;
	struct ntprof_breakdown bd;
};

/*
 * report_tail_threshold() - return the tail's threshold: the @p-th
 * percentile of @e2e, the end to end of a group's commands in its tables
 * (ns), by the tables' own estimator (ntprof_vec_percentile()), so that
 * the p99 of --tail and of the HTML page is the table's. The commands
 * above it are the tail. It returns NAN when there are no commands.
 */
double report_tail_threshold(struct ntprof_vec *e2e, double p);

/*
 * report_tail_caption() - print the tail's caption, such as "the 16
 * commands above p99 (138.53 us) against the other 1645", in @unit ("us",
 * "µs"). It prints @p with every digit it was given (p99.99999, not p100)
 * and a single command in the singular.
 */
void report_tail_caption(FILE *f, uint64_t n_tail, double p, double thr_ns,
			 uint64_t n_rest, const char *unit);
/*
 * report_pct_str() - format @p as the shortest decimal that reads back as
 * @p: "99", "99.99999".
 */
const char *report_pct_str(double p, char *buf, size_t size);

/*
 * report_rows_each() - call @fn for each command. It stops at the first
 * non-zero return of @fn and returns it. A streamed run's commands are
 * read again from its files; it returns -errno when that fails (the
 * reader has printed why).
 */
int report_rows_each(const struct recording_run *run,
		     int (*fn)(const struct report_row *row, void *arg),
		     void *arg);

#endif /* NTPROF_REPORT_ROWS_H */
