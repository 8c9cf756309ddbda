/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The names of the module's enums, as the netlink spec
 * (Documentation/netlink/specs/ntprof.yaml) spells them, for debugfs
 * and the kernel log. Netlink itself carries the numbers.
 */
#ifndef _NTPROF_NAMES_H
#define _NTPROF_NAMES_H

#include <uapi/linux/ntprof.h>

const char *ntprof_state_name(enum ntprof_state state);
const char *ntprof_role_name(enum ntprof_role role);
enum ntprof_role ntprof_role_from_name(const char *name);
const char *ntprof_transport_name(enum ntprof_transport transport);
const char *ntprof_hook_kind_name(enum ntprof_hook_kind kind);
const char *ntprof_hook_state_name(enum ntprof_hook_state state);

#endif /* _NTPROF_NAMES_H */
