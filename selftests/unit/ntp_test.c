// SPDX-License-Identifier: GPL-2.0
/*
 * What the .ntp format's tests share (ntp_test.h): files in a scratch
 * directory, bytes built by hand with their own little-endian code and
 * zlib's CRC-32, a header and records whose every field differs, and
 * reading a file to its end both ways.
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "ntp_test.h"
#include "tap.h"

/* The checks of every file of the program (tap.h). */
int tests, failed;

char scratch[256];
const char *seeds;
/* The test program's name, for its seeds' names. */
static const char *prog;

/* Removes the scratch directory and its files. */
static void cleanup(void)
{
	struct dirent *de;
	DIR *d = opendir(scratch);

	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.')
			unlink(tpath(de->d_name));
	if (d)
		closedir(d);
	rmdir(scratch);
}

void die(const char *what)
{
	printf("Bail out! %s: %s\n", what, strerror(errno));
	cleanup();
	exit(1);
}

uint8_t *slurp(const char *path, size_t *len)
{
	struct stat st;
	uint8_t *buf;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st))
		die(path);
	buf = malloc(st.st_size + 1);
	if (!buf || read(fd, buf, st.st_size) != st.st_size)
		die(path);
	close(fd);
	*len = st.st_size;
	return buf;
}

void spit(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || write(fd, buf, len) != (ssize_t)len || close(fd))
		die(path);
}

/*
 * With --seeds DIR, the files the tests make, the damaged ones too, are
 * also the fuzzer's seed corpus (selftests/fuzz/test_fuzz.sh): they reach
 * every corner of the reader, and no binary file needs to be in the tree.
 */
void seed(const char *path)
{
	static int n;
	char name[512];
	uint8_t *buf;
	size_t len;

	if (!seeds)
		return;
	buf = slurp(path, &len);
	/* The fuzzer's inputs are at most 8 KiB. */
	if (len <= 8192) {
		snprintf(name, sizeof(name), "%s/%s-%02d-%s", seeds, prog, n++,
			 strrchr(path, '/') + 1);
		spit(name, buf, len);
	}
	free(buf);
}

/* Little-endian by hand, independent of ntp_layout.h. */
uint32_t rd32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

void wr32(uint8_t *p, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++)
		p[i] = v >> (8 * i);
}

void put(struct bytes *b, const void *data, size_t len)
{
	if (b->len + len > b->cap) {
		b->cap = (b->len + len) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			die("realloc");
	}
	memcpy(b->p + b->len, data, len);
	b->len += len;
}

void put_le(struct bytes *b, uint64_t v, int size)
{
	uint8_t le[8];
	int i;

	for (i = 0; i < size; i++)
		le[i] = v >> (8 * i);
	put(b, le, size);
}

void put_str(struct bytes *b, const char *s)
{
	put_le(b, strlen(s), 2);
	put(b, s, strlen(s));
}

void put_header_start(struct bytes *b, const struct header_start *h)
{
	put(b, "\x89NTP\r\n\x1a\n", 8);
	put_le(b, h->major, 2);
	put_le(b, h->minor, 2);
	put_le(b, 0, 4);	/* the length, set by put_header_end() */
	put_le(b, h->record_size, 4);
	put_le(b, 1, 4);
	put_le(b, h->role, 1);
	put_le(b, h->transport, 1);
	put_le(b, 0, 2);
	put_le(b, h->nr_cpus, 4);
	put_le(b, 11, 8);
	put_le(b, 22, 8);
	put_str(b, h->hostname);
	put_str(b, h->release);
	put_str(b, "");
	put_str(b, h->tool_version);
}

void put_header_end(struct bytes *b)
{
	put_le(b, 0, 4);
	wr32(b->p + 12, b->len);
	fix_header(b->p);
}

