// SPDX-License-Identifier: GPL-2.0
/*
 * The ntprof generic-netlink family. Documentation/netlink/specs/ntprof.yaml
 * describes it; include/uapi/linux/ntprof.h is the contract with userspace.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/log2.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/stddef.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include "buffer.h"
#include "compat.h"
#include "hooks.h"
#include "layout.h"
#include "modules.h"
#include "netlink.h"
#include "netlink_ops.h"
#include "ntprof.h"
#include "session.h"
#include "uprobes.h"
#include "usite_parse.h"

/*
 * NLA_POLICY_RANGE() bounds are s16: too narrow for N. Not const: 6.1's
 * struct nla_policy points to a mutable one.
 */
static struct netlink_range_validation ntprof_sample_range __ro_after_init = {
	.min = 1,
	.max = NTPROF_SAMPLE_MAX,
};

static const struct nla_policy ntprof_start_nl_policy[NTPROF_A_START_MAX + 1] = {
	[NTPROF_A_START_ROLE] =
		NLA_POLICY_RANGE(NLA_U32, NTPROF_ROLE_HOST, NTPROF_ROLE_TARGET),
	/* NONE: every transport. */
	[NTPROF_A_START_TRANSPORT] =
		NLA_POLICY_MAX(NLA_U32, NTPROF_TRANSPORT_RDMA),
	[NTPROF_A_START_SAMPLE] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ntprof_sample_range),
	[NTPROF_A_START_DEV] = NLA_POLICY_MIN(NLA_U32, 1),
	[NTPROF_A_START_OPS] =
		NLA_POLICY_MASK(NLA_U32, NTPROF_OP_READ | NTPROF_OP_WRITE |
					 NTPROF_OP_OTHER),
	[NTPROF_A_START_MIN_LEN] = { .type = NLA_U32 },
	[NTPROF_A_START_MAX_LEN] = { .type = NLA_U32 },
	[NTPROF_A_START_USITE] = NLA_POLICY_NESTED(ntprof_usite_nl_policy),
	/* Validated by ntprof_layout_parse(), against its own policy. */
	[NTPROF_A_START_LAYOUT] = { .type = NLA_NESTED },
	[NTPROF_A_START_PID] = NLA_POLICY_MIN(NLA_U32, 1),
	[NTPROF_A_START_DRAIN_PORTID] = NLA_POLICY_MIN(NLA_U32, 1),
	[NTPROF_A_START_HOOK_SET] =
		NLA_POLICY_MAX(NLA_U32, NTPROF_HOOK_SET_STAGES),
	[NTPROF_A_START_CHAIN] = NLA_POLICY_MAX(NLA_U32, 1),
	[NTPROF_A_START_CHAIN_OFFSET] = { .type = NLA_U64 },
};

/*
 * Parse what a start request asks to record: role, transport, sampling
 * and filters (everything except the layout and the uprobe sites, which
 * are parsed elsewhere).
 */
static int ntprof_nl_start_config(struct genl_info *info,
				  struct ntprof_session_config *cfg)
{
	struct nlattr **attrs = info->attrs;

	if (GENL_REQ_ATTR_CHECK(info, NTPROF_A_START_ROLE) ||
	    GENL_REQ_ATTR_CHECK(info, NTPROF_A_START_TRANSPORT))
		return -EINVAL;

	cfg->role = nla_get_u32(attrs[NTPROF_A_START_ROLE]);
	cfg->transport = nla_get_u32(attrs[NTPROF_A_START_TRANSPORT]);
	if (attrs[NTPROF_A_START_SAMPLE])
		cfg->sample = nla_get_u32(attrs[NTPROF_A_START_SAMPLE]);
	if (attrs[NTPROF_A_START_OPS])
		cfg->ops = nla_get_u32(attrs[NTPROF_A_START_OPS]);
	if (attrs[NTPROF_A_START_MIN_LEN])
		cfg->min_len = nla_get_u32(attrs[NTPROF_A_START_MIN_LEN]);
	if (attrs[NTPROF_A_START_MAX_LEN])
		cfg->max_len = nla_get_u32(attrs[NTPROF_A_START_MAX_LEN]);

	if (attrs[NTPROF_A_START_DEV]) {
		if (cfg->role != NTPROF_ROLE_HOST) {
			NL_SET_ERR_MSG_ATTR(info->extack,
					    attrs[NTPROF_A_START_DEV],
					    "the device filter is for host sessions only");
			return -EINVAL;
		}
		cfg->dev = nla_get_u32(attrs[NTPROF_A_START_DEV]);
	}

