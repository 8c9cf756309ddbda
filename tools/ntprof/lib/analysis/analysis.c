// SPDX-License-Identifier: GPL-2.0
/*
 * The stage model of Documentation/stages.rst applied to records, and the
 * per-group numbers a report prints. Everything here works on one
 * machine's clock at a time: the only quantity that involves both, the
 * wire, is a difference of two same-clock windows.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/analysis_groups.h"
#include "analysis/attempts.h"
#include "common/util.h"

/*
 * The points that bound components, in path order: the host's submission,
 * the target's whole window, the host's completion. Component k spans
 * chain point k to k + 1 (seg_comp[]); WIRE spans the two hops between
 * the machines.
 */
enum {
	CH_H_BLK_START,
	CH_H_QUEUE_RQ,
	CH_H_SEND,
	CH_T_RECV,
	CH_T_INIT,
	CH_T_R2T,		/* a write asks for its data: chain_xfer() */
	CH_T_DATA,
	CH_T_EXEC,
	CH_T_BLK_ISSUE,
	CH_T_BLK_COMPLETE,
	CH_T_COMPLETE,
	CH_T_END,		/* TARGET_SEND (TCP) or TARGET_QUEUE_RESP (RDMA) */
	CH_H_RECV,
	CH_H_DRIVER_DONE,
	CH_H_NVME_COMPLETE,
	CH_H_BLK_COMPLETE,

	CH_COUNT
};

static const uint8_t ch_host[] = {
	CH_H_BLK_START, CH_H_QUEUE_RQ, CH_H_SEND, CH_H_RECV, CH_H_DRIVER_DONE,
	CH_H_NVME_COMPLETE, CH_H_BLK_COMPLETE,
};

static const uint8_t ch_host_pt[] = {
	NTPROF_PT_HOST_BLK_START, NTPROF_PT_HOST_QUEUE_RQ, NTPROF_PT_HOST_SEND,
	NTPROF_PT_HOST_RECV, NTPROF_PT_HOST_DRIVER_DONE,
	NTPROF_PT_HOST_NVME_COMPLETE, NTPROF_PT_HOST_BLK_COMPLETE,
};

static const uint8_t ch_target[] = {
	CH_T_RECV, CH_T_INIT, CH_T_R2T, CH_T_DATA, CH_T_EXEC, CH_T_BLK_ISSUE,
	CH_T_BLK_COMPLETE, CH_T_COMPLETE, CH_T_END,
};

/* The last one, TARGET_END, depends on the transport: target_end(). */
static const uint8_t ch_target_pt[] = {
	NTPROF_PT_TARGET_RECV, NTPROF_PT_TARGET_INIT, NTPROF_PT_TARGET_R2T,
	NTPROF_PT_TARGET_DATA, NTPROF_PT_TARGET_EXEC,
	NTPROF_PT_TARGET_BLK_ISSUE, NTPROF_PT_TARGET_BLK_COMPLETE,
	NTPROF_PT_TARGET_COMPLETE, NTPROF_PT_TARGET_SEND,
};

static const uint8_t seg_comp[CH_COUNT - 1] = {
	[CH_H_BLK_START] = NTPROF_COMP_HOST_BLK_SUB,
	[CH_H_QUEUE_RQ] = NTPROF_COMP_HOST_DRV_SUB,
	[CH_H_SEND] = NTPROF_COMP_WIRE,
	[CH_T_RECV] = NTPROF_COMP_TGT_DRV_SUB,
	[CH_T_INIT] = NTPROF_COMP_TGT_DRV_SUB,
	[CH_T_R2T] = NTPROF_COMP_HOST_DATA,
	[CH_T_DATA] = NTPROF_COMP_TGT_DRV_SUB,	/* over TCP: chain_xfer() */
	[CH_T_EXEC] = NTPROF_COMP_STORAGE_BLK,
	[CH_T_BLK_ISSUE] = NTPROF_COMP_DRIVE,
	[CH_T_BLK_COMPLETE] = NTPROF_COMP_STORAGE_BLK,
	[CH_T_COMPLETE] = NTPROF_COMP_TGT_DRV_COMP,
	[CH_T_END] = NTPROF_COMP_WIRE,
	[CH_H_RECV] = NTPROF_COMP_HOST_RECV,
	[CH_H_DRIVER_DONE] = NTPROF_COMP_HOST_DRV_COMP,
	[CH_H_NVME_COMPLETE] = NTPROF_COMP_HOST_BLK_COMP,
};

