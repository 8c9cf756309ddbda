// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the .ntp recording format (tools/ntprof/lib/ntp/ntp_write.c,
 * ntp_read.c) in what every version has: round trips, the byte layout of
 * format 1.4 against Documentation/ntp-format.rst, files of 1.0, 1.3 and
 * a newer minor, recordings cut short at every byte, and damaged files,
 * each of which must give one exact message. test_ntp2.c tests what 2.0
 * changed, its compact records in blocks; ntp_test.c has what both
 * share, and how files the writer would never produce are built.
 * Prints TAP; exits 1 if any test failed.
 *
 * usage: test_ntp [--seeds DIR]   (DIR: also keep the files for fuzzing)
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "ntp/ntp.h"
#include "ntp_test.h"
#include "tap.h"

static void test_round_trip(void)
{
	/* 2500 records in uneven appends, a flush, then 10 more. */
	static const size_t appends[] = { 1, 7, 1000, 1492 };
	static const size_t want_blocks[] = { 1024, 1024, 452, 10 };
	const char *path = tpath("rt.ntp");
	struct ntprof_record *recs = recs_make(2510);
	struct ntp_header h;
	struct ntp_writer *w;
	struct result r;
	size_t i, n = 0;
	int ret, all;

	hdr_make(&h);
	ret = ntp_writer_open(path, &h, &w);
	ok(ret == 0 && !strcmp(ntp_writer_path(w), path),
	   "the writer opens a new file (%d)", ret);
	if (ret)
		return;
	for (i = 0; i < 4 && !ret; i++) {
		ret = ntp_writer_append(w, recs + n, appends[i]);
		n += appends[i];
	}
	if (!ret)
		ret = ntp_writer_flush(w);
	if (!ret)
		ret = ntp_writer_append(w, recs + n, 10);
	ret = ntp_writer_close(w, &trailer_in) ?: ret;
	ok(ret == 0, "2510 records append, flush and close (%d)", ret);

	for (all = 0; all < 2; all++) {
		const char *how = all ? "ntp_read_all" : "ntp_next_block";

		read_file(path, all, &r);
		ok(r.ret == 0 && r.msg[0] == 0,
		   "%s reads it to the end (%d %s)", how, r.ret, r.msg);
		ok(r.n == 2510 && same_records(r.recs, recs, 2510),
		   "%s: all 2510 records come back as written (%zu)", how, r.n);
		ok(r.has_trailer && r.trailer.records == 2510 &&
		   r.trailer.drops == 3 && r.trailer.evictions == 2 &&
		   r.trailer.end_mono_ns == trailer_in.end_mono_ns &&
		   r.trailer.end_real_ns == trailer_in.end_real_ns &&
		   r.discarded == 0,
		   "%s: the trailer, with the writer's count of records", how);
		free(r.recs);
	}
	ok(r.nblocks == 0, "ntp_read_all leaves the block list alone");
	read_file(path, false, &r);
	free(r.recs);
	ok(r.nblocks == 4 &&
	   !memcmp(r.blocks, want_blocks, sizeof(want_blocks)),
	   "full blocks of %d records, a flushed one, the last at close (%zu %zu %zu %zu)",
	   NTP_BLOCK_RECORDS, r.blocks[0], r.blocks[1], r.blocks[2],
	   r.blocks[3]);

	ok(r.hdr.version_major == 2 && r.hdr.version_minor == 3 &&
	   r.hdr.record_size == 0,
	   "the header has the version %u.%u and record size %u (compact)",
	   r.hdr.version_major, r.hdr.version_minor, r.hdr.record_size);
	ok(r.hdr.role == h.role && r.hdr.transport == h.transport &&
	   r.hdr.sample == h.sample && r.hdr.nr_cpus == h.nr_cpus &&
	   r.hdr.start_mono_ns == h.start_mono_ns &&
	   r.hdr.start_real_ns == h.start_real_ns &&
	   r.hdr.part == h.part &&
	   r.hdr.part_start_mono_ns == h.part_start_mono_ns,
	   "role, transport, sample, CPUs, start times and part come back");
	ok(r.hdr.chain == 1 && r.hdr.chain_offset == 264192,
	   "the chain rule and its offset come back (%u %llu)", r.hdr.chain,
	   (unsigned long long)r.hdr.chain_offset);
	ok(!strcmp(r.hdr.hostname, h.hostname) &&
	   !strcmp(r.hdr.kernel_release, h.kernel_release) &&
	   !strcmp(r.hdr.boot_id, h.boot_id) &&
	   !strcmp(r.hdr.tool_version, h.tool_version),
	   "the strings come back, a host name of the longest length too");

	{
		struct ntp_file *f;
		char err[256];
		const struct ntp_header *fh;
		bool same = false;

		if (!ntp_open(path, &f, err, sizeof(err))) {
			fh = ntp_header(f);
			same = fh->nr_hooks == 3;
			for (i = 0; same && i < 3; i++)
				same = !memcmp(&fh->hooks[i], &hooks[i],
					       sizeof(hooks[i]));
			ntp_close(f);
		}
		ok(same, "the three hooks come back, names of 255 bytes too");

		same = false;
		if (!ntp_open(path, &f, err, sizeof(err))) {
			fh = ntp_header(f);
			same = fh->nr_devs == 3;
			for (i = 0; same && i < 3; i++)
				same = !memcmp(&fh->devs[i], &devs[i],
					       sizeof(devs[i]));
			ntp_close(f);
		}
		ok(same, "the three devices come back, a name of %d bytes too",
		   NTP_DEV_NAME_MAX);

		same = false;
		if (!ntp_open(path, &f, err, sizeof(err))) {
			fh = ntp_header(f);
			same = fh->nr_ctrls == 2;
			for (i = 0; same && i < 2; i++)
				same = !memcmp(&fh->ctrls[i], &ctrls[i],
					       sizeof(ctrls[i]));
			ntp_close(f);
		}
		ok(same, "the two controllers come back, the longest strings too");
	}
	free(recs);
}

