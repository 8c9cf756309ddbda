/* SPDX-License-Identifier: GPL-2.0 */
/* report --json (report_json.c). */
#ifndef NTPROF_REPORT_JSON_H
#define NTPROF_REPORT_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "analysis/join.h"
#include "out/json.h"

#define NTPROF_REPORT_SCHEMA	"ntprof-report/1"

/* One recording of a report, for its "files" array. */
struct ntprof_report_file {
	const char *path;
	uint8_t role;		/* enum ntprof_role */
	uint8_t transport;	/* enum ntprof_transport */
	const char *hostname;
	const char *kernel;
	uint64_t records;
	bool cut_short;		/* no trailer: its writer was killed */
	uint64_t drops;
	uint64_t evictions;
};

/* Where a recording came from, for the report's header; NULL: unknown. */
struct ntprof_report_meta {
	const char *hostname;
	const char *kernel;
	const struct ntprof_report_file *files;
	size_t nr_files;
	/* More members at the end of the object (the views), or NULL. */
	void (*extra)(struct ntprof_json *js, void *arg);
	void *extra_arg;
	/* More members at the end of each group's object, or NULL. */
	void (*group_extra)(struct ntprof_json *js,
			    const struct ntprof_group *g, void *arg);
	void *group_extra_arg;
};

/*
 * The whole report as one JSON object, schema NTPROF_REPORT_SCHEMA: the
 * numbers ntprof_print_*() show, in ns-exact microseconds. @j (the join)
 * and @meta may be NULL.
 */
void ntprof_print_json(FILE *f, const struct ntprof_analysis *an,
		       const struct ntprof_join *j,
		       const struct ntprof_report_meta *meta);

#endif /* NTPROF_REPORT_JSON_H */
