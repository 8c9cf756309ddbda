// SPDX-License-Identifier: GPL-2.0
/*
 * test_ntp's files of format 1.x, the last of fixed-size records: the byte
 * layout of 1.4 against Documentation/ntp-format.rst, to the byte; a 1.7
 * file with everything a newer minor may add; and files of 1.0 and 1.3,
 * which lack tables that later minors added, built by hand.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "ntp/ntp.h"
#include "ntp_cases.h"
#include "ntp_test.h"
#include "tap.h"

/*
 * A file of format 1.4, the last of fixed-size records, as the writer
 * still writes it for the tests that keep files of every version.
 */
void test_layout(void)
{
	const char *path = tpath("layout14.ntp");
	static const size_t blocks[] = { 2 };
	struct ntprof_record *recs, back;
	uint8_t enc[NTP_RECORD_SIZE];
	struct bytes want = { 0 };
	struct layout l;
	uint8_t *buf;
	size_t len, n;

	recs = write_blocks_format(path, 1, 4, blocks, 1, false, &n);
	seed(path);
	buf = slurp(path, &len);
	layout(buf, len, &l);

	ok(!memcmp(buf, "\x89NTP\r\n\x1a\n", 8) && buf[8] == 1 && buf[9] == 0 &&
	   buf[10] == 4 && buf[11] == 0,
	   "the file starts with the magic and version 1.4, little-endian");
	ok(l.hdr_len == 48 + 2 + 64 + 2 + 14 + 2 + 36 + 2 + 23 + 4 +
			(10 + 14) + (10 + 17) + (10 + 255) + 4 +
			(8 + 7) + (8 + 9) + (8 + 63) + 4 +
			(19 + 5 + 29 + 29) + (19 + 63 + 255 + 255) +
			(4 + 8) + 4 &&
	   rd32(buf + 16) == 232 && rd32(buf + 20) == 10 && buf[24] == 1 &&
	   buf[25] == 1 && rd32(buf + 28) == 8,
	   "header length %zu, record size, sample, role, transport, CPUs at their offsets",
	   l.hdr_len);
	ok(l.units == 2 && !memcmp(buf + l.unit[0], "NTPB", 4) &&
	   rd32(buf + l.unit[0] + 4) == 0 && rd32(buf + l.unit[0] + 8) == 2 &&
	   rd32(buf + l.unit[0] + 12) == 464 &&
	   !memcmp(buf + l.unit[1], "NTPE", 4) &&
	   rd32(buf + l.unit[1] + 4) == 1 && rd32(buf + l.unit[1] + 12) == 40 &&
	   l.unit[1] + 64 == len,
	   "a block of 2 records numbered 0, then the trailer numbered 1 ends the file");
	{
		/* The device table follows the hooks: count, then entries. */
		const uint8_t *d = buf + l.hdr_len - 4 - PART_LEN - CTRLS_LEN -
				   DEVS_LEN;

		ok(rd32(d) == 3 && d[4] == 15 && d[5] == 0 &&
		   rd32(d + 6) == 259 << 8 && d[10] == 7 && d[11] == 0 &&
		   !memcmp(d + 12, "nvme0n1", 7) && d[19] == 17 &&
		   rd32(d + 21) == 0xffffff00 && d[25] == 9 &&
		   !memcmp(d + 27, "nvme10n12", 9) && d[36] == 71 &&
		   rd32(d + 38) == 0x12345678 && d[42] == 63 &&
		   d[44] == 'd' && d[44 + 62] == 'd',
		   "the device table: count, then entry length, dev, name length and name");
		d += DEVS_LEN;
		ok(rd32(d) == 2 && d[4] == CTRL0_LEN && d[5] == 0 &&
		   rd32(d + 6) == 259 << 8 && rd32(d + 10) == 1 &&
		   d[14] == 0x34 && d[15] == 0x12 && d[16] == 1 &&
		   d[17] == 5 && d[18] == 0 && !memcmp(d + 19, "nvme0", 5) &&
		   d[24] == 29 && !memcmp(d + 26, "nqn.2026-11.io.ntprof.lab:tcp", 29) &&
		   d[55] == 29 && !memcmp(d + 57, "traddr=10.77.0.1,trsvcid=4420", 29) &&
		   d[4 + CTRL0_LEN] == (CTRL1_LEN & 0xff) &&
		   d[5 + CTRL0_LEN] == CTRL1_LEN >> 8 &&
		   d + 4 + CTRL0_LEN + CTRL1_LEN == buf + l.hdr_len - 4 - PART_LEN,
		   "the controller table: count, then entry length, dev, nsid, cntlid, transport and three strings");
		d += 4 + CTRL0_LEN + CTRL1_LEN;
		ok(rd32(d) == 3 && rd32(d + 4) == (uint32_t)123456789999999ULL &&
		   rd32(d + 8) == (uint32_t)(123456789999999ULL >> 32),
		   "1.4's part and part_start_mono_ns follow the controller table");
	}
	ok(rd32(buf + l.hdr_len - 4) == crc32(0, buf, l.hdr_len - 4) &&
	   rd32(buf + l.unit[0] + 16) == crc32(0, buf + l.unit[0] + 24, 464) &&
	   rd32(buf + l.unit[0] + 20) == crc32(0, buf + l.unit[0], 20),
	   "the checksums are zlib's CRC-32 of the documented ranges");

	put_record(&want, &recs[1], NTP_RECORD_SIZE);
	ntp_record_encode(enc, &recs[1]);
	ok(!memcmp(enc, want.p, NTP_RECORD_SIZE) &&
	   !memcmp(buf + l.unit[0] + 24 + NTP_RECORD_SIZE, want.p,
		   NTP_RECORD_SIZE),
	   "a record's bytes follow the format's table, in the file and from ntp_record_encode");
	ntp_record_decode(&back, want.p);
	ok(!memcmp(&back, &recs[1], sizeof(back)),
	   "ntp_record_decode turns the bytes back into the record");
	free(want.p);
	free(buf);
	free(recs);
}

