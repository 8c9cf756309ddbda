// SPDX-License-Identifier: GPL-2.0
/*
 * test_analysis's breakdowns of one command into components and stages:
 * joined over TCP and RDMA, one side alone, an SPDK target, points
 * missing, records that keep only their stages, and points out of order,
 * each against the reference command's components worked out by hand.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/join.h"
#include "analysis/stats.h"
#include "analysis_test.h"
#include "tap.h"

void t_breakdown_joined(void)
{
	struct ntprof_record h, t;
	struct ntprof_breakdown bd;

	host_rec(&h, NTPROF_TRANSPORT_TCP, 0, 0);
	/* The target's clock runs 3 hours ahead: it must not matter. */
	target_rec(&t, NTPROF_TRANSPORT_TCP, HOURS_3, 0);
	ok(!ntprof_breakdown(&h, &t, &bd) && bd.kind == NTPROF_KIND_JOINED,
	   "joined: a host and a target record break down together");
	ok(comp_is(&bd, NTPROF_COMP_HOST_BLK_SUB, 500) &&
	   comp_is(&bd, NTPROF_COMP_HOST_DRV_SUB, 1500) &&
	   comp_is(&bd, NTPROF_COMP_WIRE, 13000) &&
	   comp_is(&bd, NTPROF_COMP_TGT_DRV_SUB, 1000) &&
	   comp_is(&bd, NTPROF_COMP_STORAGE_BLK, 1000) &&
	   comp_is(&bd, NTPROF_COMP_DRIVE, 30000) &&
	   comp_is(&bd, NTPROF_COMP_TGT_DRV_COMP, 2000) &&
	   comp_is(&bd, NTPROF_COMP_HOST_RECV, 1000) &&
	   comp_is(&bd, NTPROF_COMP_HOST_DRV_COMP, 500) &&
	   comp_is(&bd, NTPROF_COMP_HOST_BLK_COMP, 500) &&
	   comp_is(&bd, NTPROF_COMP_E2E, 51000),
	   "joined: each component, the wire = (50000 - 3000) - (44000 - 10000)");
	ok(bd.stage[NTPROF_STAGE_HOST_BLK] == 1000 &&
	   bd.stage[NTPROF_STAGE_HOST_DRV] == 2000 &&
	   bd.stage[NTPROF_STAGE_NETWORK] == 14000 &&
	   bd.stage[NTPROF_STAGE_TGT_DRV] == 3000 &&
	   bd.stage[NTPROF_STAGE_STORAGE] == 31000 &&
	   !(bd.stage_has & (1U << NTPROF_STAGE_NET_TARGET)),
	   "joined: the five stages");
	ok(sums_hold(&bd) && !bd.dropped && !bd.wire_negative,
	   "joined: components and stages add up to the end to end");
	ok(comp_is(&bd, NTPROF_COMP_HANDOFF, 500) &&
	   !(bd.has & (1U << NTPROF_COMP_DATA_XFER)),
	   "joined: handoff sub-row over TCP, no RDMA data transfer");
}

