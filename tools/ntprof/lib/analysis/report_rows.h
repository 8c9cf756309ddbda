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
 * The tail's threshold in @sorted (ascending, @n values): the largest
 * value outside the slowest (100 - @p) % of them, which are at least one
 * command of two or more. Commands above it are the tail.
 */
int64_t report_tail_threshold(const int64_t *sorted, size_t n, double p);

/*
 * Calls @fn for each command; stops at, and returns, a non-zero return.
 * A streamed run's commands are read again from its files: -errno when
 * that fails (its reader printed why).
 */
int report_rows_each(const struct recording_run *run,
		     int (*fn)(const struct report_row *row, void *arg),
		     void *arg);

#endif /* NTPROF_REPORT_ROWS_H */
