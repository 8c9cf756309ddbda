// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of what .ntp format 2.0 changed (Documentation/ntp-format.rst,
 * "Records, format 2.0"): compact records in blocks, each of its own size,
 * at the byte offsets the document gives; 2.1's chain rule in the header;
 * every version the writer can still write read back; a newer 2.x minor;
 * the writer's sizes and its refusals; and blocks damaged in every way a
 * compact record can be, each refused with one exact message. test_ntp
 * has what all versions share, test_crec.c the codec's bytes.
 * Prints TAP; exits 1 if any test failed.
 *
 * usage: test_ntp2 [--seeds DIR]   (DIR: also keep the files for fuzzing)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "ntp/crec.h"
#include "ntp/ntp.h"
#include "ntp_test.h"
#include "tap.h"

/*
 * A compact record as the format's table lays it out, by this file's own
 * hand: the identity, the points word, t0, then each further point's
 * offset in point order, 32-bit unless one needs 64, then the pid.
 */
static void put_crec(struct bytes *b, const struct ntprof_record *r)
{
	uint32_t points = 0, wide = 0;
	uint64_t t0 = 0;
	int64_t off;
	int i;

	for (i = 0; i < NTPROF_RECORD_POINTS; i++) {
		if (!r->ts[i])
			continue;
		if (!points)
			t0 = r->ts[i];
		points |= 1U << i;
		off = (int64_t)(r->ts[i] - t0);
		if (off > INT32_MAX || off < INT32_MIN)
			wide = NTPROF_CREC_WIDE;
	}
	put_ident(b, r);
	put_le(b, points | wide | (r->pid ? NTPROF_CREC_PID : 0), 4);
	put_le(b, t0, 8);
	for (i = __builtin_ffs(points); points && i < NTPROF_RECORD_POINTS; i++)
		if (r->ts[i])
			put_le(b, r->ts[i] - t0, wide ? 8 : 4);
	if (r->pid)
		put_le(b, r->pid, 4);
}

/*
 * Three shapes: a host's TCP read, an SPDK agent's with its pid, and a
 * read whose last point came 5 s after its first (WIDE).
 */
static void three_records(struct ntprof_record *r)
{
	static const int read_pts[] = { 0, 1, 2, 3, 4, 7, 8, 9, 10 };
	int i;

	memset(r, 0, 3 * sizeof(*r));
	r[0].role = NTPROF_ROLE_HOST;
	r[0].transport = NTPROF_TRANSPORT_TCP;
	r[0].opcode = 2;
	r[0].flags = NTPROF_REC_F_SAMPLED;
	r[0].qid = 3;
	r[0].cid = 0x1007;
	r[0].nsid = 1;
	r[0].length = 4096;
	r[0].slba = 123456;
	r[0].dev = 259 << 8;
	for (i = 0; i < 9; i++)
		r[0].ts[read_pts[i]] = 5000000000ULL + 1000 * i * i;
	r[1].role = NTPROF_ROLE_TARGET;
	r[1].transport = NTPROF_TRANSPORT_TCP;
	r[1].opcode = 1;
	r[1].flags = NTPROF_REC_F_SAMPLED | NTPROF_REC_F_USER;
	r[1].nsid = 2;
	r[1].pid = 4321;
	r[1].ts[NTPROF_PT_TARGET_INIT] = 6000000000ULL;
	r[1].ts[NTPROF_PT_TARGET_EXEC] = 6000000300ULL;
	r[1].ts[NTPROF_PT_TARGET_COMPLETE] = 6000009000ULL;
	r[2] = r[0];
	r[2].cid++;
	r[2].ts[NTPROF_PT_HOST_BLK_COMPLETE] += 5000000000ULL;
}