void t_breakdown_rdma(void)
{
	struct ntprof_record h, t;
	struct ntprof_breakdown bd;

	host_rec(&h, NTPROF_TRANSPORT_RDMA, 5000, 0);
	target_rec(&t, NTPROF_TRANSPORT_RDMA, 77, 0);
	/* Over RDMA the window ends at the queued response, 44000. */
	ok(!ntprof_breakdown(&h, &t, &bd) &&
	   comp_is(&bd, NTPROF_COMP_WIRE, 13000) &&
	   comp_is(&bd, NTPROF_COMP_TGT_DRV_COMP, 2000) &&
	   comp_is(&bd, NTPROF_COMP_DATA_XFER, 2000) && sums_hold(&bd),
	   "rdma: the target ends at QUEUE_RESP; SEND_DONE only in the data transfer");
	ok(!strcmp(ntprof_stage_name(NTPROF_STAGE_NETWORK,
				     NTPROF_TRANSPORT_RDMA,
				     NTPROF_KIND_JOINED, 0),
		   "network (RDMA, NICs, wire)") &&
	   !strcmp(ntprof_stage_name(NTPROF_STAGE_HOST_DRV,
				     NTPROF_TRANSPORT_RDMA,
				     NTPROF_KIND_JOINED, 0),
		   "host driver (nvme-rdma)") &&
	   !strcmp(ntprof_stage_name(NTPROF_STAGE_TGT_DRV,
				     NTPROF_TRANSPORT_TCP,
				     NTPROF_KIND_JOINED, 0),
		   "target driver (nvmet-tcp)"),
	   "rdma: stage names per transport");
	ok(!strcmp(ntprof_stage_name(NTPROF_STAGE_HOST_DRV,
				     NTPROF_TRANSPORT_RDMA, NTPROF_KIND_JOINED,
				     NTPROF_STACK_HOST_SPDK),
		   "host driver (SPDK)") &&
	   !strcmp(ntprof_stage_name(NTPROF_STAGE_TGT_DRV,
				     NTPROF_TRANSPORT_RDMA, NTPROF_KIND_JOINED,
				     NTPROF_STACK_HOST_SPDK),
		   "target driver (nvmet-rdma)") &&
	   !strcmp(ntprof_stage_name(NTPROF_STAGE_NETWORK,
				     NTPROF_TRANSPORT_RDMA, NTPROF_KIND_JOINED,
				     NTPROF_STACK_HOST_SPDK |
				     NTPROF_STACK_TARGET_SPDK),
		   "network (RDMA, NICs, wire)") &&
	   !strcmp(ntprof_stage_name(NTPROF_STAGE_TGT_DRV,
				     NTPROF_TRANSPORT_TCP, NTPROF_KIND_JOINED,
				     NTPROF_STACK_TARGET_SPDK),
		   "target driver (SPDK)") &&
	   !strcmp(ntprof_stage_name(NTPROF_STAGE_STORAGE,
				     NTPROF_TRANSPORT_TCP, NTPROF_KIND_JOINED,
				     NTPROF_STACK_TARGET_SPDK),
		   "storage (SPDK bdev, drive)"),
	   "SPDK: stage names per side that SPDK ran");
}

void t_breakdown_one_side(void)
{
	struct ntprof_record h, t;
	struct ntprof_breakdown bd;

	host_rec(&h, NTPROF_TRANSPORT_TCP, 0, 0);
	ok(!ntprof_breakdown(&h, NULL, &bd) && bd.kind == NTPROF_KIND_HOST &&
	   comp_is(&bd, NTPROF_COMP_NET_TARGET, 47000) &&
	   !(bd.has & (1U << NTPROF_COMP_WIRE)) &&
	   bd.stage[NTPROF_STAGE_NET_TARGET] == 47000 &&
	   bd.stage[NTPROF_STAGE_NETWORK] == 1000 &&
	   bd.stage[NTPROF_STAGE_HOST_DRV] == 2000 &&
	   comp_is(&bd, NTPROF_COMP_E2E, 51000) && sums_hold(&bd),
	   "host alone: network and target = the wait from send to receive");
	ok(!strcmp(ntprof_stage_name(NTPROF_STAGE_NETWORK,
				     NTPROF_TRANSPORT_TCP, NTPROF_KIND_HOST, 0),
		   "host receive path") &&
	   !strcmp(ntprof_stage_name(NTPROF_STAGE_NET_TARGET,
				     NTPROF_TRANSPORT_TCP, NTPROF_KIND_HOST, 0),
		   "network and target (not recorded)"),
	   "host alone: stage names");

	target_rec(&t, NTPROF_TRANSPORT_TCP, 0, 0);
	ok(!ntprof_breakdown(NULL, &t, &bd) && bd.kind == NTPROF_KIND_TARGET &&
	   comp_is(&bd, NTPROF_COMP_TGT_DRV_SUB, 1000) &&
	   comp_is(&bd, NTPROF_COMP_STORAGE_BLK, 1000) &&
	   comp_is(&bd, NTPROF_COMP_DRIVE, 30000) &&
	   comp_is(&bd, NTPROF_COMP_TGT_DRV_COMP, 2000) &&
	   comp_is(&bd, NTPROF_COMP_E2E, 34000) &&
	   bd.stage_has == (1U << NTPROF_STAGE_TGT_DRV |
			    1U << NTPROF_STAGE_STORAGE) && sums_hold(&bd),
	   "target alone: target driver and storage, split into block layer and drive");

	/* A matched target record without a window: the host's stands. */
	memset(t.ts, 0, sizeof(t.ts));
	t.ts[NTPROF_PT_TARGET_RECV] = 99;
	ok(!ntprof_breakdown(&h, &t, &bd) && bd.kind == NTPROF_KIND_HOST &&
	   sums_hold(&bd),
	   "a target record with one point leaves the host record alone");
	ok(ntprof_breakdown(NULL, &t, &bd) == -EINVAL &&
	   ntprof_breakdown(NULL, NULL, &bd) == -EINVAL,
	   "a target record with one point alone is unusable");
}

