/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the .ntp writer (ntp_write.c) and reader (ntp_read.c) share of the
 * layout of Documentation/ntp-format.rst, whose names the comments use:
 * its sizes and tags, and the little-endian get/put helpers that every
 * field on disk goes through, so that a file moves between machines of
 * any byte order.
 */
#ifndef NTPROF_NTP_LAYOUT_H
#define NTPROF_NTP_LAYOUT_H

#include <endian.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <isa-l/crc.h>

#include "ntp/ntp.h"

/* PNG's trick: the high bit, CR LF, ^Z and LF catch text-mode transfers. */
static const uint8_t ntp_magic[8] = {
	0x89, 'N', 'T', 'P', '\r', '\n', 0x1a, '\n'
};

/* The fixed part of the header; the strings start after it. */
#define HDR_FIXED	48
/* The fixed part, four empty strings, no hooks and the checksum. */
#define HDR_MIN		(HDR_FIXED + 4 * 2 + 4 + 4)
/* Far above what NTP_HOOKS_MAX long-named hooks need. */
#define HDR_MAX		(1U << 20)
/* A hook entry without its name. */
#define HOOK_FIXED	10
/* A device entry without its name (format 1.1). */
#define DEV_FIXED	8
/* A controller entry with three empty strings (format 1.1). */
#define CTRL_FIXED	19

/* Every unit after the header: a block of records or the trailer. */
#define UNIT_HDR	24
#define UNIT_MAX	(64U << 20)
static const uint8_t tag_block[4] = { 'N', 'T', 'P', 'B' };
static const uint8_t tag_end[4] = { 'N', 'T', 'P', 'E' };

/* Records may grow in later minors, but not without bound. */
#define RECORD_SIZE_MAX	4096
#define TRAILER_SIZE	40
#define TRAILER_MAX	4096

/*
 * The fuzzer cannot forge CRC-32s, so its builds accept bad ones and get
 * past them to the parsing (the convention of libFuzzer and OSS-Fuzz).
 */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define crc_matches(a, b)	((void)(a), (void)(b), 1)
#else
#define crc_matches(a, b)	((a) == (b))
#endif

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HOST_IS_LE	1
#else
#define HOST_IS_LE	0
#endif

static inline void put16(uint8_t *p, uint16_t v)
{
	v = htole16(v);
	memcpy(p, &v, sizeof(v));
}

static inline void put32(uint8_t *p, uint32_t v)
{
	v = htole32(v);
	memcpy(p, &v, sizeof(v));
}

static inline void put64(uint8_t *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, sizeof(v));
}

static inline uint16_t get16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return le16toh(v);
}

static inline uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

static inline uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

/*
 * The CRC-32 of zlib's crc32(), by ISA-L: with carry-less multiplies it
 * takes about a tenth of zlib's table walk (3.9 instructions a byte),
 * which at some 900 instructions a record was a third of what the
 * recorder spent on each (Documentation/benchmarks.rst).
 */
static inline uint32_t crc(const void *p, size_t len)
{
	return crc32_gzip_refl(0, p, len);
}

#endif /* NTPROF_NTP_LAYOUT_H */
