// SPDX-License-Identifier: GPL-2.0
/*
 * The floor of a hook's cost, for tools/bench/icount.sh: an empty probe at
 * each site that ntprof hooks, attached the way ntprof attaches there (a
 * tracepoint probe, or an ftrace_ops filtered on one function), so that
 * the benchmark can tell what being attached at all costs from what
 * ntprof's handlers add.
 *
 * The sites come as parameters, the names that <debugfs>/ntprof/hooks
 * lists as attached while ntprof records:
 *
 *   insmod ntprof_emptyprobe.ko functions=a,b,c tracepoints=d,e
 *
 * A name that cannot be attached fails the load, naming it. Tracepoints
 * of modules are found only in modules loaded before this one.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "compat.h"

#define EMPTYPROBE_MAX	32

static char *functions = "";
module_param(functions, charp, 0444);
MODULE_PARM_DESC(functions, "Functions to hook, comma-separated");

static char *tracepoints = "";
module_param(tracepoints, charp, 0444);
MODULE_PARM_DESC(tracepoints, "Tracepoints to probe, comma-separated");

static struct ftrace_ops emptyprobe_ops[EMPTYPROBE_MAX];
static unsigned int emptyprobe_nr_ops;
static struct tracepoint *emptyprobe_tps[EMPTYPROBE_MAX];
static unsigned int emptyprobe_nr_tps;

/* As ntprof's callback, less the handler. */
static void notrace emptyprobe_ftrace(unsigned long ip, unsigned long parent_ip,
				      struct ftrace_ops *ops,
				      struct ntprof_ftrace_cb_regs *regs)
{
	if (unlikely(!ntprof_ftrace_args_ok(ntprof_ftrace_regs(regs))))
		return;
	preempt_disable_notrace();
	preempt_enable_notrace();
}

/*
 * One probe for every prototype: it reads none of its arguments, which
 * x86-64 passes in registers; kernels built with kCFI would refuse it.
 */
static void notrace emptyprobe_tp(void *data)
{
}

struct emptyprobe_find {
	const char *name;
	struct tracepoint *tp;
};

static void emptyprobe_tp_match(struct tracepoint *tp, void *priv)
{
	struct emptyprobe_find *find = priv;

	if (!strcmp(tp->name, find->name))
		find->tp = tp;
}

/* Module tracepoints: registering the notifier lists the loaded ones. */
static struct emptyprobe_find *emptyprobe_module_find;

static int emptyprobe_tp_list(struct notifier_block *nb, unsigned long action,
			      void *data)
{
	struct tp_module *tp_mod = data;
	struct module *mod = tp_mod->mod;
	struct tracepoint *tp;
	unsigned int i;

	if (action != MODULE_STATE_COMING || !emptyprobe_module_find)
		return NOTIFY_OK;
	for (i = 0; i < mod->num_tracepoints; i++) {
		tp = tracepoint_ptr_deref(&mod->tracepoints_ptrs[i]);
		if (!strcmp(tp->name, emptyprobe_module_find->name))
			emptyprobe_module_find->tp = tp;
	}
	return NOTIFY_OK;
}

static struct notifier_block emptyprobe_tp_nb = {
	.notifier_call = emptyprobe_tp_list,
};

static struct tracepoint *emptyprobe_tp_find(const char *name)
{
	struct emptyprobe_find find = { .name = name };

	for_each_kernel_tracepoint(emptyprobe_tp_match, &find);
	if (find.tp)
		return find.tp;

	emptyprobe_module_find = &find;
	if (!register_tracepoint_module_notifier(&emptyprobe_tp_nb))
		unregister_tracepoint_module_notifier(&emptyprobe_tp_nb);
	emptyprobe_module_find = NULL;
	return find.tp;
}

static void emptyprobe_detach(void)
{
	unsigned int i;

	for (i = 0; i < emptyprobe_nr_ops; i++) {
		unregister_ftrace_function(&emptyprobe_ops[i]);
		ntprof_ftrace_free_filter(&emptyprobe_ops[i]);
	}
	for (i = 0; i < emptyprobe_nr_tps; i++)
		tracepoint_probe_unregister(emptyprobe_tps[i], emptyprobe_tp,
					    NULL);
	tracepoint_synchronize_unregister();
}

static int emptyprobe_attach_function(char *name)
{
	struct ftrace_ops *ops;
	int err;

	if (emptyprobe_nr_ops == EMPTYPROBE_MAX)
		return -E2BIG;
	ops = &emptyprobe_ops[emptyprobe_nr_ops];
	ops->func = emptyprobe_ftrace;
	ops->flags = NTPROF_FTRACE_REGS_FLAG | NTPROF_FTRACE_RECURSION_FLAG;
	err = ftrace_set_filter(ops, name, strlen(name), 1);
	if (!err)
		err = register_ftrace_function(ops);
	if (err) {
		ntprof_ftrace_free_filter(ops);
		return err;
	}
	emptyprobe_nr_ops++;
	return 0;
}

static int emptyprobe_attach_tracepoint(char *name)
{
	struct tracepoint *tp;
	int err;

	if (emptyprobe_nr_tps == EMPTYPROBE_MAX)
		return -E2BIG;
	tp = emptyprobe_tp_find(name);
	if (!tp)
		return -ENOENT;
	err = tracepoint_probe_register(tp, emptyprobe_tp, NULL);
	if (err)
		return err;
	emptyprobe_tps[emptyprobe_nr_tps++] = tp;
	return 0;
}

/* Attach each name of a comma-separated @list with @attach. */
static int emptyprobe_attach_list(const char *list, const char *what,
				  int (*attach)(char *name))
{
	char *copy, *cur, *name;
	int err = 0;

	copy = kstrdup(list, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	cur = copy;
	while (!err && (name = strsep(&cur, ","))) {
		if (!*name)
			continue;
		err = attach(name);
		if (err)
			pr_err("cannot attach to %s %s: %d\n", what, name, err);
	}
	kfree(copy);
	return err;
}

static int __init emptyprobe_init(void)
{
	int err;

	err = emptyprobe_attach_list(functions, "function",
				     emptyprobe_attach_function);
	if (!err)
		err = emptyprobe_attach_list(tracepoints, "tracepoint",
					     emptyprobe_attach_tracepoint);
	if (err) {
		emptyprobe_detach();
		return err;
	}
	pr_info("%u functions, %u tracepoints\n", emptyprobe_nr_ops,
		emptyprobe_nr_tps);
	return 0;
}

static void __exit emptyprobe_exit(void)
{
	emptyprobe_detach();
}

module_init(emptyprobe_init);
module_exit(emptyprobe_exit);
MODULE_DESCRIPTION("ntprof's benchmark: empty probes at ntprof's hooks");
MODULE_LICENSE("GPL");