/* SPDK's sites: three points on the host, three on the target. */
void t_breakdown_spdk(void)
{
	struct ntprof_record h, t;
	struct ntprof_breakdown bd;
	bool merged = false;
	int c;

	memset(&h, 0, sizeof(h));
	h.role = NTPROF_ROLE_HOST;
	h.transport = NTPROF_TRANSPORT_RDMA;
	h.flags = NTPROF_REC_F_SAMPLED | NTPROF_REC_F_USER;
	h.opcode = 0x02;
	h.qid = 1;
	h.ts[NTPROF_PT_HOST_QUEUE_RQ] = 1000;
	h.ts[NTPROF_PT_HOST_SEND] = 1100;
	h.ts[NTPROF_PT_HOST_DRIVER_DONE] = 67000;
	memset(&t, 0, sizeof(t));
	t.role = NTPROF_ROLE_TARGET;
	t.transport = NTPROF_TRANSPORT_RDMA;
	t.flags = NTPROF_REC_F_SAMPLED | NTPROF_REC_F_USER;
	t.opcode = 0x02;
	t.qid = 1;
	t.ts[NTPROF_PT_TARGET_INIT] = HOURS_3 + 5000;
	t.ts[NTPROF_PT_TARGET_EXEC] = HOURS_3 + 5100;
	t.ts[NTPROF_PT_TARGET_COMPLETE] = HOURS_3 + 64400;
	ok(!ntprof_breakdown(&h, &t, &bd) && bd.kind == NTPROF_KIND_JOINED &&
	   comp_is(&bd, NTPROF_COMP_HOST_DRV_SUB, 100) &&
	   comp_is(&bd, NTPROF_COMP_TGT_DRV_SUB, 100) &&
	   comp_is(&bd, NTPROF_COMP_STORAGE_BLK, 59300) &&
	   comp_is(&bd, NTPROF_COMP_WIRE, 6500) &&
	   comp_is(&bd, NTPROF_COMP_E2E, 66000) && sums_hold(&bd),
	   "spdk: host submit, send, completion; target parse, bdev, bdev done");
	for (c = 0; c < NTPROF_COMP_COUNT; c++)
		merged |= bd.merged[c] != 0;
	ok(!merged && !(bd.has & (1U << NTPROF_COMP_HOST_RECV)) &&
	   !(bd.has & (1U << NTPROF_COMP_DRIVE)),
	   "spdk: the parts SPDK has no points for are absent, not merged");
	ok(!strcmp(ntprof_comp_name(NTPROF_COMP_STORAGE_BLK,
				    NTPROF_TRANSPORT_RDMA,
				    NTPROF_STACK_TARGET_SPDK),
		   "storage: SPDK bdev and drive") &&
	   !strcmp(ntprof_comp_name(NTPROF_COMP_STORAGE_BLK,
				    NTPROF_TRANSPORT_RDMA, 0),
		   "storage: target block layer"),
	   "spdk: the storage component's name");

	/* Over RDMA the target's record ends at the SEND's completion. */
	t.ts[NTPROF_PT_TARGET_SEND_DONE] = HOURS_3 + 69800;
	ok(!ntprof_breakdown(&h, &t, &bd) &&
	   comp_is(&bd, NTPROF_COMP_DATA_XFER, 5400) &&
	   comp_is(&bd, NTPROF_COMP_WIRE, 6500) &&
	   comp_is(&bd, NTPROF_COMP_E2E, 66000) && sums_hold(&bd),
	   "spdk: the data transfer at the target, from the completion to the SEND's");
}

