// SPDX-License-Identifier: GPL-2.0
/*
 * <debugfs>/ntprof/: for when the ntprof tool is not at hand.
 *
 * status: the facts of a status-get reply and of the sessions, one
 * "key: value" line each, with each session's control-path events
 * (recorded, dropped, waiting to be drained);
 * hooks: a line per hook: name, kind ("tracepoint" or "function"), role,
 * transport, "required" if it is, state, hits;
 * buffers: per role, the size of its record buffers, then a line per
 * possible CPU: its buffer and counters, each line prefixed with the role;
 * usites: a line per uprobe site of each role's current or last session:
 * role, binary, offset, point, first/last, state, hits, faults.
 *
 * All are read-only: sessions are started and stopped over netlink.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/seq_file.h>
#include <linux/timekeeping.h>
#include <linux/utsname.h>

#include "buffer.h"
#include "clock.h"
#include "debugfs.h"
#include "draingen.h"
#include "events.h"
#include "hooks.h"
#include "modules.h"
#include "names.h"
#include "ntprof.h"
#include "session.h"
#include "uprobes.h"

static struct dentry *ntprof_debugfs_dir;

static void ntprof_session_show(struct seq_file *m,
				const struct ntprof_session *s)
{
	const char *role = ntprof_role_name(s->cfg.role);
	struct ntprof_events_count events;

	if (!s->ever)
		return;

	seq_printf(m, "%s session: %s\n", role,
		   s->active ? "recording" : "stopped");
	seq_printf(m, "%s transport: %s\n", role,
		   s->cfg.transport ? ntprof_transport_name(s->cfg.transport) :
				      "tcp,rdma");
	seq_printf(m, "%s sample: %u\n", role, s->cfg.sample);
	if (s->cfg.chain)
		seq_printf(m, "%s chain offset: %llu\n", role,
			   s->cfg.chain_offset);
	seq_printf(m, "%s filter: dev %u:%u ops %#x length %u-%u\n", role,
		   MAJOR(new_decode_dev(s->cfg.dev)),
		   MINOR(new_decode_dev(s->cfg.dev)), s->cfg.ops,
		   s->cfg.min_len, s->cfg.max_len);
	seq_printf(m, "%s start mono: %llu\n", role, s->start_mono);
	seq_printf(m, "%s start real: %llu\n", role, s->start_real);
	if (!s->active)
		seq_printf(m, "%s discarded: %u\n", role, s->discarded);
	ntprof_events_count(s->cfg.role, &events);
	seq_printf(m, "%s events: %llu recorded, %llu dropped, %llu waiting\n",
		   role, events.recorded, events.drops, events.fill);
}

static int ntprof_status_show(struct seq_file *m, void *unused)
{
	unsigned int i;

	seq_printf(m, "version: %s\n", NTPROF_VERSION);
	seq_printf(m, "state: %s\n", ntprof_state_name(ntprof_state_get()));
	seq_printf(m, "kernel: %s\n", init_utsname()->release);
	seq_printf(m, "early stamps: %s\n",
		   ntprof_clock_early_cycles() ? "cycle counter" : "clock");

	for (i = 0; i < NTPROF_NR_MODULES; i++) {
		const struct ntprof_module *mod = &ntprof_modules[i];

		seq_printf(m, "module %s: %s (%s", mod->name,
			   ntprof_module_present(i) ? "present" : "absent",
			   ntprof_role_name(mod->role));
		if (mod->transport != NTPROF_TRANSPORT_NONE)
			seq_printf(m, ", %s",
				   ntprof_transport_name(mod->transport));
		seq_puts(m, ")\n");
	}

	mutex_lock(&ntprof_session_lock);
	ntprof_session_show(m, &ntprof_sessions[NTPROF_ROLE_HOST]);
	ntprof_session_show(m, &ntprof_sessions[NTPROF_ROLE_TARGET]);
	mutex_unlock(&ntprof_session_lock);

	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ntprof_status);

static int ntprof_hooks_show(struct seq_file *m, void *unused)
{
	struct ntprof_hook *hook;
	unsigned int i;

	for (i = 0; (hook = ntprof_hook_get(i)); i++)
		seq_printf(m, "%s %s %s %s%s %s %llu\n", hook->name,
			   ntprof_hook_kind_name(hook->kind),
			   ntprof_role_name(hook->role),
			   ntprof_transport_name(hook->transport),
			   hook->required ? " required" : "",
			   ntprof_hook_state_name(ntprof_hook_state(hook)),
			   ntprof_hook_hits(hook));

	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ntprof_hooks);

/*
 * The bracket's own cost: the least of a few empty brackets, measured
 * here and now, the way a handler's are (hookcost.h).
 */
