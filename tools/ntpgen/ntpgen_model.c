// SPDX-License-Identifier: GPL-2.0
/*
 * One command of ntpgen's workload: its identity, its path drawn on one
 * true time line (the host's clock) through every point of the stage
 * model (Documentation/stages.rst), the records each side keeps of it,
 * and the stages 'ntprof report' should find in them.
 *
 * The draws from the random numbers come in a fixed order: the same seed
 * gives the same files, and a change of order changes them all.
 */
#include <math.h>
#include <string.h>

#include "ntpgen.h"

/* Which sides record a command, and whether it failed. */
struct cmd_sides {
	bool host;
	bool target;
	bool failed;
};

/* A duration of mean @mean_ns, uniform in mean * [1 - jitter, 1 + jitter]. */
uint64_t draw(struct rng *r, double mean_ns, double jitter)
{
	double v = mean_ns * (1.0 + jitter * (2.0 * rng_unit(r) - 1.0));

	return v < 1.0 ? 1 : (uint64_t)(v + 0.5);
}

/* The module's 1-in-N decision (uapi), on what both sides see. */
static bool sample_pick(uint16_t qid, uint16_t cid, uint8_t opcode,
			uint32_t nsid, uint64_t slba, uint16_t nlb, uint32_t n)
{
	return n <= 1 ||
	       ntprof_sample_hash(qid, cid, opcode, nsid, slba, nlb) % n == 0;
}

/*
 * A host record's first point: the block layer's start, else (passthrough
 * where the kernel stamps none) the driver's queue_rq.
 */
uint64_t host_start(const __u64 *hp)
{
	return hp[NTPROF_PT_HOST_BLK_START] ? hp[NTPROF_PT_HOST_BLK_START] :
					      hp[NTPROF_PT_HOST_QUEUE_RQ];
}

/* True time (host clock) to the target's clock. */
uint64_t to_target(const struct gen *g, uint64_t t)
{
	double drift = g->o->drift_ppm * 1e-6 * (double)(t - g->t0);

	return (uint64_t)((int64_t)t + g->o->theta_ns + (int64_t)llround(drift));
}

static void acc_add(struct acc *a, const int64_t *v)
{
	int s;

	a->n++;
	for (s = 0; s < ST_COUNT; s++)
		a->sum[s] += v[s];
}

/*
 * The stages of a joined command as ntprof_breakdown() computes them,
 * from the points as written: each an interval on one machine's clock,
 * the wire the host's wait minus the target's window.
 */
static void stages_of(const struct ntprof_record *h,
		      const struct ntprof_record *t, uint8_t transport,
		      int64_t *v)
{
	const __u64 *hp = h->ts, *tp = t->ts;
	unsigned int tend = transport == NTPROF_TRANSPORT_TCP ?
			    NTPROF_PT_TARGET_SEND : NTPROF_PT_TARGET_QUEUE_RESP;
	/* Without its receive, the target's window starts at its parse. */
	unsigned int tstart = tp[NTPROF_PT_TARGET_RECV] ?
			      NTPROF_PT_TARGET_RECV : NTPROF_PT_TARGET_INIT;
	int64_t data;

	v[ST_HOST_BLK] = (int64_t)(hp[NTPROF_PT_HOST_QUEUE_RQ] -
				   host_start(hp)) +
			 (int64_t)(hp[NTPROF_PT_HOST_BLK_COMPLETE] -
				   hp[NTPROF_PT_HOST_NVME_COMPLETE]);
	v[ST_HOST_DRV] = (int64_t)(hp[NTPROF_PT_HOST_SEND] -
				   hp[NTPROF_PT_HOST_QUEUE_RQ]) +
			 (int64_t)(hp[NTPROF_PT_HOST_NVME_COMPLETE] -
				   hp[NTPROF_PT_HOST_DRIVER_DONE]);
	v[ST_NETWORK] = (int64_t)(hp[NTPROF_PT_HOST_RECV] -
				  hp[NTPROF_PT_HOST_SEND]) -
			(int64_t)(tp[tend] - tp[tstart]) +
			(int64_t)(hp[NTPROF_PT_HOST_DRIVER_DONE] -
				  hp[NTPROF_PT_HOST_RECV]);
	v[ST_TGT_DRV] = (int64_t)(tp[NTPROF_PT_TARGET_EXEC] -
				  tp[tstart]) +
			(int64_t)(tp[tend] - tp[NTPROF_PT_TARGET_COMPLETE]);
	/*
	 * A large write's data: R2T to its arrival, which nvmet-tcp's
	 * execution marks, the RDMA READ's completion; the network's.
	 */
	if (tp[NTPROF_PT_TARGET_R2T]) {
		data = (int64_t)(tp[transport == NTPROF_TRANSPORT_TCP ?
				    NTPROF_PT_TARGET_EXEC :
				    NTPROF_PT_TARGET_DATA] -
				 tp[NTPROF_PT_TARGET_R2T]);
		v[ST_TGT_DRV] -= data;
		v[ST_NETWORK] += data;
	}
	v[ST_STORAGE] = (int64_t)(tp[NTPROF_PT_TARGET_COMPLETE] -
				  tp[NTPROF_PT_TARGET_EXEC]);
	v[ST_E2E] = (int64_t)(hp[NTPROF_PT_HOST_BLK_COMPLETE] - host_start(hp));
}

