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

/* The definition of field @id (enum ntprof_layout_field), or NULL. */
const struct kbtf_field_def *kbtf_field(unsigned int id);

struct kbtf_layout {
	bool found[NTPROF_LF_COUNT];
	uint32_t offset[NTPROF_LF_COUNT];
	uint32_t size[NTPROF_LF_COUNT];
	/* The size of the struct that holds it: the module bounds the offset by it. */
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
 * Reads the fields of @role (NTPROF_ROLE_HOST: ids < NTPROF_LF_FIRST_TARGET;
 * NTPROF_ROLE_TARGET: the others; NTPROF_ROLE_NONE: all; any other value:
 * none) from the BTF files in @dir ("/sys/kernel/btf" normally: "vmlinux"
 * and one file per loaded module, raw BTF; a module's BTF is split BTF on
 * top of vmlinux's). A module that has no file there may be built in: its
 * structs are then looked for in vmlinux's BTF. Never fails as a whole: a
 * field that cannot be found is left !found with its why. Returns the
 * number found.
 */
int kbtf_layout_read(const char *dir, uint32_t role, struct kbtf_layout *l);

/*
 * Where the running kernel shows its BTF: /sys/kernel/btf, or the
 * directory NTPROF_BTF_DIR names (raw BTF files, named as there).
 */
const char *kbtf_sys_dir(void);

/* 1 << id of each field @l found. */
uint64_t kbtf_layout_found(const struct kbtf_layout *l);

#endif /* NTPROF_KBTF_H */
