// SPDX-License-Identifier: GPL-2.0
/*
 * The names a report prints: of op classes, sizes and devices (a group's
 * label), of the --detail components and of the stages, per transport and
 * per side that SPDK ran (Documentation/stages.rst, spdk.rst).
 */
#include <stdio.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/util.h"


enum ntprof_opclass ntprof_opclass_of(uint16_t qid, uint8_t opcode)
{
	/* The admin queue's opcodes are another set: 0x02 is Get Log Page. */
	if (!qid)
		return NTPROF_OPC_OTHER;
	switch (opcode) {
	case 0x02:
		return NTPROF_OPC_READ;
	case 0x01:
		return NTPROF_OPC_WRITE;
	}
	return NTPROF_OPC_OTHER;
}

const char *ntprof_opclass_name(enum ntprof_opclass op)
{
	switch (op) {
	case NTPROF_OPC_READ:
		return "read";
	case NTPROF_OPC_WRITE:
		return "write";
	case NTPROF_OPC_OTHER:
		return "other";
	default:
		return "any";
	}
}

const char *ntprof_size_str(uint32_t bytes, char *buf, size_t size)
{
	static const char * const unit[] = { "B", "KiB", "MiB", "GiB" };
	unsigned int u = 0;

	while (u < ARRAY_SIZE(unit) - 1 && bytes && !(bytes % 1024)) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, size, "%u%s", bytes, unit[u]);
	return buf;
}

const char *ntprof_dev_str(uint32_t dev, const struct ntprof_devname *map,
			   size_t nr, char *buf, size_t size)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (map[i].dev == dev && map[i].name) {
			snprintf(buf, size, "%s", map[i].name);
			return buf;
		}
	/* The kernel's new_decode_dev(): 12-bit major, 20-bit minor. */
	snprintf(buf, size, "dev %u:%u", (dev & 0xfff00) >> 8,
		 (dev & 0xff) | ((dev >> 12) & 0xfff00));
	return buf;
}

/*
 * ntprof_passthru_dev_str() - name a namespace's passthrough commands by its
 * char device. The kernel names that device after the disk: ngXnY beside
 * nvmeXnY, both with the subsystem's instance under native multipath (the
 * head's), else with the controller's. Passthrough commands through either
 * node (NVMe ioctls on the disk too) are the same requests of the same disk,
 * so their group goes by the char device.
 */
const char *ntprof_passthru_dev_str(uint32_t dev,
				    const struct ntprof_devname *map,
				    size_t nr, char *buf, size_t size)
{
	unsigned int x, y;
	char name[64];
	int end = 0;

	ntprof_dev_str(dev, map, nr, name, sizeof(name));
	if (sscanf(name, "nvme%un%u%n", &x, &y, &end) == 2 && !name[end] &&
	    name[4] >= '0' && name[4] <= '9')
		snprintf(buf, size, "ng%un%u", x, y);
	else
		snprintf(buf, size, "%s passthrough", name);
	return buf;
}

const char *ntprof_comp_name(enum ntprof_comp comp, uint8_t transport,
			     unsigned int stacks)
{
	static const char * const names[NTPROF_COMP_COUNT] = {
		[NTPROF_COMP_HOST_BLK_SUB] = "host block layer, submission",
		[NTPROF_COMP_HOST_DRV_SUB] = "host driver, submission",
		[NTPROF_COMP_WIRE] = "network: wire and NICs (computed)",
		[NTPROF_COMP_DATA_XFER] = "data transfer (RDMA, at the target)",
		[NTPROF_COMP_NET_TARGET] = "network and target (not recorded)",
		[NTPROF_COMP_TGT_DRV_SUB] = "target driver, submission",
		[NTPROF_COMP_HOST_DATA] = "network: host's data (write)",
		[NTPROF_COMP_STORAGE_BLK] = "storage: target block layer",
		[NTPROF_COMP_DRIVE] = "storage: drive",
		[NTPROF_COMP_TGT_DRV_COMP] = "target driver, completion",
		[NTPROF_COMP_HOST_RECV] = "network: host receive path",
		[NTPROF_COMP_HOST_DRV_COMP] = "host driver, completion",
		[NTPROF_COMP_HANDOFF] = "handoff to nvme_complete_rq",
		[NTPROF_COMP_HOST_BLK_COMP] = "host block layer, completion",
		[NTPROF_COMP_ABORTED_TRIES] = "outage: the aborted tries",
		[NTPROF_COMP_OUTAGE_WAIT] = "outage: wait for the next try",
		[NTPROF_COMP_E2E] = "end to end",
	};

	if ((unsigned int)comp >= NTPROF_COMP_COUNT)
		return "?";
	/* How the target gets a large write's data. */
	if (comp == NTPROF_COMP_HOST_DATA && transport == NTPROF_TRANSPORT_TCP)
		return "network: host's data (R2T, H2C data)";
	if (comp == NTPROF_COMP_HOST_DATA && transport == NTPROF_TRANSPORT_RDMA)
		return "network: host's data (RDMA READ)";
	/* SPDK's target has no point between the bdev and the drive. */
	if (comp == NTPROF_COMP_STORAGE_BLK &&
	    (stacks & NTPROF_STACK_TARGET_SPDK))
		return "storage: SPDK bdev and drive";
	return names[comp];
}

