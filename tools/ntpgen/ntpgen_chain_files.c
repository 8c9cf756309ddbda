// SPDX-License-Identifier: GPL-2.0
/*
 * ntpgen --chain: the chain's machines, each with its clock, the .ntp
 * recordings each makes (through ntp_writer_*(), as 'ntprof record'
 * writes them) and the truth file beside them.
 *
 * In DIR: host.ntp (the origin host), middle-target.ntp and
 * middle-host.ntp (the middle's two recordings: one machine, one clock,
 * one boot), legN-target.ntp (leg N's replica) and, with --hops 3,
 * leg0-host.ntp and leg0.N-target.ntp (leg 0's replica is a middle), and
 * truth.csv. With --one-replica, replicas-target.ntp holds every leg's
 * replica: one machine, a subsystem and a drive per leg.
 *
 * Machine k (1: the middle, then the legs in that order) has the clock
 * host + --theta + (k - 1) * --theta-step, running k * --drift ppm fast.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/util.h"
#include "ntpgen_chain.h"

#define SUBSYS_PREFIX	"nqn.2014-08.org.nvmexpress:ntpgen-"

static struct chain chain_state;

/* True time @t (the origin's clock) on @m's clock. */
uint64_t chain_clock(const struct gen *g, const struct chain_machine *m,
		     uint64_t t)
{
	double drift;

	if (!m->index)
		return t;
	drift = m->drift_ppm * 1e-6 * (double)(int64_t)(t - g->t0);
	return (uint64_t)((int64_t)t + m->theta_ns + (int64_t)llround(drift));
}

/*
 * A truth row: @kind "hop" (@from a host record, @to its target record),
 * "link" (@from a middle's target record, @to a downstream host record of
 * it) or "unlinked" (@from a downstream host record without upstream).
 * Written only when every record it names was recorded.
 */
void chain_truth_row(struct gen *g, const char *kind,
		     const struct chain_key *from, const struct chain_key *to,
		     unsigned int leg, unsigned int part, unsigned int parts,
		     bool critical, const char *what)
{
	struct chain *ch = g->chain;

	if (!from->r || (to && !to->r))
		return;
	fprintf(ch->truth, "%s,%s,%u,%u,%" PRIu64 ",", kind, from->r->name,
		from->qid, from->cid, from->ts);
	if (to)
		fprintf(ch->truth, "%s,%u,%u,%" PRIu64, to->r->name, to->qid,
			to->cid, to->ts);
	else
		fputs(",,,", ch->truth);
	fprintf(ch->truth, ",%u,%u,%u,%d,%s,%" PRIu64 ",", leg, part, parts,
		critical, what, from->idx);
	if (to)
		fprintf(ch->truth, "%" PRIu64, to->idx);
	fputc('\n', ch->truth);
	if (!strcmp(kind, "hop"))
		ch->hop_rows++;
	else if (!strcmp(kind, "link"))
		ch->link_rows++;
	else
		ch->unlinked_rows++;
}

/* A recording of @m, DIR/NAME.ntp, with its chain rule's @offset. */
static struct chain_rec *add_rec(struct chain *ch, const struct opts *o,
				 struct chain_machine *m, uint8_t role,
				 uint64_t offset)
{
	struct chain_rec *r = &ch->recs[ch->nrecs++];

	snprintf(r->name, sizeof(r->name), "%s-%s", m->name,
		 role == NTPROF_ROLE_HOST ? "host" : "target");
	if (!strcmp(m->name, "host"))
		snprintf(r->name, sizeof(r->name), "host");
	if (asprintf(&r->path, "%s/%s.ntp", o->chain_dir, r->name) < 0)
		r->path = NULL;
	r->role = role;
	r->offset = offset;
	r->m = m;
	r->buf = malloc(BUF_RECORDS * sizeof(*r->buf));
	return r;
}

