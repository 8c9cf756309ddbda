// SPDX-License-Identifier: GPL-2.0
/*
 * The uprobe sites of a start request (NTPROF_A_START_USITE), parsed
 * into struct ntprof_usite_spec. The netlink core has validated each
 * site against ntprof_usite_nl_policy already; what a policy cannot say
 * is checked here, each refusal with an extack message that points at
 * the attribute. Nothing here opens a file or places a probe: uprobes.c
 * does, with the specs.
 */
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/log2.h>
#include <linux/string.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include "compat.h"
#include "uprobes.h"
#include "usite_parse.h"

/*
 * A fetch's width is checked to be a power of two by the parser: the
 * policy can only give the range.
 */
static const struct nla_policy ntprof_fetch_nl_policy[NTPROF_A_FETCH_MAX + 1] = {
	[NTPROF_A_FETCH_REG] = NLA_POLICY_MAX(NLA_U32, NTPROF_FETCH_REGS - 1),
	[NTPROF_A_FETCH_DEREF] = { .type = NLA_S32 },
	[NTPROF_A_FETCH_OFFSET] = { .type = NLA_S32 },
	[NTPROF_A_FETCH_WIDTH] = NLA_POLICY_RANGE(NLA_U32, 1, 8),
};

const struct nla_policy ntprof_usite_nl_policy[NTPROF_A_USITE_MAX + 1] = {
	[NTPROF_A_USITE_PATH] = { .type = NLA_NUL_STRING, .len = PATH_MAX - 1 },
	[NTPROF_A_USITE_OFFSET] = { .type = NLA_U64 },
	[NTPROF_A_USITE_POINT] = NLA_POLICY_MAX(NLA_U32, NTPROF_PT_COUNT - 1),
	[NTPROF_A_USITE_FLAGS] =
		NLA_POLICY_MASK(NLA_U32, NTPROF_USITE_F_FIRST |
					 NTPROF_USITE_F_LAST),
	[NTPROF_A_USITE_KEY ... NTPROF_A_USITE_LENGTH] =
		NLA_POLICY_NESTED(ntprof_fetch_nl_policy),
	[NTPROF_A_USITE_TRANSPORT] =
		NLA_POLICY_RANGE(NLA_U32, NTPROF_TRANSPORT_TCP,
				 NTPROF_TRANSPORT_RDMA),
	[NTPROF_A_USITE_TRTYPE] = NLA_POLICY_NESTED(ntprof_fetch_nl_policy),
	/* A descriptor is an int: checked by the parser. */
	[NTPROF_A_USITE_FD] = { .type = NLA_U32 },
};

static int ntprof_usite_parse_fetch(const struct nlattr *nest,
				    struct ntprof_fetch *f,
				    struct netlink_ext_ack *extack)
{
	struct nlattr *tb[NTPROF_A_FETCH_MAX + 1];
	struct nlattr *attr;
	int err, rem;
	u32 width;

	err = nla_parse_nested(tb, NTPROF_A_FETCH_MAX, nest,
			       ntprof_fetch_nl_policy, extack);
	if (err)
		return err;
	if (NL_REQ_ATTR_CHECK(extack, nest, tb, NTPROF_A_FETCH_REG)) {
		NL_SET_ERR_MSG_ATTR(extack, nest, "a fetch needs its register");
		return -EINVAL;
	}

	memset(f, 0, sizeof(*f));
	f->set = true;
	f->reg = nla_get_u32(tb[NTPROF_A_FETCH_REG]);