void put_trailer_counts(struct bytes *p, uint64_t records, uint64_t drops,
			uint64_t evictions)
{
	put_le(p, records, 8);
	put_le(p, drops, 8);
	put_le(p, evictions, 8);
	put_le(p, 33, 8);
	put_le(p, 44, 8);
}

/*
 * A record's identity as the format's tables lay it out, role to dev:
 * the same bytes in the 1.x record and the compact one.
 */
void put_ident(struct bytes *b, const struct ntprof_record *r)
{
	put_le(b, r->role, 1);
	put_le(b, r->transport, 1);
	put_le(b, r->opcode, 1);
	put_le(b, r->flags, 1);
	put_le(b, r->qid, 2);
	put_le(b, r->cid, 2);
	put_le(b, r->nsid, 4);
	put_le(b, r->length, 4);
	put_le(b, r->slba, 8);
	put_le(b, r->status, 2);
	put_le(b, r->cntlid, 2);
	put_le(b, r->cpu_submit, 2);
	put_le(b, r->cpu_complete, 2);
	put_le(b, r->dev, 4);
}

/* A record as the format's table lays it out, padded to @size bytes. */
void put_record(struct bytes *b, const struct ntprof_record *r,
		       size_t size)
{
	size_t start = b->len;
	int i;

	put_ident(b, r);
	put_le(b, r->pid, 4);
	for (i = 0; i < NTPROF_RECORD_POINTS; i++)
		put_le(b, r->ts[i], 8);
	while (b->len < start + size)
		put_le(b, 0xaa, 1);
}

void put_unit(struct bytes *b, const char *tag, uint32_t seq,
		     uint32_t count, const void *payload, uint32_t len)
{
	uint8_t h[24];

	memcpy(h, tag, 4);
	wr32(h + 4, seq);
	wr32(h + 8, count);
	wr32(h + 12, len);
	wr32(h + 16, crc32(0, payload, len));
	wr32(h + 20, crc32(0, h, 20));
	put(b, h, sizeof(h));
	put(b, payload, len);
}

/* Recomputes the checksums after a test changed a field on purpose. */
void fix_header(uint8_t *buf)
{
	uint32_t len = rd32(buf + 12);

	wr32(buf + len - 4, crc32(0, buf, len - 4));
}

void set_record_size(uint8_t *buf, uint32_t size)
{
	wr32(buf + 16, size);
	fix_header(buf);
}

/* @payload: the payload's checksum too, when its length is true. */
void fix_unit(uint8_t *buf, size_t off, bool payload)
{
	if (payload)
		wr32(buf + off + 16,
		     crc32(0, buf + off + 24, rd32(buf + off + 12)));
	wr32(buf + off + 20, crc32(0, buf + off, 20));
}

void set_unit_count(uint8_t *buf, size_t off, uint32_t count)
{
	wr32(buf + off + 8, count);
	fix_unit(buf, off, false);
}

void layout(const uint8_t *buf, size_t len, struct layout *l)
{
	size_t off = rd32(buf + 12);

	l->hdr_len = off;
	l->units = 0;
	while (off + 24 <= len && l->units < 16) {
		l->unit[l->units++] = off;
		off += 24 + rd32(buf + off + 12);
	}
}

/* Every field of every record differs from its neighbours' and others'. */
void rec_make(struct ntprof_record *r, uint32_t i)
{
	int k;

	memset(r, 0, sizeof(*r));
	r->role = 1 + i % 2;
	r->transport = 4 + i % 3;
	r->opcode = 0x10 + i % 7;
	r->flags = 0x20 + i % 5;
	r->qid = i * 3;
	r->cid = i * 7 + 0x100;
	r->nsid = i ^ 0x5a5a5a5a;
	r->length = 4096 * (i % 64 + 1);
	r->slba = 0x0102030405060708ULL * (i + 1);
	r->status = 0x4000 + i;
	r->cntlid = 0x8001 + i;
	r->cpu_submit = 0x300 + i % 13;
	r->cpu_complete = 0x500 + i % 11;
	r->dev = 0x10300000 | i;
	r->pid = 0xf0000000 | i;
	for (k = 0; k < NTPROF_RECORD_POINTS; k++)
		r->ts[k] = 3600000000000ULL + i * 1000ULL + k * 11 +
			   ((uint64_t)k << 56);
}

