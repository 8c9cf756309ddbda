/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The names of a chained group's stages, for the views beside the text
 * report that show its hops (report --html, compare): the stages in
 * path order and each hop's name for them (chain_names.c).
 */
#ifndef NTPROF_CHAIN_NAMES_H
#define NTPROF_CHAIN_NAMES_H

#include <stddef.h>

#include "analysis/chain.h"

/* A hop's stages in path order: the middle's own after the target driver. */
extern const int ntprof_chain_path_order[];
extern const size_t ntprof_chain_path_len;

/*
 * ntprof_chain_hop_stage_name() - return hop @h's (0-based) name for stage
 * @s: "middle (md0)", "network (...)".
 */
const char *ntprof_chain_hop_stage_name(const struct ntprof_chain_group *cg,
					int h, int s);
/*
 * ntprof_chain_stage_id() - return a stage's id: "middle", or what
 * ntprof_stage_id() returns.
 */
const char *ntprof_chain_stage_id(int s);
/*
 * ntprof_chain_group_of() - return the group of @run's chain numbers that
 * covers @g as a whole (not per leg).
 */
const struct ntprof_chain_group *
ntprof_chain_group_of(const struct recording_run *run,
		      const struct ntprof_group *g);

#endif /* NTPROF_CHAIN_NAMES_H */
