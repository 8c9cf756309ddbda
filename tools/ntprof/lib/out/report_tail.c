// SPDX-License-Identifier: GPL-2.0
/*
 * ntprof report --tail[=P]: what makes the slow commands slow. Per group,
 * the slowest (100 - P) % of the commands (at least one) against all the
 * others: each stage's mean in both, its share of
 * the tail's mean, and the stage whose mean grows the most from the rest
 * to the tail, with its numbers. The commands are those of the group's
 * tables (report_rows.c).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/recording.h"
#include "analysis/report_rows.h"
#include "common/util.h"
#include "out/json.h"
#include "out/report_tail.h"
#include "out/table.h"

/* Per group: the end to end of each command, then the two sets' sums. */
struct tail_group {
	struct ntprof_vec e2e;	/* the tables' estimator's input */
	double threshold;
	uint64_t n_tail, n_rest;
	double sum_tail[NTPROF_STAGE_COUNT + 1];	/* [COUNT]: end to end */
	double sum_rest[NTPROF_STAGE_COUNT + 1];
};

struct tail_ctx {
	const struct ntprof_analysis *an;
	struct tail_group *t;
	bool second;	/* the pass that sums, once the thresholds are known */
	int err;
};

static int tail_add(const struct report_row *row, void *arg)
{
	struct tail_ctx *c = arg;
	const struct ntprof_breakdown *bd = &row->bd;
	struct tail_group *t;
	double *sum;
	int64_t e2e;
	int s;

	if (!row->in_table || !(bd->has & (1U << NTPROF_COMP_E2E)))
		return 0;
	t = &c->t[row->group - c->an->groups];
	e2e = bd->comp[NTPROF_COMP_E2E];
	if (!c->second) {
		if (ntprof_vec_push(&t->e2e, e2e)) {
			c->err = -ENOMEM;
			return 1;
		}
		return 0;
	}
	if ((double)e2e > t->threshold) {
		t->n_tail++;
		sum = t->sum_tail;
	} else {
		t->n_rest++;
		sum = t->sum_rest;
	}
	for (s = 0; s < NTPROF_STAGE_COUNT; s++)
		if (bd->stage_has & (1U << s))
			sum[s] += (double)bd->stage[s];
	sum[NTPROF_STAGE_COUNT] += (double)e2e;
	return 0;
}

static void tail_print_group(FILE *f, const struct ntprof_group *g,
			     const struct tail_group *t, double p)
{
	double rest, tail, grow, best = -INFINITY;
	int s, largest = -1;

	fprintf(f, "\n== %s: ", g->label);
	report_tail_caption(f, t->n_tail, p, t->threshold, t->n_rest, "us");
	fputc('\n', f);
	if (!t->n_tail || !t->n_rest) {
		fputs("  (no tail: the commands' latencies are all alike)\n", f);
		return;
	}
	fprintf(f, "  %-36s %10s %10s %10s %7s\n", "stage", "rest us",
		"tail us", "growth", "share");
	for (s = 0; s < NTPROF_STAGE_COUNT; s++) {
		if (!(g->stage_has & (1U << s)))
			continue;
		rest = t->sum_rest[s] / (double)t->n_rest / 1e3;
		tail = t->sum_tail[s] / (double)t->n_tail / 1e3;
		grow = tail - rest;
		fprintf(f, "  %-36s %10.2f %10.2f %+10.2f %6.0f%%\n",
			ntprof_stage_name(s, g->transport, g->kind, g->stacks),
			rest, tail, grow,
			100 * t->sum_tail[s] / t->sum_tail[NTPROF_STAGE_COUNT]);
		if (grow > best) {
			best = grow;
			largest = s;
		}
	}
	rest = t->sum_rest[NTPROF_STAGE_COUNT] / (double)t->n_rest / 1e3;
	tail = t->sum_tail[NTPROF_STAGE_COUNT] / (double)t->n_tail / 1e3;
	fprintf(f, "  %-36s %10.2f %10.2f %+10.2f\n", "end to end", rest, tail,
		tail - rest);
	if (largest < 0)
		return;
	fprintf(f, "  the tail grows most in %s: %.2f -> %.2f us (%+.2f us, %.0f %% of the tail's extra latency)\n",
		ntprof_stage_name(largest, g->transport, g->kind, g->stacks),
		t->sum_rest[largest] / (double)t->n_rest / 1e3,
		t->sum_tail[largest] / (double)t->n_tail / 1e3, best,
		tail > rest ? 100 * best / (tail - rest) : 0.0);
}