static void test_layout(void)
{
	const char *path = tpath("layout21.ntp");
	struct ntprof_record recs[3];
	struct bytes want = { 0 };
	struct ntp_header h;
	struct ntp_writer *w;
	struct layout l;
	struct result r;
	uint8_t *buf;
	size_t len;
	int ret, i;

	three_records(recs);
	hdr_make(&h);
	ret = ntp_writer_open(path, &h, &w);
	if (!ret)
		ret = ntp_writer_append(w, recs, 3);
	if (!ret)
		ret = ntp_writer_close(w, &trailer_in);
	ok(ret == 0, "three records written (%d)", ret);
	seed(path);
	buf = slurp(path, &len);
	layout(buf, len, &l);

	ok(!memcmp(buf, "\x89NTP\r\n\x1a\n", 8) && buf[8] == 2 && buf[9] == 0 &&
	   buf[10] == 3 && buf[11] == 0 && rd32(buf + 16) == 0,
	   "the magic, version 2.3 and record size 0 (records say their own)");
	/* The header of 1.4, to the byte, then 2.1's chain and the CRC. */
	ok(l.hdr_len == 48 + 2 + 64 + 2 + 14 + 2 + 36 + 2 + 23 + HOOKS_LEN +
			DEVS_LEN + CTRLS_LEN + PART_LEN + CHAIN_LEN + 4 &&
	   rd32(buf + l.hdr_len - 4 - CHAIN_LEN - PART_LEN) == 3 &&
	   rd32(buf + l.hdr_len - 4) == crc32(0, buf, l.hdr_len - 4),
	   "the rest of the header as in 1.4: %zu bytes, the part, the CRC",
	   l.hdr_len);
	{
		const uint8_t *c = buf + l.hdr_len - 4 - CHAIN_LEN;

		ok(c[0] == 1 && !memcmp(c + 1, "\0\0\0\0\0\0\0", 7) &&
		   rd32(c + 8) == 264192 && rd32(c + 12) == 0,
		   "2.1's chain follows the part: 1, 7 zero bytes, the offset 264192");
	}
	for (i = 0; i < 3; i++)
		put_crec(&want, &recs[i]);
	ok(want.len == 80 + 60 + 112,
	   "by the table: 80 bytes a TCP read, 60 an agent's with a pid, 112 WIDE");
	ok(l.units == 2 && !memcmp(buf + l.unit[0], "NTPB", 4) &&
	   rd32(buf + l.unit[0] + 8) == 3 &&
	   rd32(buf + l.unit[0] + 12) == want.len &&
	   !memcmp(buf + l.unit[0] + 24, want.p, want.len) &&
	   rd32(buf + l.unit[0] + 16) ==
		   crc32(0, buf + l.unit[0] + 24, want.len),
	   "a block of 3 records, its length their sizes' sum, the bytes the table's");
	ok(rd32(buf + l.unit[0] + 24 + 80 + 36) ==
		   (1U << NTPROF_PT_TARGET_INIT | 1U << NTPROF_PT_TARGET_EXEC |
		    1U << NTPROF_PT_TARGET_COMPLETE | NTPROF_CREC_PID) &&
	   rd32(buf + l.unit[0] + 24 + 80 + 56) == 4321 &&
	   rd32(buf + l.unit[0] + 24 + 140 + 36) ==
		   (0x79f | NTPROF_CREC_WIDE),
	   "the second's points word has PID and its pid ends it; the third's has WIDE");
	ok(!memcmp(buf + l.unit[1], "NTPE", 4) && l.unit[1] + 24 + 40 == len,
	   "then the trailer, 40 bytes, ends the file");
	read_file(path, true, &r);
	ok(r.ret == 0 && r.n == 3 && same_records(r.recs, recs, 3) &&
	   r.recs[1].pid == 4321,
	   "read back: the same three, the pid too (%d %s)", r.ret, r.msg);
	free(r.recs);
	free(want.p);
	free(buf);
}

/*
 * The records as the module sends them (compact, host order), taken as
 * they are: the file is the one ntp_writer_append() writes, but for the
 * cntlid put in.
 */