static bool ch_is_target(int i)
{
	return i >= CH_T_RECV && i <= CH_T_END;
}

/*
 * target_end() - return the point where the target's window ends. Over RDMA,
 * it ends when the target posts the response, because the SEND's completion
 * comes after the host's NIC acknowledged the SEND, inside the host's
 * window, and would be counted twice.
 */
static unsigned int target_end(const struct ntprof_record *t)
{
	switch (t->transport) {
	case NTPROF_TRANSPORT_TCP:
		return NTPROF_PT_TARGET_SEND;
	case NTPROF_TRANSPORT_RDMA:
		return NTPROF_PT_TARGET_QUEUE_RESP;
	}
	return t->ts[NTPROF_PT_TARGET_SEND] ? NTPROF_PT_TARGET_SEND :
					      NTPROF_PT_TARGET_QUEUE_RESP;
}

/*
 * The parts that an SPDK side has no points for, by design: no block
 * layer, receive path or completion handoff on the host (its last point
 * is the parsed completion); on the target no receive path before the
 * parse (the target driver's submission starts at its first site), no
 * backing device and no response path (its last point is the bdev's
 * completion). They are absent from its path, not merged into another
 * component by a point missing.
 */
#define SPDK_HOST_ABSENT (BIT(NTPROF_COMP_HOST_BLK_SUB) | \
			  BIT(NTPROF_COMP_HOST_RECV) | \
			  BIT(NTPROF_COMP_HOST_DRV_COMP) | \
			  BIT(NTPROF_COMP_HANDOFF) | \
			  BIT(NTPROF_COMP_HOST_BLK_COMP))
#define SPDK_TARGET_ABSENT (BIT(NTPROF_COMP_TGT_DRV_SUB) | \
			    BIT(NTPROF_COMP_DRIVE) | \
			    BIT(NTPROF_COMP_TGT_DRV_COMP))

int ntprof_comp_stage(enum ntprof_comp comp)
{
	switch (comp) {
	case NTPROF_COMP_HOST_BLK_SUB:
	case NTPROF_COMP_HOST_BLK_COMP:
		return NTPROF_STAGE_HOST_BLK;
	case NTPROF_COMP_HOST_DRV_SUB:
	case NTPROF_COMP_HOST_DRV_COMP:
		return NTPROF_STAGE_HOST_DRV;
	case NTPROF_COMP_WIRE:
	case NTPROF_COMP_HOST_DATA:
	case NTPROF_COMP_HOST_RECV:
		return NTPROF_STAGE_NETWORK;
	case NTPROF_COMP_NET_TARGET:
		return NTPROF_STAGE_NET_TARGET;
	case NTPROF_COMP_TGT_DRV_SUB:
	case NTPROF_COMP_TGT_DRV_COMP:
		return NTPROF_STAGE_TGT_DRV;
	case NTPROF_COMP_STORAGE_BLK:
	case NTPROF_COMP_DRIVE:
		return NTPROF_STAGE_STORAGE;
	case NTPROF_COMP_ABORTED_TRIES:
	case NTPROF_COMP_OUTAGE_WAIT:
		return NTPROF_STAGE_OUTAGE;
	default:
		return -1;
	}
}

/*
 * find_present() - return the index in @idx of the first (@dir 1) or the
 * last (@dir -1) present point.
 */