/* The middle @m's tags and in-flight lists of its legs. */
static int alloc_legs(struct chain_machine *m, const struct opts *o)
{
	size_t n;
	unsigned int l;

	for (l = 0; l < m->nlegs; l++) {
		/* Each upstream tag's parts on a leg, and some of md's own. */
		m->leg[l].ntags = 4 * o->qdepth + 64 < 4096 ?
				  4 * o->qdepth + 64 : 4096;
		n = (size_t)o->queues * m->leg[l].ntags;
		m->leg[l].busy = calloc(n, sizeof(*m->leg[l].busy));
		m->leg[l].gen = calloc(n, sizeof(*m->leg[l].gen));
		if (!m->leg[l].busy || !m->leg[l].gen)
			return -1;
	}
	return 0;
}

/* A machine: its name, its clock, and its target recording. */
static struct chain_machine *add_machine(struct chain *ch,
					 const struct opts *o,
					 const char *name, uint64_t offset)
{
	struct chain_machine *m = &ch->machines[ch->nmachines];

	m->index = ch->nmachines++;
	snprintf(m->name, sizeof(m->name), "%s", name);
	if (!m->index && o->hostname)
		snprintf(m->hostname, sizeof(m->hostname), "%s", o->hostname);
	else
		snprintf(m->hostname, sizeof(m->hostname), "ntpgen-%s", name);
	if (m->index) {
		m->theta_ns = o->theta_ns +
			      ((int64_t)m->index - 1) * o->theta_step_ns;
		m->drift_ppm = o->drift_ppm * m->index;
	}
	m->offset = offset;
	if (m->index)
		m->target = add_rec(ch, o, m, NTPROF_ROLE_TARGET, offset);
	return m;
}

/*
 * --one-replica: leg @l's replica is a subsystem of the machine of leg 0's,
 * whose clock, name and target recording it shares.
 */
static struct chain_machine *share_replica(struct chain *ch,
					   struct chain_machine *first,
					   unsigned int l)
{
	struct chain_machine *m = &ch->machines[ch->nmachines++];

	*m = *first;
	snprintf(m->name, sizeof(m->name), "leg%u", l);
	m->replica_of = l;
	return m;
}

/* @m exports a raid1 of --legs legs named PREFIX0, PREFIX1, ... */
static int add_legs(struct chain *ch, const struct opts *o,
		    struct chain_machine *m, const char *prefix, bool deeper)
{
	char name[16];
	unsigned int l;

	m->nlegs = o->legs;
	m->host = add_rec(ch, o, m, NTPROF_ROLE_HOST,
			  m->offset + o->leg_offset);
	for (l = 0; l < m->nlegs; l++) {
		if (o->one_replica && l) {
			m->legs[l] = share_replica(ch, m->legs[0], l);
			continue;
		}
		snprintf(name, sizeof(name), "%s%u", prefix, l);
		if (o->one_replica)
			snprintf(name, sizeof(name), "replicas");
		m->legs[l] = add_machine(ch, o, name,
					 m->offset + o->leg_offset);
		if (deeper && l == 0) {
			snprintf(name, sizeof(name), "%s%u.", prefix, l);
			if (add_legs(ch, o, m->legs[l], name, false))
				return -1;
		}
	}
	return alloc_legs(m, o);
}

/* --slow-leg: every replica under the middle's leg @m. */
static void slow_down(struct chain_machine *m, double us, double from_s)
{
	unsigned int l;

	if (!m->nlegs) {
		m->slow_us = us;
		m->slow_from_s = from_s;
	}
	for (l = 0; l < m->nlegs; l++)
		slow_down(m->legs[l], us, from_s);
}

static int build_chain(struct chain *ch, const struct opts *o)
{
	struct chain_machine *host, *mid;
	unsigned int i;

	host = add_machine(ch, o, "host", 0);
	host->host = add_rec(ch, o, host, NTPROF_ROLE_HOST, 0);
	mid = add_machine(ch, o, "middle", 0);
	host->nlegs = 1;
	host->legs[0] = mid;
	if (add_legs(ch, o, mid, "leg", o->hops > 2))
		return -1;
	if (o->slow_leg >= 0)
		slow_down(mid->legs[o->slow_leg], o->slow_leg_us,
			  o->slow_leg_from_s);
	for (i = 0; i < ch->nrecs; i++)
		if (!ch->recs[i].path || !ch->recs[i].buf)
			return -1;
	return 0;
}

