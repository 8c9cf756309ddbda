/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The uprobe sites of a start request: their attributes checked and
 * turned into the struct ntprof_usite_spec that uprobes.c registers.
 */
#ifndef _NTPROF_USITE_PARSE_H
#define _NTPROF_USITE_PARSE_H

#include <net/netlink.h>

#include <uapi/linux/ntprof.h>

struct genl_info;
struct ntprof_usite_spec;

/* Of an NTPROF_A_START_USITE nest: the start request's policy nests it. */
extern const struct nla_policy ntprof_usite_nl_policy[NTPROF_A_USITE_MAX + 1];

int ntprof_usites_parse(struct genl_info *info, enum ntprof_role role,
			struct ntprof_usite_spec *specs, unsigned int *nr);

#endif /* _NTPROF_USITE_PARSE_H */
