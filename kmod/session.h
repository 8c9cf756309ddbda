/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Recording sessions: at most one per role, a host one and a target one
 * possibly at the same time (a machine that is both, or the lab).
 */
#ifndef _NTPROF_SESSION_H
#define _NTPROF_SESSION_H

#include <uapi/linux/ntprof.h>

#include "session_types.h"

struct netlink_ext_ack;
struct sock;

int ntprof_session_start(const struct ntprof_session_config *cfg,
			 struct netlink_ext_ack *extack);
/* ntprof_session_stop()'s requester when the kernel stops sessions. */
#define NTPROF_OWNER_KERNEL	0

int ntprof_session_stop(enum ntprof_role role, u32 portid,
			const struct sock *sk, struct netlink_ext_ack *extack);
bool ntprof_session_may_drain(enum ntprof_role role, u32 portid,
			      const struct sock *sk, unsigned int gen);
void ntprof_session_released(u32 portid);
int ntprof_session_init(void);
void ntprof_session_exit(void);

#endif /* _NTPROF_SESSION_H */
