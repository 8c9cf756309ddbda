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
 * The points word of @rec's compact form, and in @t0 the time of its
 * lowest point, in one pass: the mask, the first time, and whether an
 * offset from it needs more than 32 bits (d fits an s32 when d + 2^31
 * fits 32 bits unsigned).
 */
static __always_inline u32 ntprof_crec_scan(const struct ntprof_record *rec,
					    u64 *t0)
{
	u64 first = 0, far = 0, ts;
	u32 points = 0;
	unsigned int p;

	for (p = 0; p < NTPROF_RECORD_POINTS; p++) {
		ts = READ_ONCE(rec->ts[p]);
		if (!ts)
			continue;
		if (!points)
			first = ts;
		far |= (ts - first + BIT_ULL(31)) >> 32;
		points |= BIT(p);
	}

	*t0 = first;
	return points | (far ? NTPROF_CREC_WIDE : 0) |
	       (rec->pid ? NTPROF_CREC_PID : 0);
}

/*
 * Write @rec in compact form at @c, which has ntprof_crec_bytes(@points)
 * bytes. The points are those of @points, read again: a stale stamp
 * (ntprof_entry_stamp()) may change a time between the two reads, never
 * which points there are, so the record keeps the size it was given.
 */
static __always_inline void ntprof_crec_encode(struct ntprof_crec *c,
					       const struct ntprof_record *rec,
					       u32 points, u64 t0)
{
	unsigned long rest = points & NTPROF_CREC_POINTS;
	unsigned int p;
	void *tail;

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
			*off++ = (s32)(READ_ONCE(rec->ts[p]) - t0);
		}
		tail = off;
	}

	if (points & NTPROF_CREC_PID)
		*(u32 *)tail = rec->pid;
}

#endif /* _NTPROF_CREC_H */