static int find_present(const uint64_t *p, const uint8_t *idx, int from,
			int to, int dir)
{
	int i;

	for (i = from; dir > 0 ? i <= to : i >= to; i += dir)
		if (p[idx[i]])
			return i;
	return -1;
}

/*
 * drop_disorder() - drop the interior points of one machine's chain that
 * break its time order: those earlier than the point kept before them, or
 * later than the chain's last point. Which of two swapped points is wrong
 * cannot be known; dropping the later one merges the same two components
 * either way, and keeps the end points, on which the end to end rests.
 */
static unsigned int drop_disorder(uint64_t *p, const uint8_t *idx, int n)
{
	unsigned int dropped = 0;
	uint64_t kept;
	int f, l, i;

	f = find_present(p, idx, 0, n - 1, 1);
	l = find_present(p, idx, n - 1, 0, -1);
	if (f < 0 || p[idx[l]] < p[idx[f]])
		return 0;	/* nothing to order, or unusable anyway */
	kept = p[idx[f]];
	for (i = f + 1; i < l; i++) {
		if (!p[idx[i]])
			continue;
		if (p[idx[i]] < kept || p[idx[i]] > p[idx[l]]) {
			p[idx[i]] = 0;
			dropped++;
		} else {
			kept = p[idx[i]];
		}
	}
	return dropped;
}

static void bd_add(struct ntprof_breakdown *bd, int comp, int64_t v,
		   uint32_t absorbed)
{
	int stage = ntprof_comp_stage(comp);

	bd->comp[comp] += v;
	bd->has |= BIT(comp);
	bd->merged[comp] |= absorbed;
	if (stage >= 0) {
		bd->stage[stage] += v;
		bd->stage_has |= BIT(stage);
	}
}

/* One command's chain of points, as ntprof_breakdown() cuts it up. */
struct chain {
	uint64_t p[CH_COUNT];
	uint8_t seg[CH_COUNT - 1];	/* seg_comp[], for this command */
	uint32_t off_path;	/* components not on its path: not merged */
	unsigned int dropped;	/* points dropped as out of order */
	int hf, hl;		/* the host's first and last points */
	int hb, ha;		/* its last before the send, first after it */
	int tf, tl;		/* the target's first and last points */
};

/*
 * add_part() - add the part of the path from chain point @a to @b, the next
 * one recorded. Within one machine, the part is a plain difference, owned by
 * the component of its first segment. A part that reaches across to the
 * other machine (or across the unrecorded target) belongs to the wire (or to
 * NET_TARGET): its value comes from ntprof_breakdown(), which sees both
 * hops.
 */
static void add_part(struct ntprof_breakdown *bd, const struct chain *c,
		     int a, int b)
{
	bool cross = ch_is_target(a) != ch_is_target(b) ||
		     (a <= CH_H_SEND && b >= CH_H_RECV);
	const uint64_t *p = c->p;
	uint32_t absorbed = 0;
	int owner, s;

	if (!cross) {
		owner = c->seg[a];
		for (s = a + 1; s < b; s++)
			if (c->seg[s] != owner)
				absorbed |= BIT(c->seg[s]);
		bd_add(bd, owner, (int64_t)(p[b] - p[a]),
		       absorbed & ~c->off_path);
		return;
	}
	for (s = a; s < b; s++) {
		/* NET_TARGET stands for the wire and the target's parts. */
		if (bd->kind == NTPROF_KIND_HOST &&
		    s >= CH_H_SEND && s < CH_H_RECV)
			continue;
		if (c->seg[s] != NTPROF_COMP_WIRE)
			absorbed |= BIT(c->seg[s]);
	}
	absorbed &= ~c->off_path;
	if (bd->kind == NTPROF_KIND_HOST) {
		bd_add(bd, NTPROF_COMP_NET_TARGET, (int64_t)(p[b] - p[a]),
		       absorbed);
		return;
	}
	/* The value is added once, by the caller. */
	bd->merged[NTPROF_COMP_WIRE] |= absorbed;
}

