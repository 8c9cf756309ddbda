// SPDX-License-Identifier: GPL-2.0
/*
 * events-get's client: the first message of the dump counts the
 * session's events, each one after is an event. A reply that lacks what
 * an event needs (its type and time) is malformed: the drain fails
 * rather than write an event it made up.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "genl/session_events.h"

static const enum mnl_attr_data_type events_policy[NTPROF_A_EVENTS_MAX + 1] = {
	[NTPROF_A_EVENTS_ROLE] = MNL_TYPE_U32,
	[NTPROF_A_EVENTS_RECORDED] = MNL_TYPE_U64,
	[NTPROF_A_EVENTS_DROPS] = MNL_TYPE_U64,
	[NTPROF_A_EVENTS_TYPE] = MNL_TYPE_U32,
	[NTPROF_A_EVENTS_TIME] = MNL_TYPE_U64,
	[NTPROF_A_EVENTS_CTRL] = MNL_TYPE_U32,
	[NTPROF_A_EVENTS_OLD_STATE] = MNL_TYPE_U32,
	[NTPROF_A_EVENTS_NEW_STATE] = MNL_TYPE_U32,
};

static int events_malformed(struct session_events *out, const char *why)
{
	snprintf(out->why, sizeof(out->why), "malformed events-get reply: %s",
		 why);
	errno = EPROTO;
	return MNL_CB_ERROR;
}

static uint8_t state_of(const struct nlattr *attr)
{
	uint32_t v = attr ? mnl_attr_get_u32(attr) : 0;

	/* A state this tool does not know stays unknown, not another. */
	return v > UINT8_MAX ? UINT8_MAX : v;
}

int session_events_reply(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[NTPROF_A_EVENTS_MAX + 1];
	struct session_events *out = data;
	struct ntp_event *ev;
	uint32_t type;

	if (nl_parse(nlh, events_policy, tb, NTPROF_A_EVENTS_MAX))
		return events_malformed(out, "an attribute of the wrong size");
	if (tb[NTPROF_A_EVENTS_RECORDED] || tb[NTPROF_A_EVENTS_DROPS]) {
		if (tb[NTPROF_A_EVENTS_RECORDED])
			out->recorded =
				mnl_attr_get_u64(tb[NTPROF_A_EVENTS_RECORDED]);
		if (tb[NTPROF_A_EVENTS_DROPS])
			out->drops = mnl_attr_get_u64(tb[NTPROF_A_EVENTS_DROPS]);
		return MNL_CB_OK;
	}
	if (!tb[NTPROF_A_EVENTS_TYPE] || !tb[NTPROF_A_EVENTS_TIME])
		return events_malformed(out, "an event without its type or time");
	type = mnl_attr_get_u32(tb[NTPROF_A_EVENTS_TYPE]);
	if (!type || type > UINT8_MAX ||
	    !mnl_attr_get_u64(tb[NTPROF_A_EVENTS_TIME]))
		return events_malformed(out, "an event of type 0 or at time 0");
	if (out->n == out->cap) {
		size_t cap = out->cap ? 2 * out->cap : 64;

		if (cap > NTP_EVENTS_MAX)
			return events_malformed(out, "more events than a recording holds");
		ev = realloc(out->ev, cap * sizeof(*ev));
		if (!ev) {
			errno = ENOMEM;
			return MNL_CB_ERROR;
		}
		out->ev = ev;
		out->cap = cap;
	}
	ev = &out->ev[out->n++];
	ev->type = type;
	ev->time_mono_ns = mnl_attr_get_u64(tb[NTPROF_A_EVENTS_TIME]);
	ev->ctrl = tb[NTPROF_A_EVENTS_CTRL] ?
		   mnl_attr_get_u32(tb[NTPROF_A_EVENTS_CTRL]) : 0;
	ev->old_state = state_of(tb[NTPROF_A_EVENTS_OLD_STATE]);
	ev->new_state = state_of(tb[NTPROF_A_EVENTS_NEW_STATE]);
	return MNL_CB_OK;
}

static int events_put(struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_put_u32_check(nlh, NL_MSG_SIZE, NTPROF_A_EVENTS_ROLE,
				      ((struct session_events *)data)->role) ?
	       0 : -EMSGSIZE;
}

int session_events_get(struct nl_sock *sock, uint32_t role,
		       struct session_events *out)
{
	int err;

	out->why[0] = '\0';
	out->role = role;
	err = nl_request(sock, NTPROF_CMD_EVENTS_GET, NLM_F_DUMP, events_put,
			 session_events_reply, out);
	if (err == -EPROTO && out->why[0])
		nl_note(sock, out->why);
	return err;
}
