/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/*
 * ntprof: the generic-netlink family between the ntprof kernel module and
 * the ntprof tool. Documentation/netlink/specs/ntprof.yaml is the reference.
 */
#ifndef _UAPI_LINUX_NTPROF_H
#define _UAPI_LINUX_NTPROF_H

#define NTPROF_FAMILY_NAME	"ntprof"
#define NTPROF_FAMILY_VERSION	1

/* What a session is doing. */
enum ntprof_state {
	NTPROF_STATE_IDLE,
	NTPROF_STATE_RECORDING,
};

/* The side of the fabric a hook or a session belongs to. */
enum ntprof_role {
	NTPROF_ROLE_NONE,
	NTPROF_ROLE_HOST,
	NTPROF_ROLE_TARGET,
};

enum ntprof_transport {
	NTPROF_TRANSPORT_NONE,
	NTPROF_TRANSPORT_TCP,
	NTPROF_TRANSPORT_RDMA,
};

/* One kernel module of the NVMe-oF stack, nested in a status reply. */
enum {
	NTPROF_A_MODULE_UNSPEC,
	NTPROF_A_MODULE_NAME,		/* string: "nvme_tcp" */
	NTPROF_A_MODULE_ROLE,		/* u32: enum ntprof_role */
	NTPROF_A_MODULE_TRANSPORT,	/* u32: enum ntprof_transport */
	NTPROF_A_MODULE_PRESENT,	/* u32: 1 when loaded */

	__NTPROF_A_MODULE_MAX,
	NTPROF_A_MODULE_MAX = (__NTPROF_A_MODULE_MAX - 1)
};

enum {
	NTPROF_A_STATUS_UNSPEC,
	NTPROF_A_STATUS_VERSION,	/* string: the module's version */
	NTPROF_A_STATUS_STATE,		/* u32: enum ntprof_state */
	NTPROF_A_STATUS_KERNEL_RELEASE,	/* string: uname -r */
	NTPROF_A_STATUS_MODULE,		/* nest, multi-attr: NTPROF_A_MODULE_* */

	__NTPROF_A_STATUS_MAX,
	NTPROF_A_STATUS_MAX = (__NTPROF_A_STATUS_MAX - 1)
};

enum {
	NTPROF_CMD_UNSPEC,
	NTPROF_CMD_STATUS_GET,

	__NTPROF_CMD_MAX,
	NTPROF_CMD_MAX = (__NTPROF_CMD_MAX - 1)
};

#endif /* _UAPI_LINUX_NTPROF_H */