void draw_identity(struct gen *g, const struct slot *s,
		   struct cmd_identity *c)
{
	const struct opts *o = g->o;
	struct rng *r = &g->rng;
	uint64_t slots;

	c->is_read = rng_unit(r) * 100.0 < o->read_pct;
	c->large = rng_unit(r) * 100.0 < o->large_pct;
	c->opcode = c->is_read ? OP_READ : OP_WRITE;
	c->length = c->large ? 128 * 1024 : 4096;
	slots = o->span / c->length;
	c->slba = (rng_next(r) % (slots ? slots : 1)) *
		  (c->length / o->lba_size);
	c->nlb = c->length / o->lba_size - 1;
	c->qid = s->qid;
	c->cid = o->genctr ? (uint16_t)((s->gen & 0xf) << 12 | s->tag) :
			     s->tag;
	/* Drawn only when asked for: other runs keep their files. */
	c->passthru = o->passthru_pct > 0 &&
		      rng_unit(r) * 100.0 < o->passthru_pct;
}

/* Each stage's mean, split among its parts; the drive's slow spells. */
void draw_durations(struct gen *g, uint16_t qid,
		    const struct cmd_identity *c, uint64_t start,
		    struct cmd_durations *d)
{
	const struct opts *o = g->o;
	const double *m = o->stage_us;
	double j = o->jitter, blk, drive;
	struct rng *r = &g->rng;

	d->blk_sub = draw(r, 0.5 * m[ST_HOST_BLK] * 1e3, j);
	d->blk_comp = draw(r, 0.5 * m[ST_HOST_BLK] * 1e3, j);
	d->drv_sub = draw(r, 0.5 * m[ST_HOST_DRV] * 1e3, j);
	d->drv_comp = draw(r, 0.5 * m[ST_HOST_DRV] * 1e3, j);
	d->hop_out = draw(r, 0.4 * m[ST_NETWORK] * 1e3, j);
	d->hop_back = draw(r, 0.4 * m[ST_NETWORK] * 1e3, j);
	d->host_recv = draw(r, 0.2 * m[ST_NETWORK] * 1e3, j);
	d->tgt_sub = draw(r, 0.5 * m[ST_TGT_DRV] * 1e3, j);
	d->tgt_comp = draw(r, 0.5 * m[ST_TGT_DRV] * 1e3, j);
	/*
	 * The target block layer's half on either side of the drive: a
	 * tenth of storage each, unless --target-blk-us gives their sum
	 * (written so that the files of a seed stay what they were).
	 */
	blk = o->target_blk_us >= 0 ? 0.5 * o->target_blk_us :
				      0.1 * m[ST_STORAGE];
	drive = o->target_blk_us >= 0 ? m[ST_STORAGE] - o->target_blk_us :
					0.8 * m[ST_STORAGE];
	d->st_blk1 = draw(r, blk * 1e3, j);
	d->drive = draw(r, drive * 1e3, j);
	if (qid == o->slow_qid)
		d->drive += (uint64_t)(o->slow_us * 1e3);
	if (o->slow_from_us > 0 &&
	    (double)(start - g->t0) >= o->slow_from_s * 1e9)
		d->drive += (uint64_t)(o->slow_from_us * 1e3);
	d->st_blk2 = draw(r, blk * 1e3, j);
	d->data = !c->is_read && c->large ? draw(r, o->data_us * 1e3, j) : 0;
}

