// SPDX-License-Identifier: GPL-2.0
/*
 * Attaching and detaching the hooks.
 *
 * Tracepoints are not exported to modules: built-in ones are found by
 * name with for_each_kernel_tracepoint(), those of modules through the
 * tracepoint module notifier, which reports every module with tracepoints
 * when it comes and goes (and all loaded ones when the notifier is
 * registered).
 *
 * Function hooks (%NTPROF_HOOK_FUNCTION: a hook on a function's entry)
 * are ftrace_ops filtered on the function, not kprobes. Every function
 * ntprof hooks has an ftrace call site, where a kprobe would be
 * ftrace-based anyway; but a kprobe is in the kprobe table while ftrace
 * patches its call site through a transient int3, and on Debian's 6.1
 * under I/O an int3 hit in that window reached the kprobe's int3 handler,
 * which single-stepped an ftrace kprobe's (NULL) copy of the instruction:
 * an oops at address 0 in the probed function's caller. An ftrace_ops
 * owns no int3 handler, so a late int3 is just retried. Filters match
 * function names, in the kernel and in loaded modules; a module notifier
 * attaches the hooks of a module that loads during a session, and
 * detaches them when it unloads, before its code goes away.
 *
 * The notifiers are registered at module load, to know where the
 * tracepoints are; nothing is attached until a session starts.
 *
 * Locking: ntprof_hooks_lock protects the state of every hook. The module
 * loader calls the notifiers with its own locks held, so the session
 * lock, which is held while hooks are attached, is never taken here.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/preempt.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/netlink.h>
#include <linux/notifier.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "compat.h"
#include "hooks.h"
#include "layout.h"
#include "modules.h"

static DEFINE_MUTEX(ntprof_hooks_lock);

/**
 * ntprof_hook_get() - a hook by index: host hooks, target hooks, events'
 * @index: from 0 to %NTPROF_NR_HOOKS - 1
 *
 * Context: Any.
 * Return: the hook, or NULL past the last one.
 */
struct ntprof_hook *ntprof_hook_get(unsigned int index)
{
	if (index < NTPROF_NR_HOST_HOOKS)
		return &ntprof_host_hooks[index];
	index -= NTPROF_NR_HOST_HOOKS;
	if (index < NTPROF_NR_TARGET_HOOKS)
		return &ntprof_target_hooks[index];
	index -= NTPROF_NR_TARGET_HOOKS;
	if (index < NTPROF_NR_EVENT_HOOKS)
		return &ntprof_event_hooks[index];
	return NULL;
}

static bool ntprof_hook_in(const struct ntprof_hook *hook,
			   const struct module *mod)
{
	return hook->module != NTPROF_MOD_VMLINUX &&
	       !strcmp(ntprof_modules[hook->module].name, mod->name);
}

static bool ntprof_hook_for(const struct ntprof_hook *hook,
			    enum ntprof_role role,
			    enum ntprof_transport transport,
			    enum ntprof_hook_set set)
{
	if (set == NTPROF_HOOK_SET_STAGES && ntprof_hook_detail(hook))
		return false;
	return hook->role == role &&
	       (hook->transport == NTPROF_TRANSPORT_NONE ||
		transport == NTPROF_TRANSPORT_NONE ||
		hook->transport == transport);
}

#define NTPROF_LAYOUT_MISSING_MSG \
	KBUILD_MODNAME ": a required hook reads a member of unknown offset (see ntprof probe)"

/*
 * Filter a function hook's ops on its function. Setting a filter walks
 * every traceable function (see modules.c), so the filter is kept from
 * one session to the next, and set again only in a new generation of
 * the function's module: one that was reloaded has its functions
 * elsewhere.
 */
static int ntprof_hook_filter(struct ntprof_hook *hook)
{
	unsigned int gen = ntprof_module_gen(hook->module);
	char name[KSYM_NAME_LEN];
	int err;

	lockdep_assert_held(&ntprof_hooks_lock);

	if (hook->filter_set && hook->filter_gen == gen)
		return 0;

	/* ftrace parses (and writes to) the buffer. No match is -EINVAL. */
	strscpy(name, hook->name, sizeof(name));
	err = ftrace_set_filter(&hook->fops, name, strlen(name), 1);
	hook->filter_set = !err;
	hook->filter_gen = gen;
	return err;
}