static void test_crec_append(void)
{
	const char *enc = tpath("crec-enc.ntp"), *raw = tpath("crec-raw.ntp");
	uint8_t crec[3][NTPROF_CREC_MAX];
	struct ntprof_record recs[3];
	struct ntp_header h;
	struct ntp_writer *w;
	uint8_t *a, *b;
	size_t alen, blen;
	struct result r;
	int ret, i;
	bool takes;

	three_records(recs);
	recs[0].cntlid = 0;
	for (i = 0; i < 3; i++)
		crec_encode(crec[i], &recs[i], CREC_HOST);
	hdr_make(&h);
	ret = ntp_writer_open(raw, &h, &w);
	takes = !ret && ntp_writer_takes_crec(w);
	for (i = 0; takes && i < 3 && !ret; i++)
		ret = ntp_writer_append_crec(w, crec[i], i == 2 ? 9 : 0);
	if (!ret)
		ret = ntp_writer_close(w, &trailer_in);
	recs[2].cntlid = 9;
	if (!ret)
		ret = ntp_writer_open(enc, &h, &w);
	if (!ret)
		ret = ntp_writer_append(w, recs, 3);
	if (!ret)
		ret = ntp_writer_close(w, &trailer_in);
	ok(ret == 0 && takes,
	   "a 2.0 writer takes compact records as sent (%d)", ret);
	a = slurp(enc, &alen);
	b = slurp(raw, &blen);
	ok(alen == blen && !memcmp(a, b, alen),
	   "the file is the encoded records' to the byte, the cntlid put in");
	read_file(raw, true, &r);
	ok(r.ret == 0 && r.n == 3 && same_records(r.recs, recs, 3) &&
	   r.recs[2].cntlid == 9 && !r.recs[0].cntlid,
	   "read back: the same three, one with its cntlid (%d %s)", r.ret,
	   r.msg);
	free(r.recs);
	free(a);
	free(b);
}

/* Every version the writer writes, read back both ways. */
static void test_versions(void)
{
	static const unsigned int v[][2] = {
		{ 1, 0 }, { 1, 1 }, { 1, 2 }, { 1, 3 }, { 1, 4 }, { 2, 0 },
		{ 2, 1 }, { 2, 2 },
	};
	static const size_t blocks[] = { 5, 1024, 3 };
	struct ntprof_record *recs;
	char name[32];
	struct result r;
	bool good;
	size_t n;
	int i, all;

	for (i = 0; i < (int)(sizeof(v) / sizeof(v[0])); i++) {
		snprintf(name, sizeof(name), "v%u.%u.ntp", v[i][0], v[i][1]);
		recs = write_blocks_format(tpath(name), v[i][0], v[i][1],
					   blocks, 3, false, &n);
		for (all = 0, good = true; all < 2; all++) {
			read_file(tpath(name), all, &r);
			good &= r.ret == 0 && r.n == n &&
				same_records(r.recs, recs, n) &&
				r.hdr.version_major == v[i][0] &&
				r.hdr.version_minor == v[i][1] &&
				r.hdr.record_size == (v[i][0] == 1 ? 232 : 0) &&
				r.hdr.nr_devs == (v[i][1] || v[i][0] > 1 ? 3 : 0) &&
				r.hdr.part == (v[i][1] >= 4 || v[i][0] > 1 ? 3 : 0) &&
				/* The chain rule since 2.1; chain 0 before. */
				r.hdr.chain == (v[i][0] == 2 && v[i][1] >= 1) &&
				r.hdr.chain_offset == (r.hdr.chain ? 264192 : 0) &&
				r.has_trailer && r.trailer.records == n;
			free(r.recs);
		}
		ok(good, "format %u.%u: written and read back, both ways (%d %s)",
		   v[i][0], v[i][1], r.ret, r.msg);
		free(recs);
	}
}

/*
 * A file of format 2.4: everything a newer minor may add, which this
 * reader skips, and compact records it reads.
 */