void t_missing_points(void)
{
	static const struct {
		bool target;
		int pt;
	} interior[] = {
		{ false, NTPROF_PT_HOST_QUEUE_RQ },
		{ false, NTPROF_PT_HOST_SEND },
		{ false, NTPROF_PT_HOST_RECV },
		{ false, NTPROF_PT_HOST_DRIVER_DONE },
		{ false, NTPROF_PT_HOST_NVME_COMPLETE },
		{ true, NTPROF_PT_TARGET_RECV },
		{ true, NTPROF_PT_TARGET_EXEC },
		{ true, NTPROF_PT_TARGET_BLK_ISSUE },
		{ true, NTPROF_PT_TARGET_BLK_COMPLETE },
		{ true, NTPROF_PT_TARGET_COMPLETE },
		{ true, NTPROF_PT_TARGET_SEND },
	};
	const unsigned int nr = ARRAY_SIZE(interior);
	struct ntprof_record h, t, h0, t0;
	unsigned int mask, i, usable = 0, bad = 0;
	struct ntprof_breakdown bd;

	host_rec(&h0, NTPROF_TRANSPORT_TCP, 0, 0);
	target_rec(&t0, NTPROF_TRANSPORT_TCP, HOURS_3, 0);

	/* 6.1's nvme-tcp: no HOST_SEND, the wire takes the host driver's. */
	h = h0;
	h.ts[NTPROF_PT_HOST_SEND] = 0;
	ok(!ntprof_breakdown(&h, &t0, &bd) &&
	   comp_is(&bd, NTPROF_COMP_WIRE, 14500) &&
	   !(bd.has & (1U << NTPROF_COMP_HOST_DRV_SUB)) &&
	   bd.merged[NTPROF_COMP_WIRE] == 1U << NTPROF_COMP_HOST_DRV_SUB &&
	   bd.stage[NTPROF_STAGE_HOST_DRV] == 500 &&
	   bd.stage[NTPROF_STAGE_NETWORK] == 15500 && sums_hold(&bd),
	   "missing HOST_SEND: host driver submission merges into the wire");

	t = t0;
	t.ts[NTPROF_PT_TARGET_BLK_ISSUE] = 0;
	t.ts[NTPROF_PT_TARGET_BLK_COMPLETE] = 0;
	ok(!ntprof_breakdown(&h0, &t, &bd) &&
	   comp_is(&bd, NTPROF_COMP_STORAGE_BLK, 31000) &&
	   !(bd.has & (1U << NTPROF_COMP_DRIVE)) &&
	   bd.merged[NTPROF_COMP_STORAGE_BLK] == 1U << NTPROF_COMP_DRIVE &&
	   bd.stage[NTPROF_STAGE_STORAGE] == 31000 && sums_hold(&bd),
	   "missing the backing device's points: the drive merges into the earlier block layer");

	t = t0;
	t.ts[NTPROF_PT_TARGET_RECV] = 0;
	ok(!ntprof_breakdown(&h0, &t, &bd) &&
	   comp_is(&bd, NTPROF_COMP_WIRE, 13500) &&
	   comp_is(&bd, NTPROF_COMP_TGT_DRV_SUB, 500) &&
	   bd.merged[NTPROF_COMP_WIRE] == 1U << NTPROF_COMP_TGT_DRV_SUB &&
	   sums_hold(&bd),
	   "missing TARGET_RECV: the target's window starts at TARGET_INIT");
	t.ts[NTPROF_PT_TARGET_INIT] = 0;
	ok(!ntprof_breakdown(&h0, &t, &bd) &&
	   comp_is(&bd, NTPROF_COMP_WIRE, 14000) &&
	   bd.merged[NTPROF_COMP_WIRE] == 1U << NTPROF_COMP_TGT_DRV_SUB &&
	   sums_hold(&bd),
	   "missing TARGET_RECV and _INIT: the wire falls back to TARGET_EXEC");

	h = h0;
	h.ts[NTPROF_PT_HOST_DRIVER_DONE] = 0;
	ok(!ntprof_breakdown(&h, &t0, &bd) &&
	   comp_is(&bd, NTPROF_COMP_HOST_RECV, 1500) &&
	   bd.merged[NTPROF_COMP_HOST_RECV] ==
		   1U << NTPROF_COMP_HOST_DRV_COMP &&
	   !(bd.has & (1U << NTPROF_COMP_HANDOFF)) && sums_hold(&bd),
	   "missing HOST_DRIVER_DONE: shown under the earlier host receive path");

	h = h0;
	h.ts[NTPROF_PT_HOST_SEND] = 0;
	ok(!ntprof_breakdown(&h, NULL, &bd) &&
	   comp_is(&bd, NTPROF_COMP_NET_TARGET, 48500) &&
	   bd.merged[NTPROF_COMP_NET_TARGET] ==
		   1U << NTPROF_COMP_HOST_DRV_SUB && sums_hold(&bd),
	   "host alone without HOST_SEND: network and target from queue_rq");

	/* Every combination of missing interior points. */
	for (mask = 0; mask < 1U << nr; mask++) {
		h = h0;
		t = t0;
		for (i = 0; i < nr; i++) {
			if (!(mask & 1U << i))
				continue;
			if (interior[i].target)
				t.ts[interior[i].pt] = 0;
			else
				h.ts[interior[i].pt] = 0;
		}
		if (ntprof_breakdown(&h, &t, &bd))
			continue;
		usable++;
		if (!sums_hold(&bd) || bd.comp[NTPROF_COMP_E2E] != 51000)
			bad++;
	}
	ok(!bad && usable == 1U << nr,
	   "all %u combinations of missing points: the sums still equal the end to end (%u bad)",
	   1U << nr, bad);

	h = h0;
	h.ts[NTPROF_PT_HOST_BLK_START] = 0;
	h.ts[NTPROF_PT_HOST_QUEUE_RQ] = 0;
	h.ts[NTPROF_PT_HOST_SEND] = 0;
	ok(ntprof_breakdown(&h, &t0, &bd) == -EINVAL,
	   "no host point before the send: unusable");
}

