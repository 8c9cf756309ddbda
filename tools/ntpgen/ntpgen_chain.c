// SPDX-License-Identifier: GPL-2.0
/*
 * ntpgen --chain: one command of the origin host through a chain of
 * NVMe-oF hops, on one true time line (the origin's clock).
 *
 * Each hop is ntpgen's usual command (ntpgen_model.c), but for the
 * storage of a middle's target: there the middle (md raid1) waits a
 * moment, sends the command down its legs as new commands (a write to
 * every leg, a read to one; a split command as 2 or 4 contiguous parts),
 * each LBA shifted by md's data_offset (--leg-offset), and completes a
 * moment after the last of them completed: that one is the critical leg.
 * A middle also sends commands of its own that no upstream command
 * caused (--unlinked-pct): a resync (a read from one leg, then writes of
 * it to the others, past the volume's LBAs that the workload uses) and
 * superblock writes (at sector 8 of every leg, before the data offset).
 *
 * Every recording picks its commands by the chain rule of the uapi
 * header, on the LBA in the volume's coordinates (the file's offset
 * taken out), so that all the machines pick the same commands; with
 * --no-chain-rule, by the usual rule on each hop's own identity.
 *
 * What it wrote goes into the truth file row by row (chain_truth_row()):
 * every hop's host record with its target record, every link from a
 * middle's target record to its downstream host records, and every
 * downstream command without an upstream one.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ntpgen_chain.h"

/* What hop() tells of a command it sent. */
struct hop_out {
	uint64_t end;		/* the host's completion, true time */
	struct chain_key host;	/* its host record's key, r NULL: none */
};

static int hop(struct gen *g, struct chain_machine *from, unsigned int leg,
	       const struct cmd_identity *c, uint64_t start,
	       struct hop_out *out);

/* The recording @r's decision on command @c. */
static bool chain_pick(const struct gen *g, const struct chain_rec *r,
		       const struct cmd_identity *c)
{
	uint32_t n = g->o->sample;

	if (n <= 1)
		return true;
	if (!g->o->chain_rule)
		return ntprof_sample_hash(c->qid, c->cid, c->opcode, NSID,
					  c->slba, c->nlb) % n == 0;
	return ntprof_chain_hash(c->opcode, c->slba - r->offset, c->nlb) %
	       n == 0;
}

/* A record of @c by @r, from the points @pts in true time. */
static void chain_record(const struct gen *g, const struct chain_rec *r,
			 const struct cmd_identity *c, uint32_t dev,
			 const uint64_t *pts, struct ntprof_record *out)
{
	const struct opts *o = g->o;
	int i;

	memset(out, 0, sizeof(*out));
	out->role = r->role;
	out->transport = o->transport;
	out->opcode = c->opcode;
	out->flags = NTPROF_REC_F_SAMPLED;
	out->qid = c->qid;
	out->cid = c->cid;
	out->nsid = NSID;
	out->length = c->length;
	out->slba = c->slba;
	out->cntlid = 1;
	out->cpu_submit = (c->qid - 1) % o->nr_cpus;
	out->cpu_complete = out->cpu_submit;
	out->dev = dev;
	for (i = 0; i < NTPROF_PT_COUNT; i++)
		out->ts[i] = pts[i] ? chain_clock(g, r->m, pts[i]) : 0;
}

/* The min-heap of a leg's ends in flight. */
static void inflight_push(struct chain_leg *l, uint64_t end)
{
	size_t i, p;

	if (l->nin == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 256;
		uint64_t *n = realloc(l->inflight, cap * sizeof(*n));

		if (!n)
			return;	/* least-busy then sees fewer in flight */
		l->inflight = n;
		l->cap = cap;
	}
	for (i = l->nin++; i > 0; i = p) {
		p = (i - 1) / 2;
		if (l->inflight[p] <= end)
			break;
		l->inflight[i] = l->inflight[p];
	}
	l->inflight[i] = end;
}

/* The commands in flight on leg @l at true time @t. */
static size_t inflight_at(struct chain_leg *l, uint64_t t)
{
	uint64_t x;
	size_t i, c;

	while (l->nin && l->inflight[0] <= t) {
		x = l->inflight[--l->nin];
		for (i = 0; (c = 2 * i + 1) < l->nin; i = c) {
			if (c + 1 < l->nin && l->inflight[c + 1] <
					      l->inflight[c])
				c++;
			if (l->inflight[c] >= x)
				break;
			l->inflight[i] = l->inflight[c];
		}
		l->inflight[i] = x;
	}
	return l->nin;
}

/*
 * The leg of a read at true time @t: md's read_balance on SSDs, the leg
 * with the fewest commands pending (ties to the lowest), or in turn.
 */
static unsigned int read_leg(struct chain_machine *m, bool alternate,
			     uint64_t t)
{
	unsigned int l, best = 0;
	size_t n, least = SIZE_MAX;

	if (alternate)
		return m->next_read++ % m->nlegs;
	for (l = 0; l < m->nlegs; l++) {
		n = inflight_at(&m->leg[l], t);
		if (n < least) {
			least = n;
			best = l;
		}
	}
	return best;
}

