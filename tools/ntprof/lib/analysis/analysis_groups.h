/* SPDX-License-Identifier: GPL-2.0 */
/* The analysis library's groups, within the library (analysis_groups.c). */
#ifndef NTPROF_ANALYSIS_GROUPS_H
#define NTPROF_ANALYSIS_GROUPS_H

#include <stdbool.h>

#include "analysis/analysis.h"

/*
 * ntprof_group_get() - return the group of @r (a target's record if
 * @target_side), and create it if it is new.
 */
struct ntprof_group *ntprof_group_get(struct ntprof_analysis *an,
				      bool target_side,
				      const struct ntprof_record *r);
/*
 * ntprof_group_cmp() - compare two groups for qsort(), by side, op, size,
 * device, queue and CPUs.
 */
int ntprof_group_cmp(const void *a, const void *b);

#endif /* NTPROF_ANALYSIS_GROUPS_H */