/*
 * host_points() - put the host's points of @r in their places in the chain
 * @p; target_points() does the same for a target's.
 */
static void host_points(uint64_t *p, const struct ntprof_record *r)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ch_host); i++)
		p[ch_host[i]] = r->ts[ch_host_pt[i]];
}

static void target_points(uint64_t *p, const struct ntprof_record *r)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ch_target); i++)
		p[ch_target[i]] = r->ts[ch_target_pt[i]];
	p[CH_T_END] = r->ts[target_end(r)];
}

/*
 * chain_target() - put the target's points of @t in @c. It returns false if
 * they make no window, and then it keeps none of them.
 */
static bool chain_target(struct chain *c, const struct ntprof_record *t)
{
	const int n = ARRAY_SIZE(ch_target);
	uint64_t *p = c->p;
	int f, l;
	size_t i;

	target_points(p, t);
	c->dropped = drop_disorder(p, ch_target, n);
	f = find_present(p, ch_target, 0, n - 1, 1);
	l = find_present(p, ch_target, n - 1, 0, -1);
	if (f < 0 || f == l || p[ch_target[l]] < p[ch_target[f]]) {
		for (i = 0; i < ARRAY_SIZE(ch_target); i++)
			p[ch_target[i]] = 0;
		c->dropped = 0;
		return false;
	}
	c->tf = ch_target[f];
	c->tl = ch_target[l];
	return true;
}

/*
 * chain_xfer() - find where a write's data transfer is
 * (Documentation/stages.rst, Large writes): from TARGET_R2T, where the R2T
 * is queued or the RDMA READ posted, to the data's arrival, in the network
 * stage. Over RDMA, the data arrives at TARGET_DATA, the READ's completion.
 * Over TCP, it arrives at TARGET_EXEC, because nvmet-tcp executes the
 * command when it has read the data's last byte (TARGET_DATA is where the
 * H2C data PDU starts, inside the transfer). A command with no R2T (nor,
 * over RDMA, a READ's completion), such as a read or an in-capsule write,
 * moved no data that way: the transfer is not on its path, and no component
 * took it in.
 */
static void chain_xfer(struct chain *c, const struct ntprof_record *t)
{
	bool tcp = t && t->transport == NTPROF_TRANSPORT_TCP;

	memcpy(c->seg, seg_comp, sizeof(c->seg));
	if (tcp && c->p[CH_T_R2T])
		c->seg[CH_T_DATA] = NTPROF_COMP_HOST_DATA;
	if (!c->p[CH_T_R2T] && (tcp || !c->p[CH_T_DATA]))
		c->off_path |= BIT(NTPROF_COMP_HOST_DATA);
}

/*
 * chain_host() - put the host's points of @h in @c. It returns -EINVAL if
 * they make no window.
 */
static int chain_host(struct chain *c, const struct ntprof_record *h)
{
	uint64_t *p = c->p;
	int f, l, b, a;

	host_points(p, h);
	c->dropped += drop_disorder(p, ch_host, ARRAY_SIZE(ch_host));
	/* ch_host[0..2] come before the send, [3..6] after. */
	f = find_present(p, ch_host, 0, 6, 1);
	b = find_present(p, ch_host, 2, 0, -1);
	a = find_present(p, ch_host, 3, 6, 1);
	l = find_present(p, ch_host, 6, 0, -1);
	if (b < 0 || a < 0)
		return -EINVAL;
	c->hf = ch_host[f];
	c->hl = ch_host[l];
	c->hb = ch_host[b];
	c->ha = ch_host[a];
	return p[c->hl] < p[c->hf] ? -EINVAL : 0;
}

/*
 * drop_stray_recv() - drop a receive stamp that is not this command's. The
 * target's window lies inside the host's wait for it, whatever the clocks,
 * so a receive stamp that alone puts the window outside belongs to another
 * command (see ntprof_record_window()). Otherwise, the clocks disagree, and
 * the wire comes out negative.
 */