struct ntprof_record *recs_make(size_t n)
{
	struct ntprof_record *r = calloc(n, sizeof(*r));
	size_t i;

	if (!r)
		die("calloc");
	for (i = 0; i < n; i++)
		rec_make(&r[i], i);
	return r;
}

struct ntp_hook hooks[3];
struct ntp_dev devs[3];
struct ntp_ctrl ctrls[2];

void hdr_make(struct ntp_header *h)
{
	memset(h, 0, sizeof(*h));
	h->role = NTPROF_ROLE_HOST;
	h->transport = NTPROF_TRANSPORT_TCP;
	h->sample = 10;
	h->nr_cpus = 8;
	h->start_mono_ns = 123456789012345ULL;
	h->start_real_ns = 1700000000123456789ULL;
	/* The third part of a rotated recording (1.4). */
	h->part = 3;
	h->part_start_mono_ns = 123456789999999ULL;
	/* The chain rule with md's data_offset of a 128 GiB member (2.1). */
	h->chain = 1;
	h->chain_offset = 264192;
	/* The longest host name there is. */
	memset(h->hostname, 'h', NTP_HOSTNAME_MAX);
	snprintf(h->kernel_release, sizeof(h->kernel_release),
		 "6.1.0-57-amd64");
	snprintf(h->boot_id, sizeof(h->boot_id),
		 "4f0e5c1a-9b8d-4e2f-a7c3-1d6b8e9f0a2c");
	snprintf(h->tool_version, sizeof(h->tool_version),
		 "0.1.0-12-gabcdef0-dirty");

	memset(hooks, 0, sizeof(hooks));
	snprintf(hooks[0].name, sizeof(hooks[0].name), "nvme_setup_cmd");
	hooks[0].kind = NTPROF_HOOK_TRACEPOINT;
	hooks[0].role = NTPROF_ROLE_HOST;
	hooks[0].point = NTPROF_PT_HOST_SETUP;
	hooks[0].required = 1;
	hooks[0].state = NTPROF_HOOK_ATTACHED;
	snprintf(hooks[1].name, sizeof(hooks[1].name), "nvme_tcp_queue_rq");
	hooks[1].kind = NTPROF_HOOK_FUNCTION;
	hooks[1].role = NTPROF_ROLE_HOST;
	hooks[1].transport = NTPROF_TRANSPORT_TCP;
	hooks[1].point = NTPROF_PT_HOST_QUEUE_RQ;
	hooks[1].state = NTPROF_HOOK_AVAILABLE;
	memset(hooks[2].name, 'x', NTP_HOOK_NAME_MAX);
	hooks[2].kind = NTPROF_HOOK_FUNCTION;
	hooks[2].role = NTPROF_ROLE_TARGET;
	hooks[2].transport = NTPROF_TRANSPORT_RDMA;
	hooks[2].point = NTPROF_PT_TARGET_SEND_DONE;
	hooks[2].state = NTPROF_HOOK_MISSING;
	h->nr_hooks = 3;
	h->hooks = hooks;

	memset(devs, 0, sizeof(devs));
	devs[0].dev = 259 << 8;		/* 259:0, a path disk */
	snprintf(devs[0].name, sizeof(devs[0].name), "nvme0n1");
	devs[1].dev = 0xfff00 | 0xfff00000;	/* 4095:1048320 */
	snprintf(devs[1].name, sizeof(devs[1].name), "nvme10n12");
	devs[2].dev = 0x12345678;
	memset(devs[2].name, 'd', NTP_DEV_NAME_MAX);
	h->nr_devs = 3;
	h->devs = devs;

	memset(ctrls, 0, sizeof(ctrls));
	ctrls[0].dev = 259 << 8;
	ctrls[0].nsid = 1;
	ctrls[0].cntlid = 0x1234;
	ctrls[0].transport = NTPROF_TRANSPORT_TCP;
	snprintf(ctrls[0].name, sizeof(ctrls[0].name), "nvme0");
	snprintf(ctrls[0].subsysnqn, sizeof(ctrls[0].subsysnqn),
		 "nqn.2026-11.io.ntprof.lab:tcp");
	snprintf(ctrls[0].address, sizeof(ctrls[0].address),
		 "traddr=10.77.0.1,trsvcid=4420");
	/* The longest strings, and values in every byte. */
	ctrls[1].nsid = 0xfffffffe;
	ctrls[1].cntlid = 0xfffe;
	ctrls[1].transport = 0xee;
	memset(ctrls[1].name, 'c', NTP_CTRL_NAME_MAX);
	memset(ctrls[1].subsysnqn, 'q', NTP_NQN_MAX);
	memset(ctrls[1].address, 'a', NTP_ADDR_MAX);
	h->nr_ctrls = 2;
	h->ctrls = ctrls;
}

