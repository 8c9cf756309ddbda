// SPDX-License-Identifier: GPL-2.0
/*
 * Starting and stopping sessions. A start allocates what the I/O path
 * needs, publishes the session, then attaches its hooks; a stop does the
 * reverse, and waits for the hooks that are still running before it
 * frees anything they may touch.
 *
 * A session belongs to the netlink socket that started it, held by the
 * session: only that socket stops it or drains its records (and a second
 * socket the start named, for the recorder's quiet drains, from the
 * starter's process only), and when that socket closes, the session
 * stops. A recorder that is killed leaves nothing running, and one
 * recorder never takes another's records. A start that fails leaves
 * the last session, and its records, as they were.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mutex.h>
#include <linux/netlink.h>
#include <linux/notifier.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <net/net_namespace.h>
#include <net/sock.h>

#include "buffer.h"
#include "events.h"
#include "hooks.h"
#include "inflight.h"
#include "layout.h"
#include "names.h"
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

/*
 * The process a session's userspace sites are for, by its pid in the
 * starter's pid namespace: a process, not one of its threads, since the
 * sites compare it with the thread group of the task they fire in.
 */
static int ntprof_session_find_pid(struct ntprof_session *s, u32 nr,
				   struct netlink_ext_ack *extack)
{
	struct pid *pid = NULL;
	bool process;

	if (nr <= PID_MAX_LIMIT)
		pid = find_get_pid(nr);
	if (!pid) {
		NL_SET_ERR_MSG_MOD(extack, "no process has the session's pid");
		return -ESRCH;
	}
	rcu_read_lock();
	process = pid_task(pid, PIDTYPE_TGID);
	rcu_read_unlock();
	if (!process) {
		put_pid(pid);
		NL_SET_ERR_MSG_MOD(extack,
				   "the session's pid is a thread's, not a process's");
		return -ESRCH;
	}
	s->only_pid = pid;
	return 0;
}

/*
 * What a session referenced of processes for its sites and records, once
 * no site of it runs. Its owner stays: the drains through its second
 * socket check it (ntprof_session_may_drain()).
 */
static void ntprof_session_put_pids(struct ntprof_session *s)
{
	put_pid(s->only_pid);
	s->only_pid = NULL;
	if (s->pid_ns)
		put_pid_ns(s->pid_ns);
	s->pid_ns = NULL;
}

/* What a role's last session referenced of its starter, and its socket. */
static void ntprof_session_put_owner(struct ntprof_session *s)
{
	put_pid(s->owner);
	s->owner = NULL;
	if (s->cfg.owner_sk)
		sock_put(s->cfg.owner_sk);
	s->cfg.owner_sk = NULL;
}

/* Fill a session in from @cfg and publish it: its hooks may fire. */
static void ntprof_session_publish(struct ntprof_session *s,
				   const struct ntprof_session_config *cfg)
{
	s->cfg = *cfg;
	/* The request's sites: uprobes.c keeps what it needs of them. */
	s->cfg.usites = NULL;
	s->discarded = 0;
	memset(s->tagsets, 0, sizeof(s->tagsets));
	s->start_mono = ktime_get_ns();
	s->start_real = ktime_get_real_ns();
	s->owner = get_pid(task_tgid(current));
	if (s->cfg.owner_sk)
		sock_hold(s->cfg.owner_sk);
	s->ever = true;

	/*
	 * Publish before attaching, so that no hook fires for a session
	 * that does not exist yet; pairs with ntprof_session_active().
	 */
	smp_store_release(&s->active, true);
	ntprof_state_set(NTPROF_STATE_RECORDING);
}

/*
 * Attach the hooks and the sites of a published session; if one fails,
 * none stays attached, and the session is unpublished; the caller frees
 * its table once no hook runs.
 */
static int ntprof_session_attach(struct ntprof_session *s,
				 const struct ntprof_session_config *cfg,
				 struct netlink_ext_ack *extack)
{
	int err;

	err = ntprof_hooks_attach(cfg->role, cfg->transport, cfg->hook_set,
				  extack);
	if (!err)
		err = ntprof_uprobes_attach(cfg->role, cfg->usites,
					    cfg->nr_usites, extack);
	if (!err)
		return 0;

	WRITE_ONCE(s->active, false);
	ntprof_hooks_detach(cfg->role);
	if (!ntprof_session_any_active())
		ntprof_state_set(NTPROF_STATE_IDLE);
	return err;
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
	struct ntprof_session prev;
	struct ntprof_layout layout;
	int err;

	mutex_lock(&ntprof_session_lock);

	if (s->active) {
		if (cfg->role == NTPROF_ROLE_HOST)
			NL_SET_ERR_MSG_MOD(extack,
					   "a host session is already running");
		else
			NL_SET_ERR_MSG_MOD(extack,
					   "a target session is already running");
		mutex_unlock(&ntprof_session_lock);
		return -EBUSY;
	}

	/*
	 * The role's last session, stopped: its records stay its owner's
	 * until this start succeeds; a start that fails puts it back
	 * (Documentation/security.rst).
	 */
	prev = *s;

