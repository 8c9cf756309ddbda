// SPDX-License-Identifier: GPL-2.0
/*
 * ntprof report --hist[=ID]: per group, a log2 histogram in microseconds
 * of each command's end to end, or of one stage or component, laid out
 * as bcc's biolatency lays out its own: range, count, distribution bar.
 * The commands are those of the group's tables (report_rows.c).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/recording.h"
#include "analysis/report_rows.h"
#include "out/json.h"
#include "out/report_hist.h"
#include "out/table.h"

/* 2^63 ns is far beyond any latency: 64 buckets hold every value. */
#define HIST_BUCKETS	64
#define BAR_WIDTH	40

struct hist {
	uint64_t b[HIST_BUCKETS];
	uint64_t negative;	/* the computed wire can be below 0 */
	uint64_t n;
};

struct hist_ctx {
	const struct ntprof_analysis *an;
	struct hist *h;		/* one per group */
	bool stage;		/* @id is a stage's, else a component's */
	int id;
};

/* bcc's buckets: 0 -> 1, 2 -> 3, 4 -> 7, ... */
static int bucket_of(uint64_t us)
{
	int k = 0;

	while (us >> (k + 1))
		k++;
	return k;
}

static int hist_add(const struct report_row *row, void *arg)
{
	struct hist_ctx *c = arg;
	const struct ntprof_breakdown *bd = &row->bd;
	struct hist *h;
	int64_t v;

	if (!row->in_table)
		return 0;
	if (c->stage ? !(bd->stage_has & (1U << c->id)) :
		       !(bd->has & (1U << c->id)))
		return 0;
	v = c->stage ? bd->stage[c->id] : bd->comp[c->id];
	h = &c->h[row->group - c->an->groups];
	h->n++;
	if (v < 0)
		h->negative++;
	else
		h->b[bucket_of((uint64_t)v / 1000)]++;
	return 0;
}

static void bar(FILE *f, uint64_t count, uint64_t max)
{
	int i, w = max ? (int)(count * BAR_WIDTH / max) : 0;

	fputc('|', f);
	for (i = 0; i < BAR_WIDTH; i++)
		fputc(i < w ? '*' : ' ', f);
	fputs("|\n", f);
}

static void hist_print(FILE *f, const struct ntprof_group *g,
		       const struct hist *h, const char *what)
{
	uint64_t max = h->negative;
	int k, first = -1, last = -1;

	fprintf(f, "\n== %s: %s, %llu commands\n", g->label, what,
		(unsigned long long)h->n);
	if (!h->n) {
		fputs("  (none has it)\n", f);
		return;
	}
	for (k = 0; k < HIST_BUCKETS; k++) {
		if (!h->b[k])
			continue;
		if (first < 0)
			first = k;
		last = k;
		if (h->b[k] > max)
			max = h->b[k];
	}
	fprintf(f, "%22s : %-9s distribution\n", "usecs", "count");
	if (h->negative) {
		fprintf(f, "%22s : %-9llu ", "below 0",
			(unsigned long long)h->negative);
		bar(f, h->negative, max);
	}
	for (k = first; k >= 0 && k <= last; k++) {
		uint64_t lo = k ? 1ULL << k : 0, hi = (1ULL << (k + 1)) - 1;
		char range[48];

		snprintf(range, sizeof(range), "%llu -> %llu",
			 (unsigned long long)lo, (unsigned long long)hi);
		fprintf(f, "%22s : %-9llu ", range,
			(unsigned long long)h->b[k]);
		bar(f, h->b[k], max);
	}
}

/* @id: "end_to_end", a stage's id or a component's (as in JSON). */
static int hist_part(const char *id, bool *stage, int *part)
{
	int i;

	for (i = 0; i < NTPROF_STAGE_COUNT; i++) {
		if (!strcmp(id, ntprof_stage_id(i))) {
			*stage = true;
			*part = i;
			return 0;
		}
	}
	for (i = 0; i < NTPROF_COMP_COUNT; i++) {
		if (!strcmp(id, ntprof_comp_id(i))) {
			*stage = false;
			*part = i;
			return 0;
		}
	}
	return -ENOENT;
}

int report_hist_check(const char *id)
{
	bool stage;
	int part;

	return hist_part(id, &stage, &part);
}

/* The histograms of @id, one per group, in @c->h; 0, -ENOENT, -ENOMEM. */
static int hist_compute(const struct recording_run *run, const char *id,
			struct hist_ctx *c)
{
	*c = (struct hist_ctx){ .an = run->an };
	if (hist_part(id, &c->stage, &c->id))
		return -ENOENT;
	c->h = calloc(run->an->nr_groups ? run->an->nr_groups : 1,
		      sizeof(*c->h));
	if (!c->h)
		return -ENOMEM;
	return report_rows_each(run, hist_add, c);
}

static const char *hist_what(const struct hist_ctx *c,
			     const struct ntprof_group *g)
{
	if (c->stage)
		return ntprof_stage_name(c->id, g->transport, g->kind,
					 g->stacks);
	return ntprof_comp_name(c->id, g->transport, g->stacks);
}

int report_hist_print(FILE *f, const struct recording_run *run,
		      const char *id)
{
	struct hist_ctx c;
	size_t i;
	int err;

	err = hist_compute(run, id, &c);
	for (i = 0; !err && i < run->an->nr_groups; i++)
		hist_print(f, &run->an->groups[i], &c.h[i],
			   hist_what(&c, &run->an->groups[i]));
	free(c.h);
	return err;
}

int report_hist_json(struct ntprof_json *js, const struct recording_run *run,
		     const char *id)
{
	const struct ntprof_group *g;
	const struct hist *h;
	struct hist_ctx c;
	size_t i;
	int err, k, b;

	err = hist_compute(run, id, &c);
	ntprof_json_obj_start(js, "histograms");
	ntprof_json_str(js, "id", id);
	ntprof_json_arr_start(js, "groups");
	for (i = 0; !err && i < run->an->nr_groups; i++) {
		g = &run->an->groups[i];
		h = &c.h[i];
		ntprof_json_obj_start(js, NULL);
		ntprof_json_str(js, "label", g->label);
		ntprof_json_str(js, "name", hist_what(&c, g));
		ntprof_json_u64(js, "n", h->n);
		ntprof_json_u64(js, "below_zero", h->negative);
		/* Every bucket from 0 -> 1 us to the last with a command. */
		ntprof_json_arr_start(js, "buckets");
		for (k = HIST_BUCKETS - 1; k > 0 && !h->b[k]; k--)
			;
		for (b = 0; h->n > h->negative && b <= k; b++) {
			ntprof_json_obj_start(js, NULL);
			ntprof_json_u64(js, "lo_us", b ? 1ULL << b : 0);
			ntprof_json_u64(js, "hi_us", (1ULL << (b + 1)) - 1);
			ntprof_json_u64(js, "count", h->b[b]);
			ntprof_json_obj_end(js);
		}
		ntprof_json_arr_end(js);
		ntprof_json_obj_end(js);
	}
	ntprof_json_arr_end(js);
	ntprof_json_obj_end(js);
	free(c.h);
	return err;
}
