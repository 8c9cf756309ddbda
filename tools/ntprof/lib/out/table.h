/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Printing an analysis: the tables of 'ntprof record' and 'report' for a
 * terminal, and the same numbers as JSON for scripts.
 */
#ifndef NTPROF_TABLE_H
#define NTPROF_TABLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "analysis/join.h"

/* "=== 20.0 s, one command in 100 sampled ===" */
void ntprof_print_run(FILE *f, const struct ntprof_analysis *an);

/*
 * "throughput (estimated from the sampled commands): read 15.0 kIOPS,
 * 61.3 MB/s", per op, from the host's records if there are any.
 */
void ntprof_print_throughput(FILE *f, const struct ntprof_analysis *an);

/*
 * One group: its header and latency line, the stage table and the largest
 * stage; with @detail, the components in path order; then notes on what
 * was merged, dropped or left out.
 */
void ntprof_print_group(FILE *f, const struct ntprof_analysis *an,
			const struct ntprof_group *g, bool detail);

/* Every group, each after an empty line. */
void ntprof_print_groups(FILE *f, const struct ntprof_analysis *an,
			 bool detail);

/*
 * "records: 2999 host, 4509 target; 2999 matched (100 % of the host's)",
 * or with one side only "records: 2999 host".
 */
void ntprof_print_records(FILE *f, uint64_t nr_host, uint64_t nr_target,
			  uint64_t matched);

/* record -i: the legend and column heads, then a row per group. */
void ntprof_print_live_header(FILE *f, unsigned int interval_s);
void ntprof_print_live(FILE *f, const struct ntprof_analysis *an,
		       double elapsed_s);

/*
 * A minimal JSON writer: objects and arrays nest up to JSON_DEPTH deep;
 * @key is NULL inside arrays and for the outermost value. Not-a-number
 * becomes null. Output is indented, one member per line.
 */
#define NTPROF_JSON_DEPTH	16

struct ntprof_json {
	FILE *f;
	int depth;
	bool first[NTPROF_JSON_DEPTH];
};

void ntprof_json_init(struct ntprof_json *js, FILE *f);
void ntprof_json_obj_start(struct ntprof_json *js, const char *key);
void ntprof_json_obj_end(struct ntprof_json *js);
void ntprof_json_arr_start(struct ntprof_json *js, const char *key);
void ntprof_json_arr_end(struct ntprof_json *js);
void ntprof_json_str(struct ntprof_json *js, const char *key,
		     const char *val);
void ntprof_json_u64(struct ntprof_json *js, const char *key, uint64_t val);
void ntprof_json_i64(struct ntprof_json *js, const char *key, int64_t val);
/* @val with @prec decimals. */
void ntprof_json_num(struct ntprof_json *js, const char *key, double val,
		     int prec);
void ntprof_json_bool(struct ntprof_json *js, const char *key, bool val);

/* A stage's key in the JSON output: "host_driver", "storage". */
const char *ntprof_stage_id(enum ntprof_stage stage);
/* A component's id in JSON and CSV: "host_driver_submission". */
const char *ntprof_comp_id(enum ntprof_comp comp);

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
};

/*
 * The whole report as one JSON object, schema NTPROF_REPORT_SCHEMA: the
 * numbers ntprof_print_*() show, in ns-exact microseconds. @j (the join)
 * and @meta may be NULL.
 */
void ntprof_print_json(FILE *f, const struct ntprof_analysis *an,
		       const struct ntprof_join *j,
		       const struct ntprof_report_meta *meta);

#endif /* NTPROF_TABLE_H */
