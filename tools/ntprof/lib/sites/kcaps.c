// SPDX-License-Identifier: GPL-2.0
/*
 * What the running kernel offers the module (ntprof probe's first line):
 * whether it has ftrace's function hooks, which the module's function
 * hooks are, and tracepoints, and whether function tracing is switched
 * off.
 */
#include <stdio.h>
#include <string.h>

#include "common/util.h"
#include "sites/kcaps.h"

/* Looks for exported functions in /proc/kallsyms; false when unreadable. */
static bool kallsyms_has(const char * const *names, bool *found, size_t n)
{
	char line[512], sym[256];
	FILE *f = fopen("/proc/kallsyms", "r");
	size_t i;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		/* "ffffffff81234560 T register_ftrace_function" */
		if (sscanf(line, "%*s %*s %255s", sym) != 1)
			continue;
		for (i = 0; i < n; i++)
			if (!found[i] && !strcmp(sym, names[i]))
				found[i] = true;
	}
	fclose(f);
	return true;
}

void kernel_caps_get(struct kernel_caps *c)
{
	static const char * const names[] = {
		"register_ftrace_function", "tracepoint_probe_register",
	};
	bool found[ARRAY_SIZE(names)] = { false };
	bool readable;
	char buf[8];
	FILE *f;

	readable = kallsyms_has(names, found, ARRAY_SIZE(names));
	c->ftrace = !readable ? "unknown" : found[0] ? "yes" : "no";
	c->tracepoints = !readable ? "unknown" : found[1] ? "yes" : "no";
	c->ftrace_disabled = false;

	/*
	 * Function tracing can be switched off as a whole (sysctl
	 * kernel.ftrace_enabled=0): the module's function hooks then register
	 * and never fire. The kprobes switch in debugfs does not touch them.
	 */
	f = fopen("/proc/sys/kernel/ftrace_enabled", "r");
	if (!f)
		return;
	if (fgets(buf, sizeof(buf), f)) {
		if (buf[0] == '0') {
			c->ftrace = "disabled";
			c->ftrace_disabled = true;
		} else if (buf[0] == '1') {
			c->ftrace = "yes";
		}
	}
	fclose(f);
}