static void test_newer_minor(void)
{
	const char *path = tpath("minor24.ntp");
	struct ntprof_record recs[3];
	struct bytes b = { 0 }, p = { 0 };
	struct result r;
	int all;

	three_records(recs);
	put_header_start(&b, &(struct header_start){
		.major = 2, .minor = 4, .role = NTPROF_ROLE_HOST,
		.transport = NTPROF_TRANSPORT_TCP, .nr_cpus = 2,
		.hostname = "host", .release = "7.2.0", .tool_version = "9.9",
	});
	put_le(&b, 0, 4);		/* hooks */
	put_le(&b, 0, 4);		/* devices */
	put_le(&b, 0, 4);		/* controllers */
	put_le(&b, 0, 4);		/* part */
	put_le(&b, 0, 8);
	put_le(&b, 1, 8);		/* 2.1's chain rule */
	put_le(&b, 4096, 8);
	put(&b, "later", 5);	/* a newer minor's header fields */
	put_header_end(&b);

	put_crec(&p, &recs[0]);
	put_crec(&p, &recs[1]);
	put_unit(&b, "NTPB", 0, 2, p.p, p.len);
	put_unit(&b, "NTPX", 1, 5, "unknown", 7);
	p.len = 0;
	put_crec(&p, &recs[2]);
	put_unit(&b, "NTPB", 2, 1, p.p, p.len);
	p.len = 0;
	put_trailer_counts(&p, 3, 0, 0);
	put_le(&p, 0, 4);
	put_le(&p, 0, 4);
	put(&p, "newer", 5);
	put_unit(&b, "NTPE", 3, 0, p.p, p.len);
	spit(path, b.p, b.len);
	seed(path);

	for (all = 0; all < 2; all++) {
		read_file(path, all, &r);
		ok(r.ret == 0 && r.hdr.version_major == 2 &&
		   r.hdr.version_minor == 4 && r.n == 3 &&
		   r.hdr.chain == 1 && r.hdr.chain_offset == 4096 &&
		   same_records(r.recs, recs, 3) && r.has_trailer &&
		   r.trailer.end_real_ns == 44,
		   "%s: a 2.4 file, a unit and fields unknown to 2.0, reads (%d %s)",
		   all ? "ntp_read_all" : "ntp_next_block", r.ret, r.msg);
		free(r.recs);
	}
	free(b.p);
	free(p.p);
}

/* The bytes the writer counts are the file's; its refusals. */
static void test_writer(void)
{
	const char *path = tpath("size.ntp");
	struct ntprof_record recs[3], bad;
	struct ntp_header h;
	struct ntp_writer *w;
	struct stat st;
	uint64_t before, after;
	int ret, ret2;

	three_records(recs);
	hdr_make(&h);
	ret = ntp_writer_open_format(path, &h, 1, 5, &w);
	ok(ret == -EINVAL, "format 1.5 is not written: -EINVAL (%d)", ret);
	ret = ntp_writer_open_format(path, &h, 2, 4, &w);
	ok(ret == -EINVAL, "nor 2.4 (%d)", ret);
	ret = ntp_writer_open_format(path, &h, 3, 0, &w);
	ok(ret == -EINVAL, "nor 3.0 (%d)", ret);

	if (ntp_writer_open(path, &h, &w))
		die("ntp_writer_open");
	before = ntp_writer_size(w);
	ret = ntp_writer_append(w, recs, 3);
	after = ntp_writer_size(w);
	ok(!ret && after == before + 24 + 80 + 60 + 112,
	   "ntp_writer_size() counts the block being filled: +%llu",
	   (unsigned long long)(after - before));
	bad = recs[0];
	bad.ts[0] = 1;
	bad.ts[1] = 2 + (uint64_t)INT64_MAX;
	ret = ntp_writer_append(w, &bad, 1);
	ret2 = ntp_writer_append(w, recs, 1);
	ok(ret == -ERANGE && ret2 == 0 && ntp_writer_records(w) == 4 &&
	   ntp_writer_size(w) == after + 80,
	   "a record with points 2^63 ns apart: -ERANGE, nothing added, and the writer goes on");
	ret = ntp_writer_flush(w);
	if (stat(path, &st))
		die(path);
	ok(!ret && (uint64_t)st.st_size == after + 80,
	   "flushed, the file has as many bytes (%lld)",
	   (long long)st.st_size);
	ntp_writer_close(w, &trailer_in);
}

