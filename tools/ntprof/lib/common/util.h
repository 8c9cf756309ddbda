/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers that the tool's files share and that need no file of
 * their own: sizes, units and orders.
 */
#ifndef NTPROF_UTIL_H
#define NTPROF_UTIL_H

#include <stdint.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define BIT(n)		(1U << (n))

#define NSEC_PER_SEC	1000000000ULL
#define NSEC_PER_MSEC	1000000ULL

/* cmp_i64() - compare two int64_t values for qsort()'s ascending order. */
static inline int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

#endif /* NTPROF_UTIL_H */
