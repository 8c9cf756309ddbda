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
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/string.h>

#include "compat.h"
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

/*
 * One ops for all checks; the mutex hands it to one caller at a time and
 * guards the generations.
 *
 * A check is expensive: ftrace walks every traceable function of the
 * kernel and its modules, with a symbol lookup each (tens of thousands:
 * a second of CPU under the lab's TCG, tens of milliseconds on hardware).
 * Done for every hook on every status and probe request, it took the CPU
 * from the I/O it was to measure. A function's presence only changes when
 * its module comes or goes: answers are kept for a generation of the
 * module, which hooks.c's module notifier ends (ntprof_module_changed()).
 */
static DEFINE_MUTEX(ntprof_witness_lock);
static struct ftrace_ops ntprof_witness_ops;

/* Per module, and one for the kernel proper whose generation stays 0. */
static unsigned int ntprof_gen[NTPROF_NR_MODULES + 1];
static bool ntprof_going[NTPROF_NR_MODULES + 1];
static struct ntprof_presence ntprof_witness_presence[NTPROF_NR_MODULES];

/* The check itself. Context: under ntprof_witness_lock. */
static bool ntprof_function_check(const char *name)
{
	char buf[KSYM_NAME_LEN];
	bool present;

	lockdep_assert_held(&ntprof_witness_lock);

	/* ftrace parses, and writes to, the buffer it is given. */
	strscpy(buf, name, sizeof(buf));

	/* -EINVAL when nothing matches; any failure means absent. */
	present = !ftrace_set_filter(&ntprof_witness_ops, buf, strlen(buf), 1);
	/*
	 * The filter is freed, but leaves the ops pointing
	 * at it: clear the ops, so that the next check initializes it anew
	 * instead of using freed memory.
	 */
	ntprof_ftrace_free_filter(&ntprof_witness_ops);
	memset(&ntprof_witness_ops, 0, sizeof(ntprof_witness_ops));

	return present;
}

/**
 * ntprof_function_present() - tell whether a function can be hooked now
 * @name: the function's name, in the kernel or in a loaded module
 * @module: the enum ntprof_module_id it lives in, or %NTPROF_MOD_VMLINUX
 * @cache: the answer kept for @name, updated here
 *
 * A function that exists but that ftrace cannot trace counts as absent:
 * hooks could not use it either. A module on its way out counts as
 * absent, without a check: its functions go with it.
 *
 * Context: Process context; sleeps.
 * Return: true if @name can be hooked.
 */
bool ntprof_function_present(const char *name, unsigned int module,
			     struct ntprof_presence *cache)
{
	bool present;

	if (WARN_ON_ONCE(module > NTPROF_MOD_VMLINUX))
		return false;

	mutex_lock(&ntprof_witness_lock);
	if (ntprof_going[module]) {
		present = false;
	} else if (cache->known && cache->gen == ntprof_gen[module]) {
		present = cache->present;
	} else {
		present = ntprof_function_check(name);
		cache->gen = ntprof_gen[module];
		cache->known = true;
		cache->present = present;
	}
	mutex_unlock(&ntprof_witness_lock);

	return present;
}

/**
 * ntprof_module_present() - tell whether a module is loaded
 * @id: the module
 *
 * Context: Process context; sleeps.
 * Return: true if @id's witness function is in the kernel.
 */
bool ntprof_module_present(enum ntprof_module_id id)
{
	return ntprof_function_present(ntprof_modules[id].witness, id,
				       &ntprof_witness_presence[id]);
}

/**
 * ntprof_module_gen() - the generation of a module
 * @module: an enum ntprof_module_id, or %NTPROF_MOD_VMLINUX
 *
 * Context: Any; stable while the caller holds what serializes the
 * module notifier's calls of ntprof_module_changed() (hooks.c's lock).
 * Return: a number that changes whenever the module comes or goes.
 */
unsigned int ntprof_module_gen(unsigned int module)
{
	return module <= NTPROF_MOD_VMLINUX ? READ_ONCE(ntprof_gen[module]) : 0;
}

/**
 * ntprof_module_lookup() - which of ntprof's modules a module is
 * @mod: a module the module notifier reports
 *
 * Context: Any.
 * Return: its enum ntprof_module_id, or -1 for a module ntprof ignores.
 */
int ntprof_module_lookup(const struct module *mod)
{
	int id;

	for (id = 0; id < NTPROF_NR_MODULES; id++)
		if (!strcmp(ntprof_modules[id].name, mod->name))
			return id;
	return -1;
}

/**
 * ntprof_module_changed() - a module of ntprof's comes or goes
 * @id: its enum ntprof_module_id
 * @action: the module notifier's MODULE_STATE_*
 *
 * Ends the generation of the answers kept for its functions.
 *
 * Context: Process context, from the module notifier.
 */
void ntprof_module_changed(int id, unsigned long action)
{
	mutex_lock(&ntprof_witness_lock);
	WRITE_ONCE(ntprof_gen[id], ntprof_gen[id] + 1);
	ntprof_going[id] = action == MODULE_STATE_GOING;
	mutex_unlock(&ntprof_witness_lock);
}