	if (attrs[NTPROF_A_START_PID]) {
		if (!attrs[NTPROF_A_START_USITE]) {
			NL_SET_ERR_MSG_ATTR(info->extack,
					    attrs[NTPROF_A_START_PID],
					    "the pid filter is for sessions of uprobe sites");
			return -EINVAL;
		}
		cfg->pid = nla_get_u32(attrs[NTPROF_A_START_PID]);
	}

	if (attrs[NTPROF_A_START_HOOK_SET]) {
		cfg->hook_set = nla_get_u32(attrs[NTPROF_A_START_HOOK_SET]);
		/* The tool picks the sites; a lean set of them is its choice. */
		if (cfg->hook_set != NTPROF_HOOK_SET_ALL &&
		    attrs[NTPROF_A_START_USITE]) {
			NL_SET_ERR_MSG_ATTR(info->extack,
					    attrs[NTPROF_A_START_HOOK_SET],
					    "the stages-only hook set is for kernel hooks, not uprobe sites");
			return -EINVAL;
		}
	}

	if (attrs[NTPROF_A_START_CHAIN])
		cfg->chain = nla_get_u32(attrs[NTPROF_A_START_CHAIN]);
	/*
	 * The sites' identities are fetched by the tool's own choice of
	 * fields; the chain rule is the kernel hooks' for now.
	 */
	if (cfg->chain && attrs[NTPROF_A_START_USITE]) {
		NL_SET_ERR_MSG_ATTR(info->extack, attrs[NTPROF_A_START_CHAIN],
				    "the chain rule is for kernel hooks, not uprobe sites");
		return -EINVAL;
	}
	if (attrs[NTPROF_A_START_CHAIN_OFFSET]) {
		if (!cfg->chain) {
			NL_SET_ERR_MSG_ATTR(info->extack,
					    attrs[NTPROF_A_START_CHAIN_OFFSET],
					    "the chain offset needs the chain rule");
			return -EINVAL;
		}
		cfg->chain_offset =
			nla_get_u64(attrs[NTPROF_A_START_CHAIN_OFFSET]);
	}

	if (!cfg->ops) {
		NL_SET_ERR_MSG_ATTR(info->extack, attrs[NTPROF_A_START_OPS],
				    "the op filter selects no command");
		return -EINVAL;
	}

	if (cfg->min_len > cfg->max_len) {
		NL_SET_ERR_MSG_ATTR(info->extack,
				    attrs[NTPROF_A_START_MAX_LEN] ?:
				    attrs[NTPROF_A_START_MIN_LEN],
				    "the minimum length exceeds the maximum");
		return -EINVAL;
	}
	return 0;
}

static int ntprof_nl_start_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ntprof_session_config cfg = {
		.sample = NTPROF_SAMPLE_DEFAULT,
		.ops = NTPROF_OP_READ | NTPROF_OP_WRITE | NTPROF_OP_OTHER,
		.min_len = 0,
		.max_len = U32_MAX,
	};
	struct nlattr **attrs = info->attrs;
	struct ntprof_usite_spec *specs;
	struct ntprof_layout layout;
	int err;

	/*
	 * A session places uprobes in any program, copies its memory into
	 * records and sets offsets the kernel hooks follow: what the
	 * kernel asks CAP_SYS_ADMIN for, where GENL_ADMIN_PERM checks only
	 * CAP_NET_ADMIN (Documentation/security.rst).
	 */
	if (!netlink_capable(skb, CAP_SYS_ADMIN)) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "starting a session needs CAP_SYS_ADMIN");
		return -EPERM;
	}
	cfg.owner_portid = info->snd_portid;
	cfg.owner_sk = NETLINK_CB(skb).sk;
	if (attrs[NTPROF_A_START_DRAIN_PORTID])
		cfg.drain_portid =
			nla_get_u32(attrs[NTPROF_A_START_DRAIN_PORTID]);

	err = ntprof_nl_start_config(info, &cfg);
	if (err)
		return err;

	err = ntprof_layout_parse(info, cfg.role, &layout);
	if (err)
		return err;
	cfg.layout = &layout;

	if (!attrs[NTPROF_A_START_USITE])
		return ntprof_session_start(&cfg, info->extack);

	specs = kcalloc(NTPROF_USITES_MAX, sizeof(*specs), GFP_KERNEL);
	if (!specs)
		return -ENOMEM;
	err = ntprof_usites_parse(info, cfg.role, specs, &cfg.nr_usites);
	cfg.usites = specs;
	if (!err)
		err = ntprof_session_start(&cfg, info->extack);
	kfree(specs);
	return err;
}

