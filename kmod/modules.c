// SPDX-License-Identifier: GPL-2.0
/*
 * The NVMe-oF kernel modules ntprof knows about, and whether they are loaded.
 *
 * find_module() and kallsyms_lookup_name() are not exported, but
 * register_kprobe() resolves a symbol name through kallsyms, modules
 * included, and fails when it does not resolve. A kprobe registered
 * disabled never patches the probed code, so registering one on a
 * function of the module and unregistering it at once is a side-effect
 * free way to ask whether the module is loaded right now.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
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

/* One probe for all checks; the mutex hands it to one caller at a time. */
static DEFINE_MUTEX(ntprof_witness_lock);
static struct kprobe ntprof_witness_kp;

/**
 * ntprof_module_present() - tell whether a module is loaded
 * @mod: the module, an entry of ntprof_modules[]
 *
 * A module that is being unloaded counts as absent. So does a witness
 * that resolves but cannot be probed: the hooks could not use it either.
 *
 * Context: Process context. Sleeps, for an RCU grace period when the
 * module is present.
 * Return: true if @mod's witness function is in the kernel.
 */
bool ntprof_module_present(const struct ntprof_module *mod)
{
	bool present = false;

	mutex_lock(&ntprof_witness_lock);

	/*
	 * register_kprobe() writes .addr and .flags back, and refuses a
	 * probe that has both .addr and .symbol_name: start from scratch.
	 */
	memset(&ntprof_witness_kp, 0, sizeof(ntprof_witness_kp));
	ntprof_witness_kp.symbol_name = mod->witness;
	ntprof_witness_kp.flags = KPROBE_FLAG_DISABLED;

	/*
	 * -ENOENT is the usual answer for an absent module, but kernels
	 * differ (-EINVAL, ...): any failure means absent, and is not
	 * worth a log line since users may ask as often as they like.
	 */
	if (!register_kprobe(&ntprof_witness_kp)) {
		unregister_kprobe(&ntprof_witness_kp);
		present = true;
	}

	mutex_unlock(&ntprof_witness_lock);

	return present;
}