const struct ntp_trailer trailer_in = {
	.records = 999,		/* the writer must put its own count */
	.drops = 3,
	.evictions = 2,
	.end_mono_ns = 123456789012345ULL + 5000000000ULL,
	.end_real_ns = 1700000000123456789ULL + 5000000000ULL,
};

/*
 * Writes @path with records 0.. in the block sizes @blocks[], flushing
 * after each, and the trailer unless @no_trailer. Returns the records.
 */
struct ntprof_record *write_blocks_format(const char *path,
					 unsigned int major,
					 unsigned int minor,
					 const size_t *blocks, int nblocks,
					 bool no_trailer, size_t *total)
{
	struct ntprof_record *recs;
	struct ntp_writer *w;
	struct ntp_header h;
	size_t n = 0;
	int i, ret;

	for (i = 0; i < nblocks; i++)
		n += blocks[i];
	recs = recs_make(n);
	hdr_make(&h);
	ret = ntp_writer_open_format(path, &h, major, minor, &w);
	if (ret) {
		errno = -ret;
		die("ntp_writer_open");
	}
	n = 0;
	for (i = 0; i < nblocks; i++) {
		ret = ntp_writer_append(w, recs + n, blocks[i]);
		if (!ret)
			ret = ntp_writer_flush(w);
		if (ret) {
			errno = -ret;
			die("ntp_writer_append");
		}
		n += blocks[i];
	}
	ret = ntp_writer_close(w, no_trailer ? NULL : &trailer_in);
	if (ret) {
		errno = -ret;
		die("ntp_writer_close");
	}
	*total = n;
	return recs;
}

struct ntprof_record *write_blocks(const char *path, const size_t *blocks,
				   int nblocks, bool no_trailer, size_t *total)
{
	return write_blocks_format(path, NTP_VERSION_MAJOR, NTP_VERSION_MINOR,
				   blocks, nblocks, no_trailer, total);
}

/*
 * The start of test program @name, given the @argc arguments @argv that
 * follow tap_args()'s options: [--seeds DIR] read, the scratch directory
 * made, TAP's first line. Returns 0, or 1 after the usage.
 */