/* What the reader knows before reading: the blocks' counts. */
static void test_bound(void)
{
	static const size_t blocks[] = { 7, 1024, 2 };
	const char *path = tpath("bound.ntp");
	struct ntprof_record *recs;
	char err[256];
	struct ntp_file *f;
	uint8_t *buf;
	size_t len, n;
	uint64_t all, cut;

	recs = write_blocks(path, blocks, 3, false, &n);
	if (ntp_open(path, &f, err, sizeof(err)))
		die(err);
	all = ntp_records_bound(f);
	ntp_close(f);
	buf = slurp(path, &len);
	/* The last block loses its last byte, the trailer goes. */
	spit(path, buf, len - 24 - 40 - 1);
	if (ntp_open(path, &f, err, sizeof(err)))
		die(err);
	cut = ntp_records_bound(f);
	ntp_close(f);
	ok(all == n && cut == 7 + 1024,
	   "ntp_records_bound(): %llu of %zu, %llu once the last block is cut",
	   (unsigned long long)all, n, (unsigned long long)cut);
	free(buf);
	free(recs);
}

/* The good file's block 1, 2 records of rec_make()'s: 236 bytes each. */
#define REC	236

static void record_size_set(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	(void)l;
	set_record_size(b, 232);
}

static void count_huge(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	set_unit_count(b, l->unit[1], 0x40000001);	/* * 48 wraps in 32 bits */
}

static void count_tiny(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	set_unit_count(b, l->unit[1], 1);	/* 472 bytes > 1 * 236 */
}

/* The second record's points word, in block 1. */
static uint8_t *points_of(uint8_t *b, const struct layout *l)
{
	return b + l->unit[1] + 24 + REC + 36;
}

static void points_unknown(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	wr32(points_of(b, l), rd32(points_of(b, l)) | 1U << 28);
	fix_unit(b, l->unit[1], true);
}

/* Block 1 loses its last word: its last record runs past its end. */
static void crosses_end(uint8_t *b, size_t *len, const struct layout *l)
{
	size_t end = l->unit[1] + 24 + 2 * REC;

	memmove(b + end - 4, b + end, *len - end);
	*len -= 4;
	wr32(b + l->unit[1] + 12, 2 * REC - 4);
	fix_unit(b, l->unit[1], true);
}

/* The second record says it is narrower: the records end early. */
static void ends_early(uint8_t *b, size_t *len, const struct layout *l)
{
	uint8_t *p = points_of(b, l);

	(void)len;
	wr32(p, rd32(p) & ~NTPROF_CREC_WIDE);
	fix_unit(b, l->unit[1], true);
}

static void t0_zero(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	memset(points_of(b, l) + 4, 0, 8);
	fix_unit(b, l->unit[1], true);
}

static void offset_wraps(uint8_t *b, size_t *len, const struct layout *l)
{
	uint8_t *p = points_of(b, l);

	(void)len;
	/* The last offset: INT64_MIN, far below t0. */
	memset(p + 12 + 8 * 22, 0, 7);
	p[12 + 8 * 22 + 7] = 0x80;
	fix_unit(b, l->unit[1], true);
}

/* The chain's byte: 2 is no rule this reader knows. */
static void chain_unknown(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	b[l->hdr_len - 4 - CHAIN_LEN] = 2;
	fix_header(b);
}

