// SPDX-License-Identifier: GPL-2.0
/*
 * The ntprof family's events-get: a dump that drains a role's
 * control-path events (events.h), for the socket that owns its session,
 * as records-get drains its records.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/mutex.h>
#include <linux/netlink.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include "events.h"
#include "netlink_ops.h"
#include "ntprof.h"
#include "session.h"

const struct nla_policy
ntprof_events_get_nl_policy[NTPROF_A_EVENTS_MAX + 1] = {
	[NTPROF_A_EVENTS_ROLE] =
		NLA_POLICY_RANGE(NLA_U32, NTPROF_ROLE_HOST, NTPROF_ROLE_TARGET),
	[NTPROF_A_EVENTS_RECORDED ... NTPROF_A_EVENTS_PAD] = {
		.type = NLA_REJECT,
		.reject_message = KBUILD_MODNAME ": events-get takes a role only",
	},
};

/**
 * ntprof_nl_events_get_start() - start an events-get dump
 * @cb: the dump's callback, whose context (struct ntprof_nl_dump_ctx)
 *	this fills in
 *
 * Notes the role, the generation of its session and whether the asking
 * socket may drain its events. A refusal is kept in the context and
 * reported by the dump itself, so that its extack message reaches
 * userspace on kernels before 6.5 too.
 *
 * Context: Process context; takes the session lock.
 * Return: 0.
 */
int ntprof_nl_events_get_start(struct netlink_callback *cb)
{
	struct ntprof_nl_dump_ctx *ctx = ntprof_nl_dump_ctx(cb);
	const struct nlattr *attr;

	attr = nlmsg_find_attr(cb->nlh, GENL_HDRLEN, NTPROF_A_EVENTS_ROLE);
	if (!attr) {
		ctx->denied = NTPROF_NL_NO_ROLE;
		return 0;
	}
	/* Events tell what the machine's controllers did, as records do. */
	if (!netlink_capable(cb->skb, CAP_SYS_ADMIN)) {
		ctx->denied = NTPROF_NL_NOT_CAPABLE;
		return 0;
	}
	ctx->role = nla_get_u32(attr);

	mutex_lock(&ntprof_session_lock);
	ctx->gen = ntprof_sessions[ctx->role].gen;
	if (!ntprof_session_may_drain(ctx->role, NETLINK_CB(cb->skb).portid,
				      NETLINK_CB(cb->skb).sk, UINT_MAX))
		ctx->denied = NTPROF_NL_NOT_OWNER;
	mutex_unlock(&ntprof_session_lock);
	return 0;
}

static int ntprof_nl_events_denied(struct netlink_callback *cb)
{
	switch (ntprof_nl_dump_ctx(cb)->denied) {
	case NTPROF_NL_NO_ROLE:
		NL_SET_ERR_MSG_MOD(cb->extack, "events-get needs a role");
		return -EINVAL;
	case NTPROF_NL_NOT_CAPABLE:
		NL_SET_ERR_MSG_MOD(cb->extack,
				   "reading a session's events needs CAP_SYS_ADMIN");
		return -EPERM;
	default:
		NL_SET_ERR_MSG_MOD(cb->extack,
				   "the session belongs to another socket: only its recorder drains it");
		return -EPERM;
	}
}

static int ntprof_nl_events_summary(struct sk_buff *skb,
				    struct netlink_callback *cb,
				    enum ntprof_role role)
{
	struct ntprof_events_count count;
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &ntprof_nl_family, NLM_F_MULTI,
			  NTPROF_CMD_EVENTS_GET);
	if (!hdr)
		return -EMSGSIZE;
	ntprof_events_count(role, &count);
	if (nla_put_u32(skb, NTPROF_A_EVENTS_ROLE, role) ||
	    nla_put_u64_64bit(skb, NTPROF_A_EVENTS_RECORDED, count.recorded,
			      NTPROF_A_EVENTS_PAD) ||
	    nla_put_u64_64bit(skb, NTPROF_A_EVENTS_DROPS, count.drops,
			      NTPROF_A_EVENTS_PAD)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static int ntprof_nl_event_fill(struct sk_buff *skb,
				struct netlink_callback *cb,
				enum ntprof_role role,
				const struct ntprof_event *ev)
{
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &ntprof_nl_family, NLM_F_MULTI,
			  NTPROF_CMD_EVENTS_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, NTPROF_A_EVENTS_ROLE, role) ||
	    nla_put_u32(skb, NTPROF_A_EVENTS_TYPE, ev->type) ||
	    nla_put_u64_64bit(skb, NTPROF_A_EVENTS_TIME, ev->ts,
			      NTPROF_A_EVENTS_PAD) ||
	    nla_put_u32(skb, NTPROF_A_EVENTS_CTRL, ev->ctrl) ||
	    (ev->type == NTPROF_EVENT_CTRL_STATE &&
	     (nla_put_u32(skb, NTPROF_A_EVENTS_OLD_STATE, ev->old_state) ||
	      nla_put_u32(skb, NTPROF_A_EVENTS_NEW_STATE, ev->new_state)))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/*
 * An event is taken from the buffer only once its message has room in
 * @skb: the largest message is far below a dump skb's size, so one that
 * did not fit goes first in the next.
 */
#define NTPROF_NL_EVENT_ROOM	128

/**
 * ntprof_nl_events_get_dumpit() - drain a role's control-path events
 * @skb: the message buffer to fill
 * @cb: the dump's callback, started by ntprof_nl_events_get_start()
 *
 * The first message is a summary (how many events the session recorded
 * and dropped); then a message per event, as many as fit. The events are
 * consumed. A dump ends early, with nothing more, once a new session of
 * the role has started.
 *
 * Context: Process context; takes the session lock.
 * Return: the length of @skb, 0 at the end, or a negative errno.
 */
int ntprof_nl_events_get_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb)
{
	struct ntprof_nl_dump_ctx *ctx = ntprof_nl_dump_ctx(cb);
	enum ntprof_role role = ctx->role;
	struct ntprof_event ev;
	int err = 0;

	if (ctx->denied != NTPROF_NL_ALLOWED)
		return ntprof_nl_events_denied(cb);

	mutex_lock(&ntprof_session_lock);
	if (!ntprof_session_may_drain(role, NETLINK_CB(cb->skb).portid,
				      NETLINK_CB(cb->skb).sk, ctx->gen))
		goto out;
	if (!ctx->summary_sent) {
		err = ntprof_nl_events_summary(skb, cb, role);
		if (err)
			goto out;
		ctx->summary_sent = true;
	}
	while (skb_tailroom(skb) >= NTPROF_NL_EVENT_ROOM &&
	       ntprof_events_take(role, &ev)) {
		err = ntprof_nl_event_fill(skb, cb, role, &ev);
		if (WARN_ON_ONCE(err))
			break;
	}
out:
	mutex_unlock(&ntprof_session_lock);
	return err ? err : skb->len;
}
