// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the compact record's codec (tools/ntprof/lib/ntp/crec.c)
 * against the contract of struct ntprof_crec (include/uapi/linux/
 * ntprof.h) and the table of Documentation/ntp-format.rst: the bytes at
 * their offsets, built here with this file's own little-endian code;
 * where 32-bit offsets end and 64-bit ones begin; points before t0; the
 * pid; records no offset can hold; round trips of many records at odd
 * addresses, in both byte orders; and every kind of malformed input,
 * each refused with its reason.
 * Prints TAP; exits 1 if any test failed.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "crec_test.h"
#include "ntp/crec.h"
#include "tap.h"

/* Little-endian by hand, independent of ntp_layout.h. */
static uint64_t rd(const uint8_t *p, int size)
{
	uint64_t v = 0;
	int i;

	for (i = size - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void wr(uint8_t *p, uint64_t v, int size)
{
	int i;

	for (i = 0; i < size; i++)
		p[i] = v >> (8 * i);
}

/* A host's TCP read: nine points, the last one 59 us after the first. */
static void tcp_read(struct ntprof_record *r)
{
	unsigned int i;

	crec_test_ident(r, NTPROF_ROLE_HOST);
	for (i = 0; i < CREC_TCP_READ_NR_POINTS; i++)
		r->ts[crec_tcp_read_points[i]] =
			3600000000000ULL + 7 * i * i * 100 + i;
}

static void t_layout(void)
{
	struct ntprof_record r, back;
	uint8_t b[NTPROF_CREC_MAX], host[NTPROF_CREC_MAX];
	char why[128];
	uint32_t n, i, k;
	bool offs = true;

	tcp_read(&r);
	n = crec_encode(b, &r, CREC_LE);
	ok(n == 80 && crec_size(&r) == 80,
	   "a host's TCP read of nine points is 80 bytes (%u)", n);
	ok(b[0] == 1 && b[1] == 1 && b[2] == 2 && b[3] == 1 &&
	   rd(b + 4, 2) == 0x0304 && rd(b + 6, 2) == 0x1005 &&
	   rd(b + 8, 4) == 0x06070809 && rd(b + 12, 4) == 4096 &&
	   rd(b + 16, 8) == 0x1112131415161718ULL &&
	   rd(b + 24, 2) == 0x2122 && rd(b + 26, 2) == 0x2324 &&
	   rd(b + 28, 2) == 0x2526 && rd(b + 30, 2) == 0x2728 &&
	   rd(b + 32, 4) == 0x292a2b2c,
	   "role to dev at the offsets of the record's first 36 bytes");
	ok(rd(b + 36, 4) == 0x079f && rd(b + 40, 8) == r.ts[0],
	   "points word 0x%03llx at 36 (points 0-4, 7-10), t0 at 40",
	   (unsigned long long)rd(b + 36, 4));
	for (i = 1, k = 0; i < NTPROF_RECORD_POINTS; i++) {
		if (!r.ts[i])
			continue;
		offs &= rd(b + 48 + 4 * k, 4) == r.ts[i] - r.ts[0];
		k++;
	}
	ok(offs && k == 8,
	   "from 48, each further point's offset from t0, a 32-bit word, in point order");
	ok(crec_decode(&back, b, n, CREC_LE, why, sizeof(why)) == 80 &&
	   !memcmp(&back, &r, sizeof(r)),
	   "it decodes to the same record, every field");
	ok(crec_encode(host, &r, CREC_HOST) == 80 &&
	   (!memcmp(host, b, 80)) == (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__),
	   "host byte order: the same bytes on a little-endian machine");
}

/* @a and then @b as the only two points: the bytes its offset takes. */
static uint32_t two_points(uint64_t a, uint64_t b, uint32_t *points)
{
	struct ntprof_record r = { .role = 1 };
	uint8_t buf[NTPROF_CREC_MAX];
	uint32_t n;

	r.ts[NTPROF_PT_HOST_SETUP] = a;
	r.ts[NTPROF_PT_HOST_RECV] = b;
	n = crec_encode(buf, &r, CREC_LE);
	*points = n ? rd(buf + 36, 4) : 0;
	return n;
}

static void t_offsets(void)
{
	const uint64_t t = 1ULL << 40;
	uint32_t p;

	ok(two_points(t, t + INT32_MAX, &p) == 52 &&
	   !(p & NTPROF_CREC_WIDE),
	   "an offset of 2^31 - 1 ns takes 32 bits");
	ok(two_points(t, t + INT32_MAX + 1ULL, &p) == 56 &&
	   (p & NTPROF_CREC_WIDE),
	   "an offset of 2^31 ns takes 64 (WIDE)");
	ok(two_points(t, t - (1ULL << 31), &p) == 52 &&
	   !(p & NTPROF_CREC_WIDE),
	   "a point 2^31 ns before t0 takes 32 bits");
	ok(two_points(t, t - (1ULL << 31) - 1, &p) == 56 &&
	   (p & NTPROF_CREC_WIDE),
	   "a point 2^31 + 1 ns before t0 takes 64");
	ok(two_points(1, 1 + (uint64_t)INT64_MAX, &p) == 56,
	   "an offset of 2^63 - 1 ns is held");
	ok(two_points(1, 2 + (uint64_t)INT64_MAX, &p) == 0,
	   "one of 2^63 ns is not: nothing written");
	ok(two_points((1ULL << 63) + 1, 1, &p) == 56,
	   "a point 2^63 ns before t0 is held (INT64_MIN)");
	ok(two_points((1ULL << 63) + 2, 1, &p) == 0,
	   "one 2^63 + 1 ns before t0 is not");
}

static void t_pid_and_empty(void)
{
	struct ntprof_record r = { .role = 2, .pid = 0xdeadbeef }, back;
	uint8_t b[NTPROF_CREC_MAX];
	char why[128];
	uint32_t n;

	n = crec_encode(b, &r, CREC_LE);
	ok(n == 52 && rd(b + 36, 4) == NTPROF_CREC_PID &&
	   rd(b + 40, 8) == 0 && rd(b + 48, 4) == 0xdeadbeef,
	   "no point, a pid: 52 bytes, the PID bit, t0 0, the pid at 48");
	r.ts[NTPROF_PT_TARGET_INIT] = 77;
	r.ts[NTPROF_PT_TARGET_EXEC] = 99;
	r.ts[NTPROF_PT_TARGET_COMPLETE] = 50;
	n = crec_encode(b, &r, CREC_LE);
	ok(n == 60 && rd(b + 56, 4) == 0xdeadbeef &&
	   (int32_t)rd(b + 52, 4) == -27,
	   "three points and a pid: the pid after the offsets, one negative");
	ok(crec_decode(&back, b, n, CREC_LE, why, sizeof(why)) == 60 &&
	   !memcmp(&back, &r, sizeof(r)),
	   "... and back, the pid too");
	r.pid = 0;
	memset(r.ts, 0, sizeof(r.ts));
	n = crec_encode(b, &r, CREC_LE);
	ok(n == 48 && rd(b + 36, 4) == 0 && rd(b + 40, 8) == 0 &&
	   crec_decode(&back, b, n, CREC_LE, why, sizeof(why)) == 48 &&
	   !memcmp(&back, &r, sizeof(r)),
	   "nothing at all: the 48 bytes of the fixed part, and back");
}

static void t_largest(void)
{
	struct ntprof_record r = { .pid = 1 }, back;
	uint8_t b[NTPROF_CREC_MAX + 8];
	struct ntprof_crec c;
	char why[128];
	int i;

	for (i = 0; i < NTPROF_RECORD_POINTS; i++)
		r.ts[i] = 10 + ((uint64_t)i << 40);
	memset(b, 0xee, sizeof(b));
	ok(crec_encode(b, &r, CREC_HOST) == NTPROF_CREC_MAX &&
	   b[NTPROF_CREC_MAX] == 0xee,
	   "every point, WIDE, a pid: NTPROF_CREC_MAX bytes, not one more");
	memcpy(&c, b, sizeof(c));
	ok(ntprof_crec_size(&c) == NTPROF_CREC_MAX,
	   "the uapi's ntprof_crec_size() agrees");
	ok(crec_decode(&back, b + 0, NTPROF_CREC_MAX, CREC_HOST, why,
		       sizeof(why)) == NTPROF_CREC_MAX &&
	   !memcmp(&back, &r, sizeof(r)), "and it decodes");
}

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A record of random points, most near t, some far, a few extreme. */
static void random_record(struct ntprof_record *r)
{
	uint64_t t = 1 + next() % (1ULL << 50);
	int i;

	memset(r, 0, sizeof(*r));
	r->role = next() % 3;
	r->flags = next();
	r->slba = next();
	r->cid = next();
	r->pid = next() % 4 ? 0 : (uint32_t)next();
	for (i = 0; i < NTPROF_RECORD_POINTS; i++) {
		switch (next() % 8) {
		case 0:
		case 1:
			r->ts[i] = t + next() % 100000 - 50000;
			break;
		case 2:
			r->ts[i] = t + next() % (1ULL << 33);
			break;
		case 3:
			r->ts[i] = 1 + next() % (1ULL << 62);
			break;
		}
	}
}

static void t_round_trips(void)
{
	static uint8_t buf[1000 * NTPROF_CREC_MAX + 8];
	static struct ntprof_record in[1000];
	struct ntprof_record back;
	bool same[2] = { true, true };
	char why[128];
	size_t at;
	int o, i, n;

	for (i = 0; i < 1000; i++)
		random_record(&in[i]);
	for (o = 0; o < 2; o++) {
		/* Back to back, from an odd address: nothing is aligned. */
		for (i = 0, at = 3; i < 1000; i++)
			at += crec_encode(buf + at, &in[i], o);
		for (i = 0, at = 3; i < 1000 && same[o]; i++, at += n) {
			n = crec_decode(&back, buf + at, sizeof(buf) - at, o,
					why, sizeof(why));
			same[o] = n == (int)crec_size(&in[i]) &&
				  !memcmp(&back, &in[i], sizeof(back));
			if (!same[o])
				diag("record %d: %d %s", i, n, n < 0 ? why : "");
		}
	}
	ok(same[CREC_LE], "1000 random records, back to back at odd addresses, little-endian: the same back");
	ok(same[CREC_HOST], "... and in host byte order");
}

/* The TCP read's bytes, changed by @change, must fail with @what. */
static bool refused(const char *what, size_t len,
		    void (*change)(uint8_t *b))
{
	struct ntprof_record r;
	uint8_t b[NTPROF_CREC_MAX];
	char why[128] = "";
	int n;

	tcp_read(&r);
	crec_encode(b, &r, CREC_LE);
	if (change)
		change(b);
	n = crec_decode(&r, b, len, CREC_LE, why, sizeof(why));
	if (n != -EBADMSG || !strstr(why, what)) {
		diag("got %d \"%s\", want \"%s\"", n, why, what);
		return false;
	}
	return true;
}

static void bit_24(uint8_t *b)
{
	wr(b + 36, rd(b + 36, 4) | 1U << 24, 4);
}

static void bit_29(uint8_t *b)
{
	wr(b + 36, rd(b + 36, 4) | 1U << 29, 4);
}

static void wide(uint8_t *b)
{
	wr(b + 36, rd(b + 36, 4) | NTPROF_CREC_WIDE, 4);
}

static void pid(uint8_t *b)
{
	wr(b + 36, rd(b + 36, 4) | NTPROF_CREC_PID, 4);
}

static void no_points_t0(uint8_t *b)
{
	wr(b + 36, 0, 4);
}

static void t0_zero(uint8_t *b)
{
	wr(b + 40, 0, 8);
}

static void up_wraps(uint8_t *b)
{
	wr(b + 40, UINT64_MAX - 10, 8);
	wr(b + 48, 11, 4);
}

static void down_to_zero(uint8_t *b)
{
	wr(b + 40, 5, 8);
	wr(b + 48, (uint32_t)-5, 4);
}

static void down_wraps(uint8_t *b)
{
	wr(b + 40, 5, 8);
	wr(b + 52, (uint32_t)-6, 4);
}

static void t_malformed(void)
{
	struct ntprof_record r;
	uint8_t b[NTPROF_CREC_MAX] = { 0 };
	char why[128];
	bool all = true;
	size_t len;

	ok(refused("47 bytes left, less than a record's 48", 47, NULL),
	   "47 bytes: less than a record");
	tcp_read(&r);
	crec_encode(b, &r, CREC_LE);
	for (len = 48; len < 80; len++)
		all &= crec_decode(&r, b, len, CREC_LE, why,
				   sizeof(why)) == -EBADMSG &&
		       strstr(why, "80 bytes, past the");
	ok(all, "cut anywhere between 48 and 79 bytes: past the bytes left");
	ok(refused("points word 0x0100079f has unknown bits", 80, bit_24),
	   "bit 24, past the 24 points: unknown bits");
	ok(refused("points word 0x2000079f has unknown bits", 80, bit_29),
	   "bit 29: unknown bits");
	ok(refused("112 bytes, past the 80 left", 80, wide),
	   "WIDE on 80 bytes of 32-bit offsets: its 64-bit ones run past");
	ok(refused("84 bytes, past the 80 left", 80, pid),
	   "PID with no word for it: past the end");
	ok(refused("no point, yet t0 is 3600000000000", 80, no_points_t0),
	   "no point but a t0");
	ok(refused("point 0 at time 0", 80, t0_zero),
	   "points and t0 0: the first point at time 0");
	ok(refused("point 1: t0 18446744073709551605 +11 ns wraps around", 80,
		   up_wraps),
	   "an offset past 2^64: wraps");
	ok(refused("point 1 at time 0", 80, down_to_zero),
	   "an offset down to 0: a point at time 0");
	ok(refused("point 2: t0 5 -6 ns wraps around", 80, down_wraps),
	   "an offset below 0: wraps");
}

/* What the contract allows but no encoder of ours writes, read as meant. */
static void t_lenient(void)
{
	struct ntprof_record r = { 0 }, back;
	uint8_t b[64] = { 0 };
	char why[128];

	/* Two points, WIDE although the offset fits, a pid of 0. */
	wr(b + 36, 1 | 1 << 5 | NTPROF_CREC_WIDE | NTPROF_CREC_PID, 4);
	wr(b + 40, 1000, 8);
	wr(b + 48, (uint64_t)-10, 8);
	r.ts[0] = 1000;
	r.ts[5] = 990;
	ok(crec_decode(&back, b, sizeof(b), CREC_LE, why, sizeof(why)) == 60 &&
	   !memcmp(&back, &r, sizeof(r)),
	   "WIDE offsets that would fit in 32 bits, and a pid of 0, read as written");
}

/* Two points, t0 and an offset, narrow: 0, or what decoding says. */
static int t0_off(uint64_t t0, int32_t off, uint64_t *t, char *why)
{
	struct ntprof_record r;
	uint8_t b[52] = { 0 };

	wr(b + 36, 1 | 1 << 1, 4);
	wr(b + 40, t0, 8);
	wr(b + 48, (uint32_t)off, 4);
	*t = 0;
	if (crec_decode(&r, b, sizeof(b), CREC_LE, why, 128) != 52)
		return -1;
	*t = r.ts[1];
	return 0;
}

/*
 * Where 32-bit offsets are taken without a check a point (t0 more than
 * 2^31 ns from both ends) and where they are checked.
 */
static void t_edges(void)
{
	char why[128];
	uint64_t t;

	ok(!t0_off((1ULL << 31) + 1, INT32_MIN, &t, why) && t == 1,
	   "t0 2^31 + 1, unchecked: an offset of -2^31 lands on 1");
	ok(t0_off(1ULL << 31, INT32_MIN, &t, why) &&
	   strstr(why, "point 1 at time 0"),
	   "t0 2^31, checked: -2^31 lands on 0, refused");
	ok(!t0_off(UINT64_MAX - INT32_MAX, INT32_MAX, &t, why) &&
	   t == UINT64_MAX, "t0 2^64 - 2^31, unchecked: +2^31 - 1 lands on 2^64 - 1");
	ok(t0_off(UINT64_MAX - INT32_MAX + 1, INT32_MAX, &t, why) &&
	   strstr(why, "wraps around"),
	   "one more, checked: it wraps, refused");
}

static const struct tap_case cases[] = {
	{ "layout", t_layout },
	{ "offsets", t_offsets },
	{ "pid_and_empty", t_pid_and_empty },
	{ "largest", t_largest },
	{ "round_trips", t_round_trips },
	{ "malformed", t_malformed },
	{ "lenient", t_lenient },
	{ "edges", t_edges },
};

int main(int argc, char *argv[])
{
	return tap_main(argc, argv, "test_crec", cases, TAP_NR_CASES(cases));
}
