// SPDX-License-Identifier: GPL-2.0
/*
 * The NVMe-oF kernel modules ntprof knows about, and whether they are loaded.
 *
 * find_module() and kallsyms_lookup_name() are not exported, but ftrace
 * matches function names against the kernel's and every loaded module's
 * traceable functions: setting a filter on an ftrace_ops that is never
 * registered patches no code and asks whether a function is there right
 * now. (A disabled kprobe would answer too, but it sits in the kprobe
 * table meanwhile, where it must not be while ftrace patches a hooked
 * function: see hooks.c.)
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/mutex.h>
#include <linux/string.h>

#include "modules.h"

/*
 * The witnesses are functions of the I/O path, so that the hooks can
 * reuse them; all are in the .text of Debian's 6.1 and 6.12 builds.
 */
const struct ntprof_module ntprof_modules[NTPROF_NR_MODULES] = {
	[NTPROF_MOD_NVME_CORE] = {
		.name = "nvme_core",
		.role = NTPROF_ROLE_HOST,
		.transport = NTPROF_TRANSPORT_NONE,
		.witness = "nvme_setup_cmd",
	},
	[NTPROF_MOD_NVME_TCP] = {
		.name = "nvme_tcp",
		.role = NTPROF_ROLE_HOST,
		.transport = NTPROF_TRANSPORT_TCP,
		.witness = "nvme_tcp_queue_rq",
	},
	[NTPROF_MOD_NVME_RDMA] = {
		.name = "nvme_rdma",
		.role = NTPROF_ROLE_HOST,
		.transport = NTPROF_TRANSPORT_RDMA,
		.witness = "nvme_rdma_queue_rq",
	},
	[NTPROF_MOD_NVMET] = {
		.name = "nvmet",
		.role = NTPROF_ROLE_TARGET,
		.transport = NTPROF_TRANSPORT_NONE,
		.witness = "nvmet_req_init",
	},
	[NTPROF_MOD_NVMET_TCP] = {
		.name = "nvmet_tcp",
		.role = NTPROF_ROLE_TARGET,
		.transport = NTPROF_TRANSPORT_TCP,
		.witness = "nvmet_tcp_queue_response",
	},
	[NTPROF_MOD_NVMET_RDMA] = {
		.name = "nvmet_rdma",
		.role = NTPROF_ROLE_TARGET,
		.transport = NTPROF_TRANSPORT_RDMA,
		.witness = "nvmet_rdma_queue_response",
	},
};

/* One ops for all checks; the mutex hands it to one caller at a time. */
static DEFINE_MUTEX(ntprof_witness_lock);
static struct ftrace_ops ntprof_witness_ops;

/**
 * ntprof_function_present() - tell whether a function can be hooked now
 * @name: the function's name, in the kernel or in a loaded module
 *
 * A function that exists but that ftrace cannot trace counts as absent:
 * hooks could not use it either.
 *
 * Context: Process context; sleeps.
 * Return: true if @name can be hooked.
 */
bool ntprof_function_present(const char *name)
{
	char buf[KSYM_NAME_LEN];
	bool present;

	/* ftrace parses, and writes to, the buffer it is given. */
	strscpy(buf, name, sizeof(buf));

	mutex_lock(&ntprof_witness_lock);
	/* -EINVAL when nothing matches; any failure means absent. */
	present = !ftrace_set_filter(&ntprof_witness_ops, buf, strlen(buf), 1);
	/*
	 * ftrace_free_filter() frees the filter but leaves the ops pointing
	 * at it: clear the ops, so that the next check initializes it anew
	 * instead of using freed memory.
	 */
	ftrace_free_filter(&ntprof_witness_ops);
	memset(&ntprof_witness_ops, 0, sizeof(ntprof_witness_ops));
	mutex_unlock(&ntprof_witness_lock);

	return present;
}

/**
 * ntprof_module_present() - tell whether a module is loaded
 * @mod: the module, an entry of ntprof_modules[]
 *
 * A module that is being unloaded counts as present until its code is
 * freed.
 *
 * Context: Process context; sleeps.
 * Return: true if @mod's witness function is in the kernel.
 */
bool ntprof_module_present(const struct ntprof_module *mod)
{
	return ntprof_function_present(mod->witness);
}
