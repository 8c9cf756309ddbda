/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hooks: the tracepoints and function hooks that stamp the points of a
 * command's path. hooks.c attaches and detaches them; hooks_host.c and
 * hooks_target.c hold the tables and the handlers.
 */
#ifndef _NTPROF_HOOKS_H
#define _NTPROF_HOOKS_H

#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/ftrace.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/types.h>

#include <uapi/linux/ntprof.h>

#include "compat.h"
#include "hookcost.h"
#include "inflight.h"
#include "modules.h"
#include "session_types.h"

struct netlink_ext_ack;
struct ftrace_regs;
struct tracepoint;
struct ntprof_hook;

/*
 * The ftrace callback of a function hook's handler, HANDLER_ftrace: ftrace
 * calls it directly from the hooked function's trampoline, and it calls
 * the handler directly, which the compiler inlines. The ops ask for no
 * recursion guard (compat.h): no handler calls a hooked function.
 * Preemption is disabled so that the handler's per-CPU state stays on one
 * CPU whatever calls it.
 */
/* What ftrace passes a callback. */
#define NTPROF_FTRACE_CB_PARAMS						\
	unsigned long ip, unsigned long parent_ip, struct ftrace_ops *ops,	\
	struct ntprof_ftrace_cb_regs *regs

/* The hook of a function hook's ftrace_ops. */
#define ntprof_ops_hook(ops)	container_of(ops, struct ntprof_hook, fops)

#define NTPROF_FTRACE_CALLBACK(_handler)				\
static void notrace _handler##_ftrace(NTPROF_FTRACE_CB_PARAMS)	\
{									\
	struct ntprof_hook *hook = ntprof_ops_hook(ops);		\
	struct ftrace_regs *fregs = ntprof_ftrace_regs(regs);		\
	NTPROF_COST_START();						\
									\
	if (unlikely(!ntprof_ftrace_args_ok(fregs)))			\
		return;							\
	preempt_disable_notrace();					\
	_handler(hook, fregs);						\
	preempt_enable_notrace();					\
	NTPROF_COST_END(hook);						\
}

/*
 * The ftrace callback of a hook whose handler has nothing to do unless
 * one of the session's commands is in flight (the points after the
 * sampling decision): ntprof_hook_followed() is all an unsampled hit
 * runs, inlined before anything else, and HANDLER(s, hook, fregs), which
 * must not be inlined, runs only past it. So the common path has no
 * stack frame, no canary and no zeroed locals. Reading the session
 * before preemption is disabled is safe: unregister_ftrace_function()
 * waits for every task in the callback before a stop frees anything.
 */
#define NTPROF_FTRACE_CALLBACK_FOLLOWED(_handler, _role)		\
static noinline void notrace						\
_handler##_followed(struct ntprof_session *s, struct ntprof_hook *hook,	\
		    struct ntprof_ftrace_cb_regs *regs)			\
{									\
	struct ftrace_regs *fregs = ntprof_ftrace_regs(regs);		\
									\
	if (unlikely(!ntprof_ftrace_args_ok(fregs)))			\
		return;							\
	preempt_disable_notrace();					\
	_handler(s, hook, fregs);					\
	preempt_enable_notrace();					\
}									\
									\
static void notrace _handler##_ftrace(NTPROF_FTRACE_CB_PARAMS)	\
{									\
	struct ntprof_hook *hook = ntprof_ops_hook(ops);		\
	const enum ntprof_role role = _role;				\
	NTPROF_COST_START();						\
									\
	if (ntprof_hook_followed(hook, role))				\
		_handler##_followed(ntprof_hook_session(role), hook,	\
				    regs);				\
	NTPROF_COST_END(hook);						\
}

/*
 * The probe of a tracepoint hook, HANDLER_tp, with the tracepoint's
 * prototype @_proto and the arguments @_args it passes on: the handler
 * is inlined into it, and a cost build brackets it (hookcost.h).
 * Tracepoint probes run with preemption disabled.
 */
#define NTPROF_TP_CALLBACK(_handler, _hook, _proto, _args)		\
static void notrace _handler##_tp _proto					\
{									\
	NTPROF_COST_START();						\
									\
	_handler _args;							\
	NTPROF_COST_END(_hook);						\
}

/*
 * The probe of a tracepoint hook with a gate, as for
 * NTPROF_FTRACE_CALLBACK_FOLLOWED(): only past ntprof_hook_followed()
 * does it call HANDLER(s, ARGS...), which must not be inlined.
 */
#define NTPROF_TP_CALLBACK_FOLLOWED(_handler, _hook, _role, _proto, ...) \
static void notrace _handler##_tp _proto					\
{									\
	struct ntprof_hook *hook = _hook;				\
	const enum ntprof_role role = _role;				\
	NTPROF_COST_START();						\
									\
	if (ntprof_hook_followed(hook, role))				\
		_handler(ntprof_hook_session(role), __VA_ARGS__);	\
	NTPROF_COST_END(hook);						\
}