static void drop_stray_recv(struct chain *c)
{
	const uint64_t *p = c->p;
	int64_t wait = (int64_t)(p[c->ha] - p[c->hb]);
	int next;

	if (c->tf != CH_T_RECV || (int64_t)(p[c->tl] - p[c->tf]) <= wait)
		return;
	next = find_present(p, ch_target, 1, ARRAY_SIZE(ch_target) - 1, 1);
	if (next > 0 && ch_target[next] != c->tl &&
	    (int64_t)(p[c->tl] - p[ch_target[next]]) <= wait) {
		c->p[CH_T_RECV] = 0;
		c->tf = ch_target[next];
		c->dropped++;
	}
}

/*
 * add_chain() - add the parts between the points of @c, the wire and the end
 * to end.
 */
static void add_chain(struct ntprof_breakdown *bd, const struct chain *c)
{
	const uint64_t *p = c->p;
	int64_t wire;
	int i, prev = -1;

	for (i = 0; i < CH_COUNT; i++) {
		if (!p[i])
			continue;
		if (prev >= 0)
			add_part(bd, c, prev, i);
		prev = i;
	}
	if (bd->kind == NTPROF_KIND_JOINED) {
		/* The host's wait minus the target's window. */
		wire = (int64_t)(p[c->ha] - p[c->hb]) -
		       (int64_t)(p[c->tl] - p[c->tf]);
		bd_add(bd, NTPROF_COMP_WIRE, wire, 0);
		bd->wire_negative = wire < 0;
	}
	if (bd->kind != NTPROF_KIND_TARGET)
		bd_add(bd, NTPROF_COMP_E2E, (int64_t)(p[c->hl] - p[c->hf]), 0);
	else
		bd_add(bd, NTPROF_COMP_E2E, (int64_t)(p[c->tl] - p[c->tf]), 0);
}

/*
 * unmerge_absent() - keep an SPDK side's absent parts from being merged into
 * anything.
 */
static void unmerge_absent(struct ntprof_breakdown *bd,
			   const struct ntprof_record *host,
			   const struct ntprof_record *target)
{
	uint32_t absent = 0;
	size_t i;

	if (host && (host->flags & NTPROF_REC_F_USER))
		absent |= SPDK_HOST_ABSENT;
	if (target && (target->flags & NTPROF_REC_F_USER))
		absent |= SPDK_TARGET_ABSENT;
	for (i = 0; absent && i < NTPROF_COMP_COUNT; i++)
		bd->merged[i] &= ~absent;
}

/*
 * add_subrows() - add the sub-rows, the parts shown on their own, outside
 * the sums. SPDK's target posts the response on the thread that completes
 * the command, right after the completion, so its data transfer starts at
 * the completion.
 */
static void add_subrows(struct ntprof_breakdown *bd,
			const struct ntprof_record *host,
			const struct ntprof_record *target)
{
	uint64_t from;
	int64_t v;

	if (target && target->transport == NTPROF_TRANSPORT_RDMA &&
	    target->ts[NTPROF_PT_TARGET_SEND_DONE]) {
		from = target->ts[NTPROF_PT_TARGET_QUEUE_RESP];
		if (!from && (target->flags & NTPROF_REC_F_USER))
			from = target->ts[NTPROF_PT_TARGET_COMPLETE];
		v = (int64_t)(target->ts[NTPROF_PT_TARGET_SEND_DONE] - from);
		if (from && v >= 0)
			bd_add(bd, NTPROF_COMP_DATA_XFER, v, 0);
	}
	if (host && host->ts[NTPROF_PT_HOST_DRIVER_DONE] &&
	    host->ts[NTPROF_PT_HOST_NVME_COMPLETE]) {
		v = (int64_t)(host->ts[NTPROF_PT_HOST_NVME_COMPLETE] -
			      host->ts[NTPROF_PT_HOST_DRIVER_DONE]);
		if (v >= 0)
			bd_add(bd, NTPROF_COMP_HANDOFF, v, 0);
	}
}

