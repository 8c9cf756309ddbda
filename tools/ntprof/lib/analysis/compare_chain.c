// SPDX-License-Identifier: GPL-2.0
/*
 * compare for chains (Documentation/report.rst, "Comparing chains"). A
 * pair of groups that are chained in both runs is compared twice more
 * than a hop's: hop by hop, each hop's stages in path order along the
 * critical path, so that the answer names the hop and the stage that
 * moved ("hop 2: storage"); and leg by leg, each replica device's own
 * stages, so that a slow replica, or a TCP leg against an RDMA one, shows
 * as a leg whose stage moved. Legs pair by their label (machine and
 * device), the same replica in both runs, or as --legs names them: one
 * leg of the base run against one of the load run, two legs of one run
 * when both runs are the same files.
 *
 * The rows and the answers are compare_answer.c's, so that the words
 * are the ones the hop's answer has.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "analysis/chain.h"
#include "analysis/chain_names.h"
#include "analysis/compare_chain.h"
#include "analysis/recording.h"
#include "common/names.h"
#include "common/util.h"

_Static_assert(NTPROF_CHAIN_MAX_STAGES + 1 <= CMP_MAX_ROWS,
	       "a chain's hops' rows fit a group's table");

int cmp_chain_legs_parse(char *arg, struct cmp_chain_legs *l)
{
	char *comma = strchr(arg, ',');

	if (!comma || comma == arg || !comma[1] || strchr(comma + 1, ','))
		return -EINVAL;
	*comma = '\0';
	l->base = arg;
	l->load = comma + 1;
	return 0;
}

static bool run_has_leg(const struct recording_run *run, const char *label)
{
	size_t i;

	for (i = 0; run->chain && i < run->chain->nr_legs; i++)
		if (!strcmp(run->chain->legs[i].label, label))
			return true;
	return false;
}

static int leg_missing(const char *cmd, const struct recording_run *run,
		       const char *which, const char *label)
{
	size_t i;

	fprintf(stderr, "ntprof: %s: --legs: no leg '%s' in the %s run (",
		cmd, label, which);
	if (!run->chain || !run->chain->nr_legs)
		fputs("it is no chain", stderr);
	else
		fputs("its legs: ", stderr);
	for (i = 0; run->chain && i < run->chain->nr_legs; i++)
		fprintf(stderr, "%s'%s'", i ? ", " : "",
			run->chain->legs[i].label);
	fputs(")\n", stderr);
	return 1;
}

int cmp_chain_legs_check(const char *cmd, const struct recording_run *base,
			 const struct recording_run *load,
			 const struct cmp_chain_legs *l)
{
	if (!l->base)
		return 0;
	if (!run_has_leg(base, l->base))
		return leg_missing(cmd, base, "base", l->base);
	if (!run_has_leg(load, l->load))
		return leg_missing(cmd, load, "load", l->load);
	return 0;
}

/*
 * row_add() - add a row with its means and LAD, as compare_rows.c sets a
 * stage's.
 */
static struct cmp_row *row_add(struct cmp_group *g, int stage,
			       const char *id, const char *base_name,
			       const char *load_name, double base,
			       double load)
{
	struct cmp_row *r = &g->rows[g->nr_rows++];

	memset(r, 0, sizeof(*r));
	r->stage = stage;
	r->comp = -1;
	r->id = id;
	r->base_name = base_name;
	r->load_name = load_name;
	cmp_merge_names(r->name, sizeof(r->name), base_name, load_name);
	r->base_ns = base;
	r->load_ns = load;
	r->lad = base >= CMP_LAD_MIN_BASE_NS && !isnan(load) ? load / base :
							       NAN;
	r->share = NAN;
	return r;
}

/*
 * hop_rows() - add the hops' rows, when both runs' paths have the same
 * number of hops.
 */