static int ntprof_hook_arm(struct ntprof_hook *hook)
{
	int err;

	lockdep_assert_held(&ntprof_hooks_lock);

	if (hook->attached)
		return 0;
	/* Its handler would read members at offsets nobody gave. */
	if (hook->unchecked || ntprof_layout_missing(hook->fields))
		return -ENOENT;
	/* Another hook reads what this one would tell: one hit less. */
	if (hook->unneeded && !ntprof_layout_missing(hook->unneeded))
		return 0;

	if (hook->kind == NTPROF_HOOK_TRACEPOINT) {
		if (!hook->tp)
			return -ENOENT;
		err = tracepoint_probe_register(hook->tp, hook->tp_probe, NULL);
	} else {
		err = ntprof_hook_filter(hook);
		if (!err)
			err = register_ftrace_function(&hook->fops);
	}

	if (!err)
		WRITE_ONCE(hook->attached, true);
	return err;
}

/* The caller waits for running handlers before it frees what they use. */
static void ntprof_hook_disarm(struct ntprof_hook *hook)
{
	lockdep_assert_held(&ntprof_hooks_lock);

	if (!hook->attached)
		return;

	WRITE_ONCE(hook->attached, false);
	if (hook->kind == NTPROF_HOOK_TRACEPOINT)
		WARN_ON_ONCE(tracepoint_probe_unregister(hook->tp,
							 hook->tp_probe, NULL));
	else
		/* Returns once no callback of the ops runs any more. */
		WARN_ON_ONCE(unregister_ftrace_function(&hook->fops));
}

/**
 * ntprof_hooks_attach() - attach the hooks of a session
 * @role: the session's role
 * @transport: the session's transport
 * @set: all of them, or those the five stages need only (no hook that
 *	stamps a point of %NTPROF_PT_DETAIL_MASK)
 * @extack: where to name a missing required hook
 *
 * Hooks of modules that are not loaded are attached when they load. A
 * required hook that is missing fails the start only when its module is
 * loaded: otherwise the hook may come with the module.
 *
 * Context: Process context; sleeps.
 * Return: 0, or -ENOENT after detaching everything when a required hook
 * is missing.
 */
int ntprof_hooks_attach(enum ntprof_role role, enum ntprof_transport transport,
			enum ntprof_hook_set set, struct netlink_ext_ack *extack)
{
	struct ntprof_hook *hook;
	unsigned int i;
	int cpu, err = 0;

	mutex_lock(&ntprof_hooks_lock);

	for (i = 0; (hook = ntprof_hook_get(i)); i++) {
		if (hook->role != role)
			continue;
		/* A hook left out shows no hits of an earlier session. */
		for_each_possible_cpu(cpu)
			memset(per_cpu_ptr(hook->stats, cpu), 0,
			       sizeof(struct ntprof_hook_stats));
		if (!ntprof_hook_for(hook, role, transport, set))
			continue;
		hook->wanted = true;
		/* A failure leaves the hook missing, checked below. */
		ntprof_hook_arm(hook);
	}

	for (i = 0; (hook = ntprof_hook_get(i)); i++) {
		if (!ntprof_hook_for(hook, role, transport, set) ||
		    !hook->required || hook->attached)
			continue;
		if (hook->module != NTPROF_MOD_VMLINUX &&
		    !ntprof_module_present(hook->module))
			continue;
		/*
		 * NL_SET_ERR_MSG() wants a literal; ->missing is one, built
		 * by the table's macros, so it lives as long as the module.
		 */
		if (extack && ntprof_layout_missing(hook->fields))
			extack->_msg = NTPROF_LAYOUT_MISSING_MSG;
		else if (extack)
			extack->_msg = hook->missing;
		err = -ENOENT;
		break;
	}

	mutex_unlock(&ntprof_hooks_lock);

	if (err)
		ntprof_hooks_detach(role);
	return err;
}

/**
 * ntprof_hooks_detach() - detach the hooks of a role
 * @role: the role whose session stops
 *
 * Returns once no handler of @role runs any more, so that the caller may
 * free what the handlers use.
 *
 * Context: Process context; sleeps for RCU grace periods.
 */
