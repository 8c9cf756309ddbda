/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ntprof generic-netlink family, the ntprof tool's way in.
 */
#ifndef _NTPROF_NETLINK_H
#define _NTPROF_NETLINK_H

int ntprof_netlink_init(void);
void ntprof_netlink_exit(void);

#endif /* _NTPROF_NETLINK_H */