	if (cfg->pid) {
		err = ntprof_session_find_pid(s, cfg->pid, extack);
		if (err)
			goto err_restore_session;
	}
	s->pid_ns = get_pid_ns(task_active_pid_ns(current));

	/* No hook of the role runs: the last stop waited for them. */
	if (cfg->layout) {
		layout = *cfg->layout;
		ntprof_layout_swap(&layout);
	}

	s->inflight = ntprof_inflight_alloc();
	if (!s->inflight) {
		NL_SET_ERR_MSG_MOD(extack, "cannot allocate the in-flight table");
		err = -ENOMEM;
		goto err_restore_layout;
	}

	err = ntprof_buffer_alloc(cfg->role);
	if (err) {
		NL_SET_ERR_MSG_MOD(extack, "cannot allocate the record buffers");
		goto err_free_inflight;
	}

	/*
	 * The last session's events go with it: the recorder drained them
	 * when it stopped. Unlike its records, a start that fails does not
	 * bring them back.
	 */
	ntprof_events_reset(cfg->role);
	ntprof_session_publish(s, cfg);
	err = ntprof_session_attach(s, cfg, extack);
	if (err)
		goto err_unpublish;

	/* A drain of the last session's records ends here. */
	s->gen = prev.gen + 1;
	ntprof_buffer_commit(cfg->role);
	put_pid(prev.owner);
	if (prev.cfg.owner_sk)
		sock_put(prev.cfg.owner_sk);

	pr_info("%s session started (%s, 1 in %u%s, %u uprobe sites, pid %d%s)\n",
		ntprof_role_name(cfg->role),
		cfg->transport ? ntprof_transport_name(cfg->transport) :
				 "tcp, rdma",
		cfg->sample, cfg->chain ? " by the chain rule" : "",
		cfg->nr_usites, pid_nr(s->owner),
		cfg->hook_set == NTPROF_HOOK_SET_STAGES ? ", stages only" : "");
	mutex_unlock(&ntprof_session_lock);
	return 0;

	/*
	 * A start that failed leaves the offsets, the buffers and the last
	 * session as they were. No hook of the role runs: the attach
	 * detached what it had attached, and unpublished the session.
	 */
err_unpublish:
	ntprof_session_put_owner(s);
	ntprof_buffer_restore(cfg->role);
err_free_inflight:
	ntprof_inflight_free(s->inflight);
err_restore_layout:
	if (cfg->layout)
		ntprof_layout_swap(&layout);
	ntprof_session_put_pids(s);
err_restore_session:
	*s = prev;
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
	ntprof_session_put_pids(s);

	pr_info("%s session stopped, %u commands in flight discarded\n",
		ntprof_role_name(s->cfg.role),
		s->discarded);
}

/**
 * ntprof_session_stop() - stop sessions
 * @role: the role of the session to stop, %NTPROF_ROLE_NONE for all
 * @portid: the port id of the socket asking, whose sessions stop;
 *	%NTPROF_OWNER_KERNEL: any session
 * @sk: that socket, which must be the owner itself, not a socket that
 *	took the owner's port id after it was closed
 * @extack: where to say why nothing was stopped
 *
 * Detaches the hooks and discards the commands still in flight. The
 * records and counters of a stopped session stay readable, by its
 * owner, until the next session of its role starts, or the module
 * unloads.
 *
 * Context: Process context; takes the session lock, sleeps for RCU grace
 * periods.
 * Return: 0, -ENOENT if no such session runs, or -EPERM if the only
 * ones that do are another socket's.
 */
int ntprof_session_stop(enum ntprof_role role, u32 portid,
			const struct sock *sk, struct netlink_ext_ack *extack)
{
	struct ntprof_session *s;
	bool others = false;
	enum ntprof_role r;
	int err = -ENOENT;

	mutex_lock(&ntprof_session_lock);

	for (r = NTPROF_ROLE_HOST; r <= NTPROF_ROLE_TARGET; r++) {
		s = &ntprof_sessions[r];
		if (role != NTPROF_ROLE_NONE && role != r)
			continue;
		if (!s->active)
			continue;
		if (portid != NTPROF_OWNER_KERNEL &&
		    (portid != s->cfg.owner_portid || sk != s->cfg.owner_sk)) {
			others = true;
			continue;
		}
		ntprof_session_stop_one(s);
		err = 0;
	}

	if (!ntprof_session_any_active())
		ntprof_state_set(NTPROF_STATE_IDLE);

	mutex_unlock(&ntprof_session_lock);

	if (err && others) {
		NL_SET_ERR_MSG_MOD(extack,
				   "the session belongs to another socket: only its recorder stops it");
		err = -EPERM;
	} else if (err) {
		NL_SET_ERR_MSG_MOD(extack, "no such session is running");
	}
	return err;
}