void ntprof_hooks_detach(enum ntprof_role role)
{
	struct ntprof_hook *hook;
	unsigned int i;

	mutex_lock(&ntprof_hooks_lock);
	for (i = 0; (hook = ntprof_hook_get(i)); i++) {
		if (hook->role != role)
			continue;
		hook->wanted = false;
		ntprof_hook_disarm(hook);
	}
	mutex_unlock(&ntprof_hooks_lock);

	/*
	 * unregister_ftrace_function() already waited for the function
	 * handlers; tracepoint probes may still run until this returns.
	 */
	tracepoint_synchronize_unregister();
}

/**
 * ntprof_hook_state() - where a hook stands now
 * @hook: the hook
 *
 * Context: Process context; sleeps.
 * Return: attached, available (it could attach now) or missing.
 */
enum ntprof_hook_state ntprof_hook_state(struct ntprof_hook *hook)
{
	enum ntprof_hook_state state;

	mutex_lock(&ntprof_hooks_lock);
	if (hook->attached)
		state = NTPROF_HOOK_ATTACHED;
	else if (hook->unchecked)
		state = NTPROF_HOOK_MISSING;
	else if (hook->kind == NTPROF_HOOK_TRACEPOINT)
		state = hook->tp ? NTPROF_HOOK_AVAILABLE : NTPROF_HOOK_MISSING;
	else
		state = ntprof_function_present(hook->name, hook->module,
						&hook->presence) ?
			NTPROF_HOOK_AVAILABLE : NTPROF_HOOK_MISSING;
	mutex_unlock(&ntprof_hooks_lock);

	return state;
}

/**
 * ntprof_hook_stats_sum() - a hook's counters, over the CPUs
 * @hook: the hook
 * @sum: the times its handler ran and, in a cost build (hookcost.h), the
 *	guest ns it took, brackets included (0 in ordinary builds)
 *
 * Context: Any. The counts are since its role's last session started.
 */
void ntprof_hook_stats_sum(const struct ntprof_hook *hook,
			   struct ntprof_hook_stats *sum)
{
	const struct ntprof_hook_stats *st;
	int cpu;

	sum->hits = 0;
	sum->ns = 0;
	for_each_possible_cpu(cpu) {
		st = per_cpu_ptr(hook->stats, cpu);
		sum->hits += READ_ONCE(st->hits);
		sum->ns += READ_ONCE(st->ns);
	}
}

/**
 * ntprof_hook_hits() - count how often a hook's handler ran
 * @hook: the hook
 *
 * Context: Any. The count is since its role's last session started.
 * Return: the hits that ntprof_hook_stats_sum() sums over the CPUs.
 */
u64 ntprof_hook_hits(const struct ntprof_hook *hook)
{
	struct ntprof_hook_stats sum;

	ntprof_hook_stats_sum(hook, &sum);
	return sum.hits;
}

static void ntprof_find_builtin_tracepoint(struct tracepoint *tp, void *priv)
{
	struct ntprof_hook *hook;
	unsigned int i;

	for (i = 0; (hook = ntprof_hook_get(i)); i++)
		if (hook->kind == NTPROF_HOOK_TRACEPOINT &&
		    hook->module == NTPROF_MOD_VMLINUX &&
		    !strcmp(tp->name, hook->name))
			hook->tp = tp;
}

static void ntprof_tracepoints_coming(struct module *mod)
{
	struct ntprof_hook *hook;
	unsigned int i;
	struct tracepoint *tp;
	unsigned int t;
	int err;

	for (i = 0; (hook = ntprof_hook_get(i)); i++) {
		if (hook->kind != NTPROF_HOOK_TRACEPOINT ||
		    !ntprof_hook_in(hook, mod))
			continue;
		for (t = 0; t < mod->num_tracepoints; t++) {
			tp = tracepoint_ptr_deref(&mod->tracepoints_ptrs[t]);
			if (strcmp(tp->name, hook->name))
				continue;
			hook->tp = tp;
			if (!hook->wanted)
				break;
			err = ntprof_hook_arm(hook);
			if (err)
				pr_warn("cannot attach to tracepoint %s: %d\n",
					hook->name, err);
			break;
		}
	}
}

