// SPDX-License-Identifier: GPL-2.0
/*
 * A run's chains in numbers, per group of origin commands (chain.h):
 * its hops along the critical path, each with its stages, and its legs,
 * each replica device with the commands it served, how often it
 * completed last and by how much it held the writes.
 *
 * A group's hops are taken over its commands followed to a leaf, so
 * that their stages' means add up to those commands' mean end to end.
 * A leg's stages are its own downstream commands', all of them, critical
 * or not: they show what a replica costs, the hops what it cost the
 * origin.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/chain.h"
#include "analysis/recording.h"

/* file_dev_name() - return @dev's name in @rec's tables, or else its number. */
static const char *file_dev_name(const struct recording *rec, uint32_t dev,
				 char *buf, size_t size)
{
	const struct ntp_trailer *t = ntp_trailer(rec->file);
	const struct ntp_header *hdr = rec->hdr;
	uint32_t i;

	for (i = 0; i < hdr->nr_devs; i++)
		if (hdr->devs[i].dev == dev)
			return hdr->devs[i].name;
	for (i = 0; t && i < t->nr_late_devs; i++)
		if (t->late_devs[i].dev == dev)
			return t->late_devs[i].name;
	return ntprof_dev_str(dev, NULL, 0, buf, size);
}

int ntprof_chain_leg_of(const struct recording_run *run,
			const struct ntprof_chain_node *n)
{
	struct ntprof_chain *ch = run->chain;
	const struct recording *rec;
	struct ntprof_chain_leg_id *v, *l;
	bool target = n->target.idx != NTPROF_CHAIN_NONE;
	uint32_t file = target ? n->target.file : n->host.file;
	uint32_t dev;
	char buf[32];
	size_t i;

	rec = &run->files[file];
	dev = rec->recs[target ? n->target.idx : n->host.idx].dev;
	for (i = 0; i < ch->nr_legs; i++)
		if (ch->legs[i].file == file && ch->legs[i].dev == dev)
			return (int)i;
	v = realloc(ch->legs, (ch->nr_legs + 1) * sizeof(*v));
	if (!v)
		return -1;
	ch->legs = v;
	l = &v[ch->nr_legs];
	l->file = file;
	l->dev = dev;
	snprintf(l->label, sizeof(l->label), "%s %s%s", rec->hdr->hostname,
		 file_dev_name(rec, dev, buf, sizeof(buf)),
		 target ? "" : " (no target recording)");
	return (int)ch->nr_legs++;
}

/*
 * middle_dev() - return the device that a middle's target command went to.
 * nvmet's records name the disk of the first block request they saw, and a
 * bio-based device such as md0 has none; then the target recording's
 * namespaces tell the device, when only one backing device has the command's
 * namespace id.
 */
static uint32_t middle_dev(const struct recording *rec,
			   const struct ntprof_record *r)
{
	const struct ntp_header *hdr = rec->hdr;
	uint32_t i, dev = 0;

	if (r->dev)
		return r->dev;
	for (i = 0; i < hdr->nr_ctrls; i++) {
		if (hdr->ctrls[i].nsid != r->nsid || !hdr->ctrls[i].dev)
			continue;
		if (dev && dev != hdr->ctrls[i].dev)
			return 0;
		dev = hdr->ctrls[i].dev;
	}
	return dev;
}

const char *ntprof_chain_middle_name(const struct recording_run *run,
				     const struct ntprof_chain_node *n,
				     char *buf, size_t size)
{
	const struct recording *rec = &run->files[n->target.file];
	char num[32];

	snprintf(buf, size, "middle (%s)",
		 file_dev_name(rec, middle_dev(rec, &rec->recs[n->target.idx]),
			       num, sizeof(num)));
	return buf;
}

static const struct ntprof_record *node_host(const struct recording_run *run,
					     const struct ntprof_chain_node *n)
{
	return &run->files[n->host.file].recs[n->host.idx];
}

static const struct ntprof_record *
node_target(const struct recording_run *run, const struct ntprof_chain_node *n)
{
	if (n->target.idx == NTPROF_CHAIN_NONE)
		return NULL;
	return &run->files[n->target.file].recs[n->target.idx];
}

/*
 * critical_leg() - return the critical leg of the first middle: the origin's
 * critical child.
 */