	/* The loads are made in the order of their attributes. */
	nla_for_each_nested(attr, nest, rem) {
		if (nla_type(attr) != NTPROF_A_FETCH_DEREF)
			continue;
		if (f->nr_derefs == NTPROF_FETCH_DEREFS_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "a fetch has at most 4 dereferences");
			return -EINVAL;
		}
		f->derefs[f->nr_derefs++] = nla_get_s32(attr);
	}

	if (tb[NTPROF_A_FETCH_OFFSET])
		f->offset = nla_get_s32(tb[NTPROF_A_FETCH_OFFSET]);

	if (tb[NTPROF_A_FETCH_WIDTH]) {
		width = nla_get_u32(tb[NTPROF_A_FETCH_WIDTH]);
		if (!is_power_of_2(width)) {
			NL_SET_ERR_MSG_ATTR(extack, tb[NTPROF_A_FETCH_WIDTH],
					    "a fetch reads 1, 2, 4 or 8 bytes");
			return -EINVAL;
		}
		f->width = width;
	}
	return 0;
}

/* Whether a point is one of the role's: records hold one role's points. */
static bool ntprof_usite_point_of(u32 point, enum ntprof_role role)
{
	if (role == NTPROF_ROLE_HOST)
		return point < NTPROF_PT_TARGET_RECV;
	return point >= NTPROF_PT_TARGET_RECV && point < NTPROF_PT_COUNT;
}

/* The site's binary, offset, point and flags: what every site has. */
static int ntprof_usite_parse_probe(struct nlattr **tb, struct nlattr *nest,
				    struct ntprof_usite_spec *spec,
				    enum ntprof_role role,
				    struct netlink_ext_ack *extack)
{
	if (NL_REQ_ATTR_CHECK(extack, nest, tb, NTPROF_A_USITE_PATH) ||
	    NL_REQ_ATTR_CHECK(extack, nest, tb, NTPROF_A_USITE_OFFSET) ||
	    NL_REQ_ATTR_CHECK(extack, nest, tb, NTPROF_A_USITE_POINT) ||
	    NL_REQ_ATTR_CHECK(extack, nest, tb, NTPROF_A_USITE_KEY) ||
	    NL_REQ_ATTR_CHECK(extack, nest, tb, NTPROF_A_USITE_FD)) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "a uprobe site needs a path, a file descriptor, an offset, a point and a key");
		return -EINVAL;
	}

	spec->attr = nest;
	spec->path = nla_data(tb[NTPROF_A_USITE_PATH]);
	spec->offset = nla_get_u64(tb[NTPROF_A_USITE_OFFSET]);
	spec->act.point = nla_get_u32(tb[NTPROF_A_USITE_POINT]);
	spec->fd = nla_get_u32(tb[NTPROF_A_USITE_FD]);
	if (spec->fd > INT_MAX) {
		NL_SET_ERR_MSG_ATTR(extack, tb[NTPROF_A_USITE_FD],
				    "the file descriptor of a uprobe site is not one");
		return -EBADF;
	}
	if (tb[NTPROF_A_USITE_FLAGS])
		spec->act.flags = nla_get_u32(tb[NTPROF_A_USITE_FLAGS]);

	/* Resolved in the caller's root and working directory otherwise. */
	if (spec->path[0] != '/') {
		NL_SET_ERR_MSG_ATTR(extack, tb[NTPROF_A_USITE_PATH],
				    "the path of a uprobe site must be absolute");
		return -EINVAL;
	}
	if (spec->offset > LLONG_MAX) {
		NL_SET_ERR_MSG_ATTR(extack, tb[NTPROF_A_USITE_OFFSET],
				    "the offset of a uprobe site is too large");
		return -EINVAL;
	}
	if (!ntprof_usite_point_of(spec->act.point, role)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[NTPROF_A_USITE_POINT],
				    "a uprobe site stamps a point of its session's role");
		return -EINVAL;
	}
	return 0;
}

/*
 * The site's fetches: the key, and for a first site the identity and
 * the transport type.
 */
static int ntprof_usite_parse_fetches(struct nlattr **tb,
				      struct ntprof_usite_spec *spec,
				      struct netlink_ext_ack *extack)
{
	unsigned int i;
	int err;

	err = ntprof_usite_parse_fetch(tb[NTPROF_A_USITE_KEY], &spec->act.key,
				       extack);
	if (err)
		return err;