/* A 2.1 header that ends in the middle of its chain. */
static void chain_cut(uint8_t *b, size_t *len, const struct layout *l)
{
	memmove(b + l->hdr_len - 4 - 8, b + l->hdr_len - 4, *len - l->hdr_len + 4);
	*len -= 8;
	wr32(b + 12, l->hdr_len - 8);
	fix_header(b);
}

static void test_damaged(void)
{
	struct layout l;
	uint8_t *good;
	size_t len, at;

	good = good_file("good20.ntp", NTP_VERSION_MAJOR, NTP_VERSION_MINOR,
			 &len, &l, NULL);
	at = l.unit[1];
	ok(rd32(good + at + 12) == 2 * REC,
	   "the good file's block 1: 2 records of %d bytes", REC);
	ok(damaged(good, len, -EBADMSG, chain_unknown,
		   "header: sampling rule 2 is unknown (0: hop, 1: chain)"),
	   "2.1 with a chain rule other than 0 or 1: refused");
	ok(damaged(good, len, -EBADMSG, chain_cut,
		   "header: chain rule truncated"),
	   "2.1 whose header ends within the chain: refused");
	ok(damaged(good, len, -EBADMSG, record_size_set,
		   "header: record size 232 in format 2, whose records are compact (0)"),
	   "2.0 with a record size: refused");
	ok(damaged(good, len, -EBADMSG, count_huge,
		   "block 1 at offset %zu: 1073741825 records do not make 472 bytes",
		   at),
	   "more records than 48 bytes each fit: refused, not allocated");
	ok(damaged(good, len, -EBADMSG, count_tiny,
		   "block 1 at offset %zu: 1 records do not make 472 bytes", at),
	   "fewer than the largest records would fill: refused");
	ok(damaged(good, len, -EBADMSG, points_unknown,
		   "block 1 at offset %zu: record 1 at byte %d: points word 0xd0ffffff has unknown bits",
		   at, REC),
	   "a points word with an unknown bit");
	ok(damaged(good, len, -EBADMSG, crosses_end,
		   "block 1 at offset %zu: record 1 at byte %d: %d bytes, past the %d left",
		   at, REC, REC, REC - 4),
	   "a record that runs past the block's end");
	ok(damaged(good, len, -EBADMSG, ends_early,
		   "block 1 at offset %zu: its records end at byte 380 of 472",
		   at),
	   "records that end before the block does");
	ok(damaged(good, len, -EBADMSG, t0_zero,
		   "block 1 at offset %zu: record 1 at byte %d: point 0 at time 0",
		   at, REC),
	   "points with t0 0");
	ok(damaged(good, len, -EBADMSG, offset_wraps,
		   "block 1 at offset %zu: record 1 at byte %d: point 23: t0 3600000004000 -9223372036854775808 ns wraps around",
		   at, REC),
	   "a WIDE offset below time 0");
	free(good);
}

/* Reads @path's records and events; the reader's return in *@ret. */
static const struct ntp_event *events_read(const char *path, size_t *n,
					   uint64_t *drops, int *ret,
					   char *msg, size_t msglen,
					   struct ntp_file **fp)
{
	struct ntprof_record *recs;
	size_t nrecs;

	*n = 0;
	*drops = 0;
	*ret = ntp_open(path, fp, msg, msglen);
	if (*ret)
		return NULL;
	*ret = ntp_read_all(*fp, &recs, &nrecs);
	free(recs);
	if (*ret)
		snprintf(msg, msglen, "%s", ntp_error(*fp));
	return ntp_events(*fp, n, drops);
}

/*
 * Whether events @a and @b are equal, field by field: the reader's
 * padding bytes are whatever its allocation held.
 */
static bool same_event(const struct ntp_event *a, const struct ntp_event *b)
{
	return a->time_mono_ns == b->time_mono_ns && a->ctrl == b->ctrl &&
	       a->type == b->type && a->old_state == b->old_state &&
	       a->new_state == b->new_state;
}

