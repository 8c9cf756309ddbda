// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the tool's analysis library (stats.c, analysis.c, join.c,
 * table.c): records with known timestamps go in, and the stage means,
 * shares, queue depths, matches and printed rows that must come out are
 * worked out by hand here. Prints TAP; exits 1 if any test failed.
 *
 * "test_analysis --bench N" instead times the join and the analysis of N
 * host and N target records (not part of make check).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "analysis/analysis.h"
#include "analysis/join.h"
#include "analysis/stats.h"
#include "out/report_json.h"
#include "out/live.h"
#include "out/table.h"
#include "tap.h"

#define US		1000ULL
#define HOURS_3		(3ULL * 3600 * 1000000000ULL)

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Equal but for the last bits of a double's rounding. */
static bool near(double a, double b)
{
	double scale = fabs(a) > fabs(b) ? fabs(a) : fabs(b);

	return fabs(a - b) <= 1e-9 * scale + 1e-12;
}

/* A small deterministic generator, so that failures reproduce. */
static uint64_t rng_state = 0x853c49e6748fea9bULL;

static uint64_t rng(void)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return rng_state >> 17;
}

static uint64_t rng_range(uint64_t lo, uint64_t hi)
{
	return lo + rng() % (hi - lo + 1);
}

/* What printing something gives, as a string (freed by the next call). */
static char *out_buf;
static size_t out_len;

static FILE *out_open(void)
{
	free(out_buf);
	out_buf = NULL;
	return open_memstream(&out_buf, &out_len);
}

/*
 * The identity that both sides of the reference command carry, so that the
 * join matches them: a 4 KiB read of LBA 12345, queue 1, command 7, over
 * @transport, recorded by @role on device @dev.
 */
static void ref_ident(struct ntprof_record *r, uint8_t role,
		      uint8_t transport, uint32_t dev)
{
	memset(r, 0, sizeof(*r));
	r->role = role;
	r->transport = transport;
	r->opcode = 0x02;
	r->qid = 1;
	r->cid = 7;
	r->nsid = 1;
	r->length = 4096;
	r->slba = 12345;
	r->dev = dev;
}

/*
 * The reference command. Host (ns after @base): block layer 1000, queue_rq
 * 1500, send 3000, receive 50000 + @extra, driver done 51000 + @extra,
 * nvme_complete_rq 51500 + @extra, end 52000 + @extra. Target (ns after
 * its own @base): receive 10000, exec 11000, drive 11500 to 41500 +
 * @extra, complete 42000 + @extra, response sent 44000 + @extra (TCP; over
 * RDMA queued at 44000 + @extra, its SEND done at 46000 + @extra).
 *
 * Components: host block 500 + 500, host driver 1500 + 500, wire 13000,
 * target driver 1000 + 2000, storage's block layer 500 + 500, drive
 * 30000 + @extra, host receive path 1000; end to end 51000 + @extra.
 */
static void host_rec(struct ntprof_record *r, uint8_t transport,
		     uint64_t base, uint64_t extra)
{
	ref_ident(r, NTPROF_ROLE_HOST, transport, 259 << 8);	/* 259:0 */
	r->ts[NTPROF_PT_HOST_BLK_START] = base + 1000;
	r->ts[NTPROF_PT_HOST_QUEUE_RQ] = base + 1500;
	r->ts[NTPROF_PT_HOST_SETUP] = base + 2000;
	r->ts[NTPROF_PT_HOST_BLK_ISSUE] = base + 2500;
	r->ts[NTPROF_PT_HOST_SEND] = base + 3000;
	r->ts[NTPROF_PT_HOST_RECV] = base + 50000 + extra;
	r->ts[NTPROF_PT_HOST_DRIVER_DONE] = base + 51000 + extra;
	r->ts[NTPROF_PT_HOST_NVME_COMPLETE] = base + 51500 + extra;
	r->ts[NTPROF_PT_HOST_BLK_COMPLETE] = base + 52000 + extra;
}

static void target_rec(struct ntprof_record *r, uint8_t transport,
		       uint64_t base, uint64_t extra)
{
	ref_ident(r, NTPROF_ROLE_TARGET, transport, 8 << 8 | 16);	/* 8:16 */
	r->ts[NTPROF_PT_TARGET_RECV] = base + 10000;
	r->ts[NTPROF_PT_TARGET_INIT] = base + 10500;
	r->ts[NTPROF_PT_TARGET_EXEC] = base + 11000;
	r->ts[NTPROF_PT_TARGET_BLK_ISSUE] = base + 11500;
	r->ts[NTPROF_PT_TARGET_BLK_COMPLETE] = base + 41500 + extra;
	r->ts[NTPROF_PT_TARGET_COMPLETE] = base + 42000 + extra;
	if (transport == NTPROF_TRANSPORT_RDMA) {
		r->ts[NTPROF_PT_TARGET_QUEUE_RESP] = base + 44000 + extra;
		r->ts[NTPROF_PT_TARGET_SEND_DONE] = base + 46000 + extra;
	} else {
		r->ts[NTPROF_PT_TARGET_QUEUE_RESP] = base + 43000 + extra;
		r->ts[NTPROF_PT_TARGET_SEND] = base + 44000 + extra;
	}
}

/* The parts that add up to the end to end, each counted once. */
static const int sum_comps[] = {
	NTPROF_COMP_HOST_BLK_SUB, NTPROF_COMP_HOST_DRV_SUB, NTPROF_COMP_WIRE,
	NTPROF_COMP_NET_TARGET, NTPROF_COMP_TGT_DRV_SUB, NTPROF_COMP_HOST_DATA,
	NTPROF_COMP_STORAGE_BLK, NTPROF_COMP_DRIVE, NTPROF_COMP_TGT_DRV_COMP,
	NTPROF_COMP_HOST_RECV, NTPROF_COMP_HOST_DRV_COMP,
	NTPROF_COMP_HOST_BLK_COMP,
};

static bool sums_hold(const struct ntprof_breakdown *bd)
{
	int64_t comps = 0, stages = 0;
	size_t i;
	int s;

	for (i = 0; i < ARRAY_SIZE(sum_comps); i++)
		if (bd->has & (1U << sum_comps[i]))
			comps += bd->comp[sum_comps[i]];
	for (s = 0; s < NTPROF_STAGE_COUNT; s++)
		stages += bd->stage[s];
	return comps == bd->comp[NTPROF_COMP_E2E] &&
	       stages == bd->comp[NTPROF_COMP_E2E];
}

static bool comp_is(const struct ntprof_breakdown *bd, int c, int64_t v)
{
	return (bd->has & (1U << c)) && bd->comp[c] == v;
}