/*
 * A file of format 1.4, the last of fixed-size records, as the writer
 * still writes it for the tests that keep files of every version.
 */
static void test_layout(void)
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

/* Since 1.2: the devices named after the start, in the trailer. */
static void test_late_devs(void)
{
	const char *path = tpath("late.ntp");
	struct ntprof_record *recs = recs_make(2);
	struct ntp_dev late[2] = { { .dev = 259 << 8 | 7 } };
	struct ntp_trailer t = trailer_in;
	const struct ntp_trailer *got;
	struct ntp_header h;
	struct ntp_writer *w;
	struct ntprof_record *back;
	struct ntp_file *f;
	char err[256];
	size_t n;
	int ret;

	strcpy(late[0].name, "nvme3n1");
	late[1].dev = 8 << 8 | 16;
	memset(late[1].name, 'x', NTP_DEV_NAME_MAX);
	t.late_devs = late;
	t.nr_late_devs = 2;
	hdr_make(&h);
	ret = ntp_writer_open(path, &h, &w);
	if (!ret) {
		ret = ntp_writer_append(w, recs, 2);
		ret = ntp_writer_close(w, &t) ?: ret;
	}
	ok(ret == 0, "a trailer with two devices named late is written (%d)", ret);
	ret = ntp_open(path, &f, err, sizeof(err));
	if (!ok(!ret, "it opens (%s)", ret ? err : ""))
		return;
	ret = ntp_read_all(f, &back, &n);
	got = ntp_trailer(f);
	ok(!ret && n == 2 && got && got->nr_late_devs == 2 &&
	   !memcmp(&got->late_devs[0], &late[0], sizeof(late[0])) &&
	   !memcmp(&got->late_devs[1], &late[1], sizeof(late[1])),
	   "they come back, a name of %d bytes too", NTP_DEV_NAME_MAX);
	free(back);
	ntp_close(f);
	free(recs);
}

/*
 * Since 1.3: the hooks of processes found after the start, in the
 * trailer after its device table; with no late device, a table of 0.
 */
static void test_late_hooks(void)
{
	const char *path = tpath("late-hooks.ntp");
	struct ntprof_record *recs = recs_make(1);
	struct ntp_hook late[2] = {
		{ .kind = NTPROF_HOOK_AGENT, .role = NTPROF_ROLE_TARGET,
		  .transport = NTPROF_TRANSPORT_TCP,
		  .point = NTPROF_PT_TARGET_INIT, .required = 1,
		  .state = NTPROF_HOOK_ATTACHED,
		  .name = "pid 4242: spdk_nvmf_request_exec" },
		{ .kind = NTPROF_HOOK_AGENT, .role = NTPROF_ROLE_TARGET,
		  .point = NTPROF_PT_TARGET_COMPLETE,
		  .state = NTPROF_HOOK_MISSING },
	};
	struct ntp_trailer t = trailer_in;
	const struct ntp_trailer *got;
	struct ntprof_record *back;
	struct ntp_header h;
	struct ntp_writer *w;
	struct ntp_file *f;
	char err[256];
	size_t n;
	int ret;

	memset(late[1].name, 'y', NTP_HOOK_NAME_MAX);
	t.late_hooks = late;
	t.nr_late_hooks = 2;
	hdr_make(&h);
	ret = ntp_writer_open(path, &h, &w);
	if (!ret) {
		ret = ntp_writer_append(w, recs, 1);
		ret = ntp_writer_close(w, &t) ?: ret;
	}
	ok(ret == 0, "a trailer with two hooks found late is written (%d)", ret);
	ret = ntp_open(path, &f, err, sizeof(err));
	if (!ok(!ret, "it opens (%s)", ret ? err : ""))
		return;
	ret = ntp_read_all(f, &back, &n);
	got = ntp_trailer(f);
	ok(!ret && n == 1 && got && got->nr_late_devs == 0 &&
	   got->nr_late_hooks == 2 &&
	   !memcmp(&got->late_hooks[0], &late[0], sizeof(late[0])) &&
	   !memcmp(&got->late_hooks[1], &late[1], sizeof(late[1])),
	   "they come back after an empty device table, a name of %d bytes too",
	   NTP_HOOK_NAME_MAX);
	free(back);
	ntp_close(f);
	free(recs);
}

