// SPDX-License-Identifier: GPL-2.0
/*
 * The control-path hooks: what happens to the host's controllers,
 * recorded as events (events.h) whatever the session samples.
 *
 * nvme_change_ctrl_state(ctrl, new_state) is where every change of a
 * controller's state is asked for: connect (new, connecting, live), a
 * reset or an error recovery (resetting, connecting, live), deletion.
 * Its entry gives the state asked for, and the state on entry, read from
 * the controller; the function refuses what its state machine does not
 * allow, and the reader tells the changes made from those refused
 * (Documentation/stages.rst). nvme_reset_ctrl() and
 * nvme_reset_ctrl_sync() are where a reset is asked for; an error
 * recovery moves the controller to resetting by itself, so a move to
 * resetting without a reset asked just before is a lost connection.
 * nvme_reset_ctrl() is inlined into nvme_reset_ctrl_sync() in Debian's
 * 6.1 and 6.12 builds, hence both.
 *
 * None of these functions is on the I/O path: they run when a
 * controller connects, resets, recovers or goes, a few times a second
 * at most.
 *
 * struct nvme_ctrl is private: its state at offset 4 and its instance
 * 40 bytes past its scan_lock, a mutex at 16, as pahole shows them on
 * the BTF of Debian's 6.1, 6.12, 7.2 and 7.3 and objdump on 5.10's
 * nvme_free_ctrl(). On other releases these hooks do not attach.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ktime.h>
#include <linux/mutex.h>
#include <linux/timekeeping.h>

#include "compat.h"
#include "events.h"
#include "hooks.h"
#include "layout.h"

#define NTPROF_CTRL_LAYOUT_CHECKED					\
	(NTPROF_KERNEL_SERIES(5, 10) || NTPROF_KERNEL_SERIES(6, 1) ||	\
	 NTPROF_KERNEL_SERIES(6, 12) || NTPROF_KERNEL_SERIES(7, 2) ||	\
	 NTPROF_KERNEL_SERIES(7, 3))

#define NTPROF_NVME_CTRL_STATE		4
#define NTPROF_NVME_CTRL_INSTANCE	(16 + sizeof(struct mutex) + 40)

static u32 ntprof_ctrl_instance(const void *ctrl)
{
	return ntprof_nofault_get((const char *)ctrl +
				  NTPROF_NVME_CTRL_INSTANCE, u32);
}

/* nvme_change_ctrl_state(ctrl, new_state) */
static void ntprof_event_ctrl_state(struct ntprof_hook *hook,
				    struct ftrace_regs *fregs)
{
	const void *ctrl = (const void *)ntprof_fn_arg(fregs, 0);
	struct ntprof_event ev = {
		.type = NTPROF_EVENT_CTRL_STATE,
		.new_state = ntprof_fn_arg(fregs, 1),
	};

	if (!ntprof_hook_enter(hook, NTPROF_ROLE_HOST))
		return;
	ev.ts = ktime_get_ns();
	ev.ctrl = ntprof_ctrl_instance(ctrl);
	ev.old_state = ntprof_nofault_get((const char *)ctrl +
					  NTPROF_NVME_CTRL_STATE, u32);
	ntprof_events_add(NTPROF_ROLE_HOST, &ev);
}

NTPROF_FTRACE_CALLBACK(ntprof_event_ctrl_state)

/* nvme_reset_ctrl(ctrl), nvme_reset_ctrl_sync(ctrl) */
static void ntprof_event_ctrl_reset(struct ntprof_hook *hook,
				    struct ftrace_regs *fregs)
{
	const void *ctrl = (const void *)ntprof_fn_arg(fregs, 0);
	struct ntprof_event ev = { .type = NTPROF_EVENT_CTRL_RESET };

	if (!ntprof_hook_enter(hook, NTPROF_ROLE_HOST))
		return;
	ev.ts = ktime_get_ns();
	ev.ctrl = ntprof_ctrl_instance(ctrl);
	ntprof_events_add(NTPROF_ROLE_HOST, &ev);
}

NTPROF_FTRACE_CALLBACK(ntprof_event_ctrl_reset)

/* The signatures are the same in 5.10, 6.1, 6.12 and 7.3 (their BTF). */
struct ntprof_hook ntprof_event_hooks[NTPROF_NR_EVENT_HOOKS] = {
	[NTPROF_EH_CTRL_STATE] =
		NTPROF_FUNCTION(nvme_change_ctrl_state, NTPROF_ROLE_HOST,
				NTPROF_TRANSPORT_NONE, NTPROF_PT_NONE, false,
				NTPROF_MOD_NVME_CORE, ntprof_event_ctrl_state,
				0, .unchecked = !NTPROF_CTRL_LAYOUT_CHECKED),
	[NTPROF_EH_CTRL_RESET] =
		NTPROF_FUNCTION(nvme_reset_ctrl, NTPROF_ROLE_HOST,
				NTPROF_TRANSPORT_NONE, NTPROF_PT_NONE, false,
				NTPROF_MOD_NVME_CORE, ntprof_event_ctrl_reset,
				0, .unchecked = !NTPROF_CTRL_LAYOUT_CHECKED),
	[NTPROF_EH_CTRL_RESET_SYNC] =
		NTPROF_FUNCTION(nvme_reset_ctrl_sync, NTPROF_ROLE_HOST,
				NTPROF_TRANSPORT_NONE, NTPROF_PT_NONE, false,
				NTPROF_MOD_NVME_CORE, ntprof_event_ctrl_reset,
				0, .unchecked = !NTPROF_CTRL_LAYOUT_CHECKED),
};
