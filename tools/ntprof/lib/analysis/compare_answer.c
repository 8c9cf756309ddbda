// SPDX-License-Identifier: GPL-2.0
/*
 * compare's answer for a pair of groups: how much slower or faster the
 * end to end became, and where, accounting for all of it. The stages'
 * changes in microseconds add up to the end to end's: each stage gets its
 * share, the largest change is named first, and every stage is in the
 * words, a stage too small at the base for a LAD (n/a) with its change in
 * microseconds: a block layer that went from 0.4 to 40 us is where the
 * time went, ratio or not.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "analysis/compare.h"
#include "common/util.h"

/* A LAD within this of 1 is "about the same". */
#define CMP_SAME		0.05
/* A stage with this much of the end to end's change is named on its own. */
#define CMP_MATERIAL		0.05

static double delta(const struct cmp_row *r)
{
	return r->load_ns - r->base_ns;
}

/* say() - append to @cg's answer; what does not fit is cut. */
static void say(struct cmp_group *cg, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void say(struct cmp_group *cg, const char *fmt, ...)
{
	size_t len = strlen(cg->answer);
	va_list ap;

	if (len + 1 >= sizeof(cg->answer))
		return;
	va_start(ap, fmt);
	vsnprintf(cg->answer + len, sizeof(cg->answer) - len, fmt, ap);
	va_end(ap);
}

/*
 * by_change() - put into @idx those of @v's @n rows that @want, ordered by
 * their change in microseconds, largest first (in path order at a tie).
 */
static size_t by_change(const struct cmp_row *v, size_t n, size_t *idx,
			bool (*want)(const struct cmp_row *r, const void *arg),
			const void *arg)
{
	size_t i, k, m = 0;

	for (i = 0; i < n; i++) {
		if (want && !want(&v[i], arg))
			continue;
		for (k = m; k > 0 && fabs(delta(&v[idx[k - 1]])) <
				     fabs(delta(&v[i])); k--)
			idx[k] = idx[k - 1];
		idx[k] = i;
		m++;
	}
	return m;
}

/*
 * us() - convert @ns to microseconds, without a "-0.00" for a change that
 * rounds to nothing.
 */
static double us(double ns)
{
	return fabs(ns) < 5 ? 0 : ns / 1e3;
}

/* say_lad() - say the row's LAD, or why there is none. */
static void say_lad(struct cmp_group *cg, const struct cmp_row *r)
{
	if (isnan(r->lad))
		say(cg, "%.2f us at the baseline: n/a", r->base_ns / 1e3);
	else
		say(cg, "LAD %.2f", r->lad);
}

/*
 * changed() - tell whether a stage changed in an end to end that did not:
 * its LAD is off 1 by CMP_SAME or more or, without a LAD, its change is
 * CMP_SAME of the end to end's base.
 */
static bool changed(const struct cmp_row *r, const struct cmp_row *e2e)
{
	if (isnan(r->lad))
		return fabs(delta(r)) >= CMP_SAME * e2e->base_ns;
	return fabs(r->lad - 1) >= CMP_SAME;
}

/*
 * answer_rest() - describe the stages not @named: how far those with a LAD
 * moved at most, those without one by their change, and (when @grown is not
 * NAN) their share of the end to end's change together.
 */
static void answer_rest(struct cmp_group *cg, const size_t *idx, size_t n,
			const bool *named, double grown)
{
	double worst = -1, sum = 0;
	const char *sep = "; ";
	const struct cmp_row *r;
	size_t i, m = 0;

	for (i = 0; i < n; i++) {
		r = &cg->rows[idx[i]];
		if (named[idx[i]])
			continue;
		m++;
		sum += delta(r);
		if (!isnan(r->lad) && fabs(r->lad - 1) > worst)
			worst = fabs(r->lad - 1);
	}
	if (worst >= 0) {
		/* Rounded up: "within 3 %" must hold. */
		say(cg, "%severy %sstage within %.0f %%", sep,
		    m < n ? "other " : "", fmax(1, ceil(worst * 100 - 1e-9)));
		sep = ", ";
	}
	for (i = 0; i < n; i++) {
		r = &cg->rows[idx[i]];
		if (named[idx[i]] || !isnan(r->lad))
			continue;
		say(cg, "%s%s %+.2f us (", sep, r->name, us(delta(r)));
		say_lad(cg, r);
		say(cg, ")");
		sep = ", ";
	}
	if (m > 1 && !isnan(grown) && fabs(sum) >= 0.005 * fabs(grown))
		say(cg, " (together %+.2f us, %.0f %%)", us(sum),
		    100 * sum / grown);
}

/*
 * answer_same() - answer for an end to end that stayed about the same: name
 * the stages that moved all the same.
 */
static void answer_same(struct cmp_group *cg, const struct cmp_row *e2e)
{
	size_t idx[CMP_MAX_ROWS], n, i;
	bool named[CMP_MAX_ROWS] = { false };
	const char *sep = "; but ";
	const struct cmp_row *r;

	say(cg, "about the same end to end (%.2f -> %.2f us, LAD %.2f)",
	    e2e->base_ns / 1e3, e2e->load_ns / 1e3, e2e->lad);
	n = by_change(cg->rows, cg->nr_rows - 1, idx, NULL, NULL);
	for (i = 0; i < n; i++) {
		r = &cg->rows[idx[i]];
		if (!changed(r, e2e))
			continue;
		if (cg->largest < 0)
			cg->largest = (int)idx[i];
		named[idx[i]] = true;
		say(cg, "%s%s %+.2f us (", sep, r->name, us(delta(r)));
		say_lad(cg, r);
		say(cg, ")");
		sep = ", ";
	}
	answer_rest(cg, idx, n, named, NAN);
}

/*
 * in_largest() - tell whether @r is a component of the largest stage, for
 * --detail, which lists those components largest change first: the drive,
 * not the target's block layer.
 */
static bool in_largest(const struct cmp_row *r, const void *arg)
{
	const struct cmp_group *cg = arg;

	return !r->sub && r->stage == cg->rows[cg->largest].stage;
}

static void answer_detail(struct cmp_group *cg)
{
	size_t idx[NTPROF_COMP_COUNT], n, i;
	const struct cmp_row *r;

	n = by_change(cg->comps, cg->nr_comps, idx, in_largest, cg);
	if (!n)
		return;
	cg->largest_comp = (int)idx[0];
	for (i = 0; i < n; i++) {
		r = &cg->comps[idx[i]];
		say(cg, "%s%s %+.2f us (%.2f -> %.2f us, ",
		    i ? ", " : "; within it, ", r->name, us(delta(r)),
		    r->base_ns / 1e3, r->load_ns / 1e3);
		if (isnan(r->lad))
			say(cg, "n/a)");
		else
			say(cg, "LAD %.2f)", r->lad);
	}
}

/*
 * largest_is_lad() - tell whether the largest change is also the largest LAD
 * of a slower run.
 */
static bool largest_is_lad(const struct cmp_group *cg, double grown)
{
	const struct cmp_row *top = &cg->rows[cg->largest];
	size_t i;

	if (grown <= 0 || isnan(top->lad))
		return false;
	for (i = 0; i + 1 < cg->nr_rows; i++)
		if (!isnan(cg->rows[i].lad) && cg->rows[i].lad > top->lad)
			return false;
	return true;
}

void cmp_group_answer(struct cmp_group *cg)
{
	const struct cmp_row *e2e = &cg->rows[cg->nr_rows - 1];
	size_t idx[CMP_MAX_ROWS], n, i;
	bool named[CMP_MAX_ROWS] = { false };
	double grown = delta(e2e);
	const struct cmp_row *r;

	cg->answer[0] = '\0';
	cg->largest = -1;
	cg->largest_lad = false;
	cg->largest_comp = -1;
	if (isnan(e2e->lad)) {
		say(cg, "the end to end is too small for a ratio");
		return;
	}
	if (fabs(e2e->lad - 1) < CMP_SAME) {
		answer_same(cg, e2e);
		if (cg->largest >= 0)
			answer_detail(cg);
		return;
	}
	/* The end to end moved: every row's part of the move. */
	for (i = 0; i < cg->nr_rows; i++)
		cg->rows[i].share = delta(&cg->rows[i]) / grown;
	for (i = 0; i < cg->nr_comps; i++)
		cg->comps[i].share = delta(&cg->comps[i]) / grown;
	say(cg, "%.2fx %s end to end (%.2f -> %.2f us, %+.2f us)",
	    e2e->lad >= 1 ? e2e->lad : 1 / e2e->lad,
	    grown > 0 ? "slower" : "faster", e2e->base_ns / 1e3,
	    e2e->load_ns / 1e3, us(grown));
	n = by_change(cg->rows, cg->nr_rows - 1, idx, NULL, NULL);
	if (!n)
		return;
	cg->largest = (int)idx[0];
	cg->largest_lad = largest_is_lad(cg, grown);
	/* Named: the largest, and each with a material share. */
	for (i = 0; i < n; i++) {
		r = &cg->rows[idx[i]];
		if (i && fabs(delta(r)) < CMP_MATERIAL * fabs(grown))
			break;
		named[idx[i]] = true;
		say(cg, "%s%s %+.2f us (%.0f %%%s, ", i ? ", " : ": ", r->name,
		    us(delta(r)), 100 * r->share,
		    i ? "" : grown > 0 ? " of the growth" : " of the saving");
		say_lad(cg, r);
		say(cg, ")");
	}
	answer_rest(cg, idx, n, named, grown);
	answer_detail(cg);
}
