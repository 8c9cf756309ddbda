// SPDX-License-Identifier: GPL-2.0
/* The test client's decoder of compact records; see crec.h. */
#include <stdint.h>
#include <string.h>

#include "crec.h"

#define CREC_FLAGS	(NTPROF_CREC_POINTS | NTPROF_CREC_WIDE | NTPROF_CREC_PID)

/* The identity is copied as one block: the same members, in the same order. */
_Static_assert(offsetof(struct ntprof_crec, dev) ==
	       offsetof(struct ntprof_record, dev) &&
	       offsetof(struct ntprof_crec, points) ==
	       offsetof(struct ntprof_record, pid), "crec and record identity");

/* The offset of the next point present, from @p; *@p moves past it. */
static int64_t next_offset(const unsigned char **p, int wide)
{
	int64_t d64;
	int32_t d32;

	if (wide) {
		memcpy(&d64, *p, sizeof(d64));
		*p += sizeof(d64);
		return d64;
	}
	memcpy(&d32, *p, sizeof(d32));
	*p += sizeof(d32);
	return d32;
}

size_t crec_decode(const void *buf, size_t len, struct ntprof_record *rec)
{
	const unsigned char *p = buf;
	struct ntprof_crec c;
	int i, seen = 0;
	size_t size;

	if (len < sizeof(c))
		return 0;
	memcpy(&c, p, sizeof(c));
	size = ntprof_crec_size(&c);
	if (size > len || (c.points & ~CREC_FLAGS) ||
	    !(c.points & NTPROF_CREC_POINTS) != !c.t0)
		return 0;

	memset(rec, 0, sizeof(*rec));
	memcpy(rec, &c, offsetof(struct ntprof_crec, points));
	p += sizeof(c);
	for (i = 0; i < NTPROF_RECORD_POINTS; i++) {
		if (!(c.points & (1U << i)))
			continue;
		rec->ts[i] = c.t0;
		if (seen++)
			rec->ts[i] += next_offset(&p, c.points & NTPROF_CREC_WIDE);
		if (!rec->ts[i])
			return 0;
	}
	/* The module sends a pid only when there is one. */
	if (c.points & NTPROF_CREC_PID) {
		memcpy(&rec->pid, p, sizeof(rec->pid));
		if (!rec->pid)
			return 0;
	}
	return size;
}