/* |a - b| within @rel of |b|, or 0.5 ns: a histogram bucket's error. */
static bool close_rel(double a, double b, double rel)
{
	return fabs(a - b) <= rel * fabs(b) + 0.5;
}

/*
 * A vector past ntprof_vec_exact_max turns into a histogram: its memory
 * stops growing, n, mean, min and max stay exact, percentiles within
 * 0.05 %, on a spread from -50 us (a negative wire) to 20 ms.
 */
static void t_vec_hist(void)
{
	size_t saved = ntprof_vec_exact_max, i, n = 200000;
	struct ntprof_vec vec = { 0 };
	struct ntprof_stats ex, st;
	uint64_t x = 88172645463325252ULL;
	bool pushed = true;
	int64_t *all;

	all = malloc(n * sizeof(*all));
	ntprof_vec_exact_max = 4096;
	for (i = 0; all && i < n; i++) {
		/* xorshift; log-uniform magnitudes over 1 ns .. 20 ms */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		all[i] = (int64_t)exp((double)(x % 1000000) / 1e6 * log(2e7));
		if (x % 97 == 0)
			all[i] = -(all[i] % 50000);
		pushed &= !ntprof_vec_push(&vec, all[i]);
	}
	ntprof_vec_exact_max = saved;
	ok(all && pushed && vec.hist && !vec.v && vec.cap == 0,
	   "vec: past its exact maximum, a histogram holds the values");
	if (!all || !vec.hist) {
		free(all);
		ntprof_vec_free(&vec);
		return;
	}
	ntprof_vec_stats(&vec, &st);
	ntprof_stats_i64(all, n, &ex);
	ok(st.n == ex.n && st.mean == ex.mean && st.min == ex.min &&
	   st.max == ex.max,
	   "vec histogram: n, mean, min, max exact (%.3f %.3f %.0f %.0f)",
	   st.mean, ex.mean, st.min, st.max);
	ok(close_rel(st.p50, ex.p50, 0.0005) &&
	   close_rel(st.p99, ex.p99, 0.0005) &&
	   close_rel(st.p999, ex.p999, 0.0005),
	   "vec histogram: p50 %.1f/%.1f, p99 %.1f/%.1f, p99.9 %.1f/%.1f within 0.05 %%",
	   st.p50, ex.p50, st.p99, ex.p99, st.p999, ex.p999);
	free(all);
	ntprof_vec_free(&vec);
	ok(!vec.hist && !vec.n, "vec: freed, histogram and all");
}

