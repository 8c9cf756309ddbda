/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Printing an analysis: the tables of 'ntprof record' and 'report' for a
 * terminal, and record's live lines (report_json.h: the same numbers as
 * JSON for scripts).
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

#endif /* NTPROF_TABLE_H */
