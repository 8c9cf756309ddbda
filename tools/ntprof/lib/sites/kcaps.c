// SPDX-License-Identifier: GPL-2.0
/*
 * What the running kernel offers the module (ntprof probe's first line):
 * whether it has kprobes and tracepoints, and whether kprobes are
 * switched off.
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
		/* "ffffffff81234560 T register_kprobe" */
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
		"register_kprobe", "tracepoint_probe_register",
	};
	bool found[ARRAY_SIZE(names)] = { false };
	bool readable;
	char buf[8];
	FILE *f;

	readable = kallsyms_has(names, found, ARRAY_SIZE(names));
	c->kprobes = !readable ? "unknown" : found[0] ? "yes" : "no";
	c->tracepoints = !readable ? "unknown" : found[1] ? "yes" : "no";
	c->kprobes_disabled = false;

	/*
	 * Kprobes can be switched off as a whole: then registered ones stay
	 * registered, and never fire. Only debugfs tells.
	 */
	f = fopen("/sys/kernel/debug/kprobes/enabled", "r");
	if (!f)
		return;
	if (fgets(buf, sizeof(buf), f)) {
		if (buf[0] == '0') {
			c->kprobes = "disabled";
			c->kprobes_disabled = true;
		} else if (buf[0] == '1') {
			c->kprobes = "yes";
		}
	}
	fclose(f);
}