/* A file of format 1.7, with everything a newer minor may add. */
static void test_newer_minor(void)
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
static void test_minor_three(void)
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
static void test_minor_zero(void)
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

static void test_cut_short(void)
{
	static const size_t blocks[] = { 3, 2, 4 };
	const char *path = tpath("cut.ntp");
	struct ntprof_record *recs;
	uint64_t end, want_end;
	size_t len, n, want;
	bool good = true;
	struct layout l;
	struct result r;
	uint8_t *buf;
	int all;

	recs = write_blocks(path, blocks, 3, false, &n);
	seed(path);
	buf = slurp(path, &len);
	layout(buf, len, &l);
	/* From the end down, so each cut is a truncate() of the last. */
	for (end = len - 1; good && end >= l.unit[2]; end--) {
		if (truncate(path, end))
			die("truncate");
		want = end < l.unit[3] ? 5 : 9;
		want_end = end < l.unit[3] ? l.unit[2] : l.unit[3];
		if (end == l.unit[3] - 100 || end == l.unit[3] + 30)
			seed(path);
		for (all = 0; good && all < 2; all++) {
			read_file(path, all, &r);
			good = r.ret == 0 && r.n == want && !r.has_trailer &&
			       same_records(r.recs, recs, want) &&
			       r.discarded == end - want_end;
			if (!good) {
				diag("cut at %llu of %zu, %s: %d \"%s\"",
				     (unsigned long long)end, len,
				     all ? "ntp_read_all" : "ntp_next_block",
				     r.ret, r.msg);
				diag("%zu records, trailer %d, %llu discarded",
				     r.n, r.has_trailer,
				     (unsigned long long)r.discarded);
			}
			free(r.recs);
		}
	}
	ok(good, "cut at each of the %zu bytes of the last block and trailer: %s",
	   len - l.unit[2], "the whole blocks, no trailer");

	good = true;
	for (end = l.hdr_len - 1; good && end > 0; end--) {
		if (truncate(path, end))
			die("truncate");
		good = fails_with(path, -EBADMSG, "header truncated");
		if (!good)
			diag("cut at %llu", (unsigned long long)end);
	}
	ok(good, "cut at each of the %zu bytes of the header: \"header truncated\"",
	   l.hdr_len - 1);
	if (truncate(path, 0))
		die("truncate");
	ok(fails_with(path, -EBADMSG, "empty file, not an ntprof recording"),
	   "an empty file: \"empty file, not an ntprof recording\"");

	/* What the writer leaves when it is gone before ntp_writer_close(). */
	free(recs);
	recs = write_blocks(path, blocks, 3, true, &n);
	seed(path);
	read_file(path, true, &r);
	ok(r.ret == 0 && r.n == 9 && !r.has_trailer && r.discarded == 0,
	   "closed without a trailer: all records, no trailer (%d %s)",
	   r.ret, r.msg);
	free(r.recs);
	free(buf);
	free(recs);
}

static void bad_magic(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	(void)l;
	b[3] = 'X';
}

static void text_file(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)l;
	*len = sprintf((char *)b, "hello\n");
}

static void newer_major(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	(void)l;
	/* A newer major may change anything after the version. */
	memset(b + 8, 0xee, 64);
	b[8] = 3;
	b[9] = 0;
}

static void major_zero(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	(void)l;
	b[8] = 0;
}

static void header_len_huge(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	(void)l;
	wr32(b + 12, 0xffffffff);
}

static void header_len_tiny(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	(void)l;
	wr32(b + 12, 20);
}

static void header_len_past_end(uint8_t *b, size_t *len,
				const struct layout *l)
{
	*len = l->hdr_len;
	wr32(b + 12, l->hdr_len + 1);
}

static void header_byte(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	b[l->hdr_len / 2] ^= 0x01;
}

static void hooks_huge(uint8_t *b, size_t *len, const struct layout *l)
{
	/* The hook count sits before the three hook entries. */
	size_t off = l->hdr_len - 4 - TAIL_LEN - CTRLS_LEN - DEVS_LEN - HOOKS_LEN;

	(void)len;
	wr32(b + off, 0xffffffff);
	fix_header(b);
}

