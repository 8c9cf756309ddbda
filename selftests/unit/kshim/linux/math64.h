/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's <linux/math64.h>, for kmod/ code in unit tests. */
#ifndef NTPROF_KSHIM_MATH64_H
#define NTPROF_KSHIM_MATH64_H

#include "../kshim.h"

/* @n becomes @n / @base; the remainder is the value, as asm/div64.h's. */
#define do_div(n, base) ({				\
	u32 __base = (base);				\
	u32 __rem = (u32)((n) % __base);		\
	(n) /= __base;					\
	__rem;						\
})

#endif /* NTPROF_KSHIM_MATH64_H */
