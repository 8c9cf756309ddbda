/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ntprof compare's groups, as compare.c makes them, and cmd/compare.c
 * and out/compare_html.c show them.
 */
#ifndef NTPROF_COMPARE_H
#define NTPROF_COMPARE_H

#include <stddef.h>

#include "analysis/analysis.h"

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

/*
 * The group of @an that is @g of @other (the same op, size and device,
 * and transport when both runs hold both transports), or NULL.
 */
const struct ntprof_group *
cmp_group_find(const struct ntprof_analysis *an,
	       const struct ntprof_analysis *other, const struct ntprof_group *g);
/* Fills @cg's rows, largest and answer from its base and load groups. */
void cmp_group_compare(struct cmp_group *cg);
/* The group the overall answer speaks of: the one with most commands. */
const struct cmp_group *cmp_main_group(const struct cmp_group *v, size_t n);

#endif /* NTPROF_COMPARE_H */
