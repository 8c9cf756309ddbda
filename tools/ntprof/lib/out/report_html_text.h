/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The words and tables of report --html (report_html_text.c): the text
 * report's lines and tables, set as HTML, so that the page says what the
 * text says.
 */
#ifndef NTPROF_REPORT_HTML_TEXT_H
#define NTPROF_REPORT_HTML_TEXT_H

#include <stdio.h>

#include "analysis/recording.h"

/* "recorded on ...", a table of the files, the throughput. */
void report_html_head(FILE *f, const struct recording_run *run);
/* The records line and the notes and warnings at the text's end. */
void report_html_foot(FILE *f, const struct recording_run *run);
/* A group's line (commands, rate, sides) and its latency. */
void report_html_group_head(FILE *f, const struct ntprof_group *g);
/* The stage table (mean, share, avg QD) and the "largest" line. */
void report_html_stages(FILE *f, const struct ntprof_group *g);
/*
 * The --detail component table, with L, the sub-rows indented, and the
 * group's notes (merged components, dropped points).
 */
void report_html_components(FILE *f, const struct ntprof_group *g);

#endif /* NTPROF_REPORT_HTML_TEXT_H */
