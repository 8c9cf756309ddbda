/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ntprof compare's groups, as compare.c makes them and compare_html.c
 * draws them.
 */
#ifndef NTPROF_COMPARE_H
#define NTPROF_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/analysis.h"

struct recording_run;

/* A row of a group's table: a stage, or the end to end (stage -1). */
struct cmp_row {
	int stage;
	const char *id;
	const char *name;
	double base_ns;
	double load_ns;
	double lad;		/* NAN: n/a */
};

struct cmp_group {
	const struct ntprof_group *base;
	const struct ntprof_group *load;
	struct cmp_row rows[NTPROF_STAGE_COUNT + 1];
	size_t nr_rows;
	int largest;		/* index into rows, -1: none */
	char answer[512];
};

/* compare --html: the groups of both runs as one page; 0 or -EIO. */
int compare_html_write(FILE *f, const struct recording_run *base,
		       const struct recording_run *load,
		       const struct cmp_group *groups, size_t nr);

#endif /* NTPROF_COMPARE_H */
