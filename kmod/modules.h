/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel modules of the NVMe-oF stack that ntprof knows about.
 */
#ifndef _NTPROF_MODULES_H
#define _NTPROF_MODULES_H

#include <linux/types.h>

#include <uapi/linux/ntprof.h>

/* Indexes into ntprof_modules[], in the order status replies list them. */
enum ntprof_module_id {
	NTPROF_MOD_NVME_CORE,
	NTPROF_MOD_NVME_TCP,
	NTPROF_MOD_NVME_RDMA,
	NTPROF_MOD_NVMET,
	NTPROF_MOD_NVMET_TCP,
	NTPROF_MOD_NVMET_RDMA,

	NTPROF_NR_MODULES
};

/**
 * struct ntprof_module - a kernel module of the NVMe-oF stack
 * @name: the module's name, as in /proc/modules
 * @role: the side of the fabric the module serves
 * @transport: the fabric it drives, %NTPROF_TRANSPORT_NONE for the cores
 * @witness: a function that only exists while the module is loaded
 */
struct ntprof_module {
	const char *name;
	enum ntprof_role role;
	enum ntprof_transport transport;
	const char *witness;
};

extern const struct ntprof_module ntprof_modules[NTPROF_NR_MODULES];

/* The "module" of functions in the kernel proper, which never goes. */
#define NTPROF_MOD_VMLINUX	NTPROF_NR_MODULES

/**
 * struct ntprof_presence - a function's presence, as last checked
 * @gen: the generation of its module the answer is for
 * @known: it was checked in that generation
 * @present: the answer
 */
struct ntprof_presence {
	unsigned int gen;
	bool known;
	bool present;
};

struct module;

bool ntprof_function_present(const char *name, unsigned int module,
			     struct ntprof_presence *cache);
bool ntprof_module_present(enum ntprof_module_id id);
unsigned int ntprof_module_gen(unsigned int module);
int ntprof_module_lookup(const struct module *mod);
void ntprof_module_changed(int id, unsigned long action);

#endif /* _NTPROF_MODULES_H */
