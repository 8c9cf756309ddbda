// SPDX-License-Identifier: GPL-2.0
/*
 * The ntprof generic-netlink family. Documentation/netlink/specs/ntprof.yaml
 * describes it; include/uapi/linux/ntprof.h is the contract with userspace.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/utsname.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include "modules.h"
#include "netlink.h"
#include "ntprof.h"

static struct genl_family ntprof_nl_family;

/*
 * status-get takes no attribute. Reject each one explicitly, rather than
 * leave the policy empty, so that the extack says why.
 */
static const struct nla_policy
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
	       nla_total_size(sizeof_field(struct new_utsname, release));

	for (i = 0; i < NTPROF_NR_MODULES; i++)
		size += nla_total_size(0) +
			nla_total_size(strlen(ntprof_modules[i].name) + 1) +
			3 * nla_total_size(sizeof(u32));

	return size;
}

static int ntprof_nl_module_fill(struct sk_buff *msg,
				 const struct ntprof_module *mod)
{
	struct nlattr *nest;

	nest = nla_nest_start(msg, NTPROF_A_STATUS_MODULE);
	if (!nest)
		return -EMSGSIZE;

	if (nla_put_string(msg, NTPROF_A_MODULE_NAME, mod->name) ||
	    nla_put_u32(msg, NTPROF_A_MODULE_ROLE, mod->role) ||
	    nla_put_u32(msg, NTPROF_A_MODULE_TRANSPORT, mod->transport) ||
	    nla_put_u32(msg, NTPROF_A_MODULE_PRESENT,
			ntprof_module_present(mod))) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}

	nla_nest_end(msg, nest);
	return 0;
}

static int ntprof_nl_status_fill(struct sk_buff *msg)
{
	unsigned int i;
	int err;

	if (nla_put_string(msg, NTPROF_A_STATUS_VERSION, NTPROF_VERSION) ||
	    nla_put_u32(msg, NTPROF_A_STATUS_STATE, ntprof_state_get()) ||
	    nla_put_string(msg, NTPROF_A_STATUS_KERNEL_RELEASE,
			   init_utsname()->release))
		return -EMSGSIZE;

	for (i = 0; i < NTPROF_NR_MODULES; i++) {
		err = ntprof_nl_module_fill(msg, &ntprof_modules[i]);
		if (err)
			return err;
	}

	return 0;
}

static int ntprof_nl_status_get_doit(struct sk_buff *skb,
				     struct genl_info *info)
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

static const struct genl_ops ntprof_nl_ops[] = {
	{
		.cmd = NTPROF_CMD_STATUS_GET,
		.doit = ntprof_nl_status_get_doit,
		.policy = ntprof_status_get_nl_policy,
		.maxattr = NTPROF_A_STATUS_MAX,
		.flags = GENL_ADMIN_PERM,
	},
};

static struct genl_family ntprof_nl_family __ro_after_init = {
	.name = NTPROF_FAMILY_NAME,
	.version = NTPROF_FAMILY_VERSION,
	/* Profiling is about the whole machine, not a network namespace. */
	.netnsok = false,
	/*
	 * Operations sleep for RCU grace periods (module presence checks):
	 * do not hold the genl mutex, which all families share, meanwhile.
	 * What needs serializing takes its own lock.
	 */
	.parallel_ops = true,
	.module = THIS_MODULE,
	.ops = ntprof_nl_ops,
	.n_ops = ARRAY_SIZE(ntprof_nl_ops),
	/*
	 * No command predates strict validation: from the first one on,
	 * the core requires a policy, rejects unknown attributes and checks
	 * the header's reserved fields.
	 */
	.resv_start_op = NTPROF_CMD_STATUS_GET,
};

/**
 * ntprof_netlink_init() - register the ntprof generic-netlink family
 *
 * Requests may arrive as soon as this returns.
 *
 * Context: Process context, module init.
 * Return: 0 on success, a negative errno otherwise.
 */
int __init ntprof_netlink_init(void)
{
	return genl_register_family(&ntprof_nl_family);
}

/**
 * ntprof_netlink_exit() - unregister the ntprof generic-netlink family
 *
 * Waits for the requests in progress to finish.
 *
 * Context: Process context.
 */
void ntprof_netlink_exit(void)
{
	genl_unregister_family(&ntprof_nl_family);
}

/*
 * No MODULE_ALIAS_GENL_FAMILY(): resolving the family would then load the
 * module, and "ntprof status" could never answer "not loaded". Loading a
 * profiler is the administrator's explicit choice (modprobe ntprof).
 */