/*
 * The points of a command issued at true time @start up to its target's
 * execution, in path order, the target's window nested in the host's
 * send -> receive window: all in true time, the target's too for now.
 * Returns the time of the target's execution (TARGET_EXEC).
 */
uint64_t place_submit(const struct cmd_identity *c,
		      const struct cmd_durations *d, bool tcp, uint64_t start,
		      uint64_t *hp, uint64_t *tp)
{
	bool large_write = !c->is_read && c->large;
	uint64_t x = start;

	/* The host's submission; 6.12 stamps no start for passthrough. */
	hp[NTPROF_PT_HOST_BLK_START] = c->passthru ? 0 : x;
	hp[NTPROF_PT_HOST_QUEUE_RQ] = x += d->blk_sub;
	hp[NTPROF_PT_HOST_SETUP] = x + d->drv_sub * 2 / 5;
	hp[NTPROF_PT_HOST_BLK_ISSUE] = x + d->drv_sub * 3 / 5;
	hp[NTPROF_PT_HOST_SEND] = x += d->drv_sub;
	/* The target's window. */
	tp[NTPROF_PT_TARGET_RECV] = x += d->hop_out;
	tp[NTPROF_PT_TARGET_INIT] = x + d->tgt_sub / 5;
	if (!tcp)
		/* The capsule's SEND completes about when it arrived. */
		hp[NTPROF_PT_HOST_SEND_DONE] = x + d->tgt_sub / 10;
	if (tcp && large_write) {
		/*
		 * The R2T's round trip and the H2C data, after the target's
		 * own work: its execution marks the data's last byte.
		 */
		tp[NTPROF_PT_TARGET_R2T] = x += d->tgt_sub;
		hp[NTPROF_PT_HOST_R2T] = x + d->data / 4;
		tp[NTPROF_PT_TARGET_DATA] = x + d->data / 2;
		tp[NTPROF_PT_TARGET_EXEC] = x += d->data;
	} else if (large_write) {
		/* The RDMA READ of the data, amid the target's own work. */
		tp[NTPROF_PT_TARGET_R2T] = x + d->tgt_sub * 2 / 5;
		tp[NTPROF_PT_TARGET_DATA] = x + d->tgt_sub * 2 / 5 + d->data;
		tp[NTPROF_PT_TARGET_EXEC] = x += d->tgt_sub + d->data;
	} else {
		/* nvmet-tcp reads in-capsule data, past the parse. */
		if (tcp && !c->is_read)
			tp[NTPROF_PT_TARGET_DATA] = x + d->tgt_sub * 2 / 5;
		tp[NTPROF_PT_TARGET_EXEC] = x += d->tgt_sub;
	}
	return x;
}

/*
 * A drive's storage, from the execution at @x: its block layer and the
 * drive itself. Returns the time of the target's completion.
 */
uint64_t place_storage(const struct cmd_durations *d, uint64_t x,
		       uint64_t *tp)
{
	tp[NTPROF_PT_TARGET_BLK_ISSUE] = x += d->st_blk1;
	tp[NTPROF_PT_TARGET_BLK_COMPLETE] = x += d->drive;
	tp[NTPROF_PT_TARGET_COMPLETE] = x += d->st_blk2;
	return x;
}

/*
 * The rest of the command's path from its target's completion at @x: the
 * response and the host's completion. Returns the command's end.
 */
uint64_t place_complete(const struct cmd_durations *d, bool tcp, uint64_t x,
			uint64_t *hp, uint64_t *tp)
{
	tp[NTPROF_PT_TARGET_COMPLETE] = x;
	if (tcp) {
		tp[NTPROF_PT_TARGET_QUEUE_RESP] = x + d->tgt_comp * 3 / 5;
		tp[NTPROF_PT_TARGET_SEND] = x += d->tgt_comp;
	} else {
		tp[NTPROF_PT_TARGET_QUEUE_RESP] = x += d->tgt_comp;
		/* Acknowledged by the host's NIC: inside the host's window. */
		tp[NTPROF_PT_TARGET_SEND_DONE] = x + d->hop_back * 9 / 10;
	}
	/* The host's completion. */
	hp[NTPROF_PT_HOST_RECV] = x += d->hop_back;
	hp[NTPROF_PT_HOST_DRIVER_DONE] = x += d->host_recv;
	hp[NTPROF_PT_HOST_NVME_COMPLETE] = x += d->drv_comp;
	hp[NTPROF_PT_HOST_BLK_COMPLETE] = x += d->blk_comp;
	return x;
}

