/* SPDX-License-Identifier: GPL-2.0 */
/* What the running kernel offers the module: kprobes, tracepoints. */
#ifndef NTPROF_KCAPS_H
#define NTPROF_KCAPS_H

#include <stdbool.h>

/**
 * struct kernel_caps - the means the module's hooks need
 * @kprobes: "yes", "disabled", "no", or "unknown"
 * @kprobes_disabled: kprobes are switched off as a whole
 * @tracepoints: "yes", "no", or "unknown"
 */
struct kernel_caps {
	const char *kprobes;
	bool kprobes_disabled;
	const char *tracepoints;
};

/*
 * kernel_caps_get() - read what this kernel offers, from /proc/kallsyms
 * and debugfs, as far as this process can tell.
 */
void kernel_caps_get(struct kernel_caps *c);

#endif /* NTPROF_KCAPS_H */