static void hop_rows(struct cmp_chain *cc)
{
	const struct ntprof_chain_group *b = cc->base, *l = cc->load;
	struct cmp_group *g = &cc->hops;
	char name[sizeof(g->rows[0].name)];
	struct cmp_row *r;
	uint32_t has;
	size_t k;
	int h, s;

	for (h = 0; h < b->hops; h++) {
		has = b->hop[h].stage_has | l->hop[h].stage_has;
		for (k = 0; k < ntprof_chain_path_len; k++) {
			s = ntprof_chain_path_order[k];
			if (!(has & (1U << s)))
				continue;
			r = row_add(g, s, ntprof_chain_stage_id(s),
				    ntprof_chain_hop_stage_name(b, h, s),
				    ntprof_chain_hop_stage_name(l, h, s),
				    ntprof_chain_stage_mean(b, h, s),
				    ntprof_chain_stage_mean(l, h, s));
			/* A stage only one run has is 0 in the other. */
			if (isnan(r->base_ns) || !(b->hop[h].stage_has & (1U << s)))
				r->base_ns = 0;
			if (isnan(r->load_ns) || !(l->hop[h].stage_has & (1U << s)))
				r->load_ns = 0;
			r->lad = r->base_ns >= CMP_LAD_MIN_BASE_NS ?
				 r->load_ns / r->base_ns : NAN;
			/* A merged name is far shorter than its room. */
			snprintf(name, sizeof(name), "hop %d: %.140s", h + 1,
				 r->name);
			memcpy(r->name, name, sizeof(name));
			cc->row_hop[g->nr_rows - 1] = (uint8_t)(h + 1);
		}
	}
	row_add(g, -1, "end_to_end", "end to end", "end to end", b->e2e_mean,
		l->e2e_mean);
	cc->row_hop[g->nr_rows - 1] = 0;
}

static double leg_mean(const struct ntprof_chain_leg_stats *ls, int s)
{
	if (!ls->n_stages || !(ls->stage_has & (1U << s)))
		return 0;
	return ls->stage_sum[s] / (double)ls->n_stages;
}

static void leg_compare(struct cmp_chain_leg *cl,
			const struct recording_run *base,
			const struct recording_run *load)
{
	const struct ntprof_chain_leg_stats *b = cl->base, *l = cl->load;
	struct cmp_group *g = &cl->cmp;
	uint32_t has = b->stage_has | l->stage_has;
	size_t k;
	int s;

	cmp_merge_names(g->label, sizeof(g->label),
			base->chain->legs[b->leg].label,
			load->chain->legs[l->leg].label);
	for (k = 0; k < NTPROF_STAGE_COUNT; k++) {
		s = ntprof_stage_order[k];
		if (!(has & (1U << s)))
			continue;
		row_add(g, s, ntprof_stage_id(s),
			ntprof_stage_name(s, b->transport, b->kind, 0),
			ntprof_stage_name(s, l->transport, l->kind, 0),
			leg_mean(b, s), leg_mean(l, s));
	}
	row_add(g, -1, "end_to_end", "end to end", "end to end",
		b->n_stages ? b->e2e_sum / (double)b->n_stages : NAN,
		l->n_stages ? l->e2e_sum / (double)l->n_stages : NAN);
	cmp_group_answer(g);
}

static const struct ntprof_chain_leg_stats *
leg_find(const struct recording_run *run, const struct ntprof_chain_group *cg,
	 const char *label)
{
	size_t i;

	for (i = 0; i < cg->nr_legs; i++)
		if (!strcmp(run->chain->legs[cg->legs[i].leg].label, label))
			return &cg->legs[i];
	return NULL;
}

static void leg_pairs(struct cmp_chain *cc, const struct recording_run *base,
		      const struct recording_run *load,
		      const struct cmp_chain_legs *legs)
{
	const struct ntprof_chain_leg_stats *b, *l;
	size_t i;

	for (i = 0; i < cc->base->nr_legs; i++) {
		b = &cc->base->legs[i];
		if (legs->base) {
			if (strcmp(base->chain->legs[b->leg].label, legs->base))
				continue;
			l = leg_find(load, cc->load, legs->load);
		} else {
			l = leg_find(load, cc->load,
				     base->chain->legs[b->leg].label);
		}
		if (!l || !b->n_stages || !l->n_stages)
			continue;
		cc->legs[cc->nr_legs].base = b;
		cc->legs[cc->nr_legs].load = l;
		leg_compare(&cc->legs[cc->nr_legs++], base, load);
	}
}