static void hooks_overrun(uint8_t *b, size_t *len, const struct layout *l)
{
	size_t off = l->hdr_len - 4 - TAIL_LEN - CTRLS_LEN - DEVS_LEN - HOOKS_LEN;

	(void)len;
	wr32(b + off, 1000);
	fix_header(b);
}

static void hook_name_huge(uint8_t *b, size_t *len, const struct layout *l)
{
	/* The last hook's name grows to 300 bytes; the blocks go. */
	size_t off = l->hdr_len - 4 - TAIL_LEN - CTRLS_LEN - DEVS_LEN - (10 + 255);

	b[off] = (10 + 300) & 0xff;
	b[off + 1] = (10 + 300) >> 8;
	b[off + 8] = 300 & 0xff;
	b[off + 9] = 300 >> 8;
	memset(b + off + 10, 'x', 300);
	*len = off + 10 + 300 + 4;
	wr32(b + 12, *len);
	fix_header(b);
}

/* The device table's count, and its entries after it. */
static size_t devs_at(const struct layout *l)
{
	return l->hdr_len - 4 - TAIL_LEN - CTRLS_LEN - DEVS_LEN;
}

/* The controller table's count, and its entries after it. */
static size_t ctrls_at(const struct layout *l)
{
	return l->hdr_len - 4 - TAIL_LEN - CTRLS_LEN;
}

static void devs_huge(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	wr32(b + devs_at(l), 0xffffffff);
	fix_header(b);
}

static void devs_overrun(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	wr32(b + devs_at(l), 102);	/* room for 101 empty entries */
	fix_header(b);
}

/* A 1.1 header that ends after its hooks, without the device count. */
static void devs_missing(uint8_t *b, size_t *len, const struct layout *l)
{
	size_t off = devs_at(l);

	*len = off + 4;
	wr32(b + 12, *len);
	fix_header(b);
}

static void dev_entry_short(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	b[devs_at(l) + 4 + 15] = 7;	/* the second entry's length */
	fix_header(b);
}

static void dev_name_overrun(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	b[devs_at(l) + 4 + 6] = 8;	/* the first name, past its entry */
	fix_header(b);
}

static void dev_name_nul(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	b[devs_at(l) + 4 + 15 + 8 + 4] = 0;	/* "nvme\0..." */
	fix_header(b);
}

static void dev_name_huge(uint8_t *b, size_t *len, const struct layout *l)
{
	/* The last device's name grows to 64 bytes; the rest goes. */
	size_t off = ctrls_at(l) - (8 + 63);

	b[off] = 8 + 64;
	b[off + 6] = 64;
	memset(b + off + 8, 'd', 64);
	*len = off + 8 + 64 + 4;
	wr32(b + 12, *len);
	fix_header(b);
}

static void dev_last_overrun(uint8_t *b, size_t *len, const struct layout *l)
{
	/* The last device's entry claims 10 bytes past the header's end. */
	size_t off = ctrls_at(l) - (8 + 63);
	size_t entry = 8 + 63 + CTRLS_LEN + TAIL_LEN + 10;

	(void)len;
	b[off] = entry & 0xff;
	b[off + 1] = entry >> 8;
	fix_header(b);
}

static void ctrls_huge(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	wr32(b + ctrls_at(l), 0xffffffff);
	fix_header(b);
}

static void ctrls_overrun(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	wr32(b + ctrls_at(l), 37);	/* room for 36 empty entries */
	fix_header(b);
}

static void ctrl_entry_short(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	b[ctrls_at(l) + 4] = 18;
	fix_header(b);
}

static void ctrl_nqn_overrun(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	b[ctrls_at(l) + 4 + 20] = 200;	/* past the first entry's end */
	fix_header(b);
}

static void ctrl_name_nul(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	b[ctrls_at(l) + 4 + 15 + 2] = 0;	/* "nv\0me0" */
	fix_header(b);
}

static void ctrl_addr_huge(uint8_t *b, size_t *len, const struct layout *l)
{
	/* The last controller's address grows to 256 bytes. */
	size_t off = l->hdr_len - 4 - TAIL_LEN - CTRL1_LEN;

	b[off] = (CTRL1_LEN + 1) & 0xff;
	b[off + 1] = (CTRL1_LEN + 1) >> 8;
	b[off + 335] = 0;
	b[off + 336] = 1;
	memset(b + off + 337, 'a', 256);
	*len = off + CTRL1_LEN + 1 + 4;
	wr32(b + 12, *len);
	fix_header(b);
}

static void hostname_huge(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	(void)l;
	b[48] = 0xff;
	b[49] = 0xff;
	fix_header(b);
}

static void record_size_huge(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	(void)l;
	wr32(b + 16, 0xffffffff);
	fix_header(b);
}

