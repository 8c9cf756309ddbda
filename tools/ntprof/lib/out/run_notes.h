/* SPDX-License-Identifier: GPL-2.0 */
/* The lines of a report about its run (run_notes.c). */
#ifndef NTPROF_RUN_NOTES_H
#define NTPROF_RUN_NOTES_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/recording.h"
#include "out/json.h"

/*
 * "recorded on HOST (kernel K) and TARGET (kernel K2), one command in 100
 * sampled"
 */
void recording_run_print_origin(FILE *f, const struct recording_run *run);

/*
 * "records: 2999 host, 4509 target; 2999 matched (100 % of the host's)",
 * naming the sides that were given, even without records.
 */
void recording_run_print_records(FILE *f, const struct recording_run *run);
/*
 * Of the host's sampled records (those the numbers are made of), the
 * share, in whole percent rounded down, that has its target record.
 */
unsigned int recording_run_matched_pct(const struct recording_run *run);

/* Notes for the end of a report: cut-short files, drops, the clocks. */
void recording_run_print_notes(FILE *f, const struct recording_run *run,
			       bool detail);

/*
 * report --json's "failed" and "aborted": the commands the notes count
 * apart, as objects {n, requeued, sampled, mean_us, statuses [{status,
 * n}]} (requeued and sampled in "aborted" only).
 */
void recording_run_json_apart(struct ntprof_json *js,
			      const struct recording_run *run);

/*
 * report --json's "warnings" and "notes": the lines of
 * recording_run_print_notes() for @detail, as the text prints them.
 */
void recording_run_json_notes(struct ntprof_json *js,
			      const struct recording_run *run, bool detail);

#endif /* NTPROF_RUN_NOTES_H */