static void t_percentiles(void)
{
	int64_t v[100], one = 42;
	struct ntprof_stats st;
	int i;

	for (i = 0; i < 100; i++)
		v[i] = 100 - i;	/* 100..1: the sort has work to do */
	ntprof_stats_i64(v, 100, &st);
	ok(st.n == 100 && near(st.mean, 50.5) && near(st.min, 1) &&
	   near(st.max, 100), "stats: n, mean, min, max of 1..100");
	ok(near(st.p50, 50.5) && near(st.p99, 99.01) && near(st.p999, 99.901),
	   "stats: p50 50.5, p99 99.01, p99.9 99.901 of 1..100 (linear interpolation)");

	ntprof_stats_i64(&one, 1, &st);
	ok(st.n == 1 && st.mean == 42 && st.p50 == 42 && st.p99 == 42 &&
	   st.p999 == 42, "stats: one value is every percentile");

	ntprof_stats_i64(NULL, 0, &st);
	ok(st.n == 0 && isnan(st.mean) && isnan(st.p50) && isnan(st.p999),
	   "stats: no values give NAN");

	ok(near(ntprof_percentile_i64(v, 100, 0), 1) &&
	   near(ntprof_percentile_i64(v, 100, 100), 100) &&
	   near(ntprof_percentile_i64(v, 100, 25), 25.75),
	   "stats: p0, p100 are min and max; p25 of 1..100 is 25.75");
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static void t_sort(void)
{
	const size_t n = 200000;
	int64_t *a = malloc(n * sizeof(*a)), *b = malloc(n * sizeof(*b));
	struct { uint64_t key; uint64_t val; } kv[1000];
	bool stable = true;
	size_t i;

	if (!a || !b) {
		ok(false, "sort: memory");
		return;
	}
	for (i = 0; i < n; i++) {
		/* Negative and positive, small and large, and repeats. */
		a[i] = (int64_t)(rng() % 2000001) - 1000000;
		if (i % 7 == 0)
			a[i] *= 1000000007LL;
		b[i] = a[i];
	}
	ntprof_sort_i64(a, n);
	qsort(b, n, sizeof(*b), cmp_i64);
	ok(!memcmp(a, b, n * sizeof(*a)),
	   "sort: the radix sort of 200000 signed values agrees with qsort");

	for (i = 0; i < 1000; i++) {
		kv[i].key = rng() % 10;
		kv[i].val = i;
	}
	ok(!ntprof_radix_sort(kv, 1000, sizeof(kv[0]), 0),
	   "sort: 16-byte elements by key");
	for (i = 1; i < 1000; i++)
		if (kv[i - 1].key > kv[i].key ||
		    (kv[i - 1].key == kv[i].key && kv[i - 1].val > kv[i].val))
			stable = false;
	ok(stable, "sort: ordered by key, and stable");
	free(a);
	free(b);
}

static void t_breakdown_joined(void)
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

static void t_breakdown_rdma(void)
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

static void t_breakdown_one_side(void)
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
static void t_breakdown_spdk(void)
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

static void t_missing_points(void)
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
static void t_stages_only(void)
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

static void t_disorder(void)
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

static const struct ntprof_devname host_devs[] = {
	{ 259 << 8, "nvme0n1", 0 },
};

/*
 * @n commands, joined, every other one with a drive 20 us slower: means
 * host block 1, host driver 2, network 14, target driver 3, storage 41,
 * end to end 61 us.
 */
static struct ntprof_analysis *analysis_ref(unsigned int n)
{
	struct ntprof_analysis_opts opts = {
		.sample = 100,
		.duration_ns = 10000000000ULL,
		.host_devs = host_devs,
		.nr_host_devs = 1,
	};
	struct ntprof_analysis *an = ntprof_analysis_new(&opts);
	struct ntprof_record h, t;
	unsigned int i;

	for (i = 0; an && i < n; i++) {
		host_rec(&h, NTPROF_TRANSPORT_TCP, i * 100 * US,
			 i % 2 ? 20000 : 0);
		target_rec(&t, NTPROF_TRANSPORT_TCP, HOURS_3 + i * 100 * US,
			   i % 2 ? 20000 : 0);
		if (ntprof_analysis_add(an, &h, &t))
			return NULL;
	}
	if (an && ntprof_analysis_finish(an))
		return NULL;
	return an;
}

/* A 10 s recording whose commands span 5 s: both rates are printed. */
static void t_throughput_span(void)
{
	struct ntprof_analysis_opts opts = {
		.sample = 100, .duration_ns = 10000000000ULL,
	};
	struct ntprof_analysis *an = ntprof_analysis_new(&opts);
	struct ntprof_record h, t;
	unsigned int i;
	FILE *f;

	for (i = 0; an && i < 100; i++) {
		host_rec(&h, NTPROF_TRANSPORT_TCP, i * 50000 * US, 0);
		target_rec(&t, NTPROF_TRANSPORT_TCP, HOURS_3 + i * 50000 * US, 0);
		if (ntprof_analysis_add(an, &h, &t))
			an = NULL;
	}
	if (!ok(an && !ntprof_analysis_finish(an), "throughput: the analysis"))
		return;
	f = out_open();
	ntprof_print_throughput(f, an);
	fclose(f);
	ok(tap_has_line(out_buf,
			"throughput (estimated from the sampled commands): read 1.0 kIOPS, 4.1 MB/s") &&
	   tap_has_line(out_buf,
			"  over the 5.0 s that had commands: read 2.0 kIOPS, 8.3 MB/s"),
	   "throughput: over the recording, and over the span with commands");
	ntprof_analysis_free(an);
}

static void t_group(void)
{
	struct ntprof_analysis *an = analysis_ref(1000);
	const struct ntprof_group *g;

	if (!ok(an && an->nr_groups == 1, "group: 1000 commands, one group"))
		return;
	g = &an->groups[0];
	ok(!strcmp(g->label, "read 4KiB nvme0n1") && g->n == 1000 &&
	   g->n_joined == 1000 && g->kind == NTPROF_KIND_JOINED,
	   "group: label '%s', all joined", g->label);
	ok(near(g->rate, 10000),
	   "group: rate = n x N / duration = 1000 x 100 / 10 s = 10000/s (%g)",
	   g->rate);
	ok(near(g->comp[NTPROF_COMP_E2E].mean, 61000) &&
	   near(g->comp[NTPROF_COMP_E2E].p50, 61000) &&
	   near(g->comp[NTPROF_COMP_E2E].p99, 71000),
	   "group: end to end mean 61 us, p50 61 us, p99 71 us");
	ok(near(g->stage_mean[NTPROF_STAGE_HOST_BLK], 1000) &&
	   near(g->stage_mean[NTPROF_STAGE_HOST_DRV], 2000) &&
	   near(g->stage_mean[NTPROF_STAGE_NETWORK], 14000) &&
	   near(g->stage_mean[NTPROF_STAGE_TGT_DRV], 3000) &&
	   near(g->stage_mean[NTPROF_STAGE_STORAGE], 41000),
	   "group: stage means 1, 2, 14, 3, 41 us");
	ok(near(g->stage_share[NTPROF_STAGE_STORAGE], 100.0 * 41 / 61) &&
	   near(g->stage_share[NTPROF_STAGE_NETWORK], 100.0 * 14 / 61),
	   "group: shares of the end to end mean (storage %.3f %%)",
	   g->stage_share[NTPROF_STAGE_STORAGE]);
	ok(near(g->stage_qd[NTPROF_STAGE_STORAGE], 0.41) &&
	   near(g->comp_qd[NTPROF_COMP_E2E], 0.61) &&
	   near(g->comp_qd[NTPROF_COMP_DRIVE], 0.40),
	   "group: Little's law, storage 10000/s x 41 us = 0.41");
	ok(g->largest == NTPROF_STAGE_STORAGE, "group: the largest is storage");
	ok(near(g->comp[NTPROF_COMP_DRIVE].p50, 40000) &&
	   near(g->comp[NTPROF_COMP_DRIVE].p99, 50000) &&
	   g->comp[NTPROF_COMP_DRIVE].n == 1000,
	   "group: drive p50 40 us (interpolated), p99 50 us");
	ntprof_analysis_free(an);
}

/*
 * record's live table (e2e_only): the same end to end and stage shares as
 * the full analysis of the same commands, and no other component's
 * values kept.
 */
static void t_e2e_only(void)
{
	struct ntprof_analysis_opts opts = {
		.sample = 100,
		.duration_ns = 10000000000ULL,
		.host_devs = host_devs,
		.nr_host_devs = 1,
		.e2e_only = true,
	};
	struct ntprof_analysis *full = analysis_ref(1000);
	struct ntprof_analysis *live = ntprof_analysis_new(&opts);
	const struct ntprof_group *f, *l;
	struct ntprof_record h, t;
	bool same = true;
	unsigned int i;
	int s;

	for (i = 0; live && i < 1000; i++) {
		host_rec(&h, NTPROF_TRANSPORT_TCP, i * 100 * US,
			 i % 2 ? 20000 : 0);
		target_rec(&t, NTPROF_TRANSPORT_TCP, HOURS_3 + i * 100 * US,
			   i % 2 ? 20000 : 0);
		if (ntprof_analysis_add(live, &h, &t))
			live = NULL;
	}
	if (!ok(full && live && !ntprof_analysis_finish(live) &&
		live->nr_groups == 1 && full->nr_groups == 1,
		"e2e only: 1000 commands, one group"))
		return;
	f = &full->groups[0];
	l = &live->groups[0];
	ok(l->n == f->n && l->n_table == f->n_table && l->kind == f->kind &&
	   near(l->rate, f->rate) &&
	   near(l->comp[NTPROF_COMP_E2E].mean, f->comp[NTPROF_COMP_E2E].mean) &&
	   near(l->comp[NTPROF_COMP_E2E].p99, f->comp[NTPROF_COMP_E2E].p99),
	   "e2e only: count, rate, end to end mean and p99 as the full analysis's");
	for (s = 0; s < NTPROF_STAGE_COUNT; s++)
		if (!(f->stage_has & (1U << s)) ? (l->stage_has & (1U << s)) :
		    !near(l->stage_share[s], f->stage_share[s]))
			same = false;
	ok(same && l->stage_has == f->stage_has,
	   "e2e only: every stage's share as the full analysis's");
	ok(!l->comp[NTPROF_COMP_DRIVE].n && f->comp[NTPROF_COMP_DRIVE].n == 1000,
	   "e2e only: no drive values kept (full: %llu)",
	   (unsigned long long)f->comp[NTPROF_COMP_DRIVE].n);
	ntprof_analysis_free(full);
	ntprof_analysis_free(live);
}

static void t_groups_and_labels(void)
{
	struct ntprof_analysis_opts opts = {
		.host_devs = host_devs,
		.nr_host_devs = 1,
	};
	struct ntprof_analysis *an = ntprof_analysis_new(&opts);
	struct ntprof_record h;
	char buf[32];
	int i;

	ok(!strcmp(ntprof_size_str(512, buf, sizeof(buf)), "512B") &&
	   !strcmp(ntprof_size_str(4096, buf, sizeof(buf)), "4KiB") &&
	   !strcmp(ntprof_size_str(131072, buf, sizeof(buf)), "128KiB") &&
	   !strcmp(ntprof_size_str(1 << 20, buf, sizeof(buf)), "1MiB") &&
	   !strcmp(ntprof_size_str(1536, buf, sizeof(buf)), "1536B") &&
	   !strcmp(ntprof_size_str(0, buf, sizeof(buf)), "0B"),
	   "labels: sizes 512B 4KiB 128KiB 1MiB 1536B 0B");
	ok(!strcmp(ntprof_dev_str(259 << 8, host_devs, 1, buf, sizeof(buf)),
		   "nvme0n1") &&
	   !strcmp(ntprof_dev_str(259 << 8 | 3, host_devs, 1, buf,
				  sizeof(buf)), "dev 259:3") &&
	   !strcmp(ntprof_dev_str(8 << 8 | 0x100012, NULL, 0, buf,
				  sizeof(buf)), "dev 8:274"),
	   "labels: device names, else dev MAJ:MIN");
	ok(ntprof_opclass_of(1, 0x02) == NTPROF_OPC_READ &&
	   ntprof_opclass_of(1, 0x01) == NTPROF_OPC_WRITE &&
	   ntprof_opclass_of(1, 0x00) == NTPROF_OPC_OTHER &&
	   ntprof_opclass_of(0, 0x02) == NTPROF_OPC_OTHER,
	   "labels: opcodes 0x02 read, 0x01 write, others other; the admin queue's all other");

	/* Writes, reads, two sizes, two devices: four groups, sorted. */
	for (i = 0; an && i < 40; i++) {
		host_rec(&h, NTPROF_TRANSPORT_TCP, i * 100 * US, 0);
		h.opcode = i % 2 ? 0x01 : 0x02;
		h.length = i % 4 < 2 ? 131072 : 4096;
		h.dev = i < 20 ? 259 << 8 : 259 << 8 | 1;
		if (ntprof_analysis_add(an, &h, NULL))
			break;
	}
	if (!ok(an && !ntprof_analysis_finish(an) && an->nr_groups == 8,
		"groups: by op, size and device"))
		goto out;
	ok(!strcmp(an->groups[0].label, "read 4KiB dev 259:1") &&
	   !strcmp(an->groups[1].label, "read 4KiB nvme0n1") &&
	   !strcmp(an->groups[2].label, "read 128KiB dev 259:1") &&
	   !strcmp(an->groups[4].label, "write 4KiB dev 259:1") &&
	   an->groups[0].n == 5 && an->groups[0].kind == NTPROF_KIND_HOST,
	   "groups: sorted by op, size, device ('%s' first)",
	   an->groups[0].label);
out:
	ntprof_analysis_free(an);
}

/*
 * Passthrough commands of a namespace go to a group of their own, named
 * after its char device; their target records are ordinary commands.
 */
static void t_passthru(void)
{
	static const struct ntprof_devname devs[] = {
		{ 259 << 8, "nvme0n1", 0 }, { 259 << 8 | 1, "nvme12n3", 0 },
		{ 259 << 8 | 2, "sda", 0 },
	};
	struct ntprof_analysis_opts opts = {
		.host_devs = devs,
		.nr_host_devs = 3,
	};
	struct ntprof_analysis *an = ntprof_analysis_new(&opts);
	struct ntprof_record h, t;
	char buf[64];
	int i;

	ok(!strcmp(ntprof_passthru_dev_str(259 << 8, devs, 3, buf, sizeof(buf)),
		   "ng0n1") &&
	   !strcmp(ntprof_passthru_dev_str(259 << 8 | 1, devs, 3, buf,
					   sizeof(buf)), "ng12n3") &&
	   !strcmp(ntprof_passthru_dev_str(259 << 8 | 2, devs, 3, buf,
					   sizeof(buf)), "sda passthrough") &&
	   !strcmp(ntprof_passthru_dev_str(259 << 8 | 3, devs, 3, buf,
					   sizeof(buf)), "dev 259:3 passthrough"),
	   "passthrough: nvmeXnY's char device ngXnY, else NAME passthrough");

	/* Every third command passthrough, without a block layer start. */
	for (i = 0; an && i < 30; i++) {
		host_rec(&h, NTPROF_TRANSPORT_TCP, i * 100 * US, 0);
		target_rec(&t, NTPROF_TRANSPORT_TCP, HOURS_3 + i * 100 * US, 0);
		if (i % 3 == 0) {
			h.flags |= NTPROF_REC_F_PASSTHRU;
			h.ts[NTPROF_PT_HOST_BLK_START] = 0;
		}
		if (ntprof_analysis_add(an, &h, &t))
			break;
	}
	if (!ok(an && !ntprof_analysis_finish(an) && an->nr_groups == 2,
		"passthrough: a group of its own"))
		goto out;
	ok(!strcmp(an->groups[0].label, "read 4KiB ng0n1") &&
	   an->groups[0].passthru && an->groups[0].n == 10 &&
	   an->groups[0].n_joined == 10 &&
	   !strcmp(an->groups[1].label, "read 4KiB nvme0n1") &&
	   !an->groups[1].passthru && an->groups[1].n == 20,
	   "passthrough: 'read 4KiB ng0n1' (10, joined) beside 'read 4KiB nvme0n1' (20)");
	ok(near(an->groups[0].comp[NTPROF_COMP_E2E].mean,
		an->groups[1].comp[NTPROF_COMP_E2E].mean -
		an->groups[1].comp[NTPROF_COMP_HOST_BLK_SUB].mean) &&
	   !an->groups[0].comp[NTPROF_COMP_HOST_BLK_SUB].n,
	   "passthrough: no block layer start, an end to end from queue_rq");
	ntprof_analysis_free(an);
	/* Not grouped by device: one group of both. */
	opts.by = NTPROF_BY_OP | NTPROF_BY_SIZE;
	an = ntprof_analysis_new(&opts);
	for (i = 0; an && i < 30; i++) {
		host_rec(&h, NTPROF_TRANSPORT_TCP, i * 100 * US, 0);
		if (i % 3 == 0)
			h.flags |= NTPROF_REC_F_PASSTHRU;
		if (ntprof_analysis_add(an, &h, NULL))
			break;
	}
	ok(an && !ntprof_analysis_finish(an) && an->nr_groups == 1 &&
	   an->groups[0].n == 30 && !strcmp(an->groups[0].label, "read 4KiB"),
	   "passthrough: grouped by op and size only, one group");
out:
	ntprof_analysis_free(an);
}

static void t_print(void)
{
	struct ntprof_analysis *an = analysis_ref(1000);
	const struct ntprof_group *g;
	char want[256];
	FILE *f;

	if (!ok(an, "print: the reference analysis"))
		return;
	g = &an->groups[0];
	f = out_open();
	ntprof_print_run(f, an);
	ntprof_print_throughput(f, an);
	ntprof_print_groups(f, an, true);
	ntprof_print_records(f, 1000, 1500, 1000);
	fclose(f);

	ok(tap_has_line(out_buf, "=== 10.0 s, one command in 100 sampled ==="),
	   "print: the run's header");
	ok(tap_has_line(out_buf,
			"throughput (estimated from the sampled commands): read 10.0 kIOPS, 41.0 MB/s"),
	   "print: throughput = n x N / duration, in IOPS and MB/s");
	ok(tap_has_line(out_buf,
			"== read 4KiB nvme0n1: 1000 commands sampled (from about 10.0k commands/s), all with the target's side"),
	   "print: the group's header");
	ok(tap_has_line(out_buf,
			"  latency (us): mean 61.00, p50 61.00, p99 71.00, p99.9 71.00"),
	   "print: the latency line");
	snprintf(want, sizeof(want), "  %-38s%9s%7s%9s", "stage", "mean us",
		 "share", "avg QD");
	ok(tap_has_line(out_buf, want), "print: the stage table's head");
	snprintf(want, sizeof(want), "  %-38s%9.2f%6.0f%%%9.2f  %s",
		 "storage (target block layer, drive)", 41.0, 67.0, 0.41,
		 "################");
	ok(tap_has_line(out_buf, want),
	   "print: storage row, 41 us, 67 %%, QD 0.41, 16 of 24 #");
	snprintf(want, sizeof(want), "  %-38s%9.2f%6.0f%%%9.2f  %s",
		 "network (TCP/IP, NICs, wire)", 14.0, 23.0, 0.14, "######");
	ok(tap_has_line(out_buf, want), "print: network row");
	ok(tap_has_line(out_buf,
			"  largest: storage (target block layer, drive), 67 % of the latency"),
	   "print: the largest stage");
	snprintf(want, sizeof(want), "  %-41s%6s%10s%8s%10s%10s   (us)",
		 "component", "n", "mean", "L", "p50", "p99");
	ok(tap_has_line(out_buf, want), "print: the component table's head");
	snprintf(want, sizeof(want), "  %-41s%6d%10.2f%8.2f%10.2f%10.2f",
		 "storage: drive", 1000, 40.0, 0.40, 40.0, 50.0);
	ok(tap_has_line(out_buf, want), "print: the drive's row");
	snprintf(want, sizeof(want), "    %-39s%6d%10.2f%8.2f%10.2f%10.2f",
		 "handoff to nvme_complete_rq", 1000, 0.5,
		 g->comp_qd[NTPROF_COMP_HANDOFF], 0.5, 0.5);
	ok(tap_has_line(out_buf, want) &&
	   near(g->comp_qd[NTPROF_COMP_HANDOFF], 0.005),
	   "print: the handoff sub-row");
	snprintf(want, sizeof(want), "  %-41s%6d%10.2f%8.2f%10.2f%10.2f",
		 "end to end", 1000, 61.0, 0.61, 61.0, 71.0);
	ok(tap_has_line(out_buf, want), "print: end to end row");
	ok(tap_has_line(out_buf,
			"records: 1000 host, 1500 target; 1000 matched (100 % of the host's)"),
	   "print: the records line");
	if (failed)
		printf("# output:\n%s", out_buf);

	f = out_open();
	ntprof_print_records(f, 1000, 1500, 999);
	ntprof_print_records(f, 2999, 0, 0);
	ntprof_print_records(f, 0, 4509, 0);
	fclose(f);
	ok(tap_has_line(out_buf,
			"records: 1000 host, 1500 target; 999 matched (99 % of the host's)") &&
	   tap_has_line(out_buf, "records: 2999 host") &&
	   tap_has_line(out_buf, "records: 4509 target"),
	   "print: records lines of one side, and 99.9 %% shows as 99");

	f = out_open();
	ntprof_print_live_header(f, 10);
	ntprof_print_live(f, an, 10);
	fclose(f);
	snprintf(want, sizeof(want),
		 "%7.1fs  %-22s%7d%9s%10.2f%10.2f%8s%8s%7s%c%8s%8s", 10.0,
		 g->label, 1000, "10.0k", 61.0, 71.0, "2%", "3%", "23%", ' ',
		 "5%", "67%");
	ok(tap_has_line(out_buf, want), "print: a live row");
	ok(tap_has_line(out_buf,
			"    time  group                       n   cmds/s   mean us    p99 us   block  driver network  driver storage"),
	   "print: the live column heads");
	ntprof_analysis_free(an);
}

static void t_print_host_only(void)
{
	struct ntprof_analysis_opts opts = {
		.sample = 1,
		.duration_ns = 1000000000ULL,
	};
	struct ntprof_analysis *an = ntprof_analysis_new(&opts);
	struct ntprof_record h;
	char want[256];
	FILE *f;
	int i;

	for (i = 0; an && i < 100; i++) {
		host_rec(&h, NTPROF_TRANSPORT_TCP, i * 100 * US, 0);
		h.ts[NTPROF_PT_HOST_SEND] = 0;
		if (ntprof_analysis_add(an, &h, NULL))
			break;
	}
	if (!ok(an && !ntprof_analysis_finish(an),
		"host only: 100 commands without HOST_SEND"))
		goto out;
	f = out_open();
	ntprof_print_groups(f, an, true);
	fclose(f);
	ok(tap_has_line(out_buf,
			"== read 4KiB dev 259:0: 100 commands sampled (from about 100.0 commands/s), host side only"),
	   "host only: the group's header");
	snprintf(want, sizeof(want), "  %-38s%9.2f%6.0f%%%9.2f  %s",
		 "network and target (not recorded)", 48.5, 95.0, 0.00485,
		 "#######################");
	ok(tap_has_line(out_buf, want),
	   "host only: network and target (not recorded), with the merged driver time");
	snprintf(want, sizeof(want), "  %-41s%6d      merged into %s",
		 "host driver, submission", 0,
		 "network and target (not recorded)");
	ok(tap_has_line(out_buf, want),
	   "host only: the merged component's row says where it went");
	ok(strstr(out_buf,
		  "  merged: network and target (not recorded) includes host driver, submission in 100 commands"),
	   "host only: a note on the merge");
	if (failed)
		printf("# output:\n%s", out_buf);
out:
	ntprof_analysis_free(an);
}

/* A small check that the JSON is well formed: balanced, strings closed. */
static bool json_balanced(const char *s)
{
	int depth = 0;
	bool str = false;

	for (; *s; s++) {
		if (str) {
			if (*s == '\\' && s[1])
				s++;
			else if (*s == '"')
				str = false;
			continue;
		}
		if (*s == '"')
			str = true;
		else if (*s == '{' || *s == '[')
			depth++;
		else if (*s == '}' || *s == ']')
			if (--depth < 0)
				return false;
	}
	return !depth && !str;
}

static void t_json(void)
{
	struct ntprof_analysis *an = analysis_ref(10);
	struct ntprof_report_meta meta = {
		.hostname = "host\"1",
		.kernel = "6.1.0",
	};
	FILE *f;

	if (!ok(an, "json: the reference analysis"))
		return;
	f = out_open();
	ntprof_print_json(f, an, NULL, &meta);
	fclose(f);
	ok(json_balanced(out_buf), "json: balanced");
	ok(strstr(out_buf, "\"schema\": \"ntprof-report/1\"") &&
	   strstr(out_buf, "\"hostname\": \"host\\\"1\"") &&
	   strstr(out_buf, "\"label\": \"read 4KiB nvme0n1\"") &&
	   strstr(out_buf, "\"id\": \"storage\"") &&
	   strstr(out_buf, "\"mean_us\": 41.000") &&
	   strstr(out_buf, "\"largest\": \"storage (target block layer, drive)\""),
	   "json: schema, escaped strings, groups, stages");
	if (failed)
		printf("# output:\n%s", out_buf);
	ntprof_analysis_free(an);
}

/*
 * A recording of @n commands over 4 queues, cids reused every 64
 * commands of a queue, 30 % of them on one of 4 LBAs (so keys repeat), the
 * target's clock 3 hours ahead and drifting 200 ppm. Then @extra target
 * records the host never saw (the target recorded earlier). Target
 * records come shuffled; @t2h maps them back (NO_MATCH for the extra).
 */
static int gen(size_t n, size_t extra, struct ntprof_record **hp,
	       struct ntprof_record **tp, uint32_t **t2hp)
{
	const uint64_t t0 = 1000000000000ULL;	/* 1000 s after boot */
	struct ntprof_record *h, *t, tmp;
	uint64_t hs, wire1, win, wire2, base, tt;
	uint32_t *t2h, x;
	size_t i, k, q, nt = n + extra;

	h = calloc(n ? n : 1, sizeof(*h));
	t = calloc(nt ? nt : 1, sizeof(*t));
	t2h = calloc(nt ? nt : 1, sizeof(*t2h));
	if (!h || !t || !t2h) {
		free(h);
		free(t);
		free(t2h);
		return -ENOMEM;
	}
	for (i = 0; i < nt; i++) {
		struct ntprof_record *r = i < n ? &h[i] : &tmp;

		q = i % 4;
		k = i / 4;
		/* The extra ones come before the host's recording. */
		base = i < n ? t0 + k * 25 * US + q * 3 * US :
			       t0 - (1 + k - n / 4) * 25 * US;
		memset(r, 0, sizeof(*r));
		r->role = NTPROF_ROLE_HOST;
		r->transport = NTPROF_TRANSPORT_TCP;
		r->opcode = rng() % 3 ? 0x02 : 0x01;
		r->qid = q + 1;
		r->cid = k % 64;
		r->nsid = 1;
		r->length = rng() % 2 ? 4096 : 131072;
		r->slba = rng() % 10 < 3 ? rng() % 4 : rng() % (1ULL << 40);
		r->ts[NTPROF_PT_HOST_BLK_START] = base;
		r->ts[NTPROF_PT_HOST_QUEUE_RQ] = base + rng_range(300, 800);
		hs = r->ts[NTPROF_PT_HOST_QUEUE_RQ] + rng_range(1000, 3000);
		r->ts[NTPROF_PT_HOST_SEND] = hs;
		wire1 = rng_range(3000, 8000);
		win = rng_range(20000, 90000);
		wire2 = rng_range(3000, 8000);
		r->ts[NTPROF_PT_HOST_RECV] = hs + wire1 + win + wire2;
		r->ts[NTPROF_PT_HOST_DRIVER_DONE] =
			r->ts[NTPROF_PT_HOST_RECV] + rng_range(500, 1500);
		r->ts[NTPROF_PT_HOST_NVME_COMPLETE] =
			r->ts[NTPROF_PT_HOST_DRIVER_DONE] + rng_range(100, 500);
		r->ts[NTPROF_PT_HOST_BLK_COMPLETE] =
			r->ts[NTPROF_PT_HOST_NVME_COMPLETE] +
			rng_range(100, 500);

		t[i] = *r;
		t[i].role = NTPROF_ROLE_TARGET;
		memset(t[i].ts, 0, sizeof(t[i].ts));
		/* The target's clock: 3 h ahead, 200 ppm fast. */
		tt = hs + wire1;
		tt += HOURS_3 + (int64_t)(tt - t0) / 5000;
		t[i].ts[NTPROF_PT_TARGET_RECV] = tt;
		t[i].ts[NTPROF_PT_TARGET_EXEC] = tt + 1000;
		t[i].ts[NTPROF_PT_TARGET_BLK_ISSUE] = tt + 1500;
		t[i].ts[NTPROF_PT_TARGET_BLK_COMPLETE] = tt + win - 2000;
		t[i].ts[NTPROF_PT_TARGET_COMPLETE] = tt + win - 1500;
		t[i].ts[NTPROF_PT_TARGET_SEND] = tt + win;
		t2h[i] = i < n ? i : NTPROF_NO_MATCH;
	}
	for (i = nt; i > 1; i--) {
		k = rng() % i;
		tmp = t[i - 1];
		t[i - 1] = t[k];
		t[k] = tmp;
		x = t2h[i - 1];
		t2h[i - 1] = t2h[k];
		t2h[k] = x;
	}
	*hp = h;
	*tp = t;
	*t2hp = t2h;
	return 0;
}

static void t_join(void)
{
	const size_t n = 40000, extra = 2000;
	struct ntprof_record *h, *t;
	struct ntprof_join j;
	size_t i, wrong = 0, dropped = 0, kept = 0, nt = n + extra;
	uint32_t *t2h;
	int64_t dtheta;
	int err;

	if (!ok(!gen(n, extra, &h, &t, &t2h), "join: generate records"))
		return;
	err = ntprof_join(h, n, t, nt, NULL, &j);
	ok(!err && j.matched == n,
	   "join: cids reused, keys repeated, target 3 h ahead: %zu of %zu matched",
	   j.matched, n);
	for (i = 0; i < n; i++)
		if (j.match[i] >= nt || t2h[j.match[i]] != i)
			wrong++;
	ok(!wrong, "join: every host record matched its own command (%zu wrong)",
	   wrong);
	dtheta = j.theta_ns - (int64_t)HOURS_3;
	ok(j.theta_known && dtheta > 0 && dtheta < 2000000 &&
	   j.theta_max_ns - j.theta_min_ns > 10000,
	   "join: theta 3 h + %lld ns, drift %lld ns seen, from %zu pairs",
	   (long long)dtheta, (long long)(j.theta_max_ns - j.theta_min_ns),
	   j.pairs);
	ntprof_join_free(&j);

	/* Every 97th command's target record lost. */
	for (i = 0; i < nt; i++) {
		if (t2h[i] != NTPROF_NO_MATCH && t2h[i] % 97 == 0)
			continue;
		t[kept] = t[i];
		t2h[kept++] = t2h[i];
	}
	err = ntprof_join(h, n, t, kept, NULL, &j);
	ok(!err, "join: with lost target records");
	wrong = 0;
	for (i = 0; !err && i < n; i++) {
		if (i % 97 == 0) {
			dropped++;
			if (j.match[i] != NTPROF_NO_MATCH)
				wrong++;
		} else if (j.match[i] >= kept || t2h[j.match[i]] != i) {
			wrong++;
		}
	}
	ok(!wrong && j.matched == n - dropped,
	   "join: the %zu host records without a target record stay unmatched, the rest match (%zu wrong)",
	   dropped, wrong);
	ntprof_join_free(&j);
	free(h);
	free(t);
	free(t2h);
}

static void t_join_repeats(void)
{
	struct ntprof_record h[100], t[100];
	struct ntprof_join j;
	size_t i;

	/* One LBA, one cid, over and over: no key is unique. */
	for (i = 0; i < 100; i++) {
		host_rec(&h[i], NTPROF_TRANSPORT_TCP, i * 100 * US, 0);
		target_rec(&t[i], NTPROF_TRANSPORT_TCP,
			   HOURS_3 + i * 100 * US, 0);
	}
	ok(!ntprof_join(h, 100, t, 100, NULL, &j) && !j.theta_known &&
	   j.matched == 0,
	   "join: no unique key and no hint: theta unknown, nothing matched");
	ntprof_join_free(&j);
	ok(!ntprof_join(h, 6, t, 6, NULL, &j) && j.theta_known &&
	   j.matched == 6,
	   "join: six repeats of one key, in the same order on both sides");
	for (i = 0; i < 6; i++)
		if (j.match[i] != i)
			break;
	ok(i == 6, "join: ... each to its own");
	ntprof_join_free(&j);

	/* A wrong role never matches. */
	t[0].role = NTPROF_ROLE_HOST;
	ok(!ntprof_join(h, 1, t, 1, NULL, &j) && j.matched == 0,
	   "join: a record of the wrong role is not matched");
	ntprof_join_free(&j);
}

/*
 * A recording of both transports: every command has a twin of the other
 * transport with the same identity, 3 us later, their windows
 * overlapping. Each joins its own transport's target record; a target
 * that could not tell the transport (NONE) still joins every command;
 * and the groups are each transport's, labelled and named for it.
 */
static void t_join_transports(void)
{
	const size_t n = 4000;
	struct ntprof_analysis_opts opts = {
		.host_devs = host_devs, .nr_host_devs = 1, .transports = true,
	};
	struct ntprof_record *h, *t;
	struct ntprof_analysis *an;
	struct ntprof_join j;
	uint32_t *t2h, *h2t;
	size_t i, wrong = 0, a, b;
	uint8_t tr;
	int err;

	if (!ok(!gen(n, 0, &h, &t, &t2h), "transports: generate records"))
		return;
	h2t = calloc(n, sizeof(*h2t));
	if (!ok(h2t != NULL, "transports: memory"))
		goto out;
	for (i = 0; i < n; i++)
		h2t[t2h[i]] = i;
	for (i = 0; i < n; i++) {
		tr = i % 2 ? NTPROF_TRANSPORT_RDMA : NTPROF_TRANSPORT_TCP;
		h[i].transport = tr;
		t[h2t[i]].transport = tr;
		if (!(i % 2))
			continue;
		/* The twin: record i - 1's identity. */
		a = h2t[i];
		b = h2t[i - 1];
		h[i].qid = h[i - 1].qid;
		h[i].cid = h[i - 1].cid;
		h[i].opcode = h[i - 1].opcode;
		h[i].slba = h[i - 1].slba;
		h[i].length = h[i - 1].length;
		t[a].qid = t[b].qid;
		t[a].cid = t[b].cid;
		t[a].opcode = t[b].opcode;
		t[a].slba = t[b].slba;
		t[a].length = t[b].length;
	}
	err = ntprof_join(h, n, t, n, NULL, &j);
	ok(!err && j.matched == n,
	   "transports: every command of either joined (%zu of %zu)",
	   j.matched, n);
	for (i = 0; i < n; i++)
		if (j.match[i] >= n || t2h[j.match[i]] != i)
			wrong++;
	ok(!wrong, "transports: each to its own transport's record (%zu wrong)",
	   wrong);
	ntprof_join_free(&j);

	/* Without twins, whose keys were all pairs. */
	free(h);
	free(t);
	free(t2h);
	if (!ok(!gen(n, 0, &h, &t, &t2h), "transports: generate records"))
		goto out;
	for (i = 0; i < n; i++) {
		h[i].transport = i % 2 ? NTPROF_TRANSPORT_RDMA :
					 NTPROF_TRANSPORT_TCP;
		t[i].transport = NTPROF_TRANSPORT_NONE;
	}
	err = ntprof_join(h, n, t, n, NULL, &j);
	for (i = 0, wrong = 0; !err && i < n; i++)
		if (j.match[i] >= n || t2h[j.match[i]] != i)
			wrong++;
	ok(!err && j.matched == n && !wrong,
	   "transports: a target that could not tell them joins every command (%zu of %zu, %zu wrong)",
	   j.matched, n, wrong);
	ntprof_join_free(&j);

	an = ntprof_analysis_new(&opts);
	for (i = 0; an && i < 20; i++) {
		host_rec(&h[0], i % 2 ? NTPROF_TRANSPORT_RDMA :
					NTPROF_TRANSPORT_TCP, i * 100 * US, 0);
		target_rec(&t[0], h[0].transport, HOURS_3 + i * 100 * US, 0);
		if (ntprof_analysis_add(an, &h[0], &t[0]))
			break;
	}
	if (ok(an && !ntprof_analysis_finish(an) && an->nr_groups == 2,
	       "transports: a group per transport (%zu)",
	       an ? an->nr_groups : 0))
		ok(!strcmp(an->groups[0].label, "read 4KiB nvme0n1 tcp") &&
		   !strcmp(an->groups[1].label, "read 4KiB nvme0n1 rdma") &&
		   an->groups[0].n == 10 &&
		   !strcmp(ntprof_stage_name(NTPROF_STAGE_NETWORK,
					     an->groups[1].transport,
					     an->groups[1].kind, 0),
			   "network (RDMA, NICs, wire)"),
		   "transports: labelled '%s' and '%s', stages named for each",
		   an->groups[0].label, an->groups[1].label);
	ntprof_analysis_free(an);
out:
	free(h2t);
	free(h);
	free(t);
	free(t2h);
}

static void t_empty(void)
{
	struct ntprof_analysis *an = ntprof_analysis_new(NULL);
	struct ntprof_record h;
	struct ntprof_join j;
	FILE *f;

	ok(an && !ntprof_analysis_add_all(an, NULL, 0, NULL, 0, NULL) &&
	   !ntprof_analysis_finish(an) && an->nr_groups == 0 &&
	   isnan(an->duration_s), "empty: an analysis of nothing");
	f = out_open();
	ntprof_print_run(f, an);
	ntprof_print_throughput(f, an);
	ntprof_print_groups(f, an, true);
	ntprof_print_live(f, an, 1);
	ntprof_print_json(f, an, NULL, NULL);
	fclose(f);
	ok(tap_has_line(out_buf, "=== every command recorded ===") &&
	   tap_has_line(out_buf,
			"throughput (estimated from the sampled commands): unknown, without the recording's length") &&
	   json_balanced(out_buf), "empty: prints without groups");
	ntprof_analysis_free(an);

	ok(!ntprof_join(NULL, 0, NULL, 0, NULL, &j) && j.matched == 0,
	   "empty: a join of nothing");
	ntprof_join_free(&j);

	host_rec(&h, NTPROF_TRANSPORT_TCP, 0, 0);
	ok(!ntprof_join(&h, 1, NULL, 0, NULL, &j) && j.matched == 0 &&
	   j.match[0] == NTPROF_NO_MATCH, "empty: no target records");
	ntprof_join_free(&j);

	/* Only unusable records: a group with nothing in its tables. */
	an = ntprof_analysis_new(NULL);
	h.ts[NTPROF_PT_HOST_BLK_COMPLETE] = 1;
	ok(an && !ntprof_analysis_add(an, &h, NULL) &&
	   !ntprof_analysis_finish(an) && an->nr_unusable == 1 &&
	   an->groups[0].n_table == 0, "empty: one unusable record");
	f = out_open();
	ntprof_print_groups(f, an, true);
	fclose(f);
	ok(strstr(out_buf, "1 commands lacked the points"),
	   "empty: ... is reported, not tabulated");
	ntprof_analysis_free(an);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int bench(size_t n)
{
	struct ntprof_analysis_opts opts = { .sample = 1 };
	struct ntprof_record *h, *t;
	struct ntprof_analysis *an;
	struct ntprof_join j;
	struct rusage ru;
	uint32_t *t2h;
	double t0, t1, t2, t3;
	FILE *f;

	t0 = now_s();
	if (gen(n, 0, &h, &t, &t2h))
		return 1;
	t1 = now_s();
	if (ntprof_join(h, n, t, n, NULL, &j))
		return 1;
	t2 = now_s();
	an = ntprof_analysis_new(&opts);
	if (!an || ntprof_analysis_add_all(an, h, n, t, n, j.match) ||
	    ntprof_analysis_finish(an))
		return 1;
	f = fopen("/dev/null", "w");
	ntprof_print_groups(f, an, true);
	fclose(f);
	t3 = now_s();
	getrusage(RUSAGE_SELF, &ru);
	printf("records: %zu host + %zu target, %.1f MB\n", n, n,
	       2.0 * n * sizeof(*h) / 1e6);
	printf("generate %.2f s, join %.2f s (%zu matched), analysis %.2f s\n",
	       t1 - t0, t2 - t1, j.matched, t3 - t2);
	printf("max RSS %.1f MB\n", ru.ru_maxrss / 1e3);
	ntprof_join_free(&j);
	ntprof_analysis_free(an);
	free(h);
	free(t);
	free(t2h);
	return 0;
}

static const struct tap_case cases[] = {
	{ "percentiles", t_percentiles },
	{ "vec_hist", t_vec_hist },
	{ "sort", t_sort },
	{ "breakdown_joined", t_breakdown_joined },
	{ "breakdown_rdma", t_breakdown_rdma },
	{ "breakdown_one_side", t_breakdown_one_side },
	{ "breakdown_spdk", t_breakdown_spdk },
	{ "throughput_span", t_throughput_span },
	{ "missing_points", t_missing_points },
	{ "stages_only", t_stages_only },
	{ "disorder", t_disorder },
	{ "group", t_group },
	{ "e2e_only", t_e2e_only },
	{ "groups_and_labels", t_groups_and_labels },
	{ "passthru", t_passthru },
	{ "print", t_print },
	{ "print_host_only", t_print_host_only },
	{ "json", t_json },
	{ "join", t_join },
	{ "join_repeats", t_join_repeats },
	{ "join_transports", t_join_transports },
	{ "empty", t_empty },
};

int main(int argc, char *argv[])
{
	int ret;

	if (argc == 3 && !strcmp(argv[1], "--bench"))
		return bench(strtoull(argv[2], NULL, 0));
	ret = tap_main(argc, argv, "test_analysis", cases, TAP_NR_CASES(cases));
	free(out_buf);
	return ret;
}
