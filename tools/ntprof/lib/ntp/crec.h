/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The compact record (struct ntprof_crec of include/uapi/linux/ntprof.h,
 * whose comment is the contract): the form in which the module sends
 * records, in host byte order, and in which .ntp 2.0 blocks store them,
 * little-endian. Everything else in the tool works on struct
 * ntprof_record; these turn one into the other.
 *
 * The decoder takes bytes from a socket or a file: it checks each record
 * against the bytes left and the contract before it trusts it, and says
 * what is wrong in a message. Input may lie at any address: every field
 * is read with memcpy().
 */
#ifndef NTPROF_CREC_H
#define NTPROF_CREC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uapi/linux/ntprof.h>

/* The byte order of compact bytes: the socket's, or a file's. */
enum crec_order {
	CREC_HOST,	/* NTPROF_A_RECORDS_DATA */
	CREC_LE,	/* .ntp 2.0 blocks */
};

/*
 * The fixed part: every record has it, and a record without a point
 * consists of it alone.
 */
#define CREC_FIXED	((uint32_t)sizeof(struct ntprof_crec))
/* The points word's bits that mean something; any other is malformed. */
#define CREC_BITS	(NTPROF_CREC_POINTS | NTPROF_CREC_WIDE | NTPROF_CREC_PID)

/*
 * crec_size() - return the size in bytes of @rec in compact form, or 0 if
 * the record has no compact form. That is the case when a point lies more
 * than 2^63 ns from the first point, which no signed 64-bit offset can
 * reach; such a time is not a CLOCK_MONOTONIC time, and the record is
 * garbled.
 */
uint32_t crec_size(const struct ntprof_record *rec);

/*
 * crec_encode() - write @rec in compact form and in byte order @o at @buf,
 * which has room for NTPROF_CREC_MAX bytes. It returns the size written,
 * as crec_size() does; for a record that the compact form cannot hold, it
 * writes nothing and returns 0.
 */
uint32_t crec_encode(void *buf, const struct ntprof_record *rec,
		     enum crec_order o);

/*
 * crec_decode() - read the compact record at @buf, of at most @len bytes
 * and in byte order @o, into @rec. It returns the record's size (a
 * multiple of 4, at least 48), or -EBADMSG with the reason in @why
 * ("points word 0x41000001 has unknown bits").
 */
int crec_decode(struct ntprof_record *rec, const void *buf, size_t len,
		enum crec_order o, char *why, size_t whylen);

#endif /* NTPROF_CREC_H */
