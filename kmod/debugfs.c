// SPDX-License-Identifier: GPL-2.0
/*
 * <debugfs>/ntprof/status: the facts of a status-get reply, one
 * "key: value" line each, for when the ntprof tool is not at hand.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/utsname.h>

#include "debugfs.h"
#include "modules.h"
#include "ntprof.h"

static struct dentry *ntprof_debugfs_dir;

/* The names are those of the enums in the netlink spec. */
static const char * const ntprof_state_names[] = {
	[NTPROF_STATE_IDLE] = "idle",
	[NTPROF_STATE_RECORDING] = "recording",
};

static const char * const ntprof_role_names[] = {
	[NTPROF_ROLE_NONE] = "none",
	[NTPROF_ROLE_HOST] = "host",
	[NTPROF_ROLE_TARGET] = "target",
};

static const char * const ntprof_transport_names[] = {
	[NTPROF_TRANSPORT_NONE] = "none",
	[NTPROF_TRANSPORT_TCP] = "tcp",
	[NTPROF_TRANSPORT_RDMA] = "rdma",
};

/* An enum value without a name is a bug, but not one to crash a read on. */
static const char *ntprof_name(const char * const *names, size_t count,
			       unsigned int value)
{
	if (value >= count || !names[value])
		return "unknown";
	return names[value];
}

static const char *ntprof_state_name(enum ntprof_state state)
{
	return ntprof_name(ntprof_state_names, ARRAY_SIZE(ntprof_state_names),
			   state);
}

static const char *ntprof_role_name(enum ntprof_role role)
{
	return ntprof_name(ntprof_role_names, ARRAY_SIZE(ntprof_role_names),
			   role);
}

static const char *ntprof_transport_name(enum ntprof_transport transport)
{
	return ntprof_name(ntprof_transport_names,
			   ARRAY_SIZE(ntprof_transport_names), transport);
}

static int ntprof_status_show(struct seq_file *m, void *unused)
{
	unsigned int i;

	seq_printf(m, "version: %s\n", NTPROF_VERSION);
	seq_printf(m, "state: %s\n", ntprof_state_name(ntprof_state_get()));
	seq_printf(m, "kernel: %s\n", init_utsname()->release);

	for (i = 0; i < NTPROF_NR_MODULES; i++) {
		const struct ntprof_module *mod = &ntprof_modules[i];

		seq_printf(m, "module %s: %s (%s", mod->name,
			   ntprof_module_present(mod) ? "present" : "absent",
			   ntprof_role_name(mod->role));
		if (mod->transport != NTPROF_TRANSPORT_NONE)
			seq_printf(m, ", %s",
				   ntprof_transport_name(mod->transport));
		seq_puts(m, ")\n");
	}

	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ntprof_status);

/**
 * ntprof_debugfs_init() - create <debugfs>/ntprof/ and its files
 *
 * debugfs is a debugging aid: the module works without it, so failures
 * are not checked, as is the kernel's convention.
 *
 * Context: Process context, module init.
 */
void __init ntprof_debugfs_init(void)
{
	ntprof_debugfs_dir = debugfs_create_dir("ntprof", NULL);
	debugfs_create_file("status", 0444, ntprof_debugfs_dir, NULL,
			    &ntprof_status_fops);
}

/**
 * ntprof_debugfs_exit() - remove <debugfs>/ntprof/ and everything in it
 *
 * An open file pins the module, so no read can be in progress here.
 *
 * Context: Process context.
 */
void ntprof_debugfs_exit(void)
{
	/* debugfs_remove() is recursive, and a no-op on an error pointer. */
	debugfs_remove(ntprof_debugfs_dir);
	ntprof_debugfs_dir = NULL;
}