static int ntp_test_start(int argc, char *argv[], const char *name)
{
	const char *tmp = getenv("TMPDIR");

	prog = name;
	if (argc == 2 && !strcmp(argv[0], "--seeds")) {
		seeds = argv[1];
	} else if (argc != 0) {
		fprintf(stderr, "usage: %s [-l] [-t NAME]... [--seeds DIR]\n",
			name);
		return 1;
	}
	snprintf(scratch, sizeof(scratch), "%s/%s.XXXXXX",
		 tmp && *tmp && strlen(tmp) < 200 ? tmp : "/tmp", name);
	if (!mkdtemp(scratch))
		die("mkdtemp");
	/* What passed stays on record should a test crash. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
	return 0;
}

int ntp_test_main(int argc, char *argv[], const char *name,
		  const struct tap_case *cases, size_t n)
{
	int a = tap_args(argc, argv, cases, n);

	if (ntp_test_start(argc - a, argv + a, name))
		return 1;
	tap_run(cases, n);
	cleanup();
	return tap_done(name);
}

/* Reads @path with ntp_read_all(), or block by block. */
void read_file(const char *path, bool all, struct result *r)
{
	const struct ntprof_record *block;
	struct ntp_file *f;
	size_t n;

	memset(r, 0, sizeof(*r));
	r->ret = ntp_open(path, &f, r->msg, sizeof(r->msg));
	if (r->ret)
		return;
	r->hdr = *ntp_header(f);
	r->hdr.hooks = NULL;
	if (all) {
		r->ret = ntp_read_all(f, &r->recs, &r->n);
	} else {
		while ((r->ret = ntp_next_block(f, &block, &n)) > 0) {
			r->recs = realloc(r->recs, (r->n + n) * sizeof(*block));
			if (!r->recs)
				die("realloc");
			memcpy(r->recs + r->n, block, n * sizeof(*block));
			r->n += n;
			if (r->nblocks < 64)
				r->blocks[r->nblocks++] = n;
		}
	}
	if (r->ret)
		snprintf(r->msg, sizeof(r->msg), "%s", ntp_error(f));
	if (ntp_trailer(f)) {
		r->has_trailer = true;
		r->trailer = *ntp_trailer(f);
	}
	r->discarded = ntp_discarded(f);
	ntp_close(f);
}

/* Both ways of reading @path fail with exactly "@path: @what". */
bool fails_with(const char *path, int err, const char *what)
{
	char want[512];
	struct result r;
	int all;

	snprintf(want, sizeof(want), "%s: %s", path, what);
	for (all = 0; all < 2; all++) {
		read_file(path, all, &r);
		free(r.recs);
		if (r.ret != err || strcmp(r.msg, want)) {
			diag("%s: got %d \"%s\"", all ? "ntp_read_all" :
			     "ntp_next_block", r.ret, r.msg);
			diag("want %d \"%s\"", err, want);
			return false;
		}
	}
	return true;
}

bool same_records(const struct ntprof_record *a,
			 const struct ntprof_record *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (memcmp(&a[i], &b[i], sizeof(*a))) {
			diag("record %zu differs", i);
			return false;
		}
	return true;
}

uint8_t *good_file(const char *name, unsigned int major, unsigned int minor,
		   size_t *len, struct layout *l, struct ntprof_record **recs)
{
	static const size_t blocks[] = { 3, 2, 4 };
	const char *path = tpath(name);
	struct ntprof_record *written;
	uint8_t *good;
	size_t n;

	written = write_blocks_format(path, major, minor, blocks, 3, false, &n);
	good = slurp(path, len);
	layout(good, *len, l);
	if (recs)
		*recs = written;
	else
		free(written);
	return good;
}

/* Copies the good file, lets @change damage it, and checks the message. */
bool damaged(const uint8_t *good, size_t len, int err,
		    void (*change)(uint8_t *buf, size_t *len,
				   const struct layout *l),
		    const char *fmt, ...)
{
	uint8_t *buf = malloc(len + 4096);
	const char *path = tpath("bad.ntp");
	char what[256];
	struct layout l;
	va_list ap;
	bool ret;

	if (!buf)
		die("malloc");
	memcpy(buf, good, len);
	memset(buf + len, 0, 4096);
	layout(buf, len, &l);
	change(buf, &len, &l);
	spit(path, buf, len);
	seed(path);
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	ret = fails_with(path, err, what);
	free(buf);
	return ret;
}
