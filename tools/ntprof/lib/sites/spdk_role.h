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
 * spdk_args_transport() - return the transport that a program's arguments
 * name in an SPDK transport ID, "trtype:RDMA" or "trtype=tcp" in any case
 * (spdk_nvme_perf -r, the fio plugin's filename): NTPROF_TRANSPORT_TCP or
 * _RDMA. It returns _NONE when they name none, or when they name both, in
 * which case it sets *@both.
 */
uint32_t spdk_args_transport(char *const args[], int nargs, bool *both);

/*
 * A callback that tells whether the program has every required site of
 * @role over @transport.
 */
typedef bool (*spdk_has_sites)(void *ctx, uint32_t role, uint32_t transport);

/*
 * spdk_choose() - choose the role and transport for which to resolve the
 * program's sites. -r @role and -t @transport win when given (they are
 * NONE when not). Otherwise the program's sites decide the role: a
 * target's when it has them, else a host's. A host's transport is -t,
 * else the one that its arguments @args name, else the one transport
 * whose host sites the program has. It returns 0 with *@role_out and
 * *@transport_out set (the sites may still be missing, and resolving them
 * says why), or -EINVAL with one line in @why when it cannot tell.
 */
int spdk_choose(uint32_t role, uint32_t transport, char *const args[],
		int nargs, spdk_has_sites has, void *ctx, uint32_t *role_out,
		uint32_t *transport_out, char *why, size_t whylen);

#endif /* NTPROF_SPDK_ROLE_H */