static void ntprof_tracepoints_going(struct module *mod)
{
	struct ntprof_hook *hook;
	unsigned int i;

	for (i = 0; (hook = ntprof_hook_get(i)); i++) {
		if (hook->kind != NTPROF_HOOK_TRACEPOINT ||
		    !ntprof_hook_in(hook, mod))
			continue;
		ntprof_hook_disarm(hook);
		hook->tp = NULL;
	}
}

static int ntprof_tracepoint_notify(struct notifier_block *nb,
				    unsigned long action, void *data)
{
	struct tp_module *tp_mod = data;

	mutex_lock(&ntprof_hooks_lock);
	if (action == MODULE_STATE_COMING)
		ntprof_tracepoints_coming(tp_mod->mod);
	else if (action == MODULE_STATE_GOING)
		ntprof_tracepoints_going(tp_mod->mod);
	mutex_unlock(&ntprof_hooks_lock);

	return NOTIFY_OK;
}

static struct notifier_block ntprof_tracepoint_nb = {
	.notifier_call = ntprof_tracepoint_notify,
};

static int ntprof_module_notify(struct notifier_block *nb,
				unsigned long action, void *data)
{
	struct module *mod = data;
	struct ntprof_hook *hook;
	unsigned int i;
	int err, id;

	id = ntprof_module_lookup(mod);
	if (id < 0)
		return NOTIFY_DONE;

	mutex_lock(&ntprof_hooks_lock);
	/* Every step ends what was known of its functions. */
	ntprof_module_changed(id, action);
	for (i = 0; (hook = ntprof_hook_get(i)); i++) {
		if (hook->kind != NTPROF_HOOK_FUNCTION ||
		    hook->module != (unsigned int)id)
			continue;
		/* Hooked in live code, unhooked before it goes. */
		if (action == MODULE_STATE_GOING) {
			ntprof_hook_disarm(hook);
		} else if (action == MODULE_STATE_LIVE && hook->wanted) {
			err = ntprof_hook_arm(hook);
			if (err)
				pr_warn("cannot attach to function %s: %d\n",
					hook->name, err);
		}
	}
	mutex_unlock(&ntprof_hooks_lock);

	return NOTIFY_OK;
}

static struct notifier_block ntprof_module_nb = {
	.notifier_call = ntprof_module_notify,
};

/**
 * ntprof_hooks_init() - find the tracepoints, follow the modules
 *
 * Context: Process context, module init.
 * Return: 0 or a negative errno.
 */
int __init ntprof_hooks_init(void)
{
	struct ntprof_hook *hook;
	unsigned int i;
	int err;

	for (i = 0; (hook = ntprof_hook_get(i)); i++) {
		hook->stats = alloc_percpu(struct ntprof_hook_stats);
		if (!hook->stats) {
			err = -ENOMEM;
			goto free_stats;
		}
	}

	for_each_kernel_tracepoint(ntprof_find_builtin_tracepoint, NULL);

	err = register_module_notifier(&ntprof_module_nb);
	if (err)
		goto free_stats;

	err = register_tracepoint_module_notifier(&ntprof_tracepoint_nb);
	if (err)
		goto unregister_module;

	return 0;

unregister_module:
	unregister_module_notifier(&ntprof_module_nb);
free_stats:
	for (i = 0; (hook = ntprof_hook_get(i)); i++) {
		free_percpu(hook->stats);
		hook->stats = NULL;
	}
	return err;
}

/**
 * ntprof_hooks_exit() - stop following the modules
 *
 * Context: Process context, module exit, with every session stopped.
 */
void ntprof_hooks_exit(void)
{
	struct ntprof_hook *hook;
	unsigned int i;

	unregister_tracepoint_module_notifier(&ntprof_tracepoint_nb);
	unregister_module_notifier(&ntprof_module_nb);

	for (i = 0; (hook = ntprof_hook_get(i)); i++) {
		if (hook->kind == NTPROF_HOOK_FUNCTION)
			ntprof_ftrace_free_filter(&hook->fops);
		free_percpu(hook->stats);
		hook->stats = NULL;
	}
}