/* @r without the points a stages-only session has no hook for. */
static void lean(struct ntprof_record *r)
{
	int pt;

	for (pt = 0; pt < NTPROF_PT_COUNT; pt++)
		if (NTPROF_PT_DETAIL_MASK & (1ULL << pt))
			r->ts[pt] = 0;
}

/* The same stages, from every point or from the stages' points only. */
static bool same_stages(const struct ntprof_breakdown *a,
			const struct ntprof_breakdown *b)
{
	int st;

	if (a->stage_has != b->stage_has ||
	    a->comp[NTPROF_COMP_E2E] != b->comp[NTPROF_COMP_E2E])
		return false;
	for (st = 0; st < NTPROF_STAGE_COUNT; st++)
		if (a->stage[st] != b->stage[st])
			return false;
	return true;
}

/*
 * record --stages-only (NTPROF_HOOK_SET_STAGES): the records lack the
 * points inside the stages; each stage, joined or one side alone, comes
 * out as from every point, over TCP and RDMA, reads and R2T writes.
 */
void t_stages_only(void)
{
	static const uint8_t xports[] = { NTPROF_TRANSPORT_TCP,
					  NTPROF_TRANSPORT_RDMA };
	struct ntprof_breakdown full, part;
	struct ntprof_record h, t, hl, tl;
	unsigned int i, x, same = 0, runs = 0;
	uint64_t b, tb;

	for (x = 0; x < ARRAY_SIZE(xports); x++) {
		for (i = 0; i < 500; i++) {
			b = rng_range(1, 1ULL << 40);
			tb = rng_range(1, 1ULL << 40);
			host_rec(&h, xports[x], b, rng_range(0, 100000));
			target_rec(&t, xports[x], tb, rng_range(0, 100000));
			/* Random gaps, in path order, on each clock. */
			h.ts[NTPROF_PT_HOST_QUEUE_RQ] += rng_range(0, 400);
			h.ts[NTPROF_PT_HOST_BLK_ISSUE] += rng_range(0, 400);
			h.ts[NTPROF_PT_HOST_SEND_DONE] =
				xports[x] == NTPROF_TRANSPORT_RDMA ?
				h.ts[NTPROF_PT_HOST_SEND] + rng_range(1, 5000) : 0;
			h.ts[NTPROF_PT_HOST_DRIVER_DONE] -= rng_range(0, 900);
			t.ts[NTPROF_PT_TARGET_INIT] += rng_range(0, 400);
			t.ts[NTPROF_PT_TARGET_BLK_ISSUE] += rng_range(0, 400);
			t.ts[NTPROF_PT_TARGET_BLK_COMPLETE] -= rng_range(0, 400);
			if (i & 1) {	/* a write: R2T and its data */
				h.opcode = t.opcode = 0x01;
				t.ts[NTPROF_PT_TARGET_R2T] =
					t.ts[NTPROF_PT_TARGET_INIT] + 10;
				t.ts[NTPROF_PT_TARGET_DATA] =
					t.ts[NTPROF_PT_TARGET_EXEC] - 10;
				h.ts[NTPROF_PT_HOST_R2T] =
					h.ts[NTPROF_PT_HOST_SEND] + 100;
			}
			hl = h;
			tl = t;
			lean(&hl);
			lean(&tl);
			runs += 3;
			same += !ntprof_breakdown(&h, &t, &full) &&
				!ntprof_breakdown(&hl, &tl, &part) &&
				same_stages(&full, &part) && sums_hold(&part);
			same += !ntprof_breakdown(&h, NULL, &full) &&
				!ntprof_breakdown(&hl, NULL, &part) &&
				same_stages(&full, &part);
			same += !ntprof_breakdown(NULL, &t, &full) &&
				!ntprof_breakdown(NULL, &tl, &part) &&
				same_stages(&full, &part);
		}
	}
	ok(same == runs,
	   "stages only: the five stages, joined and per side, as from every point (%u of %u)",
	   same, runs);

	/* What --detail loses: storage is one part, no sub-row of RDMA's. */
	host_rec(&h, NTPROF_TRANSPORT_RDMA, 0, 0);
	target_rec(&t, NTPROF_TRANSPORT_RDMA, HOURS_3, 0);
	lean(&h);
	lean(&t);
	ok(!ntprof_breakdown(&h, &t, &part) &&
	   comp_is(&part, NTPROF_COMP_STORAGE_BLK, 31000) &&
	   !(part.has & (1U << NTPROF_COMP_DRIVE)) &&
	   !(part.has & (1U << NTPROF_COMP_DATA_XFER)) &&
	   part.stage[NTPROF_STAGE_STORAGE] == 31000 &&
	   part.stage[NTPROF_STAGE_TGT_DRV] == 3000 && sums_hold(&part),
	   "stages only: storage whole, the drive and the data transfer not split out");
}

