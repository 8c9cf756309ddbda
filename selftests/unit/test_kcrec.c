// SPDX-License-Identifier: GPL-2.0
/*
 * The module's encoder of compact records (kmod/crec.h), compiled here
 * with kshim/ for the kernel's headers, against the format of the uapi
 * (struct ntprof_crec, ntprof_crec_size()): the sizes it reserves, the
 * bytes it writes, where offsets turn 64-bit, and records decoded back by
 * the tool's decoder (tools/ntprof/lib/ntp/crec.c) equal to the originals.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "kshim/kshim.h"
#include "../../kmod/crec.h"
#include "crec_test.h"
#include "ntp/crec.h"
#include "tap.h"

#define BASE	1000000000000ULL	/* a CLOCK_MONOTONIC time, 1000 s */

/* Encode @rec as ntprof_buffer_emit() does, into @buf; its size. */
static uint32_t encode(const struct ntprof_record *rec, void *buf)
{
	uint32_t points;
	uint64_t t0;

	points = ntprof_crec_scan(rec, &t0);
	memset(buf, 0xa5, NTPROF_CREC_MAX + 16);
	if (!ntprof_crec_encode(buf, rec, points, t0)) {
		/* The event discarded, a wide one reserved. */
		points |= NTPROF_CREC_WIDE;
		memset(buf, 0xa5, NTPROF_CREC_MAX + 16);
		if (!ntprof_crec_encode(buf, rec, points, t0))
			return 0;
	}
	return ntprof_crec_bytes(points);
}

/*
 * Encoded at @buf, its size @size: what the uapi says of the size, the
 * bytes past it untouched, and decoded back to @rec.
 */
static bool roundtrip(const struct ntprof_record *rec, const void *buf,
		      uint32_t size)
{
	const unsigned char *end = (const unsigned char *)buf + size;
	struct ntprof_record back;
	struct ntprof_crec c;
	char why[128];

	memcpy(&c, buf, sizeof(c));
	if (ntprof_crec_size(&c) != size || size % 4 || size > NTPROF_CREC_MAX ||
	    end[0] != 0xa5 || end[3] != 0xa5)
		return false;
	return crec_decode(&back, buf, size, CREC_HOST, why,
			   sizeof(why)) == (int)size &&
	       !memcmp(&back, rec, sizeof(back));
}

static int32_t off32(const void *buf, int i)
{
	int32_t d;

	memcpy(&d, (const char *)buf + sizeof(struct ntprof_crec) + 4 * i, 4);
	return d;
}

static int64_t off64(const void *buf, int i)
{
	int64_t d;

	memcpy(&d, (const char *)buf + sizeof(struct ntprof_crec) + 8 * i, 8);
	return d;
}

/* A host read, nine points, as the module stamps one over NVMe/TCP. */
static void test_read(void)
{
	unsigned char buf[NTPROF_CREC_MAX + 16];
	struct ntprof_record rec;
	struct ntprof_crec c;
	uint32_t size, mask = 0;
	unsigned int i;
	bool offs = true;

	crec_test_ident(&rec, NTPROF_ROLE_HOST);
	for (i = 0; i < CREC_TCP_READ_NR_POINTS; i++) {
		rec.ts[crec_tcp_read_points[i]] = BASE + 1000 * i;
		mask |= 1U << crec_tcp_read_points[i];
	}
	size = encode(&rec, buf);
	memcpy(&c, buf, sizeof(c));
	ok(size == 80, "a nine-point kernel read is 80 bytes (%u)", size);
	ok(c.points == mask && c.t0 == BASE,
	   "its points word is the points' mask, t0 the first point's time");
	ok(!memcmp(buf, &rec, offsetof(struct ntprof_crec, points)),
	   "its identity is the record's, byte for byte");
	for (i = 1; i < CREC_TCP_READ_NR_POINTS; i++)
		offs &= off32(buf, i - 1) == (int32_t)(1000 * i);
	ok(offs, "the other eight points follow as s32 offsets, in point order");
	ok(roundtrip(&rec, buf, size), "it decodes back to the record");
}

