// SPDX-License-Identifier: GPL-2.0
/*
 * The ntprof family's status-get: the module's version and state, the
 * kernel's, which NVMe-oF modules are there, and the session that
 * dates the records (Documentation/netlink/specs/ntprof.yaml).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/string.h>
#include <linux/utsname.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include "layout.h"
#include "modules.h"
#include "netlink_ops.h"
#include "ntprof.h"
#include "session.h"

/*
 * status-get takes no attribute. Reject each one explicitly, rather than
 * leave the policy empty, so that the extack says why.
 */
const struct nla_policy
ntprof_status_get_nl_policy[NTPROF_A_STATUS_MAX + 1] = {
	[NTPROF_A_STATUS_VERSION ... NTPROF_A_STATUS_MAX] = {
		.type = NLA_REJECT,
		.reject_message = KBUILD_MODNAME ": status-get takes no attributes",
	},
};

/* An upper bound of a status reply's payload: it is never truncated. */
static size_t ntprof_nl_status_size(void)
{
	size_t size;
	unsigned int i;

	size = nla_total_size(sizeof(NTPROF_VERSION)) +
	       nla_total_size(sizeof(u32)) +
	       nla_total_size(sizeof_field(struct new_utsname, release)) +
	       4 * nla_total_size(sizeof(u32)) +
	       2 * nla_total_size_64bit(sizeof(u64));

	for (i = 0; i < NTPROF_NR_MODULES; i++)
		size += nla_total_size(0) +
			nla_total_size(strlen(ntprof_modules[i].name) + 1) +
			3 * nla_total_size(sizeof(u32));

	return size;
}

static int ntprof_nl_module_fill(struct sk_buff *msg, enum ntprof_module_id id)
{
	const struct ntprof_module *mod = &ntprof_modules[id];
	struct nlattr *nest;

	nest = nla_nest_start(msg, NTPROF_A_STATUS_MODULE);
	if (!nest)
		return -EMSGSIZE;

	if (nla_put_string(msg, NTPROF_A_MODULE_NAME, mod->name) ||
	    nla_put_u32(msg, NTPROF_A_MODULE_ROLE, mod->role) ||
	    nla_put_u32(msg, NTPROF_A_MODULE_TRANSPORT, mod->transport) ||
	    nla_put_u32(msg, NTPROF_A_MODULE_PRESENT,
			ntprof_module_present(id))) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}

	nla_nest_end(msg, nest);
	return 0;
}

/*
 * The session a status reply describes: the host's if it records, else
 * the target's if it records, else the one that stopped last, whose
 * start times still date the records left in the buffers.
 */
static const struct ntprof_session *ntprof_nl_status_session(void)
{
	const struct ntprof_session *host = &ntprof_sessions[NTPROF_ROLE_HOST];
	const struct ntprof_session *target =
		&ntprof_sessions[NTPROF_ROLE_TARGET];

	lockdep_assert_held(&ntprof_session_lock);

	if (host->active)
		return host;
	if (target->active)
		return target;
	if (!host->ever)
		return target->ever ? target : NULL;
	if (!target->ever)
		return host;
	return host->start_mono > target->start_mono ? host : target;
}

static int ntprof_nl_session_fill(struct sk_buff *msg)
{
	const struct ntprof_session *s;
	int err = 0;

	mutex_lock(&ntprof_session_lock);
	s = ntprof_nl_status_session();
	if (s &&
	    (nla_put_u32(msg, NTPROF_A_STATUS_ROLE, s->cfg.role) ||
	     nla_put_u32(msg, NTPROF_A_STATUS_TRANSPORT, s->cfg.transport) ||
	     nla_put_u32(msg, NTPROF_A_STATUS_SAMPLE, s->cfg.sample) ||
	     nla_put_u64_64bit(msg, NTPROF_A_STATUS_START_MONO, s->start_mono,
			       NTPROF_A_STATUS_PAD) ||
	     nla_put_u64_64bit(msg, NTPROF_A_STATUS_START_REAL, s->start_real,
			       NTPROF_A_STATUS_PAD) ||
	     (s->active && s->owner &&
	      nla_put_u32(msg, NTPROF_A_STATUS_OWNER_PID,
			  pid_vnr(s->owner))) ||
	     (s->cfg.chain &&
	      (nla_put_u32(msg, NTPROF_A_STATUS_CHAIN, 1) ||
	       nla_put_u64_64bit(msg, NTPROF_A_STATUS_CHAIN_OFFSET,
				 s->cfg.chain_offset, NTPROF_A_STATUS_PAD)))))
		err = -EMSGSIZE;
	mutex_unlock(&ntprof_session_lock);

	return err;
}

static int ntprof_nl_status_fill(struct sk_buff *msg)
{
	unsigned int i;
	int err;

	if (nla_put_string(msg, NTPROF_A_STATUS_VERSION, NTPROF_VERSION) ||
	    nla_put_u32(msg, NTPROF_A_STATUS_STATE, ntprof_state_get()) ||
	    nla_put_string(msg, NTPROF_A_STATUS_KERNEL_RELEASE,
			   init_utsname()->release) ||
	    nla_put_u64_64bit(msg, NTPROF_A_STATUS_LAYOUT_BUILTIN,
			      ntprof_layout_builtin(), NTPROF_A_STATUS_PAD))
		return -EMSGSIZE;

	for (i = 0; i < NTPROF_NR_MODULES; i++) {
		err = ntprof_nl_module_fill(msg, i);
		if (err)
			return err;
	}

	return ntprof_nl_session_fill(msg);
}

/**
 * ntprof_nl_status_get_doit() - answer a status-get request
 * @skb: the request
 * @info: the request's generic-netlink information
 *
 * The reply tells the module's version and state, the kernel's release,
 * which NVMe-oF modules are loaded, and the running sessions.
 *
 * Context: Process context; takes the session lock.
 * Return: 0, or a negative errno.
 */
int ntprof_nl_status_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	void *hdr;
	int err;

	msg = genlmsg_new(ntprof_nl_status_size(), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;

	hdr = genlmsg_put_reply(msg, info, &ntprof_nl_family, 0,
				NTPROF_CMD_STATUS_GET);
	if (!hdr) {
		err = -EMSGSIZE;
		goto free_msg;
	}

	err = ntprof_nl_status_fill(msg);
	if (err)
		goto free_msg;

	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

free_msg:
	/* Only a wrong size estimate leads here: a bug, make it visible. */
	NL_SET_ERR_MSG_MOD(info->extack, "status reply does not fit");
	nlmsg_free(msg);
	return err;
}
