/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a session is, as the hooks, the userspace sites and the readers
 * of its records see it: its configuration, its in-flight table, whether
 * it records. session.c starts and stops sessions (session.h); this
 * header is apart so that what session.c drives, the hooks and the
 * sites, reads a session without depending on session.c's interface.
 */
#ifndef _NTPROF_SESSION_TYPES_H
#define _NTPROF_SESSION_TYPES_H

#include <linux/compiler.h>
#include <linux/mutex.h>
#include <linux/nvme.h>
#include <linux/types.h>

#include <uapi/linux/ntprof.h>

struct pid;
struct pid_namespace;
struct sock;
struct ntprof_inflight;
struct ntprof_layout;
struct ntprof_usite_spec;

/* Host: controllers of the session's transports, for failure records. */
#define NTPROF_SESSION_TAGSETS	8

/**
 * struct ntprof_session_config - what a session records
 * @role: %NTPROF_ROLE_HOST or %NTPROF_ROLE_TARGET
 * @transport: %NTPROF_TRANSPORT_TCP, %NTPROF_TRANSPORT_RDMA, or
 *	%NTPROF_TRANSPORT_NONE for every transport
 * @sample: record one command in @sample, at least 1
 * @dev: host only: the namespace's dev_t, new encoding; 0: any
 * @ops: NTPROF_OP_* mask of the commands to record
 * @min_len: only commands of at least this many bytes
 * @max_len: only commands of at most this many bytes
 * @layout: the offsets of private struct members it gives, or NULL
 * @usites: the userspace sites to attach, for the start request only
 * @nr_usites: how many, up to %NTPROF_USITES_MAX
 * @pid: userspace sites fire in this process only (a pid of the
 *	starter's pid namespace); 0: in every process of their binaries
 * @owner_portid: the netlink socket that starts the session, which owns it
 * @owner_sk: that socket itself, referenced while it owns the session: a
 *	port id is free again as soon as its socket is unhashed, before
 *	the release of the socket reaches ntprof_session_released()
 * @drain_portid: a second socket of the starter's that may drain it, or 0;
 *	only threads of the starting process drain through it
 * @hook_set: every kernel hook of its role, or only those the stages need
 * @chain: read, write and write-zeroes commands are sampled by the chain
 *	rule (kmod/sample.h), the others by the hop rule; kernel hooks only
 * @chain_offset: the LBAs the chain rule takes from a command's SLBA
 */
struct ntprof_session_config {
	enum ntprof_role role;
	enum ntprof_transport transport;
	u32 sample;
	u32 dev;
	u32 ops;
	u32 min_len;
	u32 max_len;
	const struct ntprof_layout *layout;
	const struct ntprof_usite_spec *usites;
	unsigned int nr_usites;
	u32 pid;
	u32 owner_portid;
	struct sock *owner_sk;
	u32 drain_portid;
	enum ntprof_hook_set hook_set;
	bool chain;
	u64 chain_offset;
};

/**
 * struct ntprof_session - a session, running or the last of its role
 * @cfg: what it records
 * @active: true while it records; read by the I/O path without a lock
 * @ever: true once a session of this role has started
 * @start_mono: when it started, CLOCK_MONOTONIC ns
 * @start_real: the same instant, CLOCK_REALTIME ns
 * @discarded: commands still in flight when it stopped, not recorded
 * @inflight: the commands it follows, while it records
 * @tagsets: host: tag sets seen with the session's transports, each
 *	pointer or'ed with its enum ntprof_transport (see hooks_host.c)
 * @gen: counts the role's starts, so that a drain notices a new session
 * @owner: the process that started it, for status while it records,
 *	and for the drains through @cfg.drain_portid; referenced until the
 *	role's next session starts, or the module unloads
 * @only_pid: the process @cfg.pid names, referenced while it records
 * @pid_ns: the starter's pid namespace, whose pids the records carry
 */
struct ntprof_session {
	struct ntprof_session_config cfg;
	bool active;
	bool ever;
	u64 start_mono;
	u64 start_real;
	unsigned int discarded;
	struct ntprof_inflight *inflight;
	unsigned long tagsets[NTPROF_SESSION_TAGSETS];
	unsigned int gen;
	struct pid *owner;
	struct pid *only_pid;
	struct pid_namespace *pid_ns;
};

/* Indexed by enum ntprof_role; [NTPROF_ROLE_NONE] is unused. */
extern struct ntprof_session ntprof_sessions[NTPROF_ROLE_TARGET + 1];

/* Serializes starts, stops and whoever reads a session as a whole. */
extern struct mutex ntprof_session_lock;

/**
 * ntprof_session_active() - the running session of a role, for the I/O path
 * @role: %NTPROF_ROLE_HOST or %NTPROF_ROLE_TARGET
 *
 * Hooks are attached only while their role's session runs, and a stop
 * waits for the hooks running before it returns: a session that was
 * active here keeps its configuration and table until the hook returns.
 *
 * Context: Any, in a hook.
 * Return: the session, or NULL if none of @role is recording.
 */
static inline struct ntprof_session *ntprof_session_active(enum ntprof_role role)
{
	struct ntprof_session *s = &ntprof_sessions[role];

	/* Pairs with the release in ntprof_session_start(). */
	return smp_load_acquire(&s->active) ? s : NULL;
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
static inline bool ntprof_session_filter(const struct ntprof_session *s,
					 u8 opcode, u32 length)
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

#endif /* _NTPROF_SESSION_TYPES_H */
