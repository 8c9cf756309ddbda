/* SPDX-License-Identifier: GPL-2.0 */
/*
 * State shared by the parts of the ntprof module.
 */
#ifndef _NTPROF_NTPROF_H
#define _NTPROF_NTPROF_H

#include <linux/compiler.h>

#include <uapi/linux/ntprof.h>

/* Use the accessors below: they are what makes lockless use safe. */
extern enum ntprof_state ntprof_cur_state;

/*
 * Written by session.c under the session lock, as sessions start and
 * stop; read without it by status-get and debugfs. The I/O path does
 * not read it: a hook checks its own role's session (ntprof_hook_enter()).
 */
static inline enum ntprof_state ntprof_state_get(void)
{
	return READ_ONCE(ntprof_cur_state);
}

static inline void ntprof_state_set(enum ntprof_state state)
{
	WRITE_ONCE(ntprof_cur_state, state);
}

#endif /* _NTPROF_NTPROF_H */
