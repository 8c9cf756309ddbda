/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's <linux/nvme.h>, for kmod/ code in unit tests: the 64-byte
 * submission queue entry as the NVMe base specification lays it out,
 * its common fields named as the kernel names them.
 */
#ifndef NTPROF_KSHIM_NVME_H
#define NTPROF_KSHIM_NVME_H

#include "../kshim.h"

struct nvme_common_command {
	u8 opcode;
	u8 flags;
	u16 command_id;
	__le32 nsid;
	__le32 cdw2[2];
	__le64 metadata;
	__le64 dptr[2];
	__le32 cdw10;
	__le32 cdw11;
	__le32 cdw12;
	__le32 cdw13;
	__le32 cdw14;
	__le32 cdw15;
};

struct nvme_command {
	union {
		struct nvme_common_command common;
	};
};

_Static_assert(sizeof(struct nvme_command) == 64, "an SQE is 64 bytes");

#endif /* NTPROF_KSHIM_NVME_H */
