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
void ntprof_clock_init(void)
{
}
#endif

bool ntprof_clock_early_cycles(void)
{
	return ntprof_early_is_cycles();
}