/* A file of format 1.7, with everything a newer minor may add. */
void test_newer_minor(void)
{
	const char *path = tpath("minor.ntp");
	struct ntprof_record *recs = recs_make(3);
	struct bytes b = { 0 }, p = { 0 };
	struct ntp_file *f;
	char err[256];
	bool hook_ok = false;
	struct result r;
	int all;

	/* Records grew by 8 bytes. */
	put_header_start(&b, &(struct header_start){
		.major = 1, .minor = 7, .record_size = 240,
		.role = NTPROF_ROLE_TARGET, .transport = NTPROF_TRANSPORT_RDMA,
		.nr_cpus = 2, .hostname = "target", .release = "6.12.9-amd64",
		.tool_version = "9.9",
	});
	put_le(&b, 1, 4);
	put_le(&b, 10 + 14 + 3, 2);	/* 3 bytes after the name */
	put(&b, "\x01\x02\x02\x11\x01\x02", 6);
	put_str(&b, "nvmet_req_init");
	put(&b, "new", 3);
	put_le(&b, 2, 4);		/* the devices of 1.1 */
	put_le(&b, 8 + 7 + 4, 2);	/* 4 bytes after the name */
	put_le(&b, 259 << 8, 4);
	put_str(&b, "nvme0n1");
	put(&b, "more", 4);
	put_le(&b, 8 + 6, 2);
	put_le(&b, 0x10300 | 5, 4);
	put_str(&b, "nullb0");
	put_le(&b, 1, 4);		/* the controllers of 1.1 */
	put_le(&b, 19 + 6 + 3 + 2 + 5, 2);	/* 5 bytes after the strings */
	put_le(&b, 0x10300 | 5, 4);
	put_le(&b, 7, 4);
	put_le(&b, 0x4321, 2);
	put_le(&b, NTPROF_TRANSPORT_RDMA, 1);
	put_str(&b, "port 2");
	put_str(&b, "nqn");
	put_str(&b, "ip");
	put(&b, "newer", 5);
	put_le(&b, 2, 4);		/* the part of 1.4 */
	put_le(&b, 77, 8);
	put(&b, "later", 5);	/* a newer minor's header fields */
	put_header_end(&b);

	put_record(&p, &recs[0], 240);
	put_record(&p, &recs[1], 240);
	put_unit(&b, "NTPB", 0, 2, p.p, p.len);
	put_unit(&b, "NTPX", 1, 5, "unknown", 7);
	p.len = 0;
	put_record(&p, &recs[2], 240);
	put_unit(&b, "NTPB", 2, 1, p.p, p.len);
	p.len = 0;
	put_trailer_counts(&p, 3, 4, 5);
	put_le(&p, 1, 4);		/* 1.2's devices named late */
	put_le(&p, 8 + 7 + 3, 2);	/* 3 bytes after the name */
	put_le(&p, 259 << 8 | 3, 4);
	put_str(&p, "nvme5n1");
	put(&p, "new", 3);
	put_le(&p, 1, 4);		/* 1.3's hooks found late */
	put_le(&p, 10 + 13 + 2, 2);	/* 2 bytes after the name */
	put(&p, "\x03\x02\x02\x11\x01\x01", 6);
	put_str(&p, "pid 7: submit");
	put(&p, "nu", 2);
	put(&p, "sixteen more....", 16);
	put_unit(&b, "NTPE", 3, 0, p.p, p.len);
	spit(path, b.p, b.len);
	seed(path);

	for (all = 0; all < 2; all++) {
		read_file(path, all, &r);
		ok(r.ret == 0 && r.hdr.version_minor == 7 &&
		   r.hdr.record_size == 240 &&
		   r.hdr.role == NTPROF_ROLE_TARGET &&
		   r.hdr.start_real_ns == 22 &&
		   !strcmp(r.hdr.hostname, "target") &&
		   !strcmp(r.hdr.tool_version, "9.9") && r.hdr.boot_id[0] == 0 &&
		   r.hdr.part == 2 && r.hdr.part_start_mono_ns == 77,
		   "%s: a 1.7 header with unknown trailing fields reads (%d %s)",
		   all ? "ntp_read_all" : "ntp_next_block", r.ret, r.msg);
		ok(r.n == 3 && same_records(r.recs, recs, 3) && r.has_trailer &&
		   r.trailer.records == 3 && r.trailer.drops == 4 &&
		   r.trailer.end_real_ns == 44 &&
		   r.trailer.nr_late_devs == 1 && r.trailer.nr_late_hooks == 1,
		   "%s: 240-byte records, an unknown unit and a longer trailer read (%zu)",
		   all ? "ntp_read_all" : "ntp_next_block", r.n);
		free(r.recs);
	}
	if (!ntp_open(path, &f, err, sizeof(err))) {
		const struct ntp_hook *h = ntp_header(f)->hooks;

		hook_ok = ntp_header(f)->nr_hooks == 1 &&
			  !strcmp(h->name, "nvmet_req_init") && h->kind == 1 &&
			  h->role == 2 && h->transport == 2 &&
			  h->point == 0x11 && h->required == 1 &&
			  h->state == 2;
		ntp_close(f);
	}
	ok(hook_ok, "a hook entry with unknown trailing fields reads");
	hook_ok = false;
	if (!ntp_open(path, &f, err, sizeof(err))) {
		const struct ntp_dev *d = ntp_header(f)->devs;

		hook_ok = ntp_header(f)->nr_devs == 2 &&
			  d[0].dev == 259 << 8 && !strcmp(d[0].name, "nvme0n1") &&
			  d[1].dev == (0x10300 | 5) &&
			  !strcmp(d[1].name, "nullb0");
		ntp_close(f);
	}
	ok(hook_ok, "a device entry with unknown trailing fields reads");
	hook_ok = false;
	if (!ntp_open(path, &f, err, sizeof(err))) {
		const struct ntp_ctrl *c = ntp_header(f)->ctrls;

		hook_ok = ntp_header(f)->nr_ctrls == 1 &&
			  c->dev == (0x10300 | 5) && c->nsid == 7 &&
			  c->cntlid == 0x4321 &&
			  c->transport == NTPROF_TRANSPORT_RDMA &&
			  !strcmp(c->name, "port 2") &&
			  !strcmp(c->subsysnqn, "nqn") &&
			  !strcmp(c->address, "ip");
		ntp_close(f);
	}
	ok(hook_ok, "a controller entry with unknown trailing fields reads");
	free(b.p);
	free(p.p);
	free(recs);
}

