// SPDX-License-Identifier: GPL-2.0
/*
 * The names of the module's enums, in one table each, so that debugfs
 * and the kernel log spell a role or a transport the same way, and as
 * the netlink spec and the ntprof tool do.
 */
#include <linux/kernel.h>
#include <linux/string.h>

#include "names.h"

static const char * const ntprof_state_names[] = {
	[NTPROF_STATE_IDLE] = "idle",
	[NTPROF_STATE_RECORDING] = "recording",
};

static const char * const ntprof_role_names[] = {
	[NTPROF_ROLE_NONE] = "none",
	[NTPROF_ROLE_HOST] = "host",
	[NTPROF_ROLE_TARGET] = "target",
};

static const char * const ntprof_transport_names[] = {
	[NTPROF_TRANSPORT_NONE] = "none",
	[NTPROF_TRANSPORT_TCP] = "tcp",
	[NTPROF_TRANSPORT_RDMA] = "rdma",
};

/* Only the module's own kinds: the userspace sites are the tool's. */
static const char * const ntprof_hook_kind_names[] = {
	[NTPROF_HOOK_TRACEPOINT] = "tracepoint",
	[NTPROF_HOOK_FUNCTION] = "function",
};

static const char * const ntprof_hook_state_names[] = {
	[NTPROF_HOOK_MISSING] = "missing",
	[NTPROF_HOOK_AVAILABLE] = "available",
	[NTPROF_HOOK_ATTACHED] = "attached",
};

/*
 * Look a value up in a table of names. A value without a name is a bug,
 * but not one that should crash a read of debugfs: it is "unknown".
 */
static const char *ntprof_name(const char * const *names, size_t count,
			       unsigned int value)
{
	if (value >= count || !names[value])
		return "unknown";
	return names[value];
}

/**
 * ntprof_state_name() - the name of a module state
 * @state: %NTPROF_STATE_IDLE or %NTPROF_STATE_RECORDING
 *
 * Return: "idle" or "recording"; "unknown" for another value.
 */
const char *ntprof_state_name(enum ntprof_state state)
{
	return ntprof_name(ntprof_state_names, ARRAY_SIZE(ntprof_state_names),
			   state);
}

/**
 * ntprof_role_name() - the name of a role
 * @role: an enum ntprof_role value
 *
 * Return: "none", "host" or "target"; "unknown" for another value.
 */
const char *ntprof_role_name(enum ntprof_role role)
{
	return ntprof_name(ntprof_role_names, ARRAY_SIZE(ntprof_role_names),
			   role);
}

/**
 * ntprof_role_from_name() - the role a name stands for
 * @name: "host" or "target"
 *
 * Return: %NTPROF_ROLE_HOST or %NTPROF_ROLE_TARGET, or %NTPROF_ROLE_NONE
 * for any other name (including "none").
 */
enum ntprof_role ntprof_role_from_name(const char *name)
{
	int i = match_string(ntprof_role_names, ARRAY_SIZE(ntprof_role_names),
			     name);

	return i > 0 ? i : NTPROF_ROLE_NONE;
}

/**
 * ntprof_transport_name() - the name of a transport
 * @transport: an enum ntprof_transport value
 *
 * Return: "none", "tcp" or "rdma"; "unknown" for another value.
 */
const char *ntprof_transport_name(enum ntprof_transport transport)
{
	return ntprof_name(ntprof_transport_names,
			   ARRAY_SIZE(ntprof_transport_names), transport);
}

/**
 * ntprof_hook_kind_name() - the name of a kind of kernel hook
 * @kind: %NTPROF_HOOK_TRACEPOINT or %NTPROF_HOOK_FUNCTION
 *
 * Return: "tracepoint" or "function"; "unknown" for another value.
 */
const char *ntprof_hook_kind_name(enum ntprof_hook_kind kind)
{
	return ntprof_name(ntprof_hook_kind_names,
			   ARRAY_SIZE(ntprof_hook_kind_names), kind);
}

/**
 * ntprof_hook_state_name() - the name of a hook's state
 * @state: an enum ntprof_hook_state value
 *
 * Return: "missing", "available" or "attached"; "unknown" for another
 * value.
 */
const char *ntprof_hook_state_name(enum ntprof_hook_state state)
{
	return ntprof_name(ntprof_hook_state_names,
			   ARRAY_SIZE(ntprof_hook_state_names), state);
}
