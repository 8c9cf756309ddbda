/* SPDX-License-Identifier: GPL-2.0 */
/* compare's chains as text and JSON (compare_chain_out.c). */
#ifndef NTPROF_COMPARE_CHAIN_OUT_H
#define NTPROF_COMPARE_CHAIN_OUT_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/compare_chain.h"
#include "out/json.h"

/*
 * Under a chained pair's table: its hops' table, a table per pair of
 * legs, and the chain's answer. Sets *@had_na when a row has no LAD.
 */
void cmp_chain_print(FILE *f, const struct cmp_chain *cc, bool *had_na);
/* The same as HTML: the hops' and legs' tables, the chain answer. */
void cmp_chain_html(FILE *f, const struct cmp_chain *cc);
/* A chained pair's "chain" member. */
void cmp_chain_json(struct ntprof_json *js, const struct cmp_chain *cc);

#endif /* NTPROF_COMPARE_CHAIN_OUT_H */