/*
 * The device and controller tables of @r: a host's disk per leg (the
 * origin's one namespace), each reaching its leg's subsystem; a target's
 * backing device (md0 on a middle, nullb0 on a replica) on its port.
 */
static void chain_devs(const struct chain_rec *r, const struct opts *o,
		       struct ntp_dev *devs, struct ntp_ctrl *ctrls,
		       struct ntp_header *hdr)
{
	const struct chain_machine *m = r->m;
	unsigned int i, n = r->role == NTPROF_ROLE_HOST ? m->nlegs : 1;
	const struct chain_machine *peer;
	bool shared = r->role == NTPROF_ROLE_TARGET && !m->nlegs &&
		      o->one_replica;

	/* --one-replica: a subsystem and a drive per leg. */
	if (shared)
		n = o->legs;
	for (i = 0; i < n; i++) {
		struct ntp_ctrl *c = &ctrls[i];

		memset(c, 0, sizeof(*c));
		c->nsid = NSID;
		c->transport = o->transport;
		peer = r->role == NTPROF_ROLE_HOST ? m->legs[i] : m;
		if (shared || (o->one_replica && !peer->nlegs))
			snprintf(c->subsysnqn, sizeof(c->subsysnqn),
				 SUBSYS_PREFIX "leg%u",
				 shared ? i : peer->replica_of);
		else
			snprintf(c->subsysnqn, sizeof(c->subsysnqn),
				 SUBSYS_PREFIX "%s", peer->name);
		snprintf(c->address, sizeof(c->address),
			 "traddr=10.0.0.%u,trsvcid=4420", 1 + peer->index);
		if (r->role == NTPROF_ROLE_HOST) {
			devs[i].dev = ENCODE_DEV(259U, i);
			snprintf(devs[i].name, sizeof(devs[i].name), "nvme%un1",
				 1 + i);
			c->dev = devs[i].dev;
			c->cntlid = 1;
			snprintf(c->name, sizeof(c->name), "nvme%u", 1 + i);
		} else {
			devs[i].dev = m->nlegs ? ENCODE_DEV(9U, 0U) :
						 ENCODE_DEV(252U, i);
			if (m->nlegs)
				snprintf(devs[i].name, sizeof(devs[i].name),
					 "md0");
			else
				snprintf(devs[i].name, sizeof(devs[i].name),
					 "nullb%u", i);
			c->dev = devs[i].dev;
			snprintf(c->name, sizeof(c->name), "port 1");
		}
	}
	hdr->nr_devs = n;
	hdr->devs = devs;
	hdr->nr_ctrls = n;
	hdr->ctrls = ctrls;
}

/* Opens @r, whose session started at true time @start: 0, or -1. */
static int open_rec(struct gen *g, struct chain_rec *r, uint64_t start)
{
	const struct opts *o = g->o;
	struct ntp_dev devs[CHAIN_MAX_LEGS];
	struct ntp_ctrl ctrls[CHAIN_MAX_LEGS];
	struct ntp_hook hooks[MAX_HOOKS];
	struct ntp_header hdr;
	int ret;

	fill_header(&hdr, o, r->role, r->m->hostname, &g->rng, hooks);
	hdr.chain = o->chain_rule;
	hdr.chain_offset = o->chain_rule ? r->offset : 0;
	hdr.start_mono_ns = chain_clock(g, r->m, start);
	hdr.start_real_ns = g->real0 + (start - g->t0) +
			    (r->m->index ? o->real_skew_ns : 0);
	chain_devs(r, o, devs, ctrls, &hdr);
	ret = ntp_writer_open(r->path, &hdr, &r->w);
	if (ret) {
		fprintf(stderr, "ntpgen: %s: %s\n", r->path, strerror(-ret));
		return -1;
	}
	return 0;
}

/*
 * The machines, their recordings (the targets started half a second
 * before the hosts) and the truth file: 0, or -1 once said why not.
 */
