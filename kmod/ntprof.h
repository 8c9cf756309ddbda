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
 * Lockless because the I/O path will read the state on every request,
 * where no lock may be taken; whoever changes it serializes on its own.
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