static void record_size_small(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	(void)l;
	wr32(b + 16, 231);
	fix_header(b);
}

static void payload_byte(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	b[l->unit[1] + 24 + 100] ^= 0x80;
}

static void block_header_byte(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	b[l->unit[1] + 9] ^= 0x04;	/* the count */
}

static void block_len_huge(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	wr32(b + l->unit[1] + 8, 0xffffffff);
	wr32(b + l->unit[1] + 12, 0xffffffff);
	fix_unit(b, l->unit[1], false);
}

static void block_count_wrong(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	wr32(b + l->unit[1] + 8, 0x40000001);	/* * 232 wraps in 32 bits */
	fix_unit(b, l->unit[1], false);
}

static void block_repeated(uint8_t *b, size_t *len, const struct layout *l)
{
	size_t n = l->unit[1] - l->unit[0];

	/* Block 0 again where block 1 should be. */
	memmove(b + l->unit[1] + n, b + l->unit[1], *len - l->unit[1]);
	memcpy(b + l->unit[1], b + l->unit[0], n);
	*len += n;
}

static void trailer_byte(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	b[l->unit[l->units - 1] + 24 + 9] ^= 0x10;
}

static void trailer_count(uint8_t *b, size_t *len, const struct layout *l)
{
	size_t t = l->unit[l->units - 1];

	(void)len;
	wr32(b + t + 24, 8);
	fix_unit(b, t, true);
}

static void after_trailer(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)l;
	memcpy(b + *len, "junk", 4);
	*len += 4;
}