/* A whole command on one hop to a drive: returns its end. */
static uint64_t place_points(const struct cmd_identity *c,
			     const struct cmd_durations *d, bool tcp,
			     uint64_t start, uint64_t *hp, uint64_t *tp)
{
	uint64_t x = place_submit(c, d, tcp, start, hp, tp);

	x = place_storage(d, x, tp);
	return place_complete(d, tcp, x, hp, tp);
}

/* Each side's own sampling, then failures and losses on one side. */
static void choose_sides(struct gen *g, const struct cmd_identity *c,
			 struct cmd_sides *w)
{
	const struct opts *o = g->o;
	struct rng *r = &g->rng;
	bool hs, ts;

	hs = sample_pick(c->qid, c->cid, c->opcode, NSID, c->slba, c->nlb,
			 o->sample);
	ts = sample_pick(c->qid, c->cid, c->opcode, NSID, c->slba, c->nlb,
			 o->target_sample);
	/*
	 * A failed command outside the sample: the host's recorder keeps
	 * it (flagged failed, not sampled), and its target sees nothing.
	 */
	w->failed = !hs && o->failed_pct > 0 &&
		    rng_unit(r) * 100.0 < o->failed_pct;
	w->host = hs || w->failed;
	w->target = ts && !w->failed;
	/* Lost on one side: buffer drops, filters, a side not sampling. */
	if (hs && ts && o->no_target_pct > 0 &&
	    rng_unit(r) * 100.0 < o->no_target_pct)
		w->target = false;
	else if (hs && ts && o->no_host_pct > 0 &&
		 rng_unit(r) * 100.0 < o->no_host_pct)
		w->host = false;
}

/* Both sides' records of a command, each point on its side's clock. */
static void build_records(const struct gen *g, const struct cmd_identity *c,
			  bool failed, const uint64_t *hp, const uint64_t *tp,
			  struct ntprof_record *h, struct ntprof_record *t)
{
	const struct opts *o = g->o;
	int i;

	memset(h, 0, sizeof(*h));
	h->role = NTPROF_ROLE_HOST;
	h->transport = o->transport;
	h->opcode = c->opcode;
	h->flags = failed ? NTPROF_REC_F_FAILED : NTPROF_REC_F_SAMPLED;
	if (c->passthru)
		h->flags |= NTPROF_REC_F_PASSTHRU;
	/* LBA Out of Range (generic status 0x80), as NVMe's status field. */
	h->status = failed ? 0x80 << 1 : 0;
	h->qid = c->qid;
	h->cid = c->cid;
	h->nsid = NSID;
	h->length = c->length;
	h->slba = c->slba;
	h->cntlid = 1 + (c->qid - 1) % o->paths;
	h->cpu_submit = (c->qid - 1) % o->nr_cpus;
	h->cpu_complete = h->cpu_submit;
	h->dev = o->paths > 1 ? HOST_PATH_DEV(h->cntlid - 1) : HOST_DEV;
	*t = *h;
	t->role = NTPROF_ROLE_TARGET;
	/* nvmet sees an ordinary command. */
	t->flags &= ~NTPROF_REC_F_PASSTHRU;
	t->cpu_submit = (c->qid - 1) % o->nr_cpus;
	t->cpu_complete = t->cpu_submit;
	t->dev = TARGET_DEV;
	for (i = 0; i < NTPROF_PT_COUNT; i++) {
		h->ts[i] = hp[i];
		t->ts[i] = tp[i] ? to_target(g, tp[i]) : 0;
	}
}

/*
 * A command both sides record: its stages into its group and all. With
 * --stale-recv-pct, first spoils the target's receive stamp.
 */
