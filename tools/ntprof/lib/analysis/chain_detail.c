// SPDX-License-Identifier: GPL-2.0
/*
 * report --detail on chains (chain_detail.h). A hop's components are
 * those of its host and target records (ntprof_breakdown()), taken over
 * the group's commands followed to a leaf, as the hops' stages are; at a
 * middle, the storage's components give way to the middle's two parts:
 * TARGET_EXEC to the critical leg's first point ("submission") and the
 * leg's last point to TARGET_COMPLETE ("completion"). They add up to
 * the middle stage (its storage less the leg's end to end) exactly when
 * that storage is TARGET_EXEC to TARGET_COMPLETE; when a point is
 * missing the whole middle is its submission, the completion counted as
 * merged into it. A leg's components are its own, over all its commands,
 * as its stages are.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/chain_detail.h"
#include "analysis/recording.h"

const char *ntprof_chain_comp_id(int comp)
{
	if (comp == NTPROF_CHAIN_COMP_MIDDLE_SUB)
		return "middle_submission";
	if (comp == NTPROF_CHAIN_COMP_MIDDLE_COMP)
		return "middle_completion";
	return ntprof_comp_id(comp);
}

int ntprof_chain_comp_stage(int comp)
{
	if (comp == NTPROF_CHAIN_COMP_MIDDLE_SUB ||
	    comp == NTPROF_CHAIN_COMP_MIDDLE_COMP)
		return NTPROF_CHAIN_STAGE_MIDDLE;
	return ntprof_comp_stage(comp);
}

const char *ntprof_chain_comp_name(const struct ntprof_chain_group *cg,
				   int hop, int comp, char *buf, size_t size)
{
	const char *mid = hop >= 0 && cg->middle[hop][0] ? cg->middle[hop] :
			  "middle";

	if (comp == NTPROF_CHAIN_COMP_MIDDLE_SUB) {
		snprintf(buf, size, "%s, submission", mid);
		return buf;
	}
	if (comp == NTPROF_CHAIN_COMP_MIDDLE_COMP) {
		snprintf(buf, size, "%s, completion", mid);
		return buf;
	}
	return ntprof_comp_name(comp, hop >= 0 ? cg->hop[hop].transport :
				NTPROF_TRANSPORT_NONE, 0);
}

static const struct ntprof_record *rec_of(const struct recording_run *run,
					  struct ntprof_chain_ref r)
{
	return r.idx == NTPROF_CHAIN_NONE ? NULL :
	       &run->files[r.file].recs[r.idx];
}

static void point_span(const struct ntprof_record *r, uint64_t *first,
		       uint64_t *last)
{
	int p;

	*first = 0;
	*last = 0;
	for (p = 0; p < NTPROF_RECORD_POINTS; p++) {
		if (!r->ts[p])
			continue;
		if (!*first || r->ts[p] < *first)
			*first = r->ts[p];
		if (r->ts[p] > *last)
			*last = r->ts[p];
	}
}

static int comp_push(struct ntprof_chain_comps *cc, int comp, int64_t v,
		     uint32_t merged)
{
	cc->has |= 1U << comp;
	cc->merged[comp] |= merged;
	if (merged)
		cc->merged_n[comp]++;
	return ntprof_vec_push(&cc->val[comp], v);
}

/*
 * hop_comps() - put the components of node @i's hop into @cc; at a middle
 * (@child, its critical leg, >= 0), the middle's parts take the place of the
 * storage's components.
 */
static int hop_comps(const struct recording_run *run,
		     const struct ntprof_chain_cmd *c, int i, int child,
		     struct ntprof_chain_comps *cc)
{
	const struct ntprof_record *t = rec_of(run, c->node[i].target), *d;
	struct ntprof_breakdown bd, dbd;
	uint64_t first, last;
	int64_t mid, sub, done;
	int k, err = 0;

	if (ntprof_breakdown(rec_of(run, c->node[i].host), t, &bd))
		return 0;
	for (k = 0; k < NTPROF_COMP_COUNT && !err; k++) {
		if (!(bd.has & (1U << k)) || k == NTPROF_COMP_E2E ||
		    (child >= 0 && ntprof_comp_stage(k) == NTPROF_STAGE_STORAGE))
			continue;
		err = comp_push(cc, k, bd.comp[k], bd.merged[k]);
	}
	if (child < 0 || err)
		return err;
	d = rec_of(run, c->node[child].host);
	if (ntprof_breakdown(d, NULL, &dbd))
		return 0;
	point_span(d, &first, &last);
	/* The middle stage as hop_stages() takes it (chain.c). */
	mid = bd.stage[NTPROF_STAGE_STORAGE] - dbd.comp[NTPROF_COMP_E2E];
	done = (int64_t)(t->ts[NTPROF_PT_TARGET_COMPLETE] - last);
	sub = mid - done;
	if (t->ts[NTPROF_PT_TARGET_EXEC] && t->ts[NTPROF_PT_TARGET_COMPLETE] &&
	    bd.stage[NTPROF_STAGE_STORAGE] ==
	    (int64_t)(t->ts[NTPROF_PT_TARGET_COMPLETE] -
		      t->ts[NTPROF_PT_TARGET_EXEC]) && done >= 0 && sub >= 0) {
		err = comp_push(cc, NTPROF_CHAIN_COMP_MIDDLE_SUB, sub, 0);
		return err ?: comp_push(cc, NTPROF_CHAIN_COMP_MIDDLE_COMP,
					done, 0);
	}
	return comp_push(cc, NTPROF_CHAIN_COMP_MIDDLE_SUB, mid,
			 1U << NTPROF_CHAIN_COMP_MIDDLE_COMP);
}