/* ntprof_hook.point of a hook that only helps others. */
#define NTPROF_PT_NONE		(-1)

/**
 * struct ntprof_hook_stats - a hook's counters on one CPU
 * @hits: how often its handler ran
 * @ns: the time its handler took, in ns, in cost builds only (hookcost.h)
 */
struct ntprof_hook_stats {
	u64 hits;
	u64 ns;
};

/**
 * struct ntprof_hook - a tracepoint, or a function's entry
 * @name: the tracepoint's or the function's name
 * @missing: the extack message of a start that lacks this hook
 * @kind: tracepoint, or function (%NTPROF_HOOK_FUNCTION, attached with
 *	ftrace: see hooks.c)
 * @role: the role of the sessions that use it
 * @transport: the transport of those sessions, %NTPROF_TRANSPORT_NONE: any
 * @point: the enum ntprof_point it stamps, or %NTPROF_PT_NONE
 * @required: a session cannot start without it, if its module is loaded
 * @module: the enum ntprof_module_id it lives in, or %NTPROF_MOD_VMLINUX
 * @fields: NTPROF_LF() of the layout fields its handler reads: without
 *	an offset for each (kmod/layout.h), it does not attach
 * @unchecked: its handler reads private members at offsets not checked
 *	on this release: it does not attach
 * @unneeded: NTPROF_LF() of layout fields that make it unneeded: with an
 *	offset for each, another hook reads what it would tell, and it
 *	does not attach (0: none)
 * @tp_probe: tracepoint: the probe function
 * @wanted: a session wants it attached (under the hooks lock)
 * @attached: it is attached; read locklessly by the handlers
 * @tp: tracepoint: the tracepoint, while its module is loaded
 * @fops: function: the ftrace_ops, whose callback is the handler's
 * @filter_set: function: @fops is filtered on the function, as it is in
 *	generation @filter_gen of its module
 * @filter_gen: see @filter_set
 * @presence: function: whether it exists, as last checked
 * @stats: per CPU, since the session started: the times the handler ran,
 *	and in a cost build (hookcost.h) the guest ns it took
 */
struct ntprof_hook {
	const char *name;
	const char *missing;
	enum ntprof_hook_kind kind;
	enum ntprof_role role;
	enum ntprof_transport transport;
	int point;
	bool required;
	unsigned int module;
	u64 fields;
	bool unchecked;
	u64 unneeded;
	void *tp_probe;

	bool wanted;
	bool attached;
	struct tracepoint *tp;
	struct ftrace_ops fops;
	bool filter_set;
	unsigned int filter_gen;
	struct ntprof_presence presence;
	struct ntprof_hook_stats __percpu *stats;
};

#define NTPROF_HOOK_MISSING_MSG(_name) \
	KBUILD_MODNAME ": required hook " _name " is missing"

/* The members of every hook's initializer. */
#define NTPROF_HOOK_MEMBERS(_name, _kind, _role, _transport, _point,	\
			    _required, _module, _fields)		\
	.name = #_name,							\
	.missing = NTPROF_HOOK_MISSING_MSG(#_name),			\
	.kind = _kind,							\
	.role = _role,							\
	.transport = _transport,					\
	.point = _point,						\
	.required = _required,						\
	.module = _module,						\
	.fields = _fields

#define NTPROF_TRACEPOINT(_name, _role, _transport, _point, _required,	\
			  _module, _probe, _fields)			\
	{								\
		NTPROF_HOOK_MEMBERS(_name, NTPROF_HOOK_TRACEPOINT,	\
				    _role, _transport, _point,		\
				    _required, _module, _fields),	\
		.tp_probe = _probe##_tp,				\
	}

/* More members, such as .unneeded, may follow as designators. */
#define NTPROF_FUNCTION(_name, _role, _transport, _point, _required,	\
			_module, _handler, _fields, ...)		\
	{								\
		NTPROF_HOOK_MEMBERS(_name, NTPROF_HOOK_FUNCTION,	\
				    _role, _transport, _point,		\
				    _required, _module, _fields),	\
		.fops = {						\
			.func = _handler##_ftrace,			\
			.flags = NTPROF_FTRACE_REGS_FLAG |		\
				 NTPROF_FTRACE_RECURSION_FLAG,		\
		},							\
		__VA_ARGS__						\
	}

enum ntprof_host_hook_id {
	NTPROF_HH_SETUP,
	NTPROF_HH_BLK_ISSUE,
	NTPROF_HH_DRIVER_DONE,
	NTPROF_HH_NVME_COMPLETE,
	NTPROF_HH_BLK_COMPLETE,
	NTPROF_HH_TCP_QUEUE_RQ,
	NTPROF_HH_RDMA_QUEUE_RQ,
	NTPROF_HH_TCP_SEND,
	NTPROF_HH_TCP_SENDPAGE,
	NTPROF_HH_RDMA_SEND,
	NTPROF_HH_RDMA_SEND_DONE,
	NTPROF_HH_TCP_R2T,
	NTPROF_HH_TCP_RECV,
	NTPROF_HH_RDMA_RECV,
	NTPROF_HH_EXECUTE_RQ,
	NTPROF_HH_EXECUTE_RQ_NOWAIT,