/*
 * A free tag of leg @l's queue @qid at true time @t, as its command id
 * (with the generation counter unless --no-genctr): one whose last
 * command ended before @t, else the one that ends first.
 */
static uint16_t tag_get(const struct gen *g, struct chain_leg *l,
			uint16_t qid, uint64_t t, uint32_t *tag)
{
	uint64_t *busy = l->busy + (size_t)(qid - 1) * l->ntags;
	uint32_t i, best = 0;

	for (i = 0; i < l->ntags; i++) {
		if (busy[i] < t) {
			best = i;
			break;
		}
		if (busy[i] < busy[best])
			best = i;
	}
	*tag = best;
	l->gen[(size_t)(qid - 1) * l->ntags + best]++;
	if (!g->o->genctr)
		return best;
	return (uint16_t)((l->gen[(size_t)(qid - 1) * l->ntags + best] & 0xf)
			  << 12 | best);
}

/*
 * Sends @c (in the leg's LBAs) down leg @leg of @m at true time @t as a
 * new command of the middle, with a free tag of its queue: hop()'s 0 or -1.
 */
static int send_down(struct gen *g, struct chain_machine *m, unsigned int leg,
		     struct cmd_identity *c, uint64_t t, struct hop_out *out)
{
	struct chain_leg *l = &m->leg[leg];
	uint32_t tag;

	c->cid = tag_get(g, l, c->qid, t, &tag);
	if (hop(g, m, leg, c, t, out))
		return -1;
	l->busy[(size_t)(c->qid - 1) * l->ntags + tag] = out->end;
	inflight_push(l, out->end);
	return 0;
}

/*
 * A middle's command of its own at true time @t, which no upstream
 * command caused: in turn a resync of 64 KiB (a read from one leg, then
 * its writes to the others) past the volume's LBAs that the workload
 * uses, and a superblock write (4 KiB at sector 8 of every leg, before
 * the data).
 */
static int unlinked(struct gen *g, struct chain_machine *m, uint64_t t)
{
	const struct opts *o = g->o;
	struct cmd_identity c = { 0 };
	struct hop_out out;
	unsigned int l, src = 0;
	bool resync = m->unlinked_seq++ % 2 == 0 && m->nlegs > 1;
	uint64_t lbas = 65536 / o->lba_size;

	c.qid = 1 + (uint16_t)(rng_next(&g->rng) % o->queues);
	if (resync) {
		c.length = 65536;
		c.large = true;
		c.slba = o->span / o->lba_size +
			 rng_next(&g->rng) % (o->span / 65536) * lbas +
			 m->offset + o->leg_offset;
		src = rng_next(&g->rng) % m->nlegs;
		c.is_read = true;
		c.opcode = OP_READ;
		c.nlb = lbas - 1;
		if (send_down(g, m, src, &c, t, &out))
			return -1;
		chain_truth_row(g, "unlinked", &out.host, NULL, src, 0, 1,
				false, "resync");
		t = out.end + NSEC_PER_USEC;
	} else {
		c.length = 4096;
		c.slba = 8 * 512 / o->lba_size;
	}
	c.is_read = false;
	c.opcode = OP_WRITE;
	c.nlb = c.length / o->lba_size - 1;
	for (l = 0; l < m->nlegs; l++) {
		if (resync && l == src)
			continue;
		if (send_down(g, m, l, &c, t, &out))
			return -1;
		chain_truth_row(g, "unlinked", &out.host, NULL, l, 0, 1, false,
				resync ? "resync" : "superblock");
		t += draw(&g->rng, 500, o->jitter);
	}
	return 0;
}

/* One downstream command of a middle's upstream command. */
struct down {
	struct chain_key host;
	unsigned int leg, part;
	uint64_t end;
};

/* The downstream commands of an upstream command, for the truth. */
struct downs {
	struct down d[CHAIN_MAX_LEGS * CHAIN_MAX_PARTS];
	unsigned int n, parts, crit;
};

/*
 * The middle @m serves @c, which its target executes at true time
 * @exec: the commands down its legs, into @ds. Sets @complete, the
 * target's completion.
 */
static int middle(struct gen *g, struct chain_machine *m,
		  const struct cmd_identity *c, uint64_t exec,
		  struct downs *ds, uint64_t *complete)
{
	const struct opts *o = g->o;
	struct rng *r = &g->rng;
	struct down *downs = ds->d;
	unsigned int parts = 1, first = 0, last = m->nlegs - 1, l, p;
	unsigned int n = 0, crit = 0;
	uint64_t sub, comp, t;
	struct cmd_identity dc;
	struct hop_out out;