static void test_damaged(void)
{
	static const size_t blocks[] = { 3, 2, 4 };
	const char *path = tpath("good.ntp");
	struct ntprof_record *recs;
	struct layout l;
	struct result r;
	size_t len, n;
	uint8_t *good;

	recs = write_blocks(path, blocks, 3, false, &n);
	good = slurp(path, &len);
	layout(good, len, &l);

	ok(damaged(good, len, -EBADMSG, bad_magic,
		   "not an ntprof recording (bad magic)"),
	   "bad magic: \"not an ntprof recording (bad magic)\"");
	ok(damaged(good, len, -EBADMSG, text_file,
		   "not an ntprof recording (bad magic)"),
	   "a text file shorter than a header: bad magic");
	ok(damaged(good, len, -ENOTSUP, newer_major,
		   "format version 3 is newer than this tool reads (2)"),
	   "format version 3: \"format version 3 is newer than this tool reads (2)\"");
	ok(damaged(good, len, -EBADMSG, major_zero,
		   "format version 0 does not exist"),
	   "format version 0 is rejected");
	ok(damaged(good, len, -EBADMSG, header_len_huge,
		   "header length 4294967295 is too long"),
	   "a header length of 4 GiB is rejected before any allocation");
	ok(damaged(good, len, -EBADMSG, header_len_tiny,
		   "header length 20 is too short"),
	   "a header length below the fixed part is rejected");
	ok(damaged(good, len, -EBADMSG, header_len_past_end,
		   "header truncated"),
	   "a header length past the end of the file: \"header truncated\"");
	ok(damaged(good, len, -EBADMSG, header_byte,
		   "header checksum mismatch"),
	   "a flipped bit in the header: \"header checksum mismatch\"");
	ok(damaged(good, len, -EBADMSG, hooks_huge,
		   "header: 4294967295 hooks, more than 1024"),
	   "a hook count of 2^32-1 is rejected before any allocation");
	ok(damaged(good, len, -EBADMSG, hooks_overrun,
		   "header: 1000 hooks overrun the header"),
	   "1000 hooks in a header that has room for 30: rejected before allocating");
	ok(damaged(good, len, -EBADMSG, hook_name_huge,
		   "header: hook 2: name is 300 bytes, more than 255"),
	   "a hook name of 300 bytes is rejected");
	ok(damaged(good, len, -EBADMSG, devs_huge,
		   "header: 4294967295 devices, more than %d", NTP_DEVS_MAX),
	   "a device count of 2^32-1 is rejected before any allocation");
	ok(damaged(good, len, -EBADMSG, devs_overrun,
		   "header: 102 devices overrun the header"),
	   "102 devices in a header that has room for 101: rejected before allocating");
	ok(damaged(good, len, -EBADMSG, devs_missing,
		   "header: device count overruns the header"),
	   "a 1.1 header without its device table is rejected");
	ok(damaged(good, len, -EBADMSG, dev_entry_short,
		   "header: device 1: entry length 7 is too short"),
	   "a device entry shorter than its fixed part is rejected");
	ok(damaged(good, len, -EBADMSG, dev_name_overrun,
		   "header: device 0: name overruns its entry"),
	   "a device name longer than its entry is rejected");
	ok(damaged(good, len, -EBADMSG, dev_name_nul,
		   "header: device 1: name contains a NUL byte"),
	   "a device name with a NUL byte is rejected");
	ok(damaged(good, len, -EBADMSG, dev_name_huge,
		   "header: device 2: name is 64 bytes, more than %d",
		   NTP_DEV_NAME_MAX),
	   "a device name of 64 bytes is rejected");
	ok(damaged(good, len, -EBADMSG, dev_last_overrun,
		   "header: device 2 overruns the header"),
	   "a device entry past the header's end is rejected");
	ok(damaged(good, len, -EBADMSG, ctrls_huge,
		   "header: 4294967295 controllers, more than %d",
		   NTP_CTRLS_MAX),
	   "a controller count of 2^32-1 is rejected before any allocation");
	ok(damaged(good, len, -EBADMSG, ctrls_overrun,
		   "header: 37 controllers overrun the header"),
	   "37 controllers in a header that has room for 36: rejected before allocating");
	ok(damaged(good, len, -EBADMSG, ctrl_entry_short,
		   "header: controller 0: entry length 18 is too short"),
	   "a controller entry shorter than its fixed part is rejected");
	ok(damaged(good, len, -EBADMSG, ctrl_nqn_overrun,
		   "header: controller 0: subsystem NQN overruns its entry"),
	   "a subsystem NQN longer than its entry is rejected");
	ok(damaged(good, len, -EBADMSG, ctrl_name_nul,
		   "header: controller 0: name contains a NUL byte"),
	   "a controller name with a NUL byte is rejected");
	ok(damaged(good, len, -EBADMSG, ctrl_addr_huge,
		   "header: controller 1: address is 256 bytes, more than %d",
		   NTP_ADDR_MAX),
	   "an address of 256 bytes is rejected");
	ok(damaged(good, len, -EBADMSG, hostname_huge,
		   "header: hostname is 65535 bytes, more than 64"),
	   "a host name of 64 KiB is rejected");
	ok(damaged(good, len, -EBADMSG, payload_byte,
		   "block 1 at offset %zu: checksum mismatch", l.unit[1]),
	   "a flipped bit in block 1's records: \"block 1 at offset %zu: checksum mismatch\"",
	   l.unit[1]);
	ok(damaged(good, len, -EBADMSG, block_header_byte,
		   "block 1 at offset %zu: header checksum mismatch", l.unit[1]),
	   "a flipped bit in block 1's count: a header checksum mismatch, not a cut");
	ok(damaged(good, len, -EBADMSG, block_len_huge,
		   "block 1 at offset %zu: length 4294967295 is too long",
		   l.unit[1]),
	   "a block length of 4 GiB is rejected, not taken for a cut");
	ok(damaged(good, len, -EBADMSG, block_repeated,
		   "block 1 at offset %zu: out of sequence (numbered 0)",
		   l.unit[1]),
	   "a block repeated is out of sequence");
	ok(damaged(good, len, -EBADMSG, trailer_byte,
		   "trailer at offset %zu: checksum mismatch", l.unit[3]),
	   "a flipped bit in the trailer: a checksum mismatch");
	ok(damaged(good, len, -EBADMSG, trailer_count,
		   "the trailer counts 8 records, the blocks hold 9"),
	   "a trailer that disagrees with the blocks is rejected");
	ok(damaged(good, len, -EBADMSG, after_trailer,
		   "4 bytes after the trailer"),
	   "bytes after the trailer are rejected");

	/* What a reader of a damaged file still gets, and keeps getting. */
	{
		const struct ntprof_record *block;
		const char *bad = tpath("bad.ntp");
		struct ntp_file *f;
		uint8_t *buf = malloc(len);
		char err[256];
		int ret1, ret2 = 0, ret3 = 0;

		if (!buf)
			die("malloc");
		memcpy(buf, good, len);
		payload_byte(buf, &len, &l);
		spit(bad, buf, len);
		read_file(bad, true, &r);
		ok(r.ret == -EBADMSG && r.n == 3 &&
		   same_records(r.recs, recs, 3),
		   "ntp_read_all returns the records before the bad block (%zu)",
		   r.n);
		free(r.recs);
		ret1 = ntp_open(bad, &f, err, sizeof(err));
		if (!ret1) {
			ret1 = ntp_next_block(f, &block, &n);
			ret2 = ntp_next_block(f, &block, &n);
			ret3 = ntp_next_block(f, &block, &n);
			ntp_close(f);
		}
		ok(ret1 == 1 && ret2 == -EBADMSG && ret3 == -EBADMSG && n == 0,
		   "errors stick: block 0, then the error, again (%d %d %d)",
		   ret1, ret2, ret3);
		free(buf);
	}
	free(good);
	free(recs);
}