/* stop takes the role of the session to stop; without it, all stop. */
static const struct nla_policy ntprof_stop_nl_policy[NTPROF_A_START_MAX + 1] = {
	[NTPROF_A_START_ROLE] =
		NLA_POLICY_RANGE(NLA_U32, NTPROF_ROLE_HOST, NTPROF_ROLE_TARGET),
	[NTPROF_A_START_TRANSPORT ... NTPROF_A_START_MAX] = {
		.type = NLA_REJECT,
		.reject_message = KBUILD_MODNAME ": stop takes a role only",
	},
};

static int ntprof_nl_stop_doit(struct sk_buff *skb, struct genl_info *info)
{
	enum ntprof_role role = NTPROF_ROLE_NONE;

	if (!netlink_capable(skb, CAP_SYS_ADMIN)) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "stopping a session needs CAP_SYS_ADMIN");
		return -EPERM;
	}
	if (info->attrs[NTPROF_A_START_ROLE])
		role = nla_get_u32(info->attrs[NTPROF_A_START_ROLE]);

	return ntprof_session_stop(role, info->snd_portid, NETLINK_CB(skb).sk,
				   info->extack);
}

static const struct nla_policy
ntprof_probe_get_nl_policy[NTPROF_A_HOOK_MAX + 1] = {
	[NTPROF_A_HOOK_NAME ... NTPROF_A_HOOK_MAX] = {
		.type = NLA_REJECT,
		.reject_message = KBUILD_MODNAME ": probe-get takes no attributes",
	},
};

static int ntprof_nl_hook_fill(struct sk_buff *msg, struct ntprof_hook *hook)
{
	if (nla_put_string(msg, NTPROF_A_HOOK_NAME, hook->name) ||
	    nla_put_u32(msg, NTPROF_A_HOOK_KIND, hook->kind) ||
	    nla_put_u32(msg, NTPROF_A_HOOK_ROLE, hook->role) ||
	    nla_put_u32(msg, NTPROF_A_HOOK_TRANSPORT, hook->transport) ||
	    (hook->point != NTPROF_PT_NONE &&
	     nla_put_u32(msg, NTPROF_A_HOOK_POINT, hook->point)) ||
	    nla_put_u32(msg, NTPROF_A_HOOK_REQUIRED, hook->required) ||
	    nla_put_u32(msg, NTPROF_A_HOOK_STATE, ntprof_hook_state(hook)) ||
	    nla_put_u64_64bit(msg, NTPROF_A_HOOK_HITS, ntprof_hook_hits(hook),
			      NTPROF_A_HOOK_PAD) ||
	    nla_put_u64_64bit(msg, NTPROF_A_HOOK_FIELDS, hook->fields,
			      NTPROF_A_HOOK_PAD) ||
	    nla_put_u64_64bit(msg, NTPROF_A_HOOK_FIELDS_MISSING,
			      ntprof_layout_missing(hook->fields),
			      NTPROF_A_HOOK_PAD) ||
	    nla_put_u32(msg, NTPROF_A_HOOK_DETAIL, ntprof_hook_detail(hook)))
		return -EMSGSIZE;
	return 0;
}

/* Send a message per hook, from the one at ctx->next on. */
static int ntprof_nl_probe_get_dumpit(struct sk_buff *skb,
				      struct netlink_callback *cb)
{
	struct ntprof_nl_dump_ctx *ctx = ntprof_nl_dump_ctx(cb);
	struct ntprof_hook *hook;
	void *hdr;

	for (; (hook = ntprof_hook_get(ctx->next)); ctx->next++) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &ntprof_nl_family,
				  NLM_F_MULTI, NTPROF_CMD_PROBE_GET);
		if (!hdr)
			break;
		if (ntprof_nl_hook_fill(skb, hook)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}

	return skb->len;
}

static int ntprof_nl_dump_denied(struct netlink_callback *cb)
{
	if (ntprof_nl_dump_ctx(cb)->denied == NTPROF_NL_NOT_CAPABLE)
		NL_SET_ERR_MSG_MOD(cb->extack,
				   "reading a session's records or counters needs CAP_SYS_ADMIN");
	else
		NL_SET_ERR_MSG_MOD(cb->extack,
				   "the session belongs to another socket: only its recorder drains it");
	return -EPERM;
}