	sub = draw(r, 0.5 * o->middle_us * 1e3, o->jitter);
	comp = draw(r, 0.5 * o->middle_us * 1e3, o->jitter);
	/* Drawn only when asked for: other runs keep their files. */
	if (c->large && o->split_pct > 0 && rng_unit(r) * 100.0 < o->split_pct)
		parts = rng_next(r) & 1 ? 4 : 2;
	if (c->is_read)
		first = last = read_leg(m, o->read_alternate, exec + sub);
	/* md sends the legs' clones, and a split's parts, in turn. */
	t = exec + sub;
	for (l = first; l <= last; l++) {
		for (p = 0; p < parts; p++) {
			dc = *c;
			dc.length = c->length / parts;
			dc.nlb = dc.length / o->lba_size - 1;
			dc.slba = c->slba + o->leg_offset +
				  (uint64_t)p * (dc.length / o->lba_size);
			if (send_down(g, m, l, &dc, t, &out))
				return -1;
			downs[n] = (struct down){ out.host, l, p, out.end };
			if (out.end > downs[crit].end)
				crit = n;
			n++;
			t += draw(r, 500, o->jitter);
		}
	}
	if (o->unlinked_pct > 0 && rng_unit(r) * 100.0 < o->unlinked_pct &&
	    unlinked(g, m, exec + sub))
		return -1;
	*complete = downs[crit].end + comp;
	ds->n = n;
	ds->parts = parts;
	ds->crit = crit;
	return 0;
}

/* The disk of @m's leg @leg on @m, or of the origin's namespace. */
static uint32_t host_dev_of(unsigned int leg)
{
	return ENCODE_DEV(259U, leg);
}

/* A middle's target exports md0; a replica's, nullb0 (nullbN for leg N). */
static uint32_t target_dev_of(const struct chain_machine *m)
{
	return m->nlegs ? ENCODE_DEV(9U, 0U) :
			  ENCODE_DEV(252U, m->replica_of);
}

/*
 * One command @c from @from's host side down its leg @leg, issued at
 * true time @start: its points through the target (a middle's legs, or
 * a replica's drive), the records each side picks, and their truth.
 */
static int hop(struct gen *g, struct chain_machine *from, unsigned int leg,
	       const struct cmd_identity *c, uint64_t start,
	       struct hop_out *out)
{
	uint64_t hp[NTPROF_PT_COUNT] = { 0 }, tp[NTPROF_PT_COUNT] = { 0 };
	bool tcp = g->o->transport == NTPROF_TRANSPORT_TCP;
	struct chain_machine *to = from->legs[leg];
	struct chain_key tkey = { 0 };
	struct ntprof_record rec;
	struct cmd_durations d;
	struct downs ds = { .n = 0 };
	unsigned int i;
	uint64_t x;

	draw_durations(g, c->qid, c, start, &d);
	if ((double)(start - g->t0) >= to->slow_from_s * 1e9)
		d.drive += (uint64_t)(to->slow_us * 1e3);
	x = place_submit(c, &d, tcp, start, hp, tp);
	/* The keys' numbers in their files are set as they are written. */
	out->host = (struct chain_key){ 0 };
	if (chain_pick(g, from->host, c))
		out->host = (struct chain_key){
			.r = from->host, .qid = c->qid, .cid = c->cid,
			.ts = chain_clock(g, from,
					  hp[NTPROF_PT_HOST_BLK_START]) };
	if (chain_pick(g, to->target, c))
		tkey = (struct chain_key){
			.r = to->target, .qid = c->qid, .cid = c->cid,
			.ts = chain_clock(g, to, tp[NTPROF_PT_TARGET_RECV]) };
	if (to->nlegs) {
		if (middle(g, to, c, x, &ds, &x))
			return -1;
	} else {
		x = place_storage(&d, x, tp);
	}
	out->end = place_complete(&d, tcp, x, hp, tp);
	if (out->end > g->last_true)
		g->last_true = out->end;

	if (out->host.r) {
		chain_record(g, from->host, c, host_dev_of(from->index ? leg : 0),
			     hp, &rec);
		out->host.idx = from->host->records;
		if (chain_emit(g, from->host, &rec))
			return -1;
	}
	if (tkey.r) {
		chain_record(g, to->target, c, target_dev_of(to), tp, &rec);
		tkey.idx = to->target->records;
		if (chain_emit(g, to->target, &rec))
			return -1;
	}
	chain_truth_row(g, "hop", &out->host, &tkey, leg, 0, 1, false,
			c->is_read ? "read" : "write");
	for (i = 0; i < ds.n; i++)
		chain_truth_row(g, "link", &tkey, &ds.d[i].host, ds.d[i].leg,
				ds.d[i].part, ds.parts, i == ds.crit,
				c->is_read ? "read" : "write");
	return 0;
}

/*
 * One command of the origin host, issued at true time @start from slot
 * @s: its whole tree down the chain. Sets @end, its completion.
 */
int chain_command(struct gen *g, const struct slot *s, uint64_t start,
		  uint64_t *end)
{
	struct cmd_identity c;
	struct hop_out out;

	draw_identity(g, s, &c);
	c.passthru = false;
	if (hop(g, &g->chain->machines[0], 0, &c, start, &out))
		return -1;
	*end = out.end;
	return 0;
}
