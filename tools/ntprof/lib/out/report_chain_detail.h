/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report --detail on chains (report_chain_detail.c): each chained
 * group's hops broken into components along the critical path, and each
 * leg's components, as text and as JSON members of the hops' and legs'
 * stages. Nothing unless ntprof_chain_detail_make() ran.
 */
#ifndef NTPROF_REPORT_CHAIN_DETAIL_H
#define NTPROF_REPORT_CHAIN_DETAIL_H

#include <stdio.h>

#include "out/json.h"

struct recording_run;
struct ntprof_chain_group;

/* The group's components tables, after its hops and legs. */
void report_chain_detail_print(FILE *f, const struct recording_run *run,
			       const struct ntprof_chain_group *cg);
/*
 * A hop's (@leg < 0) or a leg's (an index of cg->legs) stage @stage's
 * "components" member; nothing without the detail.
 */
void report_chain_detail_json(struct ntprof_json *js,
			      const struct recording_run *run,
			      const struct ntprof_chain_group *cg, int hop,
			      int leg, int stage);

#endif /* NTPROF_REPORT_CHAIN_DETAIL_H */