/**
 * ntprof_session_may_drain() - whether a socket may drain a role's records
 * @role: %NTPROF_ROLE_HOST or %NTPROF_ROLE_TARGET
 * @portid: the socket's port id
 * @sk: the socket
 * @gen: the generation of the session the drain began with, or
 *	%UINT_MAX for the start of a drain, in the context of the thread
 *	that asks for it
 *
 * The owner is its socket itself, not its port id: a port id is free
 * again once its socket is unhashed, before its release reaches
 * ntprof_session_released(). The second socket the start named cannot be
 * looked up by its port id (the kernel exports no such lookup): a drain
 * through it starts only in a thread of the process that started the
 * session, and only while that socket has not been closed.
 *
 * Context: Process context, under the session lock.
 * Return: true if the role's last session is the socket's, and, for a
 * drain under way, the one it began with; true too for a role that has
 * had no session since the module loaded, whose buffers are empty.
 */
bool ntprof_session_may_drain(enum ntprof_role role, u32 portid,
			      const struct sock *sk, unsigned int gen)
{
	const struct ntprof_session *s = &ntprof_sessions[role];

	lockdep_assert_held(&ntprof_session_lock);

	if (gen != UINT_MAX && gen != s->gen)
		return false;
	/* A role that never had a session has nothing to take: empty. */
	if (!s->ever)
		return true;
	if (!portid)
		return false;
	if (portid == s->cfg.owner_portid && sk == s->cfg.owner_sk)
		return true;
	if (portid != s->cfg.drain_portid)
		return false;
	/* A dump under way was checked at its start, on this very socket. */
	return gen != UINT_MAX || task_tgid(current) == s->owner;
}

/**
 * ntprof_session_released() - a generic-netlink socket closed
 * @portid: its port id
 *
 * Stops the sessions it owns, and forgets it as an owner or drainer of
 * past ones, whose records nobody drains any more: a socket that takes
 * its port id later gets nothing of them. The port id may be another
 * socket's already (netlink frees it before it tells the release): a
 * session whose owner socket is still open is left alone.
 *
 * Context: Process context; takes the session lock, sleeps.
 */
void ntprof_session_released(u32 portid)
{
	struct ntprof_session *s;
	enum ntprof_role r;
	bool ours = false;

	/*
	 * Every generic-netlink socket of the system comes here: look
	 * without the lock first, which a start holds for long. A socket
	 * that closes starts nothing meanwhile, so what it owns is seen.
	 */
	for (r = NTPROF_ROLE_HOST; r <= NTPROF_ROLE_TARGET; r++) {
		s = &ntprof_sessions[r];
		ours |= READ_ONCE(s->cfg.owner_portid) == portid ||
			READ_ONCE(s->cfg.drain_portid) == portid;
	}
	if (!ours)
		return;

	mutex_lock(&ntprof_session_lock);
	for (r = NTPROF_ROLE_HOST; r <= NTPROF_ROLE_TARGET; r++) {
		s = &ntprof_sessions[r];
		if (s->cfg.drain_portid == portid)
			s->cfg.drain_portid = 0;
		if (s->cfg.owner_portid != portid)
			continue;
		/*
		 * netlink_release() orphans the socket before it tells its
		 * release: the owner, held, is dead if it is the one closing.
		 */
		if (s->cfg.owner_sk && !sock_flag(s->cfg.owner_sk, SOCK_DEAD))
			continue;
		if (s->active) {
			pr_info("%s session: its socket closed\n",
				ntprof_role_name(r));
			ntprof_session_stop_one(s);
		}
		s->cfg.owner_portid = 0;
		if (s->cfg.owner_sk)
			sock_put(s->cfg.owner_sk);
		s->cfg.owner_sk = NULL;
	}
	if (!ntprof_session_any_active())
		ntprof_state_set(NTPROF_STATE_IDLE);
	mutex_unlock(&ntprof_session_lock);
}

/* Called as a netlink socket of any family closes; sleeping is allowed. */
static int ntprof_session_netlink_event(struct notifier_block *nb,
					unsigned long event, void *ptr)
{
	const struct netlink_notify *n = ptr;

	/* The family is not netnsok: its sockets are the initial netns's. */
	if (event == NETLINK_URELEASE && n->protocol == NETLINK_GENERIC &&
	    net_eq(n->net, &init_net) && n->portid)
		ntprof_session_released(n->portid);
	return NOTIFY_DONE;
}

static struct notifier_block ntprof_session_netlink_nb = {
	.notifier_call = ntprof_session_netlink_event,
};

/**
 * ntprof_session_init() - follow the closing of sockets, before any start
 *
 * Context: Process context, module init.
 * Return: 0, or a negative errno.
 */
int __init ntprof_session_init(void)
{
	return netlink_register_notifier(&ntprof_session_netlink_nb);
}

/**
 * ntprof_session_exit() - stop every session, at module exit
 *
 * Context: Process context, after the netlink family is gone.
 */
void ntprof_session_exit(void)
{
	/* Waits for a release that is stopping a session. */
	netlink_unregister_notifier(&ntprof_session_netlink_nb);
	ntprof_session_stop(NTPROF_ROLE_NONE, NTPROF_OWNER_KERNEL, NULL, NULL);
	mutex_lock(&ntprof_session_lock);
	ntprof_session_put_owner(&ntprof_sessions[NTPROF_ROLE_HOST]);
	ntprof_session_put_owner(&ntprof_sessions[NTPROF_ROLE_TARGET]);
	mutex_unlock(&ntprof_session_lock);
}