int ntprof_breakdown(const struct ntprof_record *host,
		     const struct ntprof_record *target,
		     struct ntprof_breakdown *bd)
{
	struct chain c = { .hf = -1, .hl = -1, .hb = -1, .ha = -1,
			   .tf = -1, .tl = -1 };

	memset(bd, 0, sizeof(*bd));
	if (!host && !target)
		return -EINVAL;
	/*
	 * Without a target window, a matched target record is ignored and
	 * the host's stands alone.
	 */
	if (target && !chain_target(&c, target)) {
		if (!host)
			return -EINVAL;
		target = NULL;
	}
	if (host && chain_host(&c, host))
		return -EINVAL;
	if (host && target)
		drop_stray_recv(&c);
	chain_xfer(&c, target);

	if (host)
		bd->kind = target ? NTPROF_KIND_JOINED : NTPROF_KIND_HOST;
	else
		bd->kind = NTPROF_KIND_TARGET;
	bd->dropped = c.dropped;
	add_chain(bd, &c);
	unmerge_absent(bd, host, target);
	add_subrows(bd, host, target);
	return 0;
}

int ntprof_record_window(const struct ntprof_record *r, uint64_t *start,
			 uint64_t *end)
{
	uint64_t p[CH_COUNT] = { 0 }, init;
	int a, b;

	*start = *end = 0;
	if (ntprof_record_aborted(r))
		return -EINVAL;
	if (r->role == NTPROF_ROLE_HOST) {
		host_points(p, r);
		a = find_present(p, ch_host, 2, 0, -1);
		b = find_present(p, ch_host, 3, 6, 1);
		if (a < 0 || b < 0)
			return -EINVAL;
		*start = p[ch_host[a]];
		*end = p[ch_host[b]];
	} else if (r->role == NTPROF_ROLE_TARGET) {
		target_points(p, r);
		a = find_present(p, ch_target, 0, ARRAY_SIZE(ch_target) - 1,
				 1);
		b = find_present(p, ch_target, ARRAY_SIZE(ch_target) - 1, 0,
				 -1);
		if (a < 0)
			return -EINVAL;
		*start = p[ch_target[a]];
		*end = p[ch_target[b]];
		/*
		 * From the parse of the command, not its receive: TARGET_RECV
		 * is the last read of the receive path on the CPU, the one
		 * target point not taken from the command itself, and in the
		 * lab one in many thousands was an earlier, empty read's
		 * (Documentation/report.rst, Limits).
		 */
		init = r->ts[NTPROF_PT_TARGET_INIT];
		if (init > *start && init <= *end)
			*start = init;
	} else {
		return -EINVAL;
	}
	return *end < *start ? -EINVAL : 0;
}

/* Analysis */

struct ntprof_analysis *
ntprof_analysis_new(const struct ntprof_analysis_opts *opts)
{
	struct ntprof_analysis *an = calloc(1, sizeof(*an));

	if (!an)
		return NULL;
	if (opts)
		an->opts = *opts;
	if (!an->opts.sample)
		an->opts.sample = NTPROF_SAMPLE_DEFAULT;
	an->duration_s = NAN;
	return an;
}

static void acc_free(struct ntprof_acc *acc)
{
	int c;

	for (c = 0; c < NTPROF_COMP_COUNT; c++)
		ntprof_vec_free(&acc->val[c]);
}

void ntprof_analysis_free(struct ntprof_analysis *an)
{
	size_t i;

	if (!an)
		return;
	for (i = 0; i < an->nr_groups; i++) {
		acc_free(&an->groups[i].acc[0]);
		acc_free(&an->groups[i].acc[1]);
	}
	free(an->groups);
	free(an->slots);
	free(an);
}

