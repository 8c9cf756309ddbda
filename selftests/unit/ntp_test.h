/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the tests of the .ntp format (test_ntp: format 1.x and what
 * every version has, in test_ntp.c, ntp_v1.c and ntp_damaged.c;
 * test_ntp2.c: format 2.0's compact records) share, in ntp_test.c.
 * Files that the writer would never produce are built byte by byte with
 * this code's own little-endian helpers and zlib's CRC-32, so that the
 * tests check the documented format rather than the reader against the
 * writer.
 */
#ifndef NTPROF_SELFTESTS_NTP_TEST_H
#define NTPROF_SELFTESTS_NTP_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ntp/ntp.h"

/*
 * test_ntp is built from several files, which count their checks in one
 * tally, held by ntp_test.c (tap.h); test_ntp2 counts in it too. A file
 * that included tap.h first would count in a tally of its own.
 */
#if defined(NTPROF_SELFTESTS_TAP_H) && !defined(TAP_SHARED_TALLY)
#error "include ntp_test.h before tap.h, so that its checks are counted"
#endif
#define TAP_SHARED_TALLY
#include "tap.h"

/* The scratch directory, and a file's path in it. */
extern char scratch[256];
#define tpath(name) tap_path(scratch, name)

/*
 * ntp_test_main() - the whole main() of test program @name, whose @n cases
 * are in the table @cases: reads tap.h's options -l and -t NAME, then
 * [--seeds DIR], makes the scratch directory, runs the cases, removes the
 * directory, and returns tap_done()'s exit status (1 after the usage).
 */
int ntp_test_main(int argc, char *argv[], const char *name,
		  const struct tap_case *cases, size_t n);
/*
 * "Bail out!" with @what and errno's message; removes the scratch
 * directory and exits.
 */
void die(const char *what) __attribute__((noreturn));
uint8_t *slurp(const char *path, size_t *len);
void spit(const char *path, const void *buf, size_t len);
/*
 * With --seeds DIR, the files the tests make, the damaged ones too, are
 * also the fuzzer's seed corpus (selftests/fuzz/test_fuzz.sh): they reach
 * every corner of the reader, and no binary file needs to be in the tree.
 */
extern const char *seeds;
void seed(const char *path);

/* Little-endian by hand, independent of ntp_layout.h. */
uint32_t rd32(const uint8_t *p);
void wr32(uint8_t *p, uint32_t v);

/* A growing byte buffer, to build files the writer would not write. */
struct bytes {
	uint8_t *p;
	size_t len;
	size_t cap;
};

void put(struct bytes *b, const void *data, size_t len);
void put_le(struct bytes *b, uint64_t v, int size);
void put_ident(struct bytes *b, const struct ntprof_record *r);
void put_str(struct bytes *b, const char *s);
/*
 * The fixed part and the strings of a header built by hand, in format
 * @major.@minor: records of @record_size bytes (0 from 2.0), sample 1,
 * @nr_cpus CPUs, started at mono 11 and real 22, no boot id. The tables
 * and fields of the minor follow; put_header_end() closes the header.
 */
struct header_start {
	unsigned int major, minor;
	uint32_t record_size;
	uint8_t role, transport;
	uint32_t nr_cpus;
	const char *hostname, *release, *tool_version;
};

void put_header_start(struct bytes *b, const struct header_start *h);
/* The header's CRC field, then its length and CRC set in @b's start. */
void put_header_end(struct bytes *b);
/*
 * A trailer's payload up to its tables: @records, @drops, @evictions,
 * and the end at mono 33 and real 44.
 */
void put_trailer_counts(struct bytes *p, uint64_t records, uint64_t drops,
			uint64_t evictions);
/* A 1.x record as the format's table lays it out, padded to @size bytes. */
void put_record(struct bytes *b, const struct ntprof_record *r, size_t size);
void put_unit(struct bytes *b, const char *tag, uint32_t seq,
	      uint32_t count, const void *payload, uint32_t len);
/* Recomputes the checksums after a test changed a field on purpose. */
void fix_header(uint8_t *buf);
/* Sets the header's record size field to @size, its checksum fixed. */
void set_record_size(uint8_t *buf, uint32_t size);
/* @payload: the payload's checksum too, when its length is true. */
void fix_unit(uint8_t *buf, size_t off, bool payload);
/* Sets the count of the unit at @off to @count, its checksum fixed. */
void set_unit_count(uint8_t *buf, size_t off, uint32_t count);

/* The offsets of a well-formed file's units, the trailer's last. */
struct layout {
	size_t hdr_len;
	size_t unit[16];
	int units;
};

void layout(const uint8_t *buf, size_t len, struct layout *l);

/* Every field of every record differs from its neighbours' and others'. */
void rec_make(struct ntprof_record *r, uint32_t i);
struct ntprof_record *recs_make(size_t n);

/* hdr_make()'s header: its tables, and their bytes in the file. */
extern struct ntp_hook hooks[3];
extern struct ntp_dev devs[3];
extern struct ntp_ctrl ctrls[2];
#define HOOKS_LEN	(4 + (10 + 14) + (10 + 17) + (10 + 255))
#define DEVS_LEN	(4 + (8 + 7) + (8 + 9) + (8 + 63))
#define CTRL0_LEN	(19 + 5 + 29 + 29)
#define CTRL1_LEN	(19 + 63 + 255 + 255)
#define CTRLS_LEN	(4 + CTRL0_LEN + CTRL1_LEN)
/* 1.4: part and part_start_mono_ns, after the controller table */
#define PART_LEN	(4 + 8)
/* 2.1: chain, 7 reserved bytes and chain_offset, after the part */
#define CHAIN_LEN	(1 + 7 + 8)
/* What follows the controller table in the format written now. */
#define TAIL_LEN	(PART_LEN + CHAIN_LEN)

void hdr_make(struct ntp_header *h);
extern const struct ntp_trailer trailer_in;

/*
 * Writes @path in format @major.@minor with records 0.. in the block
 * sizes @blocks[], flushing after each, and the trailer unless
 * @no_trailer. Returns the records.
 */
struct ntprof_record *write_blocks_format(const char *path,
					 unsigned int major,
					 unsigned int minor,
					 const size_t *blocks, int nblocks,
					 bool no_trailer, size_t *total);
/* The same in the format the writer writes by default. */
struct ntprof_record *write_blocks(const char *path, const size_t *blocks,
				   int nblocks, bool no_trailer, size_t *total);

/* What reading a file to its end gave. */
struct result {
	int ret;
	char msg[512];
	struct ntprof_record *recs;
	size_t n;
	size_t blocks[64];	/* with ntp_next_block() */
	int nblocks;
	struct ntp_header hdr;	/* hooks not kept */
	bool has_trailer;
	struct ntp_trailer trailer;
	uint64_t discarded;
};

/* Reads @path with ntp_read_all(), or block by block. */
void read_file(const char *path, bool all, struct result *r);
/* Both ways of reading @path fail with exactly "@path: @what". */
bool fails_with(const char *path, int err, const char *what);
bool same_records(const struct ntprof_record *a,
		  const struct ntprof_record *b, size_t n);
/*
 * good_file() - write the good file that the damaged-file cases change:
 * @name in the scratch directory, of format @major.@minor, with blocks of
 * 3, 2 and 4 records, then the trailer. Returns its bytes, *@len of them,
 * their layout in @l, and the records in *@recs unless @recs is NULL.
 */
uint8_t *good_file(const char *name, unsigned int major, unsigned int minor,
		   size_t *len, struct layout *l, struct ntprof_record **recs);
/*
 * Copies the good file, lets @change damage it, and checks that both
 * ways of reading fail with @err and the message @fmt.
 */
bool damaged(const uint8_t *good, size_t len, int err,
	     void (*change)(uint8_t *buf, size_t *len,
			    const struct layout *l),
	     const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif /* NTPROF_SELFTESTS_NTP_TEST_H */
