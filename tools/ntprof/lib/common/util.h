/* SPDX-License-Identifier: GPL-2.0 */
/* What the tool's files share that is too small for a room: sizes, units, orders. */
#ifndef NTPROF_UTIL_H
#define NTPROF_UTIL_H

#include <stdint.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define BIT(n)		(1U << (n))

#define NSEC_PER_SEC	1000000000ULL
#define NSEC_PER_MSEC	1000000ULL

/* qsort()'s ascending order of int64_t values. */
static inline int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

#endif /* NTPROF_UTIL_H */
