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
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <isa-l/crc.h>

#include "ntp/ntp.h"

/* PNG's trick: the high bit, CR LF, ^Z and LF catch text-mode transfers. */
static const uint8_t ntp_magic[8] = {
	0x89, 'N', 'T', 'P', '\r', '\n', 0x1a, '\n'
};

/*
 * Byte offsets, each named once, as the tables of ntp-format.rst give
 * them: a field's name is the document's, an offset is from the start of
 * the structure it is in.
 */

/* Header, fixed part */
#define NTP_HDR_OFF_MAGIC		0
#define NTP_HDR_OFF_VERSION_MAJOR	8
#define NTP_HDR_OFF_VERSION_MINOR	10
#define NTP_HDR_OFF_HEADER_LEN		12
#define NTP_HDR_OFF_RECORD_SIZE		16
#define NTP_HDR_OFF_SAMPLE		20
#define NTP_HDR_OFF_ROLE		24
#define NTP_HDR_OFF_TRANSPORT		25
/* 26, 27: reserved, zero */
#define NTP_HDR_OFF_NR_CPUS		28
#define NTP_HDR_OFF_START_MONO_NS	32
#define NTP_HDR_OFF_START_REAL_NS	40
/* The fixed part of the header; the strings start after it. */
#define HDR_FIXED	48
/* header_crc: the header's last bytes. */
#define HDR_CRC_SIZE	4
/* The first 16 bytes keep their places in every major version. */
#define HDR_STABLE	16
/* The fixed part, four empty strings, no hooks and the checksum. */
#define HDR_MIN		(HDR_FIXED + 4 * 2 + 4 + HDR_CRC_SIZE)
/* Far above what NTP_HOOKS_MAX long-named hooks need. */
#define HDR_MAX		(1U << 20)

/* Every entry of a table starts with its entry_len (u16). */
#define NTP_ENTRY_OFF_ENTRY_LEN		0

/* Hook entry */
#define NTP_HOOK_OFF_KIND		2
#define NTP_HOOK_OFF_ROLE		3
#define NTP_HOOK_OFF_TRANSPORT		4
#define NTP_HOOK_OFF_POINT		5
#define NTP_HOOK_OFF_REQUIRED		6
#define NTP_HOOK_OFF_STATE		7
#define NTP_HOOK_OFF_NAME_LEN		8
#define NTP_HOOK_OFF_NAME		10
/* A hook entry without its name. */
#define HOOK_FIXED	NTP_HOOK_OFF_NAME

/* Device entry (format 1.1) */
#define NTP_DEV_OFF_DEV			2
#define NTP_DEV_OFF_NAME_LEN		6
#define NTP_DEV_OFF_NAME		8
/* A device entry without its name. */
#define DEV_FIXED	NTP_DEV_OFF_NAME

/* Controller entry (format 1.1) */
#define NTP_CTRL_OFF_DEV		2
#define NTP_CTRL_OFF_NSID		6
#define NTP_CTRL_OFF_CNTLID		10
#define NTP_CTRL_OFF_TRANSPORT		12
/* name, then subsysnqn and address, each a string after the one before */
#define NTP_CTRL_OFF_NAME		13
/* A controller entry with three empty strings. */
#define CTRL_FIXED	(NTP_CTRL_OFF_NAME + 3 * 2)

/* After the controller table, since 1.4: part (u32), part_start_mono_ns */
#define HDR_PART_SIZE	(4 + 8)

/* After the part, since 2.1: chain (u8), 7 reserved bytes, chain_offset */
#define NTP_CHAIN_OFF_CHAIN		0
#define NTP_CHAIN_OFF_CHAIN_OFFSET	8
#define HDR_CHAIN_SIZE	16

/* Every unit after the header: a block of records or the trailer. */
#define NTP_UNIT_OFF_TAG		0
#define NTP_UNIT_OFF_SEQ		4
#define NTP_UNIT_OFF_COUNT		8
#define NTP_UNIT_OFF_LENGTH		12
#define NTP_UNIT_OFF_PAYLOAD_CRC	16
#define NTP_UNIT_OFF_HEADER_CRC		20
#define UNIT_HDR	24
#define UNIT_MAX	(64U << 20)
static const uint8_t tag_block[4] = { 'N', 'T', 'P', 'B' };
static const uint8_t tag_end[4] = { 'N', 'T', 'P', 'E' };
/* Since 2.2: control-path events, a u64 drops then the events. */
static const uint8_t tag_events[4] = { 'N', 'T', 'P', 'V' };
#define NTP_EVU_OFF_DROPS		0
#define EVU_FIXED	8
/* An event */
#define NTP_EV_OFF_TIME_MONO_NS		0
#define NTP_EV_OFF_CTRL			8
#define NTP_EV_OFF_TYPE			12
#define NTP_EV_OFF_OLD_STATE		13
#define NTP_EV_OFF_NEW_STATE		14
/* 15: reserved, zero */
#define EV_SIZE		16