	NTPROF_NR_HOST_HOOKS
};

enum ntprof_target_hook_id {
	NTPROF_TH_INIT,
	NTPROF_TH_INIT_ARGS,
	NTPROF_TH_TCP_RECV,
	NTPROF_TH_RDMA_RECV,
	NTPROF_TH_TCP_DATA,
	NTPROF_TH_BDEV_EXEC,
	NTPROF_TH_FILE_EXEC,
	NTPROF_TH_BLK_ISSUE,
	NTPROF_TH_BLK_COMPLETE,
	NTPROF_TH_COMPLETE,
	NTPROF_TH_TCP_QUEUE_RESP,
	NTPROF_TH_RDMA_QUEUE_RESP,
	NTPROF_TH_TCP_SEND,
	NTPROF_TH_RDMA_READ,
	NTPROF_TH_RDMA_DATA,
	NTPROF_TH_RDMA_SEND_DONE,

	NTPROF_NR_TARGET_HOOKS
};

/* The control-path hooks, which record events (hooks_events.c). */
enum ntprof_event_hook_id {
	NTPROF_EH_CTRL_STATE,
	NTPROF_EH_CTRL_RESET,
	NTPROF_EH_CTRL_RESET_SYNC,
	NTPROF_EH_TCP_SETUP,
	NTPROF_EH_RDMA_SETUP,
	NTPROF_EH_NVMET_INSTALL_QUEUE,
	NTPROF_EH_NVMET_CTRL_FREE,

	NTPROF_NR_EVENT_HOOKS
};

#define NTPROF_NR_HOOKS	(NTPROF_NR_HOST_HOOKS + NTPROF_NR_TARGET_HOOKS + \
			 NTPROF_NR_EVENT_HOOKS)

extern struct ntprof_hook ntprof_host_hooks[NTPROF_NR_HOST_HOOKS];
extern struct ntprof_hook ntprof_target_hooks[NTPROF_NR_TARGET_HOOKS];
extern struct ntprof_hook ntprof_event_hooks[NTPROF_NR_EVENT_HOOKS];

/*
 * A handler's first step: whether a session of the hook's role runs,
 * with the hit counted; if not, the handler has nothing to do. @role is
 * the hook's, given as a constant so that the session's address is one
 * too. A bool, not the session: kernels build with
 * -fno-delete-null-pointer-checks, so a NULL test of that address would
 * stay in every hit.
 */
static __always_inline bool ntprof_hook_enter(struct ntprof_hook *hook,
					      enum ntprof_role role)
{
	/* Pairs with the release in ntprof_session_start(). */
	if (!smp_load_acquire(&ntprof_sessions[role].active))
		return false;
	this_cpu_inc(hook->stats->hits);
	return true;
}

/* The session of a handler that ntprof_hook_enter() let in. */
#define ntprof_hook_session(_role)	(&ntprof_sessions[_role])

/*
 * ntprof_hook_enter() for the hooks that only stamp commands the session
 * follows: false also while none is in flight, most of the time at 1 in
 * 100 and queue depth 1 (ntprof_inflight_empty()).
 */
static __always_inline bool ntprof_hook_followed(struct ntprof_hook *hook,
						 enum ntprof_role role)
{
	return ntprof_hook_enter(hook, role) &&
	       !ntprof_inflight_empty(ntprof_hook_session(role)->inflight);
}

static inline bool ntprof_hook_attached(const struct ntprof_hook *hook)
{
	return READ_ONCE(hook->attached);
}

/*
 * Whether a hook only splits a stage into components: it stamps a point
 * of %NTPROF_PT_DETAIL_MASK, and a session of %NTPROF_HOOK_SET_STAGES
 * leaves it out.
 */
static inline bool ntprof_hook_detail(const struct ntprof_hook *hook)
{
	return hook->point >= 0 &&
	       (NTPROF_PT_DETAIL_MASK & BIT_ULL(hook->point));
}

int ntprof_hooks_init(void);
void ntprof_hooks_exit(void);
int ntprof_hooks_attach(enum ntprof_role role, enum ntprof_transport transport,
			enum ntprof_hook_set set, struct netlink_ext_ack *extack);
void ntprof_hooks_detach(enum ntprof_role role);

struct ntprof_hook *ntprof_hook_get(unsigned int index);
enum ntprof_hook_state ntprof_hook_state(struct ntprof_hook *hook);
void ntprof_hook_stats_sum(const struct ntprof_hook *hook,
			   struct ntprof_hook_stats *sum);
u64 ntprof_hook_hits(const struct ntprof_hook *hook);

#endif /* _NTPROF_HOOKS_H */
