/* SPDX-License-Identifier: GPL-2.0 */
/* ntprof report --csv: a row per command (report_csv.c). */
#ifndef NTPROF_REPORT_CSV_H
#define NTPROF_REPORT_CSV_H

#include <stdio.h>

struct recording_run;

/* Writes the run's rows, with a header line, to @f; 0 or -EIO. */
int report_csv_write(FILE *f, const struct recording_run *run);
/* @s as a CSV field: quoted, with quotes doubled (RFC 4180). */
void report_csv_quoted(FILE *f, const char *s);

#endif /* NTPROF_REPORT_CSV_H */