/*
 * Records and counters show what the probed programs did: CAP_SYS_ADMIN,
 * as for starting the session.
 */
static void ntprof_nl_dump_check_capable(struct netlink_callback *cb)
{
	ntprof_nl_dump_ctx(cb)->denied =
		netlink_capable(cb->skb, CAP_SYS_ADMIN) ?
		NTPROF_NL_ALLOWED : NTPROF_NL_NOT_CAPABLE;
}

/*
 * Choose the role whose buffers a stats-get or records-get dump reads:
 * the one the request names, else the only one that has had a session
 * since the module was loaded (the host if neither has). When both have
 * had one, a request without a role is ambiguous: the role is then
 * NTPROF_ROLE_NONE, which the dump rejects rather than mix the two
 * roles' records or counters.
 */
static void ntprof_nl_dump_role(struct netlink_callback *cb, int attrtype)
{
	struct ntprof_nl_dump_ctx *ctx = ntprof_nl_dump_ctx(cb);
	const struct nlattr *attr;
	bool host, target;

	/* The core validated the request against the policy already. */
	attr = nlmsg_find_attr(cb->nlh, GENL_HDRLEN, attrtype);
	if (attr) {
		ctx->role = nla_get_u32(attr);
		return;
	}

	host = ntprof_buffer_used(NTPROF_ROLE_HOST);
	target = ntprof_buffer_used(NTPROF_ROLE_TARGET);
	if (host && target)
		ctx->role = NTPROF_ROLE_NONE;
	else
		ctx->role = target ? NTPROF_ROLE_TARGET : NTPROF_ROLE_HOST;
}

/*
 * Reject a request that names no role when both roles have had a
 * session. The dump rejects it, not its start: before 6.5, an error
 * returned by a dump's ->start() reaches userspace without its extack
 * message.
 */
static int ntprof_nl_dump_ambiguous(struct netlink_callback *cb)
{
	NL_SET_ERR_MSG_MOD(cb->extack,
			   "host and target sessions have run: the request needs a role");
	return -EINVAL;
}

static const struct nla_policy
ntprof_stats_get_nl_policy[NTPROF_A_STATS_MAX + 1] = {
	[NTPROF_A_STATS_CPU ... NTPROF_A_STATS_PAD] = {
		.type = NLA_REJECT,
		.reject_message = KBUILD_MODNAME ": stats-get takes a role only",
	},
	[NTPROF_A_STATS_ROLE] =
		NLA_POLICY_RANGE(NLA_U32, NTPROF_ROLE_HOST, NTPROF_ROLE_TARGET),
};

static int ntprof_nl_stats_get_start(struct netlink_callback *cb)
{
	ntprof_nl_dump_check_capable(cb);
	ntprof_nl_dump_role(cb, NTPROF_A_STATS_ROLE);
	return 0;
}

static int ntprof_nl_stats_fill(struct sk_buff *msg, struct ntprof_buffer *b,
				enum ntprof_role role, int cpu)
{
	struct ntprof_cpu_stats st;

	ntprof_buffer_stats(b, cpu, &st);

	if (nla_put_u32(msg, NTPROF_A_STATS_CPU, cpu) ||
	    nla_put_u32(msg, NTPROF_A_STATS_ROLE, role) ||
	    nla_put_u64_64bit(msg, NTPROF_A_STATS_RECORDS, st.records,
			      NTPROF_A_STATS_PAD) ||
	    nla_put_u64_64bit(msg, NTPROF_A_STATS_DROPS, st.drops,
			      NTPROF_A_STATS_PAD) ||
	    nla_put_u64_64bit(msg, NTPROF_A_STATS_FILL,
			      ntprof_buffer_fill(b, cpu), NTPROF_A_STATS_PAD) ||
	    nla_put_u64_64bit(msg, NTPROF_A_STATS_SAMPLED, st.sampled,
			      NTPROF_A_STATS_PAD) ||
	    nla_put_u64_64bit(msg, NTPROF_A_STATS_SEEN, st.seen,
			      NTPROF_A_STATS_PAD) ||
	    nla_put_u64_64bit(msg, NTPROF_A_STATS_EVICTED, st.evicted,
			      NTPROF_A_STATS_PAD))
		return -EMSGSIZE;
	return 0;
}