/* A record with a lower point stamped later: a negative offset. */
static void test_order(void)
{
	unsigned char buf[NTPROF_CREC_MAX + 16];
	struct ntprof_record rec;
	uint32_t size;

	crec_test_ident(&rec, NTPROF_ROLE_TARGET);
	rec.ts[NTPROF_PT_TARGET_RECV] = BASE + 5000;
	rec.ts[NTPROF_PT_TARGET_INIT] = BASE + 1000;
	rec.ts[NTPROF_PT_TARGET_SEND_DONE] = BASE;
	size = encode(&rec, buf);
	ok(size == 56 && off32(buf, 0) == -4000 && off32(buf, 1) == -5000,
	   "points stamped out of their order give negative s32 offsets");
	ok(roundtrip(&rec, buf, size), "and decode back");
}

static void test_empty_and_pid(void)
{
	unsigned char buf[NTPROF_CREC_MAX + 16];
	struct ntprof_record rec;
	struct ntprof_crec c;
	uint32_t size, pid;

	crec_test_ident(&rec, NTPROF_ROLE_HOST);
	size = encode(&rec, buf);
	memcpy(&c, buf, sizeof(c));
	ok(size == 48 && c.points == 0 && c.t0 == 0,
	   "a record without a point: 48 bytes, no points, t0 0");
	ok(roundtrip(&rec, buf, size), "and decodes back");

	rec.role = NTPROF_ROLE_TARGET;
	rec.flags |= NTPROF_REC_F_USER;
	rec.pid = 4242;
	rec.ts[NTPROF_PT_TARGET_RECV] = BASE;
	rec.ts[NTPROF_PT_TARGET_COMPLETE] = BASE + 77;
	size = encode(&rec, buf);
	memcpy(&c, buf, sizeof(c));
	memcpy(&pid, buf + 52, sizeof(pid));
	ok(size == 56 && (c.points & NTPROF_CREC_PID) && pid == 4242,
	   "a userspace site's pid follows the offsets, flagged");
	ok(roundtrip(&rec, buf, size), "and decodes back");
}

/* Where offsets turn 64-bit: beyond s32, either way. */
static void test_wide(void)
{
	static const struct {
		int64_t d;
		bool wide;
	} cases[] = {
		{ INT32_MAX, false }, { (int64_t)INT32_MAX + 1, true },
		{ INT32_MIN, false }, { (int64_t)INT32_MIN - 1, true },
		{ 3000000000LL, true }, { -3000000000LL, true },
	};
	unsigned char buf[NTPROF_CREC_MAX + 16];
	struct ntprof_record rec;
	struct ntprof_crec c;
	unsigned int i;
	uint32_t size;

	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		crec_test_ident(&rec, NTPROF_ROLE_HOST);
		rec.ts[NTPROF_PT_HOST_SETUP] = BASE * 10;
		rec.ts[NTPROF_PT_HOST_SEND] = BASE * 10 + 100;
		rec.ts[NTPROF_PT_HOST_BLK_COMPLETE] = BASE * 10 + cases[i].d;
		size = encode(&rec, buf);
		memcpy(&c, buf, sizeof(c));
		ok(!!(c.points & NTPROF_CREC_WIDE) == cases[i].wide &&
		   size == (cases[i].wide ? 64U : 56U) &&
		   (cases[i].wide ? off64(buf, 1) : off32(buf, 1)) == cases[i].d &&
		   roundtrip(&rec, buf, size),
		   "an offset of %" PRId64 " ns is %s, and decodes back",
		   cases[i].d, cases[i].wide ? "wide" : "an s32");
	}

	/* The target's points run to the end of the array. */
	crec_test_ident(&rec, NTPROF_ROLE_TARGET);
	rec.pid = 1;
	for (i = NTPROF_PT_TARGET_RECV; i < NTPROF_RECORD_POINTS; i++)
		rec.ts[i] = BASE + (uint64_t)i * 1000000000ULL;
	size = encode(&rec, buf);
	ok(size == NTPROF_CREC_MAX - 8 * NTPROF_PT_TARGET_RECV &&
	   roundtrip(&rec, buf, size),
	   "every point of a target's, wide, with a pid: %u bytes", size);
}

