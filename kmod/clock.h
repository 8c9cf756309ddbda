/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Early stamps: the points a hook takes before the command it belongs to
 * is known (nvme_{tcp,rdma}_queue_rq() on the host, a capsule's receive
 * on the target) are taken for every command, sampled or not. Where the
 * CPU's cycle counter runs at a constant rate they read it, a few
 * instructions where ktime_get_ns() takes some 40, and only a sampled
 * command converts its own, at its deciding point on the same CPU:
 * the clock then, less the cycles since, scaled by the counter's rate.
 * Over those few microseconds the rate's error (tsc_khz against the
 * clock's own adjustment) is well under a nanosecond, and the result is
 * never later than the clock read at the deciding point. Elsewhere an
 * early stamp is the clock itself.
 */
#ifndef _NTPROF_CLOCK_H
#define _NTPROF_CLOCK_H

#include <linux/jump_label.h>
#include <linux/math64.h>
#include <linux/timekeeping.h>
#include <linux/types.h>

#ifdef CONFIG_X86_TSC
#include <asm/msr.h>

DECLARE_STATIC_KEY_FALSE(ntprof_early_cycles);
extern u32 ntprof_early_mult;
extern u32 ntprof_early_shift;

static __always_inline bool ntprof_early_is_cycles(void)
{
	return static_branch_likely(&ntprof_early_cycles);
}

static __always_inline u64 ntprof_early_cycles_now(void)
{
	return rdtsc_ordered();
}
#else
static __always_inline bool ntprof_early_is_cycles(void)
{
	return false;
}

static __always_inline u64 ntprof_early_cycles_now(void)
{
	return 0;
}
#endif

/* An early stamp, never 0. */
static __always_inline u64 ntprof_early_now(void)
{
	if (ntprof_early_is_cycles())
		return ntprof_early_cycles_now();
	return ktime_get_ns();
}

/**
 * ntprof_early_to_ns() - an early stamp as the clock's time
 * @early: the stamp, taken on this CPU; 0 for none
 * @now: ktime_get_ns(), read just before
 *
 * Return: the time, at most @now; 0 for none.
 */
static inline u64 ntprof_early_to_ns(u64 early, u64 now)
{
	u64 cycles, delta;

	if (!early || !ntprof_early_is_cycles())
		return early;
#ifdef CONFIG_X86_TSC
	cycles = ntprof_early_cycles_now();
	if (cycles <= early)
		return now;
	delta = mul_u64_u32_shr(cycles - early, ntprof_early_mult,
				ntprof_early_shift);
	return delta < now ? now - delta : now;
#else
	return early;
#endif
}

void ntprof_clock_init(void);
bool ntprof_clock_early_cycles(void);

#endif /* _NTPROF_CLOCK_H */