	BUILD_BUG_ON(NTPROF_A_USITE_LENGTH - NTPROF_A_USITE_QID + 1 !=
		     NTPROF_UID_COUNT);
	for (i = 0; i < NTPROF_UID_COUNT; i++) {
		struct nlattr *attr = tb[NTPROF_A_USITE_QID + i];

		if (!attr)
			continue;
		if (!(spec->act.flags & NTPROF_USITE_F_FIRST)) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "only the first site of a command fetches its identity");
			return -EINVAL;
		}
		err = ntprof_usite_parse_fetch(attr, &spec->act.id[i], extack);
		if (err)
			return err;
	}

	if (tb[NTPROF_A_USITE_TRANSPORT])
		spec->act.transport = nla_get_u32(tb[NTPROF_A_USITE_TRANSPORT]);
	if (!tb[NTPROF_A_USITE_TRTYPE])
		return 0;
	if (!(spec->act.flags & NTPROF_USITE_F_FIRST) || spec->act.transport) {
		NL_SET_ERR_MSG_ATTR(extack, tb[NTPROF_A_USITE_TRTYPE],
				    "only a first site of any transport fetches the transport type");
		return -EINVAL;
	}
	return ntprof_usite_parse_fetch(tb[NTPROF_A_USITE_TRTYPE],
					&spec->act.trtype, extack);
}

static int ntprof_usite_parse(struct nlattr *nest,
			      struct ntprof_usite_spec *spec,
			      enum ntprof_role role,
			      struct netlink_ext_ack *extack)
{
	struct nlattr *tb[NTPROF_A_USITE_MAX + 1];
	int err;

	err = nla_parse_nested(tb, NTPROF_A_USITE_MAX, nest,
			       ntprof_usite_nl_policy, extack);
	if (err)
		return err;

	memset(spec, 0, sizeof(*spec));
	err = ntprof_usite_parse_probe(tb, nest, spec, role, extack);
	if (err)
		return err;
	return ntprof_usite_parse_fetches(tb, spec, extack);
}

/**
 * ntprof_usites_parse() - parse the uprobe sites of a start request
 * @info: the request, validated against its policy by the netlink core
 * @role: the role of the session it starts
 * @specs: where to put the sites, room for %NTPROF_USITES_MAX
 * @nr: set to the number of sites, 0 if the request has none
 *
 * Every NTPROF_A_START_USITE in order: info->attrs holds only the last of
 * a repeated attribute. At least one site is first and one is last. The
 * specs point into the request, valid while it is handled.
 *
 * Context: Process context, in the start request.
 * Return: 0, or a negative errno with the reason in info->extack.
 */
int ntprof_usites_parse(struct genl_info *info, enum ntprof_role role,
			struct ntprof_usite_spec *specs, unsigned int *nr)
{
	unsigned int n = 0, first = 0, last = 0;
	struct nlattr *attr;
	int err, rem;

	nla_for_each_attr(attr, genlmsg_data(info->genlhdr),
			  genlmsg_len(info->genlhdr), rem) {
		if (nla_type(attr) != NTPROF_A_START_USITE)
			continue;
		if (n == NTPROF_USITES_MAX) {
			NL_SET_ERR_MSG_ATTR(info->extack, attr,
					    "a session has at most 16 uprobe sites");
			return -E2BIG;
		}
		err = ntprof_usite_parse(attr, &specs[n], role, info->extack);
		if (err)
			return err;
		first += !!(specs[n].act.flags & NTPROF_USITE_F_FIRST);
		last += !!(specs[n].act.flags & NTPROF_USITE_F_LAST);
		n++;
	}

	if (n && !first) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "no uprobe site is the first of its commands");
		return -EINVAL;
	}
	if (n && !last) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "no uprobe site is the last of its commands");
		return -EINVAL;
	}
	*nr = n;
	return 0;
}

