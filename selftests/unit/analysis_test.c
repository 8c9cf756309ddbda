// SPDX-License-Identifier: GPL-2.0
/*
 * What the files of test_analysis share (analysis_test.h): the tally of
 * checks, a deterministic generator, the reference command's records on
 * both sides with its components worked out by hand, an analysis and a
 * whole recording built of them, and checks of what comes out.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/join.h"
#include "analysis_test.h"
#include "tap.h"

/* The checks of every file of the program (tap.h). */
int tests, failed;

/* Equal but for the last bits of a double's rounding. */
bool near(double a, double b)
{
	double scale = fabs(a) > fabs(b) ? fabs(a) : fabs(b);

	return fabs(a - b) <= 1e-9 * scale + 1e-12;
}

/* A small deterministic generator, so that failures reproduce. */
static uint64_t rng_state = 0x853c49e6748fea9bULL;

uint64_t rng(void)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return rng_state >> 17;
}

uint64_t rng_range(uint64_t lo, uint64_t hi)
{
	return lo + rng() % (hi - lo + 1);
}

/* What printing something gives, as a string (freed by the next call). */
char *out_buf;
static size_t out_len;

FILE *out_open(void)
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
void ref_ident(struct ntprof_record *r, uint8_t role,
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
void host_rec(struct ntprof_record *r, uint8_t transport,
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

void target_rec(struct ntprof_record *r, uint8_t transport,
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

bool sums_hold(const struct ntprof_breakdown *bd)
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

bool comp_is(const struct ntprof_breakdown *bd, int c, int64_t v)
{
	return (bd->has & (1U << c)) && bd->comp[c] == v;
}

/* |a - b| within @rel of |b|, or 0.5 ns: a histogram bucket's error. */
bool close_rel(double a, double b, double rel)
{
	return fabs(a - b) <= rel * fabs(b) + 0.5;
}

const struct ntprof_devname host_devs[1] = {
	{ 259 << 8, "nvme0n1", 0 },
};

/*
 * @n commands, joined, every other one with a drive 20 us slower: means
 * host block 1, host driver 2, network 14, target driver 3, storage 41,
 * end to end 61 us.
 */
struct ntprof_analysis *analysis_ref(unsigned int n)
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

/* A small check that the JSON is well formed: balanced, strings closed. */
bool json_balanced(const char *s)
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

/*
 * A recording of @n commands over 4 queues, cids reused every 64
 * commands of a queue, 30 % of them on one of 4 LBAs (so keys repeat), the
 * target's clock 3 hours ahead and drifting 200 ppm. Then @extra target
 * records the host never saw (the target recorded earlier). Target
 * records come shuffled; @t2h maps them back (NO_MATCH for the extra).
 */
int gen(size_t n, size_t extra, struct ntprof_record **hp,
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
