// SPDX-License-Identifier: GPL-2.0
/*
 * The compact record, both ways (crec.h). The contract is the comment of
 * struct ntprof_crec in include/uapi/linux/ntprof.h: the identity, a
 * points word (bit p: point p present; NTPROF_CREC_WIDE: 64-bit offsets;
 * NTPROF_CREC_PID: a pid follows), t0 the time of the lowest point
 * present, then for each further point in increasing order its time
 * minus t0 as a signed 32-bit (or, WIDE, 64-bit) offset, then the pid.
 * Documentation/ntp-format.rst ("Records, format 2.0") gives the bytes.
 *
 * Each function has one body for both byte orders, inlined with the order
 * a constant: on a little-endian machine both come out the same.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ntp/crec.h"
#include "ntp/ntp_layout.h"

/*
 * The identity fields are the record's, at the same offsets: copied in
 * one go when the bytes are in host order.
 */
#define crec_at(field, off) \
	_Static_assert(offsetof(struct ntprof_crec, field) == (off) && \
		       offsetof(struct ntprof_record, field) == (off), \
		       "struct ntprof_crec." #field " moved")
crec_at(role, NTP_REC_OFF_ROLE);
crec_at(transport, NTP_REC_OFF_TRANSPORT);
crec_at(opcode, NTP_REC_OFF_OPCODE);
crec_at(flags, NTP_REC_OFF_FLAGS);
crec_at(qid, NTP_REC_OFF_QID);
crec_at(cid, NTP_REC_OFF_CID);
crec_at(nsid, NTP_REC_OFF_NSID);
crec_at(length, NTP_REC_OFF_LENGTH);
crec_at(slba, NTP_REC_OFF_SLBA);
crec_at(status, NTP_REC_OFF_STATUS);
crec_at(cntlid, NTP_REC_OFF_CNTLID);
crec_at(cpu_submit, NTP_REC_OFF_CPU_SUBMIT);
crec_at(cpu_complete, NTP_REC_OFF_CPU_COMPLETE);
crec_at(dev, NTP_REC_OFF_DEV);
_Static_assert(offsetof(struct ntprof_crec, points) == NTP_CREC_OFF_POINTS &&
	       offsetof(struct ntprof_crec, t0) == NTP_CREC_OFF_T0 &&
	       sizeof(struct ntprof_crec) == NTP_CREC_OFF_VAR,
	       "struct ntprof_crec changed: a new format is due");
/* What the points word can say. */
_Static_assert(NTPROF_RECORD_POINTS <= 30 &&
	       !(NTPROF_CREC_POINTS & (NTPROF_CREC_WIDE | NTPROF_CREC_PID)),
	       "the points word has no room");

#define INLINE	static inline __attribute__((always_inline))

INLINE uint32_t ld32(const uint8_t *p, enum crec_order o)
{
	uint32_t v;

	if (o == CREC_LE)
		return get32(p);
	memcpy(&v, p, sizeof(v));
	return v;
}

INLINE uint64_t ld64(const uint8_t *p, enum crec_order o)
{
	uint64_t v;

	if (o == CREC_LE)
		return get64(p);
	memcpy(&v, p, sizeof(v));
	return v;
}

INLINE void st32(uint8_t *p, uint32_t v, enum crec_order o)
{
	if (o == CREC_LE)
		put32(p, v);
	else
		memcpy(p, &v, sizeof(v));
}

INLINE void st64(uint8_t *p, uint64_t v, enum crec_order o)
{
	if (o == CREC_LE)
		put64(p, v);
	else
		memcpy(p, &v, sizeof(v));
}

/*
 * size_of() - return the size that the points word @points gives a record,
 * as ntprof_crec_size() does.
 */
static inline uint32_t size_of(uint32_t points)
{
	uint32_t n = __builtin_popcount(points & NTPROF_CREC_POINTS);

	return CREC_FIXED + (n ? n - 1 : 0) *
	       (points & NTPROF_CREC_WIDE ? 8 : 4) +
	       (points & NTPROF_CREC_PID ? 4 : 0);
}

/*
 * points_of() - compute the points word of @rec, with the pid's bit, and t0.
 * It returns false when a point lies more than 2^63 ns before t0 or more
 * than 2^63 - 1 ns after it, where no offset reaches. The offsets are 64-bit
 * when one of them needs more than 32 bits.
 */
static bool points_of(const struct ntprof_record *rec, uint32_t *points,
		      uint64_t *t0)
{
	uint32_t bits = 0, wide = 0;
	uint64_t first = 0, t, d;
	int i;

	for (i = 0; i < NTPROF_RECORD_POINTS; i++) {
		t = rec->ts[i];
		if (!t)
			continue;
		if (!bits)
			first = t;
		bits |= 1U << i;
		/* The offset's magnitude, against how far it may go that way. */
		d = t >= first ? t - first : first - t;
		if (d > (t >= first ? (uint64_t)INT64_MAX : 1ULL << 63))
			return false;
		if (d > (t >= first ? (uint64_t)INT32_MAX : 1ULL << 31))
			wide = NTPROF_CREC_WIDE;
	}
	*points = bits | wide | (rec->pid ? NTPROF_CREC_PID : 0);
	*t0 = first;
	return true;
}

uint32_t crec_size(const struct ntprof_record *rec)
{
	uint32_t points;
	uint64_t t0;

	return points_of(rec, &points, &t0) ? size_of(points) : 0;
}

INLINE uint32_t encode(uint8_t *p, const struct ntprof_record *rec,
		       enum crec_order o)
{
	uint8_t *q = p + NTP_CREC_OFF_VAR;
	uint32_t points, bits, step;
	unsigned int i;
	uint64_t t0;

	if (!points_of(rec, &points, &t0))
		return 0;
	bits = points & NTPROF_CREC_POINTS;
	if (o == CREC_HOST || HOST_IS_LE)
		memcpy(p, rec, NTP_CREC_OFF_POINTS);
	else
		ident_put(p, rec);
	st32(p + NTP_CREC_OFF_POINTS, points, o);
	st64(p + NTP_CREC_OFF_T0, t0, o);
	step = points & NTPROF_CREC_WIDE ? 8 : 4;
	/* The first point is t0 itself; the others, offsets from it. */
	bits &= bits - 1;
	while (bits) {
		i = __builtin_ctz(bits);
		bits &= bits - 1;
		if (step == 8)
			st64(q, rec->ts[i] - t0, o);
		else
			st32(q, (uint32_t)(rec->ts[i] - t0), o);
		q += step;
	}
	if (rec->pid)
		st32(q, rec->pid, o);
	return size_of(points);
}

uint32_t crec_encode(void *buf, const struct ntprof_record *rec,
		     enum crec_order o)
{
	return o == CREC_LE ? encode(buf, rec, CREC_LE) :
			      encode(buf, rec, CREC_HOST);
}

__attribute__((cold, format(printf, 3, 4)))
static int bad(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	return -EBADMSG;
}

/*
 * decode_points() - decode the points at @p, all except t0, into @rec->ts.
 * It returns 0 or -EBADMSG.
 */
INLINE int decode_points(struct ntprof_record *rec, const uint8_t *p,
			 uint32_t points, uint64_t t0, enum crec_order o,
			 char *why, size_t whylen)
{
	uint32_t bits = points & NTPROF_CREC_POINTS;
	const uint8_t *q = p + NTP_CREC_OFF_VAR;
	bool wide = points & NTPROF_CREC_WIDE;
	unsigned int i;
	int64_t off;
	uint64_t t;

	rec->ts[__builtin_ctz(bits)] = t0;
	bits &= bits - 1;
	/*
	 * No 32-bit offset from a t0 more than 2^31 ns from either end can
	 * reach 0 or wrap: the records of any machine up for 2.1 s, taken
	 * without a check a point.
	 */
	if (!wide && t0 > 1ULL << 31 && t0 <= UINT64_MAX - INT32_MAX) {
		while (bits) {
			i = __builtin_ctz(bits);
			bits &= bits - 1;
			rec->ts[i] = t0 + (int64_t)(int32_t)ld32(q, o);
			q += 4;
		}
		return 0;
	}
	while (bits) {
		i = __builtin_ctz(bits);
		bits &= bits - 1;
		off = wide ? (int64_t)ld64(q, o) : (int32_t)ld32(q, o);
		q += wide ? 8 : 4;
		/* Modulo 2^64; it wrapped if it went the wrong way. */
		t = t0 + (uint64_t)off;
		if (off < 0 ? t >= t0 : t < t0)
			return bad(why, whylen,
				   "point %u: t0 %llu %+lld ns wraps around",
				   i, (unsigned long long)t0, (long long)off);
		if (!t)
			return bad(why, whylen, "point %u at time 0", i);
		rec->ts[i] = t;
	}
	return 0;
}

INLINE int decode(struct ntprof_record *rec, const uint8_t *p, size_t len,
		  enum crec_order o, char *why, size_t whylen)
{
	uint32_t points, size;
	uint64_t t0;

	if (len < CREC_FIXED)
		return bad(why, whylen, "%zu bytes left, less than a record's %u",
			   len, CREC_FIXED);
	points = ld32(p + NTP_CREC_OFF_POINTS, o);
	if (points & ~CREC_BITS)
		return bad(why, whylen, "points word 0x%08x has unknown bits",
			   points);
	size = size_of(points);
	if (size > len)
		return bad(why, whylen, "%u bytes, past the %zu left", size,
			   len);
	t0 = ld64(p + NTP_CREC_OFF_T0, o);
	if (!(points & NTPROF_CREC_POINTS) && t0)
		return bad(why, whylen, "no point, yet t0 is %llu",
			   (unsigned long long)t0);
	if ((points & NTPROF_CREC_POINTS) && !t0)
		return bad(why, whylen, "point %u at time 0",
			   __builtin_ctz(points));
	if (o == CREC_HOST || HOST_IS_LE)
		memcpy(rec, p, NTP_CREC_OFF_POINTS);
	else
		ident_get(rec, p);
	memset(rec->ts, 0, sizeof(rec->ts));
	if ((points & NTPROF_CREC_POINTS) &&
	    decode_points(rec, p, points, t0, o, why, whylen))
		return -EBADMSG;
	rec->pid = points & NTPROF_CREC_PID ? ld32(p + size - 4, o) : 0;
	return size;
}

int crec_decode(struct ntprof_record *rec, const void *buf, size_t len,
		enum crec_order o, char *why, size_t whylen)
{
	return o == CREC_LE ? decode(rec, buf, len, CREC_LE, why, whylen) :
			      decode(rec, buf, len, CREC_HOST, why, whylen);
}
