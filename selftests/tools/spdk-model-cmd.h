/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SPDK's NVMe command as the SPDK models (spdk-model.c, spdk-host-model.c)
 * declare it: the names and members that ntprof's site maps read from a
 * program's DWARF, laid out as in SPDK's spdk/nvme_spec.h.
 */
#ifndef SPDK_MODEL_CMD_H
#define SPDK_MODEL_CMD_H

#include <stdint.h>

struct spdk_nvme_cmd {
	uint16_t opc : 8;
	uint16_t fuse : 2;
	uint16_t rsvd1 : 4;
	uint16_t psdt : 2;
	uint16_t cid;
	uint32_t nsid;
	uint32_t rsvd2;
	uint32_t rsvd3;
	uint64_t mptr;
	uint8_t dptr[16];
	uint32_t cdw10;
	uint32_t cdw11;
	uint32_t cdw12;
	uint32_t cdw13;
	uint32_t cdw14;
	uint32_t cdw15;
};

#endif /* SPDK_MODEL_CMD_H */