/* Record: struct ntprof_record's fields, little-endian, unpadded. */
#define NTP_REC_OFF_ROLE		0
#define NTP_REC_OFF_TRANSPORT		1
#define NTP_REC_OFF_OPCODE		2
#define NTP_REC_OFF_FLAGS		3
#define NTP_REC_OFF_QID			4
#define NTP_REC_OFF_CID			6
#define NTP_REC_OFF_NSID		8
#define NTP_REC_OFF_LENGTH		12
#define NTP_REC_OFF_SLBA		16
#define NTP_REC_OFF_STATUS		24
#define NTP_REC_OFF_CNTLID		26
#define NTP_REC_OFF_CPU_SUBMIT		28
#define NTP_REC_OFF_CPU_COMPLETE	30
#define NTP_REC_OFF_DEV			32
#define NTP_REC_OFF_PID			36
/* ts[i] is at NTP_REC_OFF_TS + 8 * i. */
#define NTP_REC_OFF_TS			40

/*
 * Compact record (format 2.0, struct ntprof_crec): its first 36 bytes are
 * the record's, role to dev, at the NTP_REC_OFF_* offsets above; then the
 * points word and the first point's time, then the variable part.
 */
#define NTP_CREC_OFF_POINTS		36
#define NTP_CREC_OFF_T0			40
/* The offsets from t0, then the pid, start after the fixed part. */
#define NTP_CREC_OFF_VAR		48

/* Trailer payload */
#define NTP_TRL_OFF_RECORDS		0
#define NTP_TRL_OFF_DROPS		8
#define NTP_TRL_OFF_EVICTIONS		16
#define NTP_TRL_OFF_END_MONO_NS		24
#define NTP_TRL_OFF_END_REAL_NS		32
/* The trailer of 1.0 and 1.1; since 1.2 its device table starts here. */
#define TRAILER_SIZE	40

/*
 * ntp_since() - tell whether a file of version @major.@minor has what
 * version @m_major.@m_minor brought: it has if it is a later minor of the
 * same major, or any later major (2.0 keeps everything that 1.4 has,
 * except the form of the records).
 */
static inline bool ntp_since(unsigned int major, unsigned int minor,
			     unsigned int m_major, unsigned int m_minor)
{
	return major > m_major || (major == m_major && minor >= m_minor);
}

/* Records may grow in later minors of 1, but not without bound. */
#define RECORD_SIZE_MAX	4096
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
 * crc() - compute the CRC-32 of zlib's crc32() with ISA-L. ISA-L's
 * carry-less multiplies take about a tenth of the instructions of zlib's
 * table walk (3.9 instructions per byte). zlib's walk, at some 900
 * instructions per record, was a third of what the recorder spent on each
 * record (Documentation/benchmarks.rst).
 */
static inline uint32_t crc(const void *p, size_t len)
{
	return crc32_gzip_refl(0, p, len);
}

/*
 * ident_put() - write a record's identity, the fields from role to dev,
 * little-endian; ident_get() reads it back. The identity is the first
 * bytes of a record in every format, in the 1.x struct and in the compact
 * record alike.
 */
static inline void ident_put(uint8_t *p, const struct ntprof_record *rec)
{
	p[NTP_REC_OFF_ROLE] = rec->role;
	p[NTP_REC_OFF_TRANSPORT] = rec->transport;
	p[NTP_REC_OFF_OPCODE] = rec->opcode;
	p[NTP_REC_OFF_FLAGS] = rec->flags;
	put16(p + NTP_REC_OFF_QID, rec->qid);
	put16(p + NTP_REC_OFF_CID, rec->cid);
	put32(p + NTP_REC_OFF_NSID, rec->nsid);
	put32(p + NTP_REC_OFF_LENGTH, rec->length);
	put64(p + NTP_REC_OFF_SLBA, rec->slba);
	put16(p + NTP_REC_OFF_STATUS, rec->status);
	put16(p + NTP_REC_OFF_CNTLID, rec->cntlid);
	put16(p + NTP_REC_OFF_CPU_SUBMIT, rec->cpu_submit);
	put16(p + NTP_REC_OFF_CPU_COMPLETE, rec->cpu_complete);
	put32(p + NTP_REC_OFF_DEV, rec->dev);
}

static inline void ident_get(struct ntprof_record *rec, const uint8_t *p)
{
	rec->role = p[NTP_REC_OFF_ROLE];
	rec->transport = p[NTP_REC_OFF_TRANSPORT];
	rec->opcode = p[NTP_REC_OFF_OPCODE];
	rec->flags = p[NTP_REC_OFF_FLAGS];
	rec->qid = get16(p + NTP_REC_OFF_QID);
	rec->cid = get16(p + NTP_REC_OFF_CID);
	rec->nsid = get32(p + NTP_REC_OFF_NSID);
	rec->length = get32(p + NTP_REC_OFF_LENGTH);
	rec->slba = get64(p + NTP_REC_OFF_SLBA);
	rec->status = get16(p + NTP_REC_OFF_STATUS);
	rec->cntlid = get16(p + NTP_REC_OFF_CNTLID);
	rec->cpu_submit = get16(p + NTP_REC_OFF_CPU_SUBMIT);
	rec->cpu_complete = get16(p + NTP_REC_OFF_CPU_COMPLETE);
	rec->dev = get32(p + NTP_REC_OFF_DEV);
}

#endif /* NTPROF_NTP_LAYOUT_H */