static int acc_add(struct ntprof_acc *acc, const struct ntprof_breakdown *bd,
		   bool e2e_only)
{
	uint32_t m;
	int c, s;

	/* Only the components and stages it has: a record has about half. */
	m = e2e_only ? bd->has & BIT(NTPROF_COMP_E2E) : bd->has;
	for (; m; m &= m - 1) {
		c = __builtin_ctz(m);
		if (ntprof_vec_push(&acc->val[c], bd->comp[c]))
			return -ENOMEM;
		if (bd->merged[c]) {
			acc->merged[c] |= bd->merged[c];
			acc->merged_n[c]++;
		}
	}
	for (m = bd->stage_has; m; m &= m - 1) {
		s = __builtin_ctz(m);
		acc->stage_sum[s] += bd->stage[s];
	}
	acc->stage_has |= bd->stage_has;
	acc->n++;
	acc->dropped += !!bd->dropped;
	acc->wire_negative += bd->wire_negative;
	return 0;
}

static void span_add(struct ntprof_analysis *an, int side,
		     const struct ntprof_record *r)
{
	uint64_t lo = UINT64_MAX, hi = 0, t;
	unsigned int i;

	/* Branch-free over the points (0: absent), one update at the end. */
	for (i = 0; i < NTPROF_PT_COUNT; i++) {
		t = r->ts[i];
		lo = t && t < lo ? t : lo;
		hi = t > hi ? t : hi;
	}
	if (!hi)
		return;
	if (!an->first_ns[side] || lo < an->first_ns[side])
		an->first_ns[side] = lo;
	if (hi > an->last_ns[side])
		an->last_ns[side] = hi;
}

int ntprof_analysis_add(struct ntprof_analysis *an,
			const struct ntprof_record *host,
			const struct ntprof_record *target)
{
	return ntprof_analysis_add_tries(an, host, target, NULL);
}

int ntprof_analysis_add_tries(struct ntprof_analysis *an,
			      const struct ntprof_record *host,
			      const struct ntprof_record *target,
			      const struct ntprof_tries *tries)
{
	const struct ntprof_record *r = host ? host : target;
	struct ntprof_breakdown bd;
	struct ntprof_group *g;
	int side = host ? 0 : 1;
	enum ntprof_opclass op;

	if (!r || an->finished)
		return -EINVAL;
	g = ntprof_group_get(an, !host, r);
	if (!g)
		return -ENOMEM;
	if (host && (host->flags & NTPROF_REC_F_USER))
		g->stacks |= NTPROF_STACK_HOST_SPDK;
	if (target && (target->flags & NTPROF_REC_F_USER))
		g->stacks |= NTPROF_STACK_TARGET_SPDK;
	op = ntprof_opclass_of(r->qid, r->opcode);
	g->n++;
	an->ops[side][op]++;
	an->bytes[side][op] += r->length;
	span_add(an, side, r);
	if (host) {
		an->nr_host++;
		an->nr_joined += !!target;
	} else {
		an->nr_target++;
	}

	if (ntprof_breakdown(host, target, &bd)) {
		g->n_unusable++;
		an->nr_unusable++;
		return 0;
	}
	if (bd.kind == NTPROF_KIND_JOINED)
		g->n_joined++;
	if (tries && host)
		ntprof_tries_apply(g, &bd, tries);
	return acc_add(&g->acc[bd.kind == NTPROF_KIND_JOINED ? 0 : 1], &bd,
		       an->opts.e2e_only);
}

int ntprof_analysis_add_all(struct ntprof_analysis *an,
			    const struct ntprof_record *host, size_t nr_host,
			    const struct ntprof_record *target,
			    size_t nr_target, const uint32_t *match)
{
	const struct ntprof_record *t;
	size_t i;
	int err;

	for (i = 0; i < nr_host; i++) {
		t = NULL;
		if (match && match[i] < nr_target)
			t = &target[match[i]];
		err = ntprof_analysis_add(an, &host[i], t);
		if (err)
			return err;
	}
	for (i = 0; !nr_host && i < nr_target; i++) {
		err = ntprof_analysis_add(an, NULL, &target[i]);
		if (err)
			return err;
	}
	return 0;
}

