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

/*
 * cb->args[0]: the role; cb->args[1]: the generation of its session;
 * cb->args[2]: why the dump is refused, 0 if it is not (told by the dump
 * itself: before 6.5, an error of ->start() loses its extack message);
 * cb->args[3]: the summary message was sent.
 */
enum {
	NTPROF_EV_ALLOWED,
	NTPROF_EV_NO_ROLE,
	NTPROF_EV_NOT_CAPABLE,
	NTPROF_EV_NOT_OWNER,
};

int ntprof_nl_events_get_start(struct netlink_callback *cb)
{
	const struct nlattr *attr;
	enum ntprof_role role;

	attr = nlmsg_find_attr(cb->nlh, GENL_HDRLEN, NTPROF_A_EVENTS_ROLE);
	if (!attr) {
		cb->args[2] = NTPROF_EV_NO_ROLE;
		return 0;
	}
	/* Events tell what the machine's controllers did: as records. */
	if (!netlink_capable(cb->skb, CAP_SYS_ADMIN)) {
		cb->args[2] = NTPROF_EV_NOT_CAPABLE;
		return 0;
	}
	role = nla_get_u32(attr);
	cb->args[0] = role;

	mutex_lock(&ntprof_session_lock);
	cb->args[1] = ntprof_sessions[role].gen;
	if (!ntprof_session_may_drain(role, NETLINK_CB(cb->skb).portid,
				      NETLINK_CB(cb->skb).sk, UINT_MAX))
		cb->args[2] = NTPROF_EV_NOT_OWNER;
	mutex_unlock(&ntprof_session_lock);
	return 0;
}

static int ntprof_nl_events_denied(struct netlink_callback *cb)
{
	switch (cb->args[2]) {
	case NTPROF_EV_NO_ROLE:
		NL_SET_ERR_MSG_MOD(cb->extack, "events-get needs a role");
		return -EINVAL;
	case NTPROF_EV_NOT_CAPABLE:
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

int ntprof_nl_events_get_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb)
{
	enum ntprof_role role = cb->args[0];
	struct ntprof_event ev;
	int err = 0;

	if (cb->args[2] != NTPROF_EV_ALLOWED)
		return ntprof_nl_events_denied(cb);

	mutex_lock(&ntprof_session_lock);
	if (!ntprof_session_may_drain(role, NETLINK_CB(cb->skb).portid,
				      NETLINK_CB(cb->skb).sk, cb->args[1]))
		goto out;
	if (!cb->args[3]) {
		err = ntprof_nl_events_summary(skb, cb, role);
		if (err)
			goto out;
		cb->args[3] = 1;
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
