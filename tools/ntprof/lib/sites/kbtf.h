/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The layouts of the transports' private kernel structs (enum
 * ntprof_layout_field), read from the running kernel's BTF with libbpf:
 * /sys/kernel/btf/vmlinux, and a file per loaded module whose BTF is
 * split BTF on top of vmlinux's.
 */
#ifndef NTPROF_KBTF_H
#define NTPROF_KBTF_H

#include <stdbool.h>
#include <stdint.h>
#include <uapi/linux/ntprof.h>

/* Where a field's struct lives: the module whose BTF has it. */
struct kbtf_field_def {
	const char *module;	/* "nvme_core", "nvme_rdma", "nvmet", "nvmet_tcp", "nvmet_rdma" */
	const char *st;		/* "nvme_request" */
	const char *member;	/* "cmd" */
	uint32_t size;		/* expected bytes; 0: any */
};

/*
 * kbtf_field() - return the definition of field @id (enum
 * ntprof_layout_field), or NULL.
 */
const struct kbtf_field_def *kbtf_field(unsigned int id);

struct kbtf_layout {
	bool found[NTPROF_LF_COUNT];
	uint32_t offset[NTPROF_LF_COUNT];
	uint32_t size[NTPROF_LF_COUNT];
	/* The size of the field's struct, which bounds the offset. */
	uint32_t st_size[NTPROF_LF_COUNT];
	/*
	 * Why a field is not found, one short line: "no BTF for module
	 * nvmet (not loaded?)", "struct nvmet_sq has no member qid",
	 * "nvmet_sq.qid is 4 bytes, not 2", "no BTF in this kernel".
	 * Empty for the fields of another role, which are not read.
	 */
	char why[NTPROF_LF_COUNT][96];
};

/*
 * kbtf_layout_read() - read the fields of @role from the BTF files in @dir
 * into @l. NTPROF_ROLE_HOST reads the ids below NTPROF_LF_FIRST_TARGET,
 * NTPROF_ROLE_TARGET the others, NTPROF_ROLE_NONE all of them, and any
 * other value none. @dir is normally "/sys/kernel/btf", which holds
 * "vmlinux" and one file per loaded module, in raw BTF; a module's BTF is
 * split BTF on top of vmlinux's. A module that has no file there may be
 * built in, so its structs are then looked for in vmlinux's BTF. The
 * function never fails as a whole: it leaves a field that it cannot find
 * !found, with the reason in its why. It returns the number of fields
 * found.
 */
int kbtf_layout_read(const char *dir, uint32_t role, struct kbtf_layout *l);

/*
 * kbtf_sys_dir() - return the directory where the running kernel shows
 * its BTF: /sys/kernel/btf, or the directory that NTPROF_BTF_DIR names
 * (raw BTF files, named as in /sys/kernel/btf).
 */
const char *kbtf_sys_dir(void);

/*
 * kbtf_layout_found() - return a mask with bit @id set for each field
 * that @l found.
 */
uint64_t kbtf_layout_found(const struct kbtf_layout *l);

#endif /* NTPROF_KBTF_H */
