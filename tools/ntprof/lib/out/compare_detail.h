/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare's rows in JSON, and compare --detail's table of components in
 * text, JSON and HTML (compare_detail.c).
 */
#ifndef NTPROF_COMPARE_DETAIL_H
#define NTPROF_COMPARE_DETAIL_H

#include <stdio.h>

#include "analysis/compare.h"
#include "out/json.h"

/* A row of compare's table as a JSON object in an array. */
void cmp_row_json(struct ntprof_json *js, const struct cmp_row *r);
/* The components' table under the stages', if @cg has one. */
void cmp_detail_print(FILE *f, const struct cmp_group *cg);
/* "components" and "largest_component", if @cg has them. */
void cmp_detail_json(struct ntprof_json *js, const struct cmp_group *cg);
/* The components' table as HTML, if @cg has one. */
void cmp_detail_html(FILE *f, const struct cmp_group *cg);

#endif /* NTPROF_COMPARE_DETAIL_H */
