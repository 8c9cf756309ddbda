/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What differs between the kernels ntprof builds for: one small wrapper
 * per kernel API that changed, with the tests of versions and features
 * here and nowhere else.
 */
#ifndef _NTPROF_COMPAT_H
#define _NTPROF_COMPAT_H

#include <linux/ftrace.h>
#include <linux/ptrace.h>
#include <linux/version.h>

/*
 * The one version test, for what no feature macro tells. checkpatch's
 * LINUX_VERSION_CODE rule is for code merged into one kernel; an
 * out-of-tree module builds for many (the style target ignores it).
 */
#define NTPROF_KERNEL_BEFORE(a, b, c) \
	(KERNEL_VERSION(a, b, c) > LINUX_VERSION_CODE)

/*
 * A function hook's arguments. Where ftrace's plain caller saves the
 * argument registers (x86-64 since 5.11, "WITH_ARGS"), the ops asks for
 * no more: the caller that saves every register (FTRACE_OPS_FL_SAVE_REGS)
 * costs each hit some tens of instructions more. ftrace_regs_get_argument()
 * came later (6.2) than the registers it reads; before it, x86's
 * struct ftrace_regs is a struct pt_regs.
 */
#if defined(ftrace_regs_get_argument)
#define NTPROF_FTRACE_REGS_FLAG	0
static inline bool ntprof_ftrace_args_ok(struct ftrace_regs *fregs)
{
	return true;
}

static inline unsigned long ntprof_fn_arg(struct ftrace_regs *fregs,
					  unsigned int n)
{
	return ftrace_regs_get_argument(fregs, n);
}
#elif defined(CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS) && defined(CONFIG_X86_64)
#define NTPROF_FTRACE_REGS_FLAG	0
static inline bool ntprof_ftrace_args_ok(struct ftrace_regs *fregs)
{
	return true;
}

static inline unsigned long ntprof_fn_arg(struct ftrace_regs *fregs,
					  unsigned int n)
{
	return regs_get_kernel_argument(&fregs->regs, n);
}
#else
#define NTPROF_FTRACE_REGS_FLAG	FTRACE_OPS_FL_SAVE_REGS
static inline bool ntprof_ftrace_args_ok(struct ftrace_regs *fregs)
{
	return ftrace_get_regs(fregs);
}

static inline unsigned long ntprof_fn_arg(struct ftrace_regs *fregs,
					  unsigned int n)
{
	return regs_get_kernel_argument(ftrace_get_regs(fregs), n);
}
#endif

/*
 * ntprof's ftrace callback needs no recursion guard: no handler calls a
 * hooked function, and the callback disables preemption itself. So ftrace
 * should call it directly, not through ftrace_ops_assist_func(), which
 * adds a recursion lock to every hit. Since 5.11 that is the default, and
 * FTRACE_OPS_FL_RECURSION asks for the guard; before, the default was the
 * guard, and FTRACE_OPS_FL_RECURSION_SAFE declined it.
 */
#if NTPROF_KERNEL_BEFORE(5, 11, 0)
#define NTPROF_FTRACE_RECURSION_FLAG	FTRACE_OPS_FL_RECURSION_SAFE
#else
#define NTPROF_FTRACE_RECURSION_FLAG	0
#endif

#endif /* _NTPROF_COMPAT_H */