/*
 * 2.3's connect attempts (type 3): a 2.2 writer leaves them out, the
 * unit's count and length of the events it keeps; 2.3 keeps them.
 */
static void events_of_minor(const char *path, struct ntp_header *h)
{
	static const struct ntp_event ev[3] = {
		{ 5000000000ULL, 3, NTPROF_EVENT_CTRL_ATTEMPT, 0, 0 },
		{ 5000000100ULL, 3, NTPROF_EVENT_CTRL_STATE,
		  NTPROF_CTRL_CONNECTING, NTPROF_CTRL_LIVE },
		{ 6000000000ULL, 4, NTPROF_EVENT_CTRL_ATTEMPT, 0, 0 },
	};
	const struct ntp_event *got;
	struct ntp_writer *w;
	struct ntp_file *f;
	uint64_t drops;
	char msg[512];
	size_t n[2];
	int ret, minor, good[2] = { 0, 0 };

	for (minor = 2; minor <= 3; minor++) {
		ret = ntp_writer_open_format(path, h, 2, minor, &w);
		if (!ret)
			ret = ntp_writer_events(w, ev, 3, 0);
		if (!ret)
			ret = ntp_writer_close(w, &trailer_in);
		got = ret ? NULL : events_read(path, &n[minor - 2], &drops,
					       &ret, msg, sizeof(msg), &f);
		if (!got)
			continue;
		good[minor - 2] = minor == 2 ?
			n[0] == 1 && same_event(&got[0], &ev[1]) :
			n[1] == 3 && same_event(&got[0], &ev[0]) &&
			same_event(&got[2], &ev[2]);
		ntp_close(f);
	}
	ok(good[0] && good[1],
	   "connect attempts: a 2.2 file leaves them out, keeping the state change; 2.3 keeps all three");
}

/*
 * 2.2's events units (Documentation/ntp-format.rst, "Events"): between
 * blocks, at the byte offsets given, read back in order with the last
 * unit's drops; refused by a 2.1 writer; a 2.1 file's such unit skipped,
 * no events; and a unit whose count and length disagree, or an event
 * without a time, refused with one exact message.
 */
