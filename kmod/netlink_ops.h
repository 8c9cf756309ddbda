/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the ntprof family's commands share across files: the family,
 * and the commands that live outside netlink.c.
 */
#ifndef _NTPROF_NETLINK_OPS_H
#define _NTPROF_NETLINK_OPS_H

#include <linux/build_bug.h>
#include <linux/netlink.h>
#include <net/genetlink.h>
#include "ntprof.h"

extern struct genl_family ntprof_nl_family;

/*
 * Why a dump is refused. The dump's ->start() decides it and the dump
 * itself reports it: before 6.5, an error returned by ->start() reaches
 * userspace without its extack message.
 */
enum ntprof_nl_denial {
	NTPROF_NL_ALLOWED,
	NTPROF_NL_NO_ROLE,
	NTPROF_NL_NOT_CAPABLE,
	NTPROF_NL_NOT_OWNER,
};

/**
 * struct ntprof_nl_dump_ctx - the state a dump keeps between its calls
 * @next: the index of the next hook (probe-get), or the next CPU to read
 *	(stats-get, records-get)
 * @role: the role whose counters, records or events the dump reads;
 *	%NTPROF_ROLE_NONE when a request without a role is ambiguous
 * @gen: the generation of the session that the dump drains
 * @denied: why the dump is refused, %NTPROF_NL_ALLOWED if it is not
 * @summary_sent: events-get has sent its summary message
 *
 * The state lives in the callback's cb->args, which the netlink core
 * zeroes before a dump starts, as WireGuard's DUMP_CTX does.
 */
struct ntprof_nl_dump_ctx {
	unsigned int next;
	enum ntprof_role role;
	unsigned int gen;
	enum ntprof_nl_denial denied;
	bool summary_sent;
};

static_assert(sizeof(struct ntprof_nl_dump_ctx) <=
	      sizeof(((struct netlink_callback *)0)->args));

/* The state of the dump @cb belongs to. */
static inline struct ntprof_nl_dump_ctx *
ntprof_nl_dump_ctx(struct netlink_callback *cb)
{
	return (struct ntprof_nl_dump_ctx *)cb->args;
}

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
