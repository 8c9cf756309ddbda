/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What each hook's handler costs, for the benchmark only: a module built
 * with NTPROF_HOOK_COST=1 brackets every handler with two clock reads and
 * adds the difference to the hook's per-CPU total. Under QEMU's icount
 * mode guest time advances 4 ns an instruction (shift=2), so a hook's
 * total over its hits, less the bracket's own cost (measured at each read
 * of <debugfs>/ntprof/hookcost), is the instructions one hit of it took.
 * tools/bench/hookcost.sh reads it. Ordinary builds carry none of this.
 */
#ifndef _NTPROF_HOOKCOST_H
#define _NTPROF_HOOKCOST_H

#include <linux/percpu.h>
#include <linux/timekeeping.h>
#include <linux/types.h>

#ifdef NTPROF_HOOK_COST
#define NTPROF_COST_START()	u64 ntprof_cost_t0 = ktime_get_ns()
#define NTPROF_COST_END(_hook)						\
	this_cpu_add((_hook)->stats->ns, ktime_get_ns() - ntprof_cost_t0)
#define NTPROF_HOOK_COST_BUILD	true
#else
#define NTPROF_COST_START()	do { } while (0)
#define NTPROF_COST_END(_hook)	((void)(_hook))
#define NTPROF_HOOK_COST_BUILD	false
#endif

#endif /* _NTPROF_HOOKCOST_H */