/* Send a message per possible CPU, from the one at ctx->next on. */
static int ntprof_nl_stats_get_dumpit(struct sk_buff *skb,
				      struct netlink_callback *cb)
{
	struct ntprof_nl_dump_ctx *ctx = ntprof_nl_dump_ctx(cb);
	enum ntprof_role role = ctx->role;
	struct ntprof_buffer *b;
	void *hdr;
	int cpu;

	if (ctx->denied != NTPROF_NL_ALLOWED)
		return ntprof_nl_dump_denied(cb);
	if (role == NTPROF_ROLE_NONE)
		return ntprof_nl_dump_ambiguous(cb);

	b = ntprof_buffer_get(role);
	for (cpu = ctx->next; cpu < nr_cpu_ids; cpu++) {
		if (!cpu_possible(cpu))
			continue;
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &ntprof_nl_family,
				  NLM_F_MULTI, NTPROF_CMD_STATS_GET);
		if (!hdr)
			break;
		if (ntprof_nl_stats_fill(skb, b, role, cpu)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	ntprof_buffer_put(b);
	ctx->next = cpu;

	return skb->len;
}

static const struct nla_policy
ntprof_records_get_nl_policy[NTPROF_A_RECORDS_MAX + 1] = {
	[NTPROF_A_RECORDS_DATA] = {
		.type = NLA_REJECT,
		.reject_message = KBUILD_MODNAME ": records-get takes a role only",
	},
	[NTPROF_A_RECORDS_ROLE] =
		NLA_POLICY_RANGE(NLA_U32, NTPROF_ROLE_HOST, NTPROF_ROLE_TARGET),
};

/*
 * Start a records-get dump: note the generation of the session whose
 * records it drains. Records are consumed: only the socket that owns the
 * session (or the second socket it named) drains them, so that one
 * recorder never takes another's records, and a drain under way ends
 * where a new session starts.
 */
static int ntprof_nl_records_get_start(struct netlink_callback *cb)
{
	struct ntprof_nl_dump_ctx *ctx = ntprof_nl_dump_ctx(cb);

	ntprof_nl_dump_check_capable(cb);
	ntprof_nl_dump_role(cb, NTPROF_A_RECORDS_ROLE);
	if (ctx->denied != NTPROF_NL_ALLOWED || ctx->role == NTPROF_ROLE_NONE)
		return 0;

	mutex_lock(&ntprof_session_lock);
	ctx->gen = ntprof_sessions[ctx->role].gen;
	if (!ntprof_session_may_drain(ctx->role, NETLINK_CB(cb->skb).portid,
				      NETLINK_CB(cb->skb).sk, UINT_MAX))
		ctx->denied = NTPROF_NL_NOT_OWNER;
	mutex_unlock(&ntprof_session_lock);
	return 0;
}

/*
 * One message of records of a CPU, as many whole compact records as fit
 * in what is left of @skb, back to back. Return: the number of records,
 * 0 with nothing added to @skb, or -EMSGSIZE when not even one record
 * fits.
 */
static int ntprof_nl_records_fill(struct sk_buff *skb,
				  struct netlink_callback *cb,
				  struct ntprof_buffer *b, int cpu)
{
	unsigned int room, used = 0;
	struct nlattr *attr;
	int n = 0, len;
	void *hdr, *data;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &ntprof_nl_family, NLM_F_MULTI,
			  NTPROF_CMD_RECORDS_GET);
	if (!hdr)
		return -EMSGSIZE;

	/*
	 * The attribute's length must fit a u16; records are multiples of
	 * 4 bytes, so a multiple of 4 leaves no padding to add.
	 */
	room = skb_tailroom(skb);
	room = room > NLA_HDRLEN ? room - NLA_HDRLEN : 0;
	room = round_down(min_t(unsigned int, room, U16_MAX - NLA_HDRLEN),
			  NLA_ALIGNTO);
	if (room < sizeof(struct ntprof_crec)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}

	attr = nla_reserve(skb, NTPROF_A_RECORDS_DATA, room);
	if (!attr) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}

	data = nla_data(attr);
	while ((len = ntprof_buffer_consume(b, cpu, data + used,
					    room - used)) > 0) {
		used += len;
		n++;
	}

	if (!n) {
		genlmsg_cancel(skb, hdr);
		return len;
	}

	attr->nla_len = nla_attr_size(used);
	nlmsg_trim(skb, data + used);
	genlmsg_end(skb, hdr);

	return n;
}

