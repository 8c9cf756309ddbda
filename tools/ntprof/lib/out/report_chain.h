/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report of a run's chains (report_chain.c, report_chain_views.c):
 * per group of origin commands, its hops along the critical path and its
 * legs, as text, JSON members, CSV columns and a tail; nothing at all
 * for a run without chains.
 */
#ifndef NTPROF_REPORT_CHAIN_H
#define NTPROF_REPORT_CHAIN_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "out/json.h"

struct recording_run;
struct ntprof_chain_group;

/*
 * The chains' section of the text report: the middles' links, per group
 * a hops table and a legs table, and a line per missing piece. Nothing
 * for a run without chains. 0 or -ENOMEM.
 */
int report_chain_print(FILE *f, const struct recording_run *run);

/* A chained group's "hops", "legs" and "n_followed"; nothing else. */
void report_chain_json_group(struct ntprof_json *js,
			     const struct ntprof_group *g, void *run);
/* The run's "chain" member: middles, counts, notes; only with chains. */
void report_chain_json(struct ntprof_json *js,
		       const struct recording_run *run);

/*
 * --tail for chains: per chained group, the hop and stage that grow the
 * most in the commands above the @p-th percentile, and the legs that
 * were critical for them. 0 or -ENOMEM.
 */
int report_chain_tail_print(FILE *f, const struct recording_run *run,
			    double p);
/* The same as the run's "chain_tail" member; nothing without chains. */
int report_chain_tail_json(struct ntprof_json *js,
			   const struct recording_run *run, double p);

/*
 * --csv for chains: the columns after the others (each hop's stages,
 * the critical leg, each leg's end to end), and a row's values for the
 * origin command @host of @run; nothing without a middle.
 */
void report_chain_csv_header(FILE *f, const struct recording_run *run);
void report_chain_csv_row(FILE *f, const struct recording_run *run,
			  const struct ntprof_record *host);

/* Whether @run's report has a chain section: a middle, or a note. */
bool report_chain_shown(const struct recording_run *run);

#endif /* NTPROF_REPORT_CHAIN_H */
