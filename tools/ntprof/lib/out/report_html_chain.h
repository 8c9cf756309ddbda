/* SPDX-License-Identifier: GPL-2.0 */
/* report --html for chains (report_html_chain.c). */
#ifndef NTPROF_REPORT_HTML_CHAIN_H
#define NTPROF_REPORT_HTML_CHAIN_H

#include <stdio.h>

#include "analysis/analysis.h"

struct recording_run;

/*
 * The chain of group @g, when it is one: a stacked bar per hop along the
 * critical path and its legs side by side. Nothing for any other group,
 * so that the page of a run without chains stays as it was.
 */
void report_html_chain(FILE *f, const struct recording_run *run,
		       const struct ntprof_group *g);

#endif /* NTPROF_REPORT_HTML_CHAIN_H */
