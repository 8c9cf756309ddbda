/* SPDX-License-Identifier: GPL-2.0 */
/* What the running kernel offers the module: ftrace, tracepoints. */
#ifndef NTPROF_KCAPS_H
#define NTPROF_KCAPS_H

#include <stdbool.h>

/**
 * struct kernel_caps - the means the module's hooks need
 * @ftrace: function hooks (ftrace): "yes", "disabled", "no", or "unknown"
 * @ftrace_disabled: function tracing is switched off as a whole
 *	(kernel.ftrace_enabled is 0)
 * @tracepoints: "yes", "no", or "unknown"
 */
struct kernel_caps {
	const char *ftrace;
	bool ftrace_disabled;
	const char *tracepoints;
};

/*
 * kernel_caps_get() - read what this kernel offers, from /proc/kallsyms
 * and procfs, as far as this process can tell.
 */
void kernel_caps_get(struct kernel_caps *c);

#endif /* NTPROF_KCAPS_H */