static u64 ntprof_cost_bracket_ns(void)
{
	u64 t0, t1, least = U64_MAX;
	unsigned int i;

	for (i = 0; i < 16; i++) {
		preempt_disable();
		t0 = ktime_get_ns();
		t1 = ktime_get_ns();
		preempt_enable();
		least = min(least, t1 - t0);
	}
	return least;
}

/*
 * Cost builds: "bracket NS", then a line per hook: name, kind, role,
 * transport, hits, ns.
 */
static int ntprof_hookcost_show(struct seq_file *m, void *unused)
{
	struct ntprof_hook_stats sum;
	struct ntprof_hook *hook;
	unsigned int i;

	seq_printf(m, "bracket %llu\n", ntprof_cost_bracket_ns());
	for (i = 0; (hook = ntprof_hook_get(i)); i++) {
		ntprof_hook_stats_sum(hook, &sum);
		seq_printf(m, "%s %s %s %s %llu %llu\n", hook->name,
			   ntprof_hook_kind_name(hook->kind),
			   ntprof_role_name(hook->role),
			   ntprof_transport_name(hook->transport),
			   sum.hits, sum.ns);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ntprof_hookcost);

static void ntprof_buffers_show_role(struct seq_file *m,
				     enum ntprof_role role)
{
	const char *name = ntprof_role_name(role);
	struct ntprof_cpu_stats st;
	struct ntprof_buffer *b;
	int cpu;

	b = ntprof_buffer_get(role);
	seq_printf(m, "%s size: %lu\n", name, b->size);
	for_each_possible_cpu(cpu) {
		ntprof_buffer_stats(b, cpu, &st);
		seq_printf(m,
			   "%s cpu %d: records %llu fill %lu drops %llu seen %llu sampled %llu evicted %llu\n",
			   name, cpu, st.records, ntprof_buffer_fill(b, cpu),
			   st.drops, st.seen, st.sampled, st.evicted);
	}
	ntprof_buffer_put(b);
}

static int ntprof_buffers_show(struct seq_file *m, void *unused)
{
	ntprof_buffers_show_role(m, NTPROF_ROLE_HOST);
	ntprof_buffers_show_role(m, NTPROF_ROLE_TARGET);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ntprof_buffers);

static int ntprof_usites_show(struct seq_file *m, void *unused)
{
	ntprof_uprobes_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ntprof_usites);

/**
 * ntprof_debugfs_init() - create <debugfs>/ntprof/ and its files
 *
 * debugfs is a debugging aid: the module works without it, so failures
 * are not checked, as is the kernel's convention. The files are root's
 * alone, as the netlink family is CAP_NET_ADMIN's: they show the
 * sessions and the paths of the programs being probed, even where
 * debugfs is mounted readable by all.
 *
 * Context: Process context, module init.
 */
void __init ntprof_debugfs_init(void)
{
	ntprof_debugfs_dir = debugfs_create_dir("ntprof", NULL);
	debugfs_create_file("status", 0400, ntprof_debugfs_dir, NULL,
			    &ntprof_status_fops);
	debugfs_create_file("hooks", 0400, ntprof_debugfs_dir, NULL,
			    &ntprof_hooks_fops);
	debugfs_create_file("buffers", 0400, ntprof_debugfs_dir, NULL,
			    &ntprof_buffers_fops);
	debugfs_create_file("usites", 0400, ntprof_debugfs_dir, NULL,
			    &ntprof_usites_fops);
	if (NTPROF_HOOK_COST_BUILD)
		debugfs_create_file("hookcost", 0400, ntprof_debugfs_dir, NULL,
				    &ntprof_hookcost_fops);
	ntprof_draingen_init(ntprof_debugfs_dir);
}

/**
 * ntprof_debugfs_exit() - remove <debugfs>/ntprof/ and everything in it
 *
 * An open file pins the module, so no read can be in progress here.
 *
 * Context: Process context.
 */
void ntprof_debugfs_exit(void)
{
	/* debugfs_remove() is recursive, and a no-op on an error pointer. */
	debugfs_remove(ntprof_debugfs_dir);
	ntprof_debugfs_dir = NULL;
}