/*
 * The fixed part and the strings of a host's header of format 1.@minor,
 * sample 1, started at mono 11 and real 22; its length set by
 * put_two_records().
 */
static void put_host_start(struct bytes *b, int minor)
{
	put_header_start(b, &(struct header_start){
		.major = 1, .minor = minor, .record_size = 232,
		.role = NTPROF_ROLE_HOST, .transport = NTPROF_TRANSPORT_TCP,
		.nr_cpus = 1, .hostname = "host", .release = "6.1.0-57-amd64",
		.tool_version = "0.1",
	});
}

/* The header's CRC and length, then a block of @recs[0] and [1]. */
static void put_two_records(struct bytes *b, struct bytes *p,
			    const struct ntprof_record *recs)
{
	put_header_end(b);
	put_record(p, &recs[0], 232);
	put_record(p, &recs[1], 232);
	put_unit(b, "NTPB", 0, 2, p->p, p->len);
}

/*
 * A file of format 1.3, the last before parts: it reads as a recording
 * in one file (part 0), and bytes after its controller table are not
 * taken for a part number. A 1.4 header cut before its part is damage.
 */
void test_minor_three(void)
{
	const char *path = tpath("v1.3.ntp");
	struct ntprof_record *recs = recs_make(2);
	struct bytes b = { 0 }, p = { 0 };
	const struct ntp_header *h;
	struct ntp_file *f;
	char err[256];
	bool good = false;
	int minor, ret;

	for (minor = 3; minor <= 4; minor++) {
		b.len = 0;
		p.len = 0;
		put_host_start(&b, minor);
		put_le(&b, 0, 4);	/* no hooks, devices, controllers */
		put_le(&b, 0, 4);
		put_le(&b, 0, 4);
		put(&b, "\x05\x00\x00", 3);	/* 3 bytes: no part of 1.4 */
		put_two_records(&b, &p, recs);
		spit(path, b.p, b.len);
		seed(path);

		ret = ntp_open(path, &f, err, sizeof(err));
		if (minor == 4) {
			ok(ret == -EBADMSG && strstr(err, "part number truncated"),
			   "a 1.4 header cut before its part is damaged (%d %s)",
			   ret, ret ? err : "");
			if (!ret)
				ntp_close(f);
			break;
		}
		if (!ret) {
			const struct ntprof_record *block;
			size_t n;

			h = ntp_header(f);
			good = h->version_minor == 3 && h->part == 0 &&
			       h->part_start_mono_ns == 0 &&
			       ntp_next_block(f, &block, &n) == 1 && n == 2 &&
			       same_records(block, recs, 2);
			ntp_close(f);
		}
		ok(good, "a 1.3 file reads as one file, part 0 (%d %s)", ret,
		   ret ? err : "");
	}
	free(b.p);
	free(p.p);
	free(recs);
}

