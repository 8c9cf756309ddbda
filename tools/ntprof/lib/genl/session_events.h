/* SPDX-License-Identifier: GPL-2.0 */
/*
 * events-get: the control-path events of a session (the module's
 * NTPROF_CMD_EVENTS_GET, Documentation/netlink/specs/ntprof.yaml), as
 * .ntp events (lib/ntp/ntp.h).
 */
#ifndef NTPROF_SESSION_EVENTS_H
#define NTPROF_SESSION_EVENTS_H

#include <stddef.h>
#include <stdint.h>
#include <libmnl/libmnl.h>

#include "genl/nl.h"
#include "ntp/ntp.h"

/* What a drain got: the events, and the module's counts of its session. */
struct session_events {
	struct ntp_event *ev;
	size_t n;
	size_t cap;
	uint64_t recorded;	/* since the session started */
	uint64_t drops;		/* ... lost, the module's buffer full */
	char why[96];		/* a malformed reply's reason */
	uint32_t role;		/* the request's, set by session_events_get() */
};

/*
 * session_events_get() - take @role's events out of the module and append
 * them to @out; the caller frees out->ev when done. It returns
 * -EOPNOTSUPP for a module without events-get, older than this tool, and
 * -EPROTO for a malformed reply, with the reason in out->why.
 */
int session_events_get(struct nl_sock *sock, uint32_t role,
		       struct session_events *out);

/*
 * session_events_reply() - parse one message of events-get's reply; an
 * mnl callback, exported for tests that build replies themselves.
 */
int session_events_reply(const struct nlmsghdr *nlh, void *data);

#endif /* NTPROF_SESSION_EVENTS_H */
