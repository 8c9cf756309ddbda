/* SPDX-License-Identifier: GPL-2.0 */
/* record -i's live lines (live.c). */
#ifndef NTPROF_LIVE_H
#define NTPROF_LIVE_H

#include <stdio.h>

#include "analysis/analysis.h"

/*
 * ntprof_print_live_header() - the legend and the column heads, for lines
 * every @interval_s seconds.
 */
void ntprof_print_live_header(FILE *f, unsigned int interval_s);

/*
 * ntprof_print_live() - a row per group of @an, at @elapsed_s seconds
 * into the recording.
 */
void ntprof_print_live(FILE *f, const struct ntprof_analysis *an,
		       double elapsed_s);

#endif /* NTPROF_LIVE_H */
