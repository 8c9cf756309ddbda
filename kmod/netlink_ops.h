/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the ntprof family's commands share across files: the family,
 * and the commands that live outside netlink.c.
 */
#ifndef _NTPROF_NETLINK_OPS_H
#define _NTPROF_NETLINK_OPS_H

#include <net/genetlink.h>
#include "ntprof.h"

extern struct genl_family ntprof_nl_family;

/* netlink_status.c */
extern const struct nla_policy
ntprof_status_get_nl_policy[NTPROF_A_STATUS_MAX + 1];
int ntprof_nl_status_get_doit(struct sk_buff *skb, struct genl_info *info);

/* netlink_events.c */
extern const struct nla_policy
ntprof_events_get_nl_policy[NTPROF_A_EVENTS_MAX + 1];
int ntprof_nl_events_get_start(struct netlink_callback *cb);
int ntprof_nl_events_get_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb);

#endif /* _NTPROF_NETLINK_OPS_H */