/* leg_comps() - add node @i's own components, as its leg's. */
static int leg_comps(const struct recording_run *run,
		     const struct ntprof_chain_node *n,
		     struct ntprof_chain_comps *cc)
{
	struct ntprof_breakdown bd;
	int k, err = 0;

	if (ntprof_breakdown(rec_of(run, n->host), rec_of(run, n->target), &bd))
		return 0;
	for (k = 0; k < NTPROF_COMP_COUNT && !err; k++)
		if (bd.has & (1U << k))
			err = comp_push(cc, k, bd.comp[k], bd.merged[k]);
	return err;
}

static int detail_cmd(const struct ntprof_chain_cmd *c, void *arg)
{
	const struct recording_run *run = arg;
	const struct ntprof_chain_stats *cs = run->chain->stats;
	struct ntprof_chain_detail_group *dg;
	struct ntprof_chain_group *cg;
	int i, k, child, leg, err = 0;
	size_t l;

	cg = ntprof_chain_group_find(run, c);
	if (!cg)
		return 0;
	dg = &run->chain->detail->g[cg - cs->g];
	for (i = 1; i < (int)c->nr && !err; i++) {
		leg = ntprof_chain_leg_of(run, &c->node[i]);
		for (l = 0; l < cg->nr_legs; l++)
			if (cg->legs[l].leg == leg)
				break;
		if (l < cg->nr_legs)
			err = leg_comps(run, &c->node[i], &dg->leg[l]);
	}
	if (!c->followed || err)
		return err;
	/* Down the critical path, as critical_path() took its stages. */
	for (i = 0; i >= 0 && !err; i = child) {
		child = -1;
		for (k = i + 1; k < (int)c->nr; k++)
			if (c->node[k].critical && c->node[k].parent == i)
				child = k;
		err = hop_comps(run, c, i, child, &dg->hop[c->node[i].hop - 1]);
	}
	return err;
}

static void comps_finish(struct ntprof_chain_comps *cc)
{
	int k;

	for (k = 0; k < NTPROF_CHAIN_COMPS; k++) {
		ntprof_vec_stats(&cc->val[k], &cc->st[k]);
		ntprof_vec_free(&cc->val[k]);
	}
}

int ntprof_chain_detail_make(struct recording_run *run)
{
	struct ntprof_chain_detail *dt;
	size_t i;
	int h, err;

	if (!ntprof_chain_present(run) || !run->chain->stats ||
	    run->chain->detail)
		return 0;
	dt = calloc(1, sizeof(*dt));
	if (!dt)
		return -ENOMEM;
	run->chain->detail = dt;
	dt->nr = run->chain->stats->nr;
	dt->g = calloc(dt->nr + 1, sizeof(*dt->g));
	if (!dt->g)
		return -ENOMEM;
	err = ntprof_chain_each(run, detail_cmd, run);
	for (i = 0; i < dt->nr; i++) {
		for (h = 0; h < NTPROF_CHAIN_MAX_HOPS; h++)
			comps_finish(&dt->g[i].hop[h]);
		for (h = 0; h < NTPROF_CHAIN_MAX_LEGS; h++)
			comps_finish(&dt->g[i].leg[h]);
	}
	return err;
}

void ntprof_chain_detail_free(struct ntprof_chain *ch)
{
	size_t i;
	int h, k;

	if (!ch || !ch->detail)
		return;
	for (i = 0; ch->detail->g && i < ch->detail->nr; i++)
		for (k = 0; k < NTPROF_CHAIN_COMPS; k++) {
			for (h = 0; h < NTPROF_CHAIN_MAX_HOPS; h++)
				ntprof_vec_free(&ch->detail->g[i].hop[h].val[k]);
			for (h = 0; h < NTPROF_CHAIN_MAX_LEGS; h++)
				ntprof_vec_free(&ch->detail->g[i].leg[h].val[k]);
		}
	free(ch->detail->g);
	free(ch->detail);
	ch->detail = NULL;
}