/* A record holds its role's points: the scan looks at no other. */
static void test_role(void)
{
	unsigned char buf[NTPROF_CREC_MAX + 16];
	struct ntprof_record rec, own;
	uint32_t size;

	crec_test_ident(&rec, NTPROF_ROLE_HOST);
	rec.ts[NTPROF_PT_HOST_SETUP] = BASE;
	rec.ts[NTPROF_PT_HOST_BLK_COMPLETE] = BASE + 500;
	own = rec;
	rec.ts[NTPROF_PT_TARGET_RECV] = BASE + 100;
	rec.ts[NTPROF_RECORD_POINTS - 1] = BASE + 200;
	size = encode(&rec, buf);
	ok(size == 52 && roundtrip(&own, buf, size),
	   "a host record keeps its own points, not a target's");

	crec_test_ident(&rec, NTPROF_ROLE_TARGET);
	rec.ts[NTPROF_PT_TARGET_RECV] = BASE;
	rec.ts[NTPROF_RECORD_POINTS - 1] = BASE + 500;
	own = rec;
	rec.ts[NTPROF_PT_HOST_SETUP] = BASE + 100;
	size = encode(&rec, buf);
	ok(size == 52 && roundtrip(&own, buf, size),
	   "a target record keeps its own points, the last one too, not a host's");
}

/* xorshift64*: the same records every run. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

/* Records of random points, times and pids, back to back as netlink packs them. */
static void test_random(void)
{
	static unsigned char stream[4096 * NTPROF_CREC_MAX + 16];
	static struct ntprof_record recs[4096];
	struct ntprof_record back;
	size_t at = 0, n;
	char why[128];
	int size;
	uint64_t s = 0x9e3779b97f4a7c15ULL, r;
	unsigned int i, p, bad = 0, wide = 0;

	for (n = 0; n < 4096; n++) {
		crec_test_ident(&recs[n], 1 + rnd(&s) % 2);
		recs[n].cid = (uint16_t)n;
		/* A record holds the points of its role. */
		for (p = recs[n].role == NTPROF_ROLE_HOST ? 0 :
			 NTPROF_PT_TARGET_RECV;
		     p < (recs[n].role == NTPROF_ROLE_HOST ?
			  NTPROF_PT_TARGET_RECV : NTPROF_RECORD_POINTS); p++) {
			r = rnd(&s);
			if (r % 3)
				continue;
			/* Mostly microseconds apart; one in 64 seconds. */
			recs[n].ts[p] = BASE + (r >> 8) % (r % 64 ? 100000 :
							  10000000000ULL);
		}
		recs[n].pid = rnd(&s) % 4 ? 0 : (uint32_t)(rnd(&s) % 100000) + 1;
		at += encode(&recs[n], stream + at);
	}
	for (i = 0, n = 0; n < 4096; n++, at -= size) {
		struct ntprof_crec c;

		memcpy(&c, stream + i, sizeof(c));
		wide += !!(c.points & NTPROF_CREC_WIDE);
		size = crec_decode(&back, stream + i, at, CREC_HOST, why,
				   sizeof(why));
		if (size <= 0 || memcmp(&back, &recs[n], sizeof(back)))
			bad++;
		if (size <= 0)
			break;
		i += size;
	}
	ok(!bad && at == 0 && wide > 0 && wide < 4096,
	   "4096 random records, %u of them wide, back to back: each decodes back (%u bad)",
	   wide, bad);
}

static const struct tap_case cases[] = {
	{ "read", test_read },
	{ "order", test_order },
	{ "empty_and_pid", test_empty_and_pid },
	{ "wide", test_wide },
	{ "role", test_role },
	{ "random", test_random },
};

int main(int argc, char *argv[])
{
	return tap_main(argc, argv, "test_kcrec", cases, TAP_NR_CASES(cases));
}
