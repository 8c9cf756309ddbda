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
 * nvme_tcp_setup_ctrl() and nvme_rdma_setup_ctrl() are where each
 * attempt to connect a controller begins: the first connect, the one of
 * a reset, and every reconnect attempt after a lost connection (the
 * reconnect work calls them once per attempt). They are not inlined in
 * Debian's 5.10 to 7.3, being called from several places. An attempt's
 * result is left to the reader (what follows it: the controller live,
 * another attempt, or a delete), since these hooks see function entries
 * only.
 *
 * On the target, nvmet_install_queue(ctrl, req) installs a queue that a
 * connect command asks for, queue 0 once the controller is created; and
 * nvmet_ctrl_free(ref) frees one, its last reference put. Their
 * controller's id comes from the layout (NTPROF_LF_NVMET_CTRL_CNTLID,
 * which the target's records use too) and the connect's queue id from
 * the command (NTPROF_LF_NVMET_REQ_CMD). nvmet_ctrl_free() is handed
 * the controller's struct kref, 136 bytes past its cntlid in 5.10, 6.1
 * (objdump: the function's ida_free() of the cntlid), 6.12, 7.2 and 7.3
 * (pahole).
 *
 * None of these functions is on the I/O path: they run when a
 * controller connects, resets, recovers or goes, a few times a second
 * at most.
 *
 * struct nvme_ctrl is private: its state at offset 4 and its instance
 * 40 bytes past its scan_lock, a mutex at 16, as pahole shows them on
 * the BTF of Debian's 6.1, 6.12, 7.2 and 7.3 and objdump on 5.10's
 * nvme_free_ctrl(). On other releases these hooks do not attach.
 *
 * nvme_rdma_setup_ctrl() takes the transport's struct nvme_rdma_ctrl,
 * private to nvme-rdma, whose struct nvme_ctrl follows members of public
 * types only (a pointer, two blk_mq_tag_sets, a work_struct, a 24-byte
 * nvme_rdma_qe, a delayed_work, a list_head, a pointer, a u32 and its
 * padding, two sockaddr_storages): 1032, 776, 776, 888 and 888 bytes in
 * on 5.10, 6.1, 6.12, 7.2 and 7.3, as objdump of 5.10's
 * nvme_rdma_setup_ctrl() and pahole on the others' BTF show.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blk-mq.h>
#include <linux/ktime.h>
#include <linux/mutex.h>
#include <linux/nvme.h>
#include <linux/socket.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>

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
#define NTPROF_NVMET_CTRL_REF_PAST_CNTLID	136
#define NTPROF_NVME_RDMA_CTRL_CTRL					\
	(8 + 2 * sizeof(struct blk_mq_tag_set) +			\
	 sizeof(struct work_struct) + 24 + sizeof(struct delayed_work) +\
	 sizeof(struct list_head) + 8 + 8 +				\
	 2 * sizeof(struct sockaddr_storage))

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

static void ntprof_event_attempt(const void *ctrl)
{
	struct ntprof_event ev = { .type = NTPROF_EVENT_CTRL_ATTEMPT };

	ev.ts = ktime_get_ns();
	ev.ctrl = ntprof_ctrl_instance(ctrl);
	ntprof_events_add(NTPROF_ROLE_HOST, &ev);
}

/* nvme_tcp_setup_ctrl(ctrl, new): @ctrl is the struct nvme_ctrl. */
static void ntprof_event_tcp_setup(struct ntprof_hook *hook,
				   struct ftrace_regs *fregs)
{
	if (!ntprof_hook_enter(hook, NTPROF_ROLE_HOST))
		return;
	ntprof_event_attempt((const void *)ntprof_fn_arg(fregs, 0));
}

NTPROF_FTRACE_CALLBACK(ntprof_event_tcp_setup)

/* nvme_rdma_setup_ctrl(ctrl, new): @ctrl is the struct nvme_rdma_ctrl. */
static void ntprof_event_rdma_setup(struct ntprof_hook *hook,
				    struct ftrace_regs *fregs)
{
	if (!ntprof_hook_enter(hook, NTPROF_ROLE_HOST))
		return;
	ntprof_event_attempt((const char *)ntprof_fn_arg(fregs, 0) +
			     NTPROF_NVME_RDMA_CTRL_CTRL);
}

NTPROF_FTRACE_CALLBACK(ntprof_event_rdma_setup)

/* nvmet_install_queue(ctrl, req): queue 0 makes the controller. */
static void ntprof_event_nvmet_queue(struct ntprof_hook *hook,
				     struct ftrace_regs *fregs)
{
	const void *ctrl = (const void *)ntprof_fn_arg(fregs, 0);
	const void *req = (const void *)ntprof_fn_arg(fregs, 1);
	struct ntprof_event ev = { .type = NTPROF_EVENT_TARGET_CTRL_CREATED };
	const struct nvme_command *cmd;

	if (!ntprof_hook_enter(hook, NTPROF_ROLE_TARGET))
		return;
	cmd = ntprof_lf_get(req, NTPROF_LF_NVMET_REQ_CMD,
			    const struct nvme_command *);
	if (!cmd || ntprof_nofault_get(&cmd->connect.qid, __le16))
		return;
	ev.ts = ktime_get_ns();
	ev.ctrl = ntprof_lf_get(ctrl, NTPROF_LF_NVMET_CTRL_CNTLID, u16);
	ntprof_events_add(NTPROF_ROLE_TARGET, &ev);
}

NTPROF_FTRACE_CALLBACK(ntprof_event_nvmet_queue)

/* nvmet_ctrl_free(ref): @ref is the controller's struct kref. */
static void ntprof_event_nvmet_free(struct ntprof_hook *hook,
				    struct ftrace_regs *fregs)
{
	const char *ref = (const char *)ntprof_fn_arg(fregs, 0);
	struct ntprof_event ev = { .type = NTPROF_EVENT_TARGET_CTRL_FREED };

	if (!ntprof_hook_enter(hook, NTPROF_ROLE_TARGET))
		return;
	ev.ts = ktime_get_ns();
	ev.ctrl = ntprof_nofault_get(ref - NTPROF_NVMET_CTRL_REF_PAST_CNTLID,
				     u16);
	ntprof_events_add(NTPROF_ROLE_TARGET, &ev);
}

NTPROF_FTRACE_CALLBACK(ntprof_event_nvmet_free)

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
	[NTPROF_EH_TCP_SETUP] =
		NTPROF_FUNCTION(nvme_tcp_setup_ctrl, NTPROF_ROLE_HOST,
				NTPROF_TRANSPORT_NONE, NTPROF_PT_NONE, false,
				NTPROF_MOD_NVME_TCP, ntprof_event_tcp_setup,
				0, .unchecked = !NTPROF_CTRL_LAYOUT_CHECKED),
	[NTPROF_EH_RDMA_SETUP] =
		NTPROF_FUNCTION(nvme_rdma_setup_ctrl, NTPROF_ROLE_HOST,
				NTPROF_TRANSPORT_NONE, NTPROF_PT_NONE, false,
				NTPROF_MOD_NVME_RDMA, ntprof_event_rdma_setup,
				0, .unchecked = !NTPROF_CTRL_LAYOUT_CHECKED),
	[NTPROF_EH_NVMET_INSTALL_QUEUE] =
		NTPROF_FUNCTION(nvmet_install_queue, NTPROF_ROLE_TARGET,
				NTPROF_TRANSPORT_NONE, NTPROF_PT_NONE, false,
				NTPROF_MOD_NVMET, ntprof_event_nvmet_queue,
				NTPROF_LF(NTPROF_LF_NVMET_REQ_CMD) |
				NTPROF_LF(NTPROF_LF_NVMET_CTRL_CNTLID)),
	[NTPROF_EH_NVMET_CTRL_FREE] =
		NTPROF_FUNCTION(nvmet_ctrl_free, NTPROF_ROLE_TARGET,
				NTPROF_TRANSPORT_NONE, NTPROF_PT_NONE, false,
				NTPROF_MOD_NVMET, ntprof_event_nvmet_free,
				0, .unchecked = !NTPROF_CTRL_LAYOUT_CHECKED),
};
