/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A site as the agent stamps it: the function's point of a command, and
 * the fetches that name the command, in the kernel's uprobe model
 * (Documentation/ntprof.rst, Fetches): an argument register, pointer
 * loads, an offset, a read of 1, 2, 4 or 8 bytes, or the address.
 */
#ifndef NTPROF_AGENT_SITE_H
#define NTPROF_AGENT_SITE_H

#include <stdint.h>
#include <uapi/linux/ntprof.h>

#define AGENT_DEREFS_MAX	4

struct agent_fetch {
	uint8_t set;
	uint8_t reg;		/* 0..5: rdi, rsi, rdx, rcx, r8, r9 */
	uint8_t nr_derefs;
	uint8_t width;		/* 0: the address itself */
	int32_t derefs[AGENT_DEREFS_MAX];
	int32_t offset;
};

/*
 * The fetches of a site, in the order of the uapi's NTPROF_A_USITE_KEY
 * on; then the NVMe-oF transport type (1 RDMA, 3 TCP, low 8 bits) of a
 * first site whose transport is not fixed.
 */
enum agent_field {
	AGENT_F_KEY, AGENT_F_QID, AGENT_F_CID, AGENT_F_OPCODE, AGENT_F_NSID,
	AGENT_F_SLBA, AGENT_F_NLB, AGENT_F_LENGTH, AGENT_F_TRTYPE,
	AGENT_F_COUNT,
};

/**
 * struct agent_site - one patched function's part in a command
 * @point: the enum ntprof_point it stamps
 * @flags: NTPROF_USITE_F_FIRST, NTPROF_USITE_F_LAST
 * @role: NTPROF_ROLE_HOST or NTPROF_ROLE_TARGET
 * @transport: its commands' enum ntprof_transport, or 0: the trtype
 *	fetch's
 * @f: the key, and on a first site the identity, length and trtype
 */
struct agent_site {
	uint32_t point;
	uint32_t flags;
	uint32_t role;
	uint32_t transport;
	struct agent_fetch f[AGENT_F_COUNT];
};

#endif /* NTPROF_AGENT_SITE_H */