static double span_s(const struct ntprof_analysis *an, int side)
{
	if (an->last_ns[side] <= an->first_ns[side])
		return NAN;
	return (double)(an->last_ns[side] - an->first_ns[side]) / 1e9;
}

static void group_finish(struct ntprof_analysis *an, struct ntprof_group *g)
{
	struct ntprof_acc *acc = &g->acc[0];
	double dur, e2e, share, best = -INFINITY;
	int c, s;

	if (acc->n) {
		g->kind = NTPROF_KIND_JOINED;
	} else {
		acc = &g->acc[1];
		g->kind = g->target_side ? NTPROF_KIND_TARGET :
					   NTPROF_KIND_HOST;
	}
	g->n_table = acc->n;

	dur = span_s(an, g->target_side);
	if (an->opts.duration_ns && !(an->opts.rates_over_span && dur > 0))
		dur = (double)an->opts.duration_ns / 1e9;
	/* The sampled commands stand for sample times as many. */
	g->rate = dur > 0 ? (double)g->n * an->opts.sample / dur : NAN;

	for (c = 0; c < NTPROF_COMP_COUNT; c++) {
		ntprof_vec_stats(&acc->val[c], &g->comp[c]);
		/*
		 * Little's law, L = lambda * W, with lambda the rate of the
		 * commands that pass through the component.
		 */
		g->comp_qd[c] = g->comp[c].n ?
			g->rate * ((double)g->comp[c].n / (double)acc->n) *
			g->comp[c].mean / 1e9 : NAN;
		g->merged[c] = acc->merged[c];
		g->merged_n[c] = acc->merged_n[c];
	}

	e2e = g->comp[NTPROF_COMP_E2E].mean;
	g->stage_has = acc->stage_has;
	for (s = 0; s < NTPROF_STAGE_COUNT; s++) {
		if (!(acc->stage_has & BIT(s)) || !acc->n) {
			g->stage_mean[s] = NAN;
			g->stage_share[s] = NAN;
			g->stage_qd[s] = NAN;
			continue;
		}
		/*
		 * Over every command of the table, a command without the
		 * stage adding 0: then the stages' means add up to the end
		 * to end mean exactly, as each command's stages do.
		 */
		g->stage_mean[s] = (double)acc->stage_sum[s] / (double)acc->n;
		share = e2e > 0 ? 100.0 * g->stage_mean[s] / e2e : NAN;
		g->stage_share[s] = share;
		g->stage_qd[s] = g->rate * g->stage_mean[s] / 1e9;
		if (g->stage_mean[s] > best) {
			best = g->stage_mean[s];
			g->largest = s;
		}
	}
	g->dropped = acc->dropped;
	g->wire_negative = acc->wire_negative;
	acc_free(&g->acc[0]);
	acc_free(&g->acc[1]);
}


int ntprof_analysis_finish(struct ntprof_analysis *an)
{
	size_t i;

	if (an->finished)
		return 0;
	if (an->opts.duration_ns)
		an->duration_s = (double)an->opts.duration_ns / 1e9;
	else
		an->duration_s = span_s(an, an->nr_host ? 0 : 1);
	for (i = 0; i < an->nr_groups; i++)
		group_finish(an, &an->groups[i]);
	if (an->nr_groups)
		qsort(an->groups, an->nr_groups, sizeof(*an->groups),
		      ntprof_group_cmp);
	/* The order changed: the key index is stale, and no longer needed. */
	free(an->slots);
	an->slots = NULL;
	an->nr_slots = 0;
	an->finished = true;
	return 0;
}
