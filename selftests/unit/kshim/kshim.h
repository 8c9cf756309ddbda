/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the module's header-only code that the unit tests compile in
 * userspace (kmod/crec.h in test_kcrec.c, kmod/sample.h in
 * test_ksample.c) takes from the kernel: its types and the few helpers
 * it calls, with the meaning the kernel gives them.
 * The files of linux/ here stand for the kernel's headers of the same
 * names, and each includes this one.
 */
#ifndef NTPROF_KSHIM_H
#define NTPROF_KSHIM_H

#include <assert.h>
#include <endian.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <linux/types.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;

/* Little-endian on the wire (__le32: linux/types.h), on any machine. */
#define le32_to_cpu(x)		le32toh(x)
#define cpu_to_le32(x)		htole32(x)

#define BIT(n)			(1UL << (n))
#define BIT_ULL(n)		(1ULL << (n))
#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define unlikely(x)		__builtin_expect(!!(x), 0)
#ifndef __always_inline
#define __always_inline		inline __attribute__((__always_inline__))
#endif

/* The index of the lowest bit set; @word is not 0. */
static inline unsigned long __ffs(unsigned long word)
{
	return (unsigned long)__builtin_ctzl(word);
}

static inline unsigned int hweight32(u32 w)
{
	return (unsigned int)__builtin_popcount(w);
}

#endif /* NTPROF_KSHIM_H */