/* say() - append to @cc's answer; what does not fit is cut. */
static void say(struct cmp_chain *cc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void say(struct cmp_chain *cc, const char *fmt, ...)
{
	size_t len = strlen(cc->answer);
	va_list ap;

	if (len + 1 >= sizeof(cc->answer))
		return;
	va_start(ap, fmt);
	vsnprintf(cc->answer + len, sizeof(cc->answer) - len, fmt, ap);
	va_end(ap);
}

static double row_delta(const struct cmp_group *g, int i)
{
	return g->rows[i].load_ns - g->rows[i].base_ns;
}

/*
 * chain_answer() - make the chain's answer: first the hops' answer (which
 * hop's stage moved), then the leg whose own end to end moved the most, with
 * its stage that moved the most and how often it was the critical leg in
 * each run.
 */
static void chain_answer(struct cmp_chain *cc)
{
	const struct cmp_chain_leg *cl;
	const struct cmp_row *r;
	double best = -1, d;
	size_t i;

	cc->answer[0] = '\0';
	if (!cc->hops_differ)
		say(cc, "%s", cc->hops.answer);
	else
		say(cc, "the runs' chains have %u and %u hops: legs only",
		    cc->base->hops, cc->load->hops);
	cc->moved_leg = -1;
	for (i = 0; i < cc->nr_legs; i++) {
		cl = &cc->legs[i];
		d = fabs(row_delta(&cl->cmp, (int)cl->cmp.nr_rows - 1));
		if (!isnan(d) && d > best) {
			best = d;
			cc->moved_leg = (int)i;
		}
	}
	if (cc->moved_leg < 0)
		return;
	cl = &cc->legs[cc->moved_leg];
	r = &cl->cmp.rows[cl->cmp.nr_rows - 1];
	say(cc, "; the leg that moved the most: %s, %.2f -> %.2f us",
	    cl->cmp.label, r->base_ns / 1e3, r->load_ns / 1e3);
	if (cl->cmp.largest >= 0) {
		r = &cl->cmp.rows[cl->cmp.largest];
		say(cc, ", %s %+.2f us", r->name,
		    (r->load_ns - r->base_ns) / 1e3);
		if (!isnan(r->lad))
			say(cc, " (LAD %.2f)", r->lad);
	}
	say(cc, ", critical for %llu of %llu -> %llu of %llu",
	    (unsigned long long)cl->base->critical,
	    (unsigned long long)cc->base->n,
	    (unsigned long long)cl->load->critical,
	    (unsigned long long)cc->load->n);
}

bool cmp_chain_compare(struct cmp_chain *cc, const struct recording_run *base,
		       const struct recording_run *load,
		       const struct cmp_group *cg,
		       const struct cmp_chain_legs *legs)
{
	const struct ntprof_chain_group *b = ntprof_chain_group_of(base,
								   cg->base);
	const struct ntprof_chain_group *l = ntprof_chain_group_of(load,
								   cg->load);

	if (!b || !l || !b->followed || !l->followed)
		return false;
	memset(cc, 0, sizeof(*cc));
	cc->base = b;
	cc->load = l;
	cc->hops.base = cg->base;
	cc->hops.load = cg->load;
	snprintf(cc->hops.label, sizeof(cc->hops.label), "%s", cg->label);
	cc->hops_differ = b->hops != l->hops;
	if (!cc->hops_differ) {
		hop_rows(cc);
		cmp_group_answer(&cc->hops);
	}
	leg_pairs(cc, base, load, legs);
	chain_answer(cc);
	return true;
}
