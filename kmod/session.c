// SPDX-License-Identifier: GPL-2.0
/*
 * Starting and stopping sessions. A start allocates what the I/O path
 * needs, publishes the session, then attaches its hooks; a stop does the
 * reverse, and waits for the hooks that are still running before it
 * frees anything they may touch.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mutex.h>
#include <linux/netlink.h>
#include <linux/nvme.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "buffer.h"
#include "hooks.h"
#include "inflight.h"
#include "layout.h"
#include "ntprof.h"
#include "session.h"
#include "uprobes.h"

struct ntprof_session ntprof_sessions[NTPROF_ROLE_TARGET + 1];
/* Taken by netlink requests and debugfs reads, never by the I/O path. */
DEFINE_MUTEX(ntprof_session_lock);

static bool ntprof_session_any_active(void)
{
	return ntprof_sessions[NTPROF_ROLE_HOST].active ||
	       ntprof_sessions[NTPROF_ROLE_TARGET].active;
}

/**
 * ntprof_session_filter() - apply a session's op and length filters
 * @s: the session
 * @opcode: the command's NVMe opcode
 * @length: the command's data length in bytes
 *
 * Context: Any.
 * Return: true if the session records such commands.
 */
bool ntprof_session_filter(const struct ntprof_session *s, u8 opcode,
			   u32 length)
{
	u32 op;

	if (opcode == nvme_cmd_read)
		op = NTPROF_OP_READ;
	else if (opcode == nvme_cmd_write)
		op = NTPROF_OP_WRITE;
	else
		op = NTPROF_OP_OTHER;

	return (s->cfg.ops & op) && length >= s->cfg.min_len &&
	       length <= s->cfg.max_len;
}

/**
 * ntprof_session_start() - start a session
 * @cfg: what to record, validated by the caller
 * @extack: where to say why it cannot start
 *
 * The session gets its own record buffers and counters, in place of
 * those of the role's previous session; the other role's stay as they
 * are.
 *
 * Context: Process context; takes the session lock.
 * Return: 0, -EBUSY if a session of that role runs, -ENOENT if a hook the
 * session requires is missing, -ENOMEM.
 */
int ntprof_session_start(const struct ntprof_session_config *cfg,
			 struct netlink_ext_ack *extack)
{
	struct ntprof_session *s = &ntprof_sessions[cfg->role];
	struct ntprof_layout layout;
	bool swapped = false;
	int err;

	mutex_lock(&ntprof_session_lock);

	if (s->active) {
		if (cfg->role == NTPROF_ROLE_HOST)
			NL_SET_ERR_MSG_MOD(extack,
					   "a host session is already running");
		else
			NL_SET_ERR_MSG_MOD(extack,
					   "a target session is already running");
		err = -EBUSY;
		goto unlock;
	}

	/* No hook of the role runs: the last stop waited for them. */
	if (cfg->layout) {
		layout = *cfg->layout;
		ntprof_layout_swap(&layout);
		swapped = true;
	}
	err = ntprof_buffer_alloc(cfg->role);
	if (err) {
		NL_SET_ERR_MSG_MOD(extack, "cannot allocate the record buffers");
		goto unlock;
	}

	s->inflight = ntprof_inflight_alloc();
	if (!s->inflight) {
		NL_SET_ERR_MSG_MOD(extack, "cannot allocate the in-flight table");
		err = -ENOMEM;
		goto unlock;
	}

	s->cfg = *cfg;
	/* The request's sites: uprobes.c keeps what it needs of them. */
	s->cfg.usites = NULL;
	s->discarded = 0;
	memset(s->tagsets, 0, sizeof(s->tagsets));
	s->start_mono = ktime_get_ns();
	s->start_real = ktime_get_real_ns();
	s->ever = true;

	/*
	 * Publish before attaching, so that no hook fires for a session
	 * that does not exist yet; pairs with ntprof_session_active().
	 */
	smp_store_release(&s->active, true);
	ntprof_state_set(NTPROF_STATE_RECORDING);

	err = ntprof_hooks_attach(cfg->role, cfg->transport, extack);
	if (!err)
		err = ntprof_uprobes_attach(cfg->role, cfg->usites,
					    cfg->nr_usites, extack);
	if (err) {
		WRITE_ONCE(s->active, false);
		ntprof_hooks_detach(cfg->role);
		ntprof_inflight_free(s->inflight);
		s->inflight = NULL;
		if (!ntprof_session_any_active())
			ntprof_state_set(NTPROF_STATE_IDLE);
		goto unlock;
	}

	pr_info("%s session started (%s, 1 in %u, %u uprobe sites)\n",
		cfg->role == NTPROF_ROLE_HOST ? "host" : "target",
		cfg->transport == NTPROF_TRANSPORT_TCP ? "tcp" :
		cfg->transport == NTPROF_TRANSPORT_RDMA ? "rdma" : "tcp, rdma",
		cfg->sample, cfg->nr_usites);

unlock:
	/* A start that failed leaves the offsets as they were; no hook runs. */
	if (err && swapped)
		ntprof_layout_swap(&layout);
	mutex_unlock(&ntprof_session_lock);
	return err;
}

static void ntprof_session_stop_one(struct ntprof_session *s)
{
	WRITE_ONCE(s->active, false);

	/* Return once no hook or site of the role runs any more. */
	ntprof_hooks_detach(s->cfg.role);
	ntprof_uprobes_detach(s->cfg.role);

	s->discarded = ntprof_inflight_used(s->inflight);
	ntprof_inflight_free(s->inflight);
	s->inflight = NULL;

	pr_info("%s session stopped, %u commands in flight discarded\n",
		s->cfg.role == NTPROF_ROLE_HOST ? "host" : "target",
		s->discarded);
}

/**
 * ntprof_session_stop() - stop sessions
 * @role: the role of the session to stop, %NTPROF_ROLE_NONE for all
 * @extack: where to say why nothing was stopped
 *
 * Detaches the hooks and discards the commands still in flight. The
 * records and counters of a stopped session stay readable until the
 * next session of its role starts, or the module unloads.
 *
 * Context: Process context; takes the session lock, sleeps for RCU grace
 * periods.
 * Return: 0, or -ENOENT if no such session runs.
 */
int ntprof_session_stop(enum ntprof_role role, struct netlink_ext_ack *extack)
{
	enum ntprof_role r;
	int err = -ENOENT;

	mutex_lock(&ntprof_session_lock);

	for (r = NTPROF_ROLE_HOST; r <= NTPROF_ROLE_TARGET; r++) {
		if (role != NTPROF_ROLE_NONE && role != r)
			continue;
		if (!ntprof_sessions[r].active)
			continue;
		ntprof_session_stop_one(&ntprof_sessions[r]);
		err = 0;
	}

	if (!ntprof_session_any_active())
		ntprof_state_set(NTPROF_STATE_IDLE);

	mutex_unlock(&ntprof_session_lock);

	if (err)
		NL_SET_ERR_MSG_MOD(extack, "no such session is running");
	return err;
}

/**
 * ntprof_session_exit() - stop every session, at module exit
 *
 * Context: Process context, after the netlink family is gone.
 */
void ntprof_session_exit(void)
{
	ntprof_session_stop(NTPROF_ROLE_NONE, NULL);
}