static int critical_leg(const struct recording_run *run,
			const struct ntprof_chain_cmd *c)
{
	size_t i;

	for (i = 1; i < c->nr; i++)
		if (c->node[i].critical && c->node[i].parent == 0)
			return ntprof_chain_leg_of(run, &c->node[i]);
	return -1;
}

/*
 * group_of() - return the chain group of an origin command: that of its
 * analysis group and, with --by leg, of its critical leg; create it if it is
 * new. It returns NULL when the command is in no group's tables, or memory
 * is short.
 */
static struct ntprof_chain_group *
group_of(const struct recording_run *run, const struct ntprof_chain_cmd *c,
	 int *leg, bool make)
{
	struct ntprof_chain_stats *cs = run->chain->stats;
	const struct ntprof_record *h = node_host(run, &c->node[0]);
	const struct ntprof_group *g;
	struct ntprof_chain_group *v, *cg;
	size_t i;

	*leg = critical_leg(run, c);
	if (!ntprof_record_in_sample(h, NTPROF_ROLE_HOST))
		return NULL;
	g = ntprof_analysis_group_of(run->an,
				     run->files[c->node[0].host.file].machine,
				     h, node_target(run, &c->node[0]));
	if (!g)
		return NULL;
	for (i = 0; i < cs->nr; i++) {
		cg = &cs->g[i];
		if (cg->group == g && (!cs->by_leg || cg->leg == *leg))
			return cg;
	}
	if (!make)
		return NULL;
	v = realloc(cs->g, (cs->nr + 1) * sizeof(*v));
	if (!v)
		return NULL;
	cs->g = v;
	cg = &v[cs->nr++];
	memset(cg, 0, sizeof(*cg));
	cg->group = g;
	cg->leg = cs->by_leg ? *leg : -1;
	return cg;
}

/* hop_meet() - note a hop's machines and transport from one more command. */
static void hop_meet(const struct recording_run *run,
		     struct ntprof_chain_hop_stats *hs,
		     const struct ntprof_chain_node *n)
{
	const char *host = run->files[n->host.file].hdr->hostname;
	const char *target = n->target.idx == NTPROF_CHAIN_NONE ? NULL :
			     run->files[n->target.file].hdr->hostname;
	uint8_t tr = node_host(run, n)->transport;

	if (!hs->n++) {
		hs->host = host;
		hs->target = target;
		hs->transport = tr;
		return;
	}
	hs->several_hosts |= strcmp(hs->host, host) != 0;
	if (target && (!hs->target || strcmp(hs->target, target)))
		hs->several_targets |= hs->target != NULL;
	if (target && !hs->target)
		hs->target = target;
	hs->transports_differ |= hs->transport != tr;
}

static struct ntprof_chain_leg_stats *leg_stats(struct ntprof_chain_group *cg,
						int leg, uint8_t hop)
{
	struct ntprof_chain_leg_stats *ls;
	size_t i;

	for (i = 0; i < cg->nr_legs; i++)
		if (cg->legs[i].leg == leg)
			return &cg->legs[i];
	if (cg->nr_legs == NTPROF_CHAIN_MAX_LEGS)
		return NULL;
	ls = &cg->legs[cg->nr_legs++];
	memset(ls, 0, sizeof(*ls));
	ls->leg = leg;
	ls->hop = hop;
	return ls;
}

/*
 * leg_add() - count node @i's leg: its stages, whether it was critical, and
 * how long it held.
 */
static void leg_add(const struct recording_run *run,
		    struct ntprof_chain_group *cg,
		    const struct ntprof_chain_cmd *c, size_t i)
{
	const struct ntprof_chain_node *n = &c->node[i];
	struct ntprof_chain_leg_stats *ls;
	struct ntprof_breakdown bd;
	uint64_t last, other = 0;
	size_t k;
	int leg = ntprof_chain_leg_of(run, n), s;

	ls = leg < 0 ? NULL : leg_stats(cg, leg, n->hop);
	if (!ls) {
		cg->legs_dropped++;
		return;
	}
	ls->n++;
	if (!ntprof_breakdown(node_host(run, n), node_target(run, n), &bd)) {
		if (!ls->n_stages++)
			ls->transport = node_host(run, n)->transport;
		ls->kind = bd.kind;
		ls->stage_has |= bd.stage_has;
		for (s = 0; s < NTPROF_STAGE_COUNT; s++)
			if (bd.stage_has & (1U << s))
				ls->stage_sum[s] += (double)bd.stage[s];
		ls->e2e_sum += (double)bd.comp[NTPROF_COMP_E2E];
	}
	if (!n->critical)
		return;
	ls->critical++;
	/* How long it held the write: past the other legs' last completion. */
	last = recording_last_point(node_host(run, n), 1);
	for (k = 1; k < c->nr; k++) {
		uint64_t end;

		if (k == i || c->node[k].parent != n->parent)
			continue;
		end = recording_last_point(node_host(run, &c->node[k]), 1);
		if (end > other)
			other = end;
	}
	if (other) {
		ls->held_n++;
		ls->held_sum += (double)(last - other);
	}
}