/*
 * A file of format 1.0, which has no device table: it reads, without
 * devices, and bytes after its hooks are not taken for a device table.
 */
void test_minor_zero(void)
{
	const char *path = tpath("v1.0.ntp");
	struct ntprof_record *recs = recs_make(2);
	struct bytes b = { 0 }, p = { 0 };
	struct ntp_file *f;
	const struct ntp_header *h;
	char err[256];
	bool good = false;
	int ret;

	put_host_start(&b, 0);
	put_le(&b, 0, 4);	/* no hooks */
	put_le(&b, 0xffffffff, 4);	/* not a device count in 1.0 */
	put_le(&b, 0xffffffff, 4);	/* nor a controller count */
	put_two_records(&b, &p, recs);
	spit(path, b.p, b.len);
	seed(path);

	ret = ntp_open(path, &f, err, sizeof(err));
	if (!ret) {
		const struct ntprof_record *block;
		size_t n;

		h = ntp_header(f);
		good = h->version_minor == 0 && h->nr_devs == 0 && !h->devs &&
		       h->nr_ctrls == 0 && !h->ctrls &&
		       ntp_next_block(f, &block, &n) == 1 && n == 2 &&
		       same_records(block, recs, 2);
		ntp_close(f);
	}
	ok(good, "a 1.0 file reads, with no devices or controllers (%d %s)", ret,
	   ret ? err : "");
	free(b.p);
	free(p.p);
	free(recs);
}