/* What only format 1.x has: a size for every record, in the header. */
static void test_damaged_1x(void)
{
	static const size_t blocks[] = { 3, 2, 4 };
	const char *path = tpath("good14.ntp");
	struct ntprof_record *recs;
	struct layout l;
	size_t len, n;
	uint8_t *good;

	recs = write_blocks_format(path, 1, 4, blocks, 3, false, &n);
	good = slurp(path, &len);
	layout(good, len, &l);
	ok(damaged(good, len, -EBADMSG, record_size_huge,
		   "header: record size 4294967295 is more than 4096"),
	   "1.4: a record size of 4 GiB is rejected");
	ok(damaged(good, len, -EBADMSG, record_size_small,
		   "header: record size 231 is less than 232"),
	   "1.4: a record size below format 1's is rejected");
	ok(damaged(good, len, -EBADMSG, block_count_wrong,
		   "block 1 at offset %zu: 1073741825 records do not make 464 bytes",
		   l.unit[1]),
	   "1.4: a record count that does not match the length is rejected");
	free(good);
	free(recs);
}

static void test_open_errors(void)
{
	char err[256], want[512];
	struct ntp_file *f;
	int ret;

	ret = ntp_open(tpath("nosuch.ntp"), &f, err, sizeof(err));
	snprintf(want, sizeof(want), "%s: %s", tpath("nosuch.ntp"),
		 strerror(ENOENT));
	ok(ret == -ENOENT && !strcmp(err, want),
	   "a missing file: -ENOENT and \"<path>: %s\" (%s)", strerror(ENOENT),
	   err);
	ret = ntp_open(scratch, &f, err, sizeof(err));
	snprintf(want, sizeof(want), "%s: not a regular file", scratch);
	ok(ret == -EINVAL && !strcmp(err, want),
	   "a directory: \"not a regular file\" (%s)", err);
}

static void test_writer_errors(void)
{
	struct ntprof_record *recs = recs_make(NTP_BLOCK_RECORDS);
	const char *path = tpath("limit.ntp");
	struct ntp_writer *w;
	struct rlimit old, lim;
	struct ntp_header h;
	struct result r;
	int ret, ret2, ret3;

	hdr_make(&h);
	ret = ntp_writer_open(tpath("nosuch/x.ntp"), &h, &w);
	ok(ret == -ENOENT, "a file in a missing directory: -ENOENT (%d)", ret);

	memset(h.hostname, 'h', sizeof(h.hostname));
	ret = ntp_writer_open(path, &h, &w);
	ok(ret == -EINVAL, "a host name that does not fit: -EINVAL (%d)", ret);
	hdr_make(&h);
	memset(hooks[1].name, 'n', sizeof(hooks[1].name));
	ret = ntp_writer_open(path, &h, &w);
	ok(ret == -EINVAL, "a hook name that does not fit: -EINVAL (%d)", ret);
	hdr_make(&h);
	h.nr_hooks = NTP_HOOKS_MAX + 1;
	ret = ntp_writer_open(path, &h, &w);
	ok(ret == -EINVAL, "more than %d hooks: -EINVAL (%d)", NTP_HOOKS_MAX,
	   ret);
	hdr_make(&h);
	h.nr_devs = NTP_DEVS_MAX + 1;
	ret = ntp_writer_open(path, &h, &w);
	ok(ret == -EINVAL, "more than %d devices: -EINVAL (%d)", NTP_DEVS_MAX,
	   ret);
	hdr_make(&h);
	memset(devs[0].name, 'n', sizeof(devs[0].name));
	ret = ntp_writer_open(path, &h, &w);
	ok(ret == -EINVAL, "a device name that does not fit: -EINVAL (%d)",
	   ret);
	hdr_make(&h);
	h.nr_ctrls = NTP_CTRLS_MAX + 1;
	ret = ntp_writer_open(path, &h, &w);
	ok(ret == -EINVAL, "more than %d controllers: -EINVAL (%d)",
	   NTP_CTRLS_MAX, ret);
	hdr_make(&h);
	memset(ctrls[1].subsysnqn, 'n', sizeof(ctrls[1].subsysnqn));
	ret = ntp_writer_open(path, &h, &w);
	ok(ret == -EINVAL, "an NQN that does not fit: -EINVAL (%d)", ret);
	hdr_make(&h);
	{
		/* Full tables of the longest entries make more than 1 MiB. */
		struct ntp_ctrl *big = calloc(NTP_CTRLS_MAX, sizeof(*big));
		int k;

		if (!big)
			die("calloc");
		for (k = 0; k < NTP_CTRLS_MAX; k++)
			big[k] = ctrls[1];
		h.nr_ctrls = NTP_CTRLS_MAX;
		h.ctrls = big;
		ret = ntp_writer_open(path, &h, &w);
		ok(ret == -EINVAL,
		   "a header of more than 1 MiB: -EINVAL (%d)", ret);
		free(big);
		hdr_make(&h);
	}

	if (access("/dev/full", W_OK)) {
		ok(true, "a full disk: -ENOSPC # SKIP no writable /dev/full");
	} else {
		ret = ntp_writer_open("/dev/full", &h, &w);
		ok(ret == -ENOSPC, "a full disk: -ENOSPC (%d)", ret);
	}

	/*
	 * A file size limit makes the block's write() short, then fail with
	 * EFBIG: the writer must report it and refuse to go on.
	 */
	if (getrlimit(RLIMIT_FSIZE, &old))
		die("getrlimit");
	signal(SIGXFSZ, SIG_IGN);
	ret = ntp_writer_open(path, &h, &w);
	if (ret) {
		errno = -ret;
		die("ntp_writer_open");
	}
	lim = old;
	lim.rlim_cur = 8192;
	if (setrlimit(RLIMIT_FSIZE, &lim))
		die("setrlimit");
	ret = ntp_writer_append(w, recs, NTP_BLOCK_RECORDS);
	ret2 = ntp_writer_append(w, recs, 1);
	ret3 = ntp_writer_close(w, &trailer_in);
	if (setrlimit(RLIMIT_FSIZE, &old))
		die("setrlimit");
	signal(SIGXFSZ, SIG_DFL);
	seed(path);
	ok(ret == -EFBIG && ret2 == -EFBIG && ret3 == -EFBIG,
	   "a short write is an error, and it sticks (%d %d %d)", ret, ret2,
	   ret3);
	read_file(path, true, &r);
	ok(r.ret == 0 && r.n == 0 && !r.has_trailer && r.discarded > 0,
	   "the file it leaves reads as cut short (%d %s, %llu discarded)",
	   r.ret, r.msg, (unsigned long long)r.discarded);
	free(r.recs);
	free(recs);
}

