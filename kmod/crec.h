/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The compact record (struct ntprof_crec of the uapi, whose comment is
 * the format): what the record buffers keep and records-get sends. The
 * in-flight table builds the full struct ntprof_record, as its points are
 * stamped in any order by different hooks; the record is encoded once,
 * when it is finished, straight into its ring-buffer event.
 */
#ifndef _NTPROF_CREC_H
#define _NTPROF_CREC_H

#include <linux/bitops.h>
#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/types.h>

#include <uapi/linux/ntprof.h>

/*
 * A compact record's bytes from its points word: ntprof_crec_size() of the
 * uapi, whose __builtin_popcount() would be a call into libgcc here.
 */
static inline u32 ntprof_crec_bytes(u32 points)
{
	u32 n = hweight32(points & NTPROF_CREC_POINTS);

	return sizeof(struct ntprof_crec) +
	       (n ? n - 1 : 0) * (points & NTPROF_CREC_WIDE ? 8 : 4) +
	       (points & NTPROF_CREC_PID ? 4 : 0);
}

/*
 * The identity, role to dev, is the same members in the same order in
 * both forms (the uapi): copied as one block.
 */
#define NTPROF_CREC_IDENT	offsetof(struct ntprof_crec, points)
static_assert(offsetof(struct ntprof_crec, slba) ==
	      offsetof(struct ntprof_record, slba));
static_assert(offsetof(struct ntprof_crec, cpu_complete) ==
	      offsetof(struct ntprof_record, cpu_complete));
static_assert(offsetof(struct ntprof_record, pid) == NTPROF_CREC_IDENT);

/*
 * The points word of @rec's compact form, without NTPROF_CREC_WIDE, and
 * in @t0 the time of its lowest point. A record holds only its role's
 * points (enum ntprof_point): only those are looked at, 11 or 13 of 24,
 * as this runs for every record. Whether an offset needs 64 bits comes
 * out of ntprof_crec_encode(), which reads each time once.
 */
static __always_inline u32 ntprof_crec_scan(const struct ntprof_record *rec,
					    u64 *t0)
{
	const __u64 *ts = rec->ts + NTPROF_PT_TARGET_RECV;
	const __u64 *end = rec->ts + NTPROF_RECORD_POINTS;
	u32 points = 0, bit = BIT(NTPROF_PT_TARGET_RECV);

	if (rec->role == NTPROF_ROLE_HOST) {
		ts = rec->ts;
		end = rec->ts + NTPROF_PT_TARGET_RECV;
		bit = 1;
	}
	for (; ts < end; ts++, bit <<= 1)
		if (READ_ONCE(*ts))
			points |= bit;

	*t0 = points ? READ_ONCE(rec->ts[__ffs(points)]) : 0;
	return points | (rec->pid ? NTPROF_CREC_PID : 0);
}

/*
 * Write @rec in compact form at @c, which has ntprof_crec_bytes(@points)
 * bytes. The points are those of @points, read again: a stale stamp
 * (ntprof_entry_stamp()) may change a time between the two reads, never
 * which points there are, so the record keeps the size it was given.
 * Return: false, the record unfinished, when @points lacks
 * NTPROF_CREC_WIDE and an offset does not fit an s32 (d does when
 * d + 2^31 fits 32 bits unsigned): rare, as a command takes microseconds;
 * the caller encodes it again, wide, in room for that.
 */
static __always_inline bool ntprof_crec_encode(struct ntprof_crec *c,
					       const struct ntprof_record *rec,
					       u32 points, u64 t0)
{
	unsigned long rest = points & NTPROF_CREC_POINTS;
	unsigned int p;
	void *tail;
	u64 far = 0;
	s64 d;

	memcpy(c, rec, NTPROF_CREC_IDENT);
	c->points = points;
	c->t0 = t0;

	/* The lowest point is t0 itself. */
	rest &= rest - 1;
	if (unlikely(points & NTPROF_CREC_WIDE)) {
		s64 *off = (s64 *)(c + 1);

		for (; rest; rest &= rest - 1) {
			p = __ffs(rest);
			*off++ = READ_ONCE(rec->ts[p]) - t0;
		}
		tail = off;
	} else {
		s32 *off = (s32 *)(c + 1);

		for (; rest; rest &= rest - 1) {
			p = __ffs(rest);
			d = READ_ONCE(rec->ts[p]) - t0;
			far |= (u64)d + BIT_ULL(31);
			*off++ = (s32)d;
		}
		if (unlikely(far >> 32))
			return false;
		tail = off;
	}

	if (points & NTPROF_CREC_PID)
		*(u32 *)tail = rec->pid;
	return true;
}

#endif /* _NTPROF_CREC_H */