static void account_joined(struct gen *g, const struct cmd_identity *c,
			   const struct ntprof_record *h,
			   struct ntprof_record *t)
{
	const struct opts *o = g->o;
	struct ntprof_record expected = *t;
	int gi = (c->is_read ? 0 : 2) + (c->large ? 1 : 0);
	int64_t v[ST_COUNT];

	/*
	 * A stale receive: stamped by an earlier read of the receive
	 * path, before the host sent. report drops it: the expected
	 * stages are those without it.
	 */
	if (o->stale_recv_pct > 0 &&
	    rng_unit(&g->rng) * 100.0 < o->stale_recv_pct) {
		expected.ts[NTPROF_PT_TARGET_RECV] = 0;
		t->ts[NTPROF_PT_TARGET_RECV] =
			to_target(g, host_start(h->ts)) -
			(h->ts[NTPROF_PT_HOST_RECV] -
			 h->ts[NTPROF_PT_HOST_SEND]);
	}
	stages_of(h, &expected, o->transport, v);
	acc_add(&g->groups[gi], v);
	acc_add(&g->all, v);
}

/* A host record without a target one: only its end to end counts. */
static void account_host_alone(struct gen *g, const struct ntprof_record *h)
{
	g->host_alone.n++;
	g->host_alone.sum[ST_E2E] +=
		(int64_t)(h->ts[NTPROF_PT_HOST_BLK_COMPLETE] - host_start(h->ts));
}

/*
 * --aborted-pct: the command's first attempt, which the host aborted
 * (a reset) and requeued: a record of its own, with the generation of
 * the cid before, ended soon after its send without a response.
 */
static int emit_aborted(struct gen *g, const struct ntprof_record *h)
{
	struct ntprof_record a = *h;
	uint64_t end = h->ts[NTPROF_PT_HOST_SEND] + 1000;

	a.cid = (uint16_t)(h->cid - 0x1000);
	a.flags |= NTPROF_REC_F_FAILED | NTPROF_REC_F_REQUEUED;
	a.status = 0x371;
	memset(a.ts, 0, sizeof(a.ts));
	a.ts[NTPROF_PT_HOST_BLK_START] = h->ts[NTPROF_PT_HOST_BLK_START];
	a.ts[NTPROF_PT_HOST_QUEUE_RQ] = h->ts[NTPROF_PT_HOST_QUEUE_RQ];
	a.ts[NTPROF_PT_HOST_SETUP] = h->ts[NTPROF_PT_HOST_SETUP];
	a.ts[NTPROF_PT_HOST_SEND] = h->ts[NTPROF_PT_HOST_SEND];
	a.ts[NTPROF_PT_HOST_DRIVER_DONE] = end;
	a.ts[NTPROF_PT_HOST_NVME_COMPLETE] = end + 100;
	a.ts[NTPROF_PT_HOST_BLK_COMPLETE] = end + 200;
	g->aborted++;
	return emit_record(g, true, &a);
}

/*
 * One command, issued at true time @start from slot @s: draws its path,
 * writes the records each side samples, and returns its completion time.
 */
int command(struct gen *g, const struct slot *s, uint64_t start,
	    uint64_t *end)
{
	uint64_t hp[NTPROF_PT_COUNT] = { 0 }, tp[NTPROF_PT_COUNT] = { 0 };
	struct ntprof_record h, t;
	struct cmd_identity c;
	struct cmd_durations d;
	struct cmd_sides w;

	draw_identity(g, s, &c);
	draw_durations(g, s->qid, &c, start, &d);
	*end = place_points(&c, &d, g->o->transport == NTPROF_TRANSPORT_TCP,
			    start, hp, tp);
	if (*end > g->last_true)
		g->last_true = *end;

	choose_sides(g, &c, &w);
	if (!w.host && !w.target)
		return 0;
	build_records(g, &c, w.failed, hp, tp, &h, &t);
	if (w.host && !w.failed && g->o->aborted_pct > 0 &&
	    rng_unit(&g->rng) * 100.0 < g->o->aborted_pct &&
	    emit_aborted(g, &h))
		return -1;
	if (w.host && w.target)
		account_joined(g, &c, &h, &t);
	else if (w.host && !w.failed)
		account_host_alone(g, &h);
	if (w.host && emit_record(g, true, &h))
		return -1;
	if (w.target && emit_record(g, false, &t))
		return -1;
	return 0;
}