/*
 * The commands through tail_add(); a streamed run's pass that fails (its
 * reader said why) is the error, unless tail_add() had its own.
 */
static void tail_pass(const struct recording_run *run, struct tail_ctx *c)
{
	int ret = report_rows_each(run, tail_add, c);

	if (!c->err && ret < 0)
		c->err = ret;
}

/* Both passes: the thresholds, then the two sets' sums; 0 or -ENOMEM. */
static int tail_compute(const struct recording_run *run, double p,
			struct tail_ctx *c)
{
	const struct ntprof_analysis *an = run->an;
	struct tail_group *t;
	size_t i;

	*c = (struct tail_ctx){ .an = an };
	c->t = calloc(an->nr_groups ? an->nr_groups : 1, sizeof(*c->t));
	if (!c->t)
		return -ENOMEM;
	tail_pass(run, c);
	for (i = 0; !c->err && i < an->nr_groups; i++) {
		t = &c->t[i];
		if (!t->e2e.n && !t->e2e.hist)
			continue;
		t->threshold = report_tail_threshold(&t->e2e, p);
	}
	c->second = true;
	if (!c->err)
		tail_pass(run, c);
	return c->err;
}

static void tail_free(struct tail_ctx *c)
{
	size_t i;

	for (i = 0; c->t && i < c->an->nr_groups; i++)
		ntprof_vec_free(&c->t[i].e2e);
	free(c->t);
}

int report_tail_print(FILE *f, const struct recording_run *run, double p)
{
	struct tail_ctx c;
	size_t i;
	int err;

	err = tail_compute(run, p, &c);
	for (i = 0; !err && i < run->an->nr_groups; i++)
		tail_print_group(f, &run->an->groups[i], &c.t[i], p);
	tail_free(&c);
	return err;
}

static void tail_json_group(struct ntprof_json *js,
			    const struct ntprof_group *g,
			    const struct tail_group *t)
{
	double rest, tail, grow, best = -INFINITY;
	int s, largest = -1;

	ntprof_json_obj_start(js, NULL);
	ntprof_json_str(js, "label", g->label);
	ntprof_json_num(js, "threshold_us", t->threshold / 1e3, 3);
	ntprof_json_u64(js, "n_tail", t->n_tail);
	ntprof_json_u64(js, "n_rest", t->n_rest);
	ntprof_json_arr_start(js, "stages");
	for (s = 0; t->n_tail && t->n_rest && s < NTPROF_STAGE_COUNT; s++) {
		if (!(g->stage_has & (1U << s)))
			continue;
		rest = t->sum_rest[s] / (double)t->n_rest / 1e3;
		tail = t->sum_tail[s] / (double)t->n_tail / 1e3;
		grow = tail - rest;
		ntprof_json_obj_start(js, NULL);
		ntprof_json_str(js, "id", ntprof_stage_id(s));
		ntprof_json_num(js, "rest_us", rest, 3);
		ntprof_json_num(js, "tail_us", tail, 3);
		ntprof_json_num(js, "growth_us", grow, 3);
		ntprof_json_num(js, "share_pct", 100 * t->sum_tail[s] /
				t->sum_tail[NTPROF_STAGE_COUNT], 2);
		ntprof_json_obj_end(js);
		if (grow > best) {
			best = grow;
			largest = s;
		}
	}
	ntprof_json_arr_end(js);
	ntprof_json_str(js, "largest", largest < 0 ? NULL :
			ntprof_stage_id(largest));
	ntprof_json_obj_end(js);
}

int report_tail_json(struct ntprof_json *js, const struct recording_run *run,
		     double p)
{
	struct tail_ctx c;
	size_t i;
	int err;

	err = tail_compute(run, p, &c);
	ntprof_json_obj_start(js, "tail");
	ntprof_json_num(js, "percentile", p, 3);
	ntprof_json_arr_start(js, "groups");
	for (i = 0; !err && i < run->an->nr_groups; i++)
		tail_json_group(js, &run->an->groups[i], &c.t[i]);
	ntprof_json_arr_end(js);
	ntprof_json_obj_end(js);
	tail_free(&c);
	return err;
}