const char *ntprof_stage_name(enum ntprof_stage stage, uint8_t transport,
			      enum ntprof_kind kind, unsigned int stacks)
{
	static const char * const names[][NTPROF_STAGE_COUNT] = {
		[NTPROF_TRANSPORT_NONE] = {
			"host block layer", "host driver",
			"network (NICs, wire)",
			"network and target (not recorded)",
			"target driver",
			"storage (target block layer, drive)",
			"outage",
		},
		[NTPROF_TRANSPORT_TCP] = {
			"host block layer", "host driver (nvme-tcp)",
			"network (TCP/IP, NICs, wire)",
			"network and target (not recorded)",
			"target driver (nvmet-tcp)",
			"storage (target block layer, drive)",
			"outage",
		},
		[NTPROF_TRANSPORT_RDMA] = {
			"host block layer", "host driver (nvme-rdma)",
			"network (RDMA, NICs, wire)",
			"network and target (not recorded)",
			"target driver (nvmet-rdma)",
			"storage (target block layer, drive)",
			"outage",
		},
	};

	if ((unsigned int)stage >= NTPROF_STAGE_COUNT)
		return "?";
	/* Without the wire, all the network stage holds is this. */
	if (stage == NTPROF_STAGE_NETWORK && kind == NTPROF_KIND_HOST)
		return "host receive path";
	/* And at the target, a write's data on its way. */
	if (stage == NTPROF_STAGE_NETWORK && kind == NTPROF_KIND_TARGET)
		return "network (the host's data)";
	if (stacks & NTPROF_STACK_HOST_SPDK) {
		if (stage == NTPROF_STAGE_HOST_DRV)
			return "host driver (SPDK)";
	}
	if (stacks & NTPROF_STACK_TARGET_SPDK) {
		if (stage == NTPROF_STAGE_TGT_DRV)
			return "target driver (SPDK)";
		if (stage == NTPROF_STAGE_STORAGE)
			return "storage (SPDK bdev, drive)";
	}
	if (transport >= ARRAY_SIZE(names))
		transport = NTPROF_TRANSPORT_NONE;
	return names[transport][stage];
}

const enum ntprof_stage ntprof_stage_order[NTPROF_STAGE_COUNT] = {
	NTPROF_STAGE_OUTAGE, NTPROF_STAGE_HOST_BLK, NTPROF_STAGE_HOST_DRV, NTPROF_STAGE_NETWORK,
	NTPROF_STAGE_TGT_DRV, NTPROF_STAGE_STORAGE, NTPROF_STAGE_NET_TARGET,
};

static const char * const stage_id[NTPROF_STAGE_COUNT] = {
	[NTPROF_STAGE_HOST_BLK] = "host_block_layer",
	[NTPROF_STAGE_HOST_DRV] = "host_driver",
	[NTPROF_STAGE_NETWORK] = "network",
	[NTPROF_STAGE_NET_TARGET] = "network_and_target",
	[NTPROF_STAGE_TGT_DRV] = "target_driver",
	[NTPROF_STAGE_STORAGE] = "storage",
	[NTPROF_STAGE_OUTAGE] = "outage",
};

static const char * const comp_id[NTPROF_COMP_COUNT] = {
	[NTPROF_COMP_HOST_BLK_SUB] = "host_block_layer_submission",
	[NTPROF_COMP_HOST_DRV_SUB] = "host_driver_submission",
	[NTPROF_COMP_WIRE] = "network_wire",
	[NTPROF_COMP_DATA_XFER] = "data_transfer_at_target",
	[NTPROF_COMP_NET_TARGET] = "network_and_target",
	[NTPROF_COMP_TGT_DRV_SUB] = "target_driver_submission",
	[NTPROF_COMP_HOST_DATA] = "network_host_data_transfer",
	[NTPROF_COMP_STORAGE_BLK] = "storage_target_block_layer",
	[NTPROF_COMP_DRIVE] = "storage_drive",
	[NTPROF_COMP_TGT_DRV_COMP] = "target_driver_completion",
	[NTPROF_COMP_HOST_RECV] = "network_host_receive_path",
	[NTPROF_COMP_HOST_DRV_COMP] = "host_driver_completion",
	[NTPROF_COMP_HANDOFF] = "handoff_to_nvme_complete_rq",
	[NTPROF_COMP_HOST_BLK_COMP] = "host_block_layer_completion",
	[NTPROF_COMP_ABORTED_TRIES] = "outage_aborted_tries",
	[NTPROF_COMP_OUTAGE_WAIT] = "outage_wait",
	[NTPROF_COMP_E2E] = "end_to_end",
};

const char *ntprof_stage_id(enum ntprof_stage stage)
{
	return stage_id[stage];
}

const char *ntprof_comp_id(enum ntprof_comp comp)
{
	return comp_id[comp];
}
