// SPDX-License-Identifier: GPL-2.0
/*
 * Early stamps (kmod/clock.h): which counter they read, chosen once at
 * load.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/clocksource.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>

#include "clock.h"

/*
 * -1: the cycle counter where the CPU says its rate is constant
 * (constant_tsc); 1: the cycle counter wherever its rate is known, for
 * CPUs that run it at a constant rate without saying so, as QEMU's do;
 * 0: the clock.
 */
static int early_cycles = -1;
module_param(early_cycles, int, 0444);
MODULE_PARM_DESC(early_cycles,
		 "early stamps from the cycle counter: -1 if constant (default), 1 always, 0 never");

#ifdef CONFIG_X86_TSC
#include <asm/cpufeature.h>
#include <asm/tsc.h>

DEFINE_STATIC_KEY_FALSE(ntprof_early_cycles);
u32 ntprof_early_mult;
u32 ntprof_early_shift;

/**
 * ntprof_clock_init() - choose the counter that early stamps read
 *
 * Early stamps read the CPU's cycle counter (the TSC) where its rate is
 * constant and known, as the early_cycles parameter allows, and the
 * clock otherwise. The choice is made once, at load, and never changes.
 *
 * Context: Process context, module init, before any hook can attach.
 */
void ntprof_clock_init(void)
{
	bool constant = boot_cpu_has(X86_FEATURE_CONSTANT_TSC);

	if (!early_cycles || (early_cycles < 0 && !constant) || !tsc_khz ||
	    !boot_cpu_has(X86_FEATURE_TSC))
		return;
	/* kHz to ns per ms: the ratio is that of cycles to ns. */
	clocks_calc_mult_shift(&ntprof_early_mult, &ntprof_early_shift,
			       tsc_khz, NSEC_PER_MSEC, 1000);
	static_branch_enable(&ntprof_early_cycles);
	pr_info("early stamps from the TSC (%u kHz)\n", tsc_khz);
}
#else
/* Without the TSC, early stamps read the clock. */
void ntprof_clock_init(void)
{
}
#endif

/**
 * ntprof_clock_early_cycles() - whether early stamps read the cycle counter
 *
 * Context: Any.
 * Return: true if ntprof_clock_init() chose the TSC, false if early
 * stamps read the clock.
 */
bool ntprof_clock_early_cycles(void)
{
	return ntprof_early_is_cycles();
}