int chain_open(struct gen *g)
{
	const struct opts *o = g->o;
	struct chain *ch = &chain_state;
	unsigned int i;

	g->chain = ch;
	if (mkdir(o->chain_dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "ntpgen: %s: %s\n", o->chain_dir,
			strerror(errno));
		return -1;
	}
	if (build_chain(ch, o)) {
		fputs("ntpgen: out of memory\n", stderr);
		return -1;
	}
	for (i = 0; i < ch->nmachines; i++)
		if (ch->machines[i].theta_ns < -86000LL * (int64_t)NSEC_PER_SEC) {
			fputs("ntpgen: --theta, --theta-step: every machine's at least -86000s, so that its clock stays positive\n",
			      stderr);
			return -1;
		}
	for (i = 0; i < ch->nrecs; i++)
		if (open_rec(g, &ch->recs[i],
			     ch->recs[i].role == NTPROF_ROLE_HOST ? g->t0 :
			     g->t0 - NSEC_PER_SEC / 2))
			return -1;
	if (asprintf(&ch->truth_path, "%s/truth.csv", o->chain_dir) < 0)
		return -1;
	ch->truth = fopen(ch->truth_path, "w");
	if (!ch->truth) {
		fprintf(stderr, "ntpgen: %s: %s\n", ch->truth_path,
			strerror(errno));
		return -1;
	}
	fputs("kind,from,from_qid,from_cid,from_ts,to,to_qid,to_cid,to_ts,"
	      "leg,part,parts,critical,what,from_idx,to_idx\n", ch->truth);
	return 0;
}

static int flush_rec(struct chain_rec *r)
{
	int ret = r->n ? ntp_writer_append(r->w, r->buf, r->n) : 0;

	r->n = 0;
	if (ret)
		fprintf(stderr, "ntpgen: %s: %s\n", r->path, strerror(-ret));
	return ret;
}

/* Appends @rec to @r's block, written out when full. */
int chain_emit(struct gen *g, struct chain_rec *r,
	       const struct ntprof_record *rec)
{
	(void)g;
	r->buf[r->n++] = *rec;
	r->records++;
	return r->n == BUF_RECORDS ? flush_rec(r) : 0;
}

/*
 * Writes out the blocks, closes every recording (the hosts' a
 * millisecond and --linger after the last point, the targets' --linger
 * later) and the truth file, and says what went where: @ret, or the
 * first error.
 */
int chain_close(struct gen *g, int ret)
{
	const struct opts *o = g->o;
	struct chain *ch = g->chain;
	struct ntp_trailer tr;
	struct chain_rec *r;
	uint64_t end;
	unsigned int i;
	int err;

	for (i = 0; i < ch->nrecs; i++) {
		r = &ch->recs[i];
		if (!r->w)
			continue;
		if (!ret)
			ret = flush_rec(r);
		end = g->last_true + NSEC_PER_SEC / 1000 + o->linger_ns +
		      (r->role == NTPROF_ROLE_TARGET ? o->linger_ns : 0);
		memset(&tr, 0, sizeof(tr));
		tr.end_mono_ns = chain_clock(g, r->m, end);
		tr.end_real_ns = g->real0 + (end - g->t0) +
				 (r->m->index ? o->real_skew_ns : 0);
		err = ntp_writer_close(r->w, ret || o->no_trailer ? NULL : &tr);
		if (err && !ret) {
			fprintf(stderr, "ntpgen: %s: %s\n", r->path,
				strerror(-err));
			ret = err;
		}
		if (!o->quiet && !ret)
			fprintf(stderr, "ntpgen: %s: %" PRIu64 " records\n",
				r->path, r->records);
	}
	if (ch->truth && fclose(ch->truth) && !ret) {
		fprintf(stderr, "ntpgen: %s: %s\n", ch->truth_path,
			strerror(errno));
		ret = -1;
	}
	if (!o->quiet && !ret)
		fprintf(stderr, "ntpgen: %s: %" PRIu64 " hops, %" PRIu64
			" links, %" PRIu64 " unlinked\n", ch->truth_path,
			ch->hop_rows, ch->link_rows, ch->unlinked_rows);
	return ret;
}