static void test_events(void)
{
	static const struct ntp_event ev[3] = {
		{ 5000000000ULL, 3, NTPROF_EVENT_CTRL_RESET, 0, 0 },
		{ 5000000100ULL, 3, NTPROF_EVENT_CTRL_STATE,
		  NTPROF_CTRL_LIVE, NTPROF_CTRL_RESETTING },
		{ 7000000000ULL, 3, NTPROF_EVENT_CTRL_STATE,
		  NTPROF_CTRL_CONNECTING, NTPROF_CTRL_LIVE },
	};
	const char *path = tpath("events.ntp"), *bad = tpath("events-bad.ntp");
	const struct ntp_event *got;
	struct ntprof_record recs[3];
	struct ntp_writer *w;
	struct ntp_header h;
	struct ntp_file *f;
	struct layout l;
	uint64_t drops;
	uint8_t *buf, *u;
	char msg[512], want[160];
	size_t len, n;
	int ret;

	three_records(recs);
	hdr_make(&h);
	ret = ntp_writer_open_format(path, &h, 2, 1, &w);
	ok(!ret && ntp_writer_events(w, ev, 1, 0) == -EINVAL,
	   "a 2.1 writer refuses events (%d)", ret);
	if (!ret)
		ntp_writer_close(w, NULL);
	events_of_minor(path, &h);

	ret = ntp_writer_open(path, &h, &w);
	if (!ret)
		ret = ntp_writer_append(w, recs, 2);
	if (!ret)
		ret = ntp_writer_events(w, ev, 2, 1);
	if (!ret)
		ret = ntp_writer_append(w, recs + 2, 1);
	if (!ret)
		ret = ntp_writer_events(w, ev + 2, 1, 4);
	if (!ret)
		ret = ntp_writer_close(w, &trailer_in);
	ok(ret == 0, "a 2.2 file with two events units written (%d)", ret);
	seed(path);

	buf = slurp(path, &len);
	layout(buf, len, &l);
	u = buf + l.unit[1];
	ok(l.units == 5 && !memcmp(u, "NTPV", 4) && rd32(u + 4) == 1 &&
	   rd32(u + 8) == 2 && rd32(u + 12) == 8 + 2 * 16 &&
	   rd32(u + 24) == 1 && rd32(u + 28) == 0 &&
	   rd32(u + 32 + 16) == (uint32_t)5000000100ULL &&
	   rd32(u + 32 + 20) == (uint32_t)(5000000100ULL >> 32) &&
	   rd32(u + 32 + 16 + 8) == 3 &&
	   u[32 + 16 + 12] == NTPROF_EVENT_CTRL_STATE &&
	   u[32 + 16 + 13] == NTPROF_CTRL_LIVE &&
	   u[32 + 16 + 14] == NTPROF_CTRL_RESETTING && !u[32 + 16 + 15],
	   "the first events unit: tag, seq, count, length, drops, and its second event's bytes where the format puts them");

	got = events_read(path, &n, &drops, &ret, msg, sizeof(msg), &f);
	ok(!ret && n == 3 && drops == 4 && got &&
	   same_event(&got[0], &ev[0]) && same_event(&got[1], &ev[1]) &&
	   same_event(&got[2], &ev[2]) &&
	   ntp_trailer(f) && ntp_trailer(f)->records == 3,
	   "read back: three events in order, the last unit's drops, the records (%d %s)",
	   ret, ret ? msg : "");
	ntp_close(f);

	/* The same bytes as 2.1: its units of a newer minor are skipped. */
	buf[10] = 1;
	fix_header(buf);
	spit(bad, buf, len);
	got = events_read(bad, &n, &drops, &ret, msg, sizeof(msg), &f);
	ok(!ret && !n && !got && ntp_trailer(f),
	   "a 2.1 file reads as without events (%d %s)", ret, ret ? msg : "");
	ntp_close(f);
	buf[10] = 2;
	fix_header(buf);

	/* A count that the length does not hold. */
	set_unit_count(buf, l.unit[1], 3);
	spit(bad, buf, len);
	seed(bad);
	events_read(bad, &n, &drops, &ret, msg, sizeof(msg), &f);
	snprintf(want, sizeof(want),
		 "%s: events 1 at offset %zu: 3 events do not make 40 bytes",
		 bad, l.unit[1]);
	ok(ret == -EBADMSG && !strcmp(msg, want), "a miscounted events unit: \"%s\"",
	   msg);
	ntp_close(f);
	set_unit_count(buf, l.unit[1], 2);

	/* An event at time 0, which no clock gives. */
	memset(u + 32 + 16, 0, 8);
	fix_unit(buf, l.unit[1], true);
	spit(bad, buf, len);
	seed(bad);
	events_read(bad, &n, &drops, &ret, msg, sizeof(msg), &f);
	snprintf(want, sizeof(want),
		 "%s: events 1 at offset %zu: event 1 has no time", bad,
		 l.unit[1]);
	ok(ret == -EBADMSG && !strcmp(msg, want), "an event without a time: \"%s\"",
	   msg);
	ntp_close(f);
	free(buf);
}

static const struct tap_case cases[] = {
	{ "layout", test_layout },
	{ "crec_append", test_crec_append },
	{ "versions", test_versions },
	{ "newer_minor", test_newer_minor },
	{ "writer", test_writer },
	{ "bound", test_bound },
	{ "damaged", test_damaged },
	{ "events", test_events },
};

int main(int argc, char *argv[])
{
	return ntp_test_main(argc, argv, "test_ntp2", cases,
			     TAP_NR_CASES(cases));
}