static int cmd_add(const struct ntprof_chain_cmd *c, void *arg)
{
	const struct recording_run *run = arg;
	struct ntprof_chain_group *cg;
	const struct ntprof_chain_node *n;
	struct ntprof_chain_hop_stats *hs;
	const struct ntprof_chain_stage *st;
	size_t i;
	int leg;

	cg = group_of(run, c, &leg, true);
	if (!cg)
		return 0;
	cg->n++;
	for (i = 0; i < c->nr; i++) {
		n = &c->node[i];
		if (n->critical && n->target.idx != NTPROF_CHAIN_NONE)
			hop_meet(run, &cg->hop[n->hop - 1], n);
		if (i)
			leg_add(run, cg, c, i);
		if (n->critical && n->hop > cg->hops)
			cg->hops = n->hop;
		if (n->critical && i && !cg->middle[n->hop - 2][0])
			ntprof_chain_middle_name(run, &c->node[n->parent],
						 cg->middle[n->hop - 2],
						 sizeof(cg->middle[0]));
	}
	if (!c->followed)
		return 0;
	cg->followed++;
	cg->e2e_sum += (double)c->e2e_ns;
	for (i = 0; i < c->nr_stages; i++) {
		st = &c->stages[i];
		hs = &cg->hop[st->hop - 1];
		hs->stage_has |= 1U << st->stage;
		hs->stage_sum[st->stage] += (double)st->ns;
	}
	return ntprof_vec_push(&cg->e2e, c->e2e_ns);
}

static int chain_group_cmp(const void *pa, const void *pb)
{
	const struct ntprof_chain_group *a = pa, *b = pb;

	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	return a->leg < b->leg ? -1 : a->leg > b->leg;
}

int ntprof_chain_stats_make(struct recording_run *run, bool by_leg)
{
	struct ntprof_chain_stats *cs;
	struct ntprof_chain_group *cg;
	size_t i;
	int err;

	if (!ntprof_chain_present(run) || run->chain->stats)
		return 0;
	cs = calloc(1, sizeof(*cs));
	if (!cs)
		return -ENOMEM;
	cs->by_leg = by_leg;
	run->chain->stats = cs;
	err = ntprof_chain_each(run, cmd_add, run);
	/* In the order of the analysis' groups, and of the legs met. */
	qsort(cs->g, cs->nr, sizeof(*cs->g), chain_group_cmp);
	for (i = 0; i < cs->nr; i++) {
		cg = &cs->g[i];
		cs->origin += cg->n;
		cs->followed += cg->followed;
		cg->e2e_mean = cg->followed ? cg->e2e_sum / (double)cg->followed :
					      NAN;
	}
	return err;
}

struct ntprof_chain_group *
ntprof_chain_group_find(const struct recording_run *run,
			const struct ntprof_chain_cmd *c)
{
	int leg;

	if (!run->chain || !run->chain->stats)
		return NULL;
	return group_of(run, c, &leg, false);
}

/*
 * ntprof_chain_stage_mean() - return the mean of a hop's stage over the
 * group's followed commands.
 */
double ntprof_chain_stage_mean(const struct ntprof_chain_group *cg, int hop,
			       int stage)
{
	return cg->followed ? cg->hop[hop].stage_sum[stage] /
			      (double)cg->followed : NAN;
}

void ntprof_chain_stats_free(struct ntprof_chain *ch)
{
	size_t i;

	if (!ch || !ch->stats)
		return;
	for (i = 0; i < ch->stats->nr; i++)
		ntprof_vec_free(&ch->stats->g[i].e2e);
	free(ch->stats->g);
	free(ch->stats);
	ch->stats = NULL;
}