/*
 * A writer SIGKILLed at work, in blocks of 1 to 8 records: its file reads,
 * up to its last whole block, and says that it ended early.
 */
static void test_killed_writer(void)
{
	const char *path = tpath("killed.ntp");
	struct ntprof_record *recs = recs_make(8);
	size_t i = 0, k, blocks = 0;
	struct ntp_writer *w;
	struct ntp_header h;
	struct result r;
	bool same = true;
	pid_t pid;

	hdr_make(&h);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		if (ntp_writer_open(path, &h, &w))
			_exit(1);
		for (;; i = (i + 1) % 8)
			if (ntp_writer_append(w, recs, i + 1) ||
			    ntp_writer_flush(w))
				_exit(1);
	}
	/* Kill it at work, once it wrote some blocks, however slow it is. */
	for (i = 0; i < 10000; i++) {
		struct stat st;

		if (!stat(path, &st) && st.st_size > 64 * 1024)
			break;
		usleep(1000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	read_file(path, true, &r);
	/* Block k holds records 0 to k % 8. */
	for (i = 0; same && i < r.n; blocks++) {
		for (k = 0; same && k <= blocks % 8; k++, i++)
			same = i < r.n && !memcmp(&r.recs[i], &recs[k],
						  sizeof(*recs));
	}
	ok(r.ret == 0 && !r.has_trailer && blocks > 1 && same,
	   "a writer killed by SIGKILL leaves %zu whole blocks, no trailer (%d %s)",
	   blocks, r.ret, r.msg);
	free(r.recs);
	free(recs);
}

static void test_empty_recording(void)
{
	const char *path = tpath("empty.ntp");
	struct result r;
	size_t n;

	free(write_blocks(path, NULL, 0, false, &n));
	seed(path);
	read_file(path, true, &r);
	ok(r.ret == 0 && r.n == 0 && !r.recs && r.has_trailer &&
	   r.trailer.records == 0,
	   "a recording without records: none, and its trailer (%d %s)",
	   r.ret, r.msg);
}

static const struct tap_case cases[] = {
	{ "round_trip", test_round_trip },
	{ "layout", test_layout },
	{ "late_devs", test_late_devs },
	{ "late_hooks", test_late_hooks },
	{ "newer_minor", test_newer_minor },
	{ "minor_zero", test_minor_zero },
	{ "minor_three", test_minor_three },
	{ "cut_short", test_cut_short },
	{ "damaged", test_damaged },
	{ "damaged_1x", test_damaged_1x },
	{ "open_errors", test_open_errors },
	{ "writer_errors", test_writer_errors },
	{ "killed_writer", test_killed_writer },
	{ "empty_recording", test_empty_recording },
};

int main(int argc, char *argv[])
{
	int a = tap_args(argc, argv, cases, TAP_NR_CASES(cases));

	if (ntp_test_start(argc - a, argv + a, "test_ntp"))
		return 1;
	tap_run(cases, TAP_NR_CASES(cases));
	cleanup();

	return tap_done("test_ntp");
}