void t_disorder(void)
{
	struct ntprof_record h, t;
	struct ntprof_breakdown bd;
	int c;
	bool nonneg = true;

	host_rec(&h, NTPROF_TRANSPORT_TCP, 0, 0);
	target_rec(&t, NTPROF_TRANSPORT_TCP, HOURS_3, 0);
	/* nvme_complete_rq stamped before the driver's done. */
	h.ts[NTPROF_PT_HOST_NVME_COMPLETE] = 50500;
	ok(!ntprof_breakdown(&h, &t, &bd) && bd.dropped == 1 &&
	   comp_is(&bd, NTPROF_COMP_HOST_DRV_COMP, 1000) &&
	   bd.merged[NTPROF_COMP_HOST_DRV_COMP] ==
		   1U << NTPROF_COMP_HOST_BLK_COMP && sums_hold(&bd),
	   "a point out of order is dropped, its neighbours merge");
	for (c = 0; c < NTPROF_COMP_COUNT; c++)
		if (c != NTPROF_COMP_WIRE && (bd.has & (1U << c)) &&
		    bd.comp[c] < 0)
			nonneg = false;
	ok(nonneg, "no same-clock component is negative");

	host_rec(&h, NTPROF_TRANSPORT_TCP, 0, 0);
	h.ts[NTPROF_PT_HOST_BLK_COMPLETE] = 10;
	ok(ntprof_breakdown(&h, &t, &bd) == -EINVAL,
	   "an end before the start: unusable");

	/* The target's window 2 us longer than the host's wait. */
	host_rec(&h, NTPROF_TRANSPORT_TCP, 0, 0);
	h.ts[NTPROF_PT_HOST_RECV] = 3000 + 32000;
	ok(!ntprof_breakdown(&h, &t, &bd) && bd.wire_negative &&
	   comp_is(&bd, NTPROF_COMP_WIRE, -2000) && sums_hold(&bd),
	   "a negative wire is kept signed and flagged; the sums hold");

	/*
	 * A receive stamp 500 ns too early for the host's wait of 33.5 us,
	 * which holds the rest of the target's window: it is dropped, and
	 * the target's window starts at the command's parse.
	 */
	h.ts[NTPROF_PT_HOST_RECV] = 3000 + 33500;
	ok(!ntprof_breakdown(&h, &t, &bd) && !bd.wire_negative &&
	   bd.dropped == 1 && comp_is(&bd, NTPROF_COMP_WIRE, 0) &&
	   comp_is(&bd, NTPROF_COMP_TGT_DRV_SUB, 500) && sums_hold(&bd),
	   "a receive stamp that alone breaks the nesting is dropped");
}
