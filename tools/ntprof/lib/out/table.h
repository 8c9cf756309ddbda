/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Printing an analysis: the tables of 'ntprof record' and 'report' for a
 * terminal (report_json.h: the same numbers as JSON for scripts; live.h:
 * record's live lines).
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

/* ntprof_rate_str() - a rate in three digits: "15.0k", "1.2M", "-". */
const char *ntprof_rate_str(double r, char *buf, size_t size);

/*
 * ntprof_share_round() - a share, to be printed as a whole percent, with
 * no "-0" for a tiny negative one.
 */
double ntprof_share_round(double share);

#endif /* NTPROF_TABLE_H */
