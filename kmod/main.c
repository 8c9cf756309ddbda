// SPDX-License-Identifier: GPL-2.0
/*
 * ntprof: profile the latency of NVMe over Fabrics, host and target side.
 *
 * This file only wires the parts together: netlink.c is the interface of
 * the ntprof tool, debugfs.c a text view for humans, modules.c knows the
 * NVMe-oF kernel modules, session.c starts and stops recordings, hooks.c
 * attaches the handlers of hooks_host.c and hooks_target.c, uprobes.c
 * registers the sites in user programs; the handlers follow
 * commands in inflight.c's table and write records to buffer.c's buffers.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/init.h>
#include <linux/module.h>
#include <linux/printk.h>

#include "buffer.h"
#include "clock.h"
#include "debugfs.h"
#include "draingen.h"
#include "hooks.h"
#include "layout.h"
#include "netlink.h"
#include "ntprof.h"
#include "session.h"
#include "uprobes.h"

/* Nothing is hooked until a session asks for it. */
enum ntprof_state ntprof_cur_state = NTPROF_STATE_IDLE;

static int __init ntprof_init(void)
{
	int err;

	ntprof_clock_init();
	ntprof_layout_init();
	err = ntprof_hooks_init();
	if (err) {
		pr_err("cannot prepare the hooks: %d\n", err);
		return err;
	}

	err = ntprof_uprobes_init();
	if (err) {
		pr_err("cannot prepare the uprobe sites: %d\n", err);
		goto err_hooks;
	}

	/* Before the family: no session without its owner followed. */
	err = ntprof_session_init();
	if (err) {
		pr_err("cannot follow the closing of netlink sockets: %d\n", err);
		goto err_uprobes;
	}

	err = ntprof_netlink_init();
	if (err) {
		pr_err("cannot register the generic netlink family: %d\n", err);
		goto err_session;
	}

	/* Last, and unchecked: nothing depends on debugfs. */
	ntprof_debugfs_init();

	pr_info("version %s loaded\n", NTPROF_VERSION);
	return 0;

err_session:
	ntprof_session_exit();
err_uprobes:
	ntprof_uprobes_exit();
err_hooks:
	ntprof_hooks_exit();
	return err;
}

static void __exit ntprof_exit(void)
{
	ntprof_debugfs_exit();
	/* A benchmark build's generator writes to the buffers: end it. */
	ntprof_draingen_exit();
	/* No request can start a session after this. */
	ntprof_netlink_exit();
	/* Detaches every hook and waits for the handlers that still run. */
	ntprof_session_exit();
	ntprof_uprobes_exit();
	ntprof_hooks_exit();
	ntprof_buffer_exit();
}

module_init(ntprof_init);
module_exit(ntprof_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("NVMe over Fabrics latency profiler");
MODULE_AUTHOR("The ntprof authors");
MODULE_VERSION(NTPROF_VERSION);
