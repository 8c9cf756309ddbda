/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which side an SPDK program is, and over which transport, when ntprof
 * run is not told (spdk_role.c).
 */
#ifndef NTPROF_SPDK_ROLE_H
#define NTPROF_SPDK_ROLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The transport a program's arguments name in an SPDK transport ID,
 * "trtype:RDMA" or "trtype=tcp" in any case (spdk_nvme_perf -r, the fio
 * plugin's filename): NTPROF_TRANSPORT_TCP or _RDMA; _NONE when none, or
 * when they name both (*@both set then).
 */
uint32_t spdk_args_transport(char *const args[], int nargs, bool *both);

/* Whether the program has every required site of @role over @transport. */
typedef bool (*spdk_has_sites)(void *ctx, uint32_t role, uint32_t transport);

/*
 * The role and transport to resolve the program's sites for: -r @role
 * and -t @transport as given (NONE when not), else the program's sites
 * decide the role (a target's when it has them, else a host's), and a
 * host's transport is -t, else the one its arguments @args name, else
 * the one transport whose host sites it has. 0 with *@role_out and
 * *@transport_out set (the sites may still be missing: resolving says
 * why); -EINVAL with one line in @why when it cannot be told.
 */
int spdk_choose(uint32_t role, uint32_t transport, char *const args[],
		int nargs, spdk_has_sites has, void *ctx, uint32_t *role_out,
		uint32_t *transport_out, char *why, size_t whylen);

#endif /* NTPROF_SPDK_ROLE_H */