/*
 * Drain the role's records, CPU by CPU from the one at ctx->next on. The
 * records are consumed: a second dump gets only the records finished
 * since. Producers may add records meanwhile; the dump leaves a CPU once
 * a message was not filled.
 */
static int ntprof_nl_records_get_dumpit(struct sk_buff *skb,
					struct netlink_callback *cb)
{
	struct ntprof_nl_dump_ctx *ctx = ntprof_nl_dump_ctx(cb);
	enum ntprof_role role = ctx->role;
	struct ntprof_buffer *b;
	int cpu, n;

	if (ctx->denied != NTPROF_NL_ALLOWED)
		return ntprof_nl_dump_denied(cb);
	if (role == NTPROF_ROLE_NONE)
		return ntprof_nl_dump_ambiguous(cb);

	/* Held across: no start frees or replaces the buffers meanwhile. */
	mutex_lock(&ntprof_session_lock);
	if (!ntprof_session_may_drain(role, NETLINK_CB(cb->skb).portid,
				      NETLINK_CB(cb->skb).sk, ctx->gen)) {
		mutex_unlock(&ntprof_session_lock);
		return 0;
	}
	b = ntprof_buffer_get(role);
	for (cpu = ctx->next; cpu < nr_cpu_ids; cpu++) {
		if (!cpu_possible(cpu))
			continue;
		do {
			n = ntprof_nl_records_fill(skb, cb, b, cpu);
			if (n < 0)
				goto out;
		} while (n > 0);
	}
out:
	ntprof_buffer_put(b);
	mutex_unlock(&ntprof_session_lock);
	ctx->next = cpu;

	return skb->len;
}

static const struct genl_ops ntprof_nl_ops[] = {
	{
		.cmd = NTPROF_CMD_STATUS_GET,
		.doit = ntprof_nl_status_get_doit,
		.policy = ntprof_status_get_nl_policy,
		.maxattr = NTPROF_A_STATUS_MAX,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = NTPROF_CMD_START,
		.doit = ntprof_nl_start_doit,
		.policy = ntprof_start_nl_policy,
		.maxattr = NTPROF_A_START_MAX,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = NTPROF_CMD_STOP,
		.doit = ntprof_nl_stop_doit,
		.policy = ntprof_stop_nl_policy,
		.maxattr = NTPROF_A_START_MAX,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = NTPROF_CMD_PROBE_GET,
		.dumpit = ntprof_nl_probe_get_dumpit,
		.policy = ntprof_probe_get_nl_policy,
		.maxattr = NTPROF_A_HOOK_MAX,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = NTPROF_CMD_STATS_GET,
		.start = ntprof_nl_stats_get_start,
		.dumpit = ntprof_nl_stats_get_dumpit,
		.policy = ntprof_stats_get_nl_policy,
		.maxattr = NTPROF_A_STATS_MAX,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = NTPROF_CMD_RECORDS_GET,
		.start = ntprof_nl_records_get_start,
		.dumpit = ntprof_nl_records_get_dumpit,
		.policy = ntprof_records_get_nl_policy,
		.maxattr = NTPROF_A_RECORDS_MAX,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = NTPROF_CMD_EVENTS_GET,
		.start = ntprof_nl_events_get_start,
		.dumpit = ntprof_nl_events_get_dumpit,
		.policy = ntprof_events_get_nl_policy,
		.maxattr = NTPROF_A_EVENTS_MAX,
		.flags = GENL_ADMIN_PERM,
	},
};

struct genl_family ntprof_nl_family __ro_after_init = {
	.name = NTPROF_FAMILY_NAME,
	.version = NTPROF_FAMILY_VERSION,
	/* Profiling is about the whole machine, not a network namespace. */
	.netnsok = false,
	/*
	 * Operations sleep for RCU grace periods (module presence checks,
	 * hook detaching): do not hold the genl mutex, which all families
	 * share, meanwhile. What needs serializing takes its own lock, the
	 * session lock.
	 */
	.parallel_ops = true,
	.module = THIS_MODULE,
	.ops = ntprof_nl_ops,
	.n_ops = ARRAY_SIZE(ntprof_nl_ops),
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
	/*
	 * No command predates strict validation: from the first one on,
	 * the core requires a policy, rejects unknown attributes and checks
	 * the header's reserved fields.
	 */
	ntprof_genl_strict_from(&ntprof_nl_family, NTPROF_CMD_STATUS_GET);
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
