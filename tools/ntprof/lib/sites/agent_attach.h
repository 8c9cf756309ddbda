/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The recorder's side of the in-process agent (Documentation/agent.rst):
 * a running program's agent found and mapped, turned on and off, and its
 * records taken with their TSC stamps made CLOCK_MONOTONIC nanoseconds.
 */
#ifndef NTPROF_AGENT_ATTACH_H
#define NTPROF_AGENT_ATTACH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <uapi/linux/ntprof.h>

/*
 * How long the agent waits for a heartbeat before it turns itself off:
 * long enough for a recorder that writes to a slow disk, short enough
 * that one SIGKILLed costs SPDK little.
 */
#define AGENT_HEARTBEAT_NS	(5ULL * 1000000000ULL)

/**
 * struct agent_filter - the commands a recorder wants
 * @sample: one in @sample, as the kernel's -s
 * @ops: NTPROF_OP_*
 * @min_len: the shortest, in bytes
 * @max_len: the longest
 * @transport: NTPROF_TRANSPORT_*, NONE: both
 */
struct agent_filter {
	uint32_t sample;
	uint32_t ops;
	uint32_t min_len;
	uint32_t max_len;
	uint32_t transport;
};

/**
 * struct agent_counters - what the agent counted, since it started
 * @drops: records lost to a full ring
 * @evicted: sampled commands not followed, a thread's table full
 * @ringless: records lost because every ring was taken
 * @expired: times it turned itself off for want of a heartbeat
 * @faults: commands dropped because a load of the handler's faulted (a
 *	stale pointer of the program's)
 * @rings: rings its threads took
 */
struct agent_counters {
	uint64_t drops;
	uint64_t evicted;
	uint64_t ringless;
	uint64_t expired;
	uint64_t faults;
	unsigned int rings;
};

/**
 * struct agent_attach - an agent attached to
 * @pid: its process, as this recorder's pid namespace numbers it: each
 *	record taken carries it, whatever the agent wrote
 * @role: the recording's role (NTPROF_ROLE_*): each record carries it
 * @shm: the shared memory, mapped whole
 * @nr_sites: the sites it listed, bounded
 * @tsc0: a TSC reading taken with @mono0, CLOCK_MONOTONIC ns
 * @ns_per_tick: the TSC's rate, measured against CLOCK_MONOTONIC
 * @filter: what it was turned on with, to turn it back on
 * @expired: ctl's count when it was last turned on
 * @session: the session this recorder set when it last turned it on
 * @owner: this recorder turned it on
 * @lost: another recorder took it over since (ctl's session moved on):
 *	this one neither turns it on or off again nor takes its records
 */
struct agent_attach {
	pid_t pid;
	uint32_t role;
	void *shm;
	unsigned int nr_sites;
	uint64_t tsc0;
	uint64_t mono0;
	double ns_per_tick;
	struct agent_filter filter;
	uint64_t expired;
	uint32_t session;
	bool owner;
	bool lost;
};

/*
 * Attaches to the agent of process @pid, for a recording of @role: 0,
 * -ENOENT if it runs none, -EAGAIN if it is still patching (not yet
 * published), -EPROTO if its shared memory is not an agent's of this
 * version (agent_memfd_map()'s checks, then the header's), or another
 * -errno (no permission: the process's user or root only); the reason
 * in @err, "process PID: ...". The agent stays off until
 * agent_attach_on().
 */
int agent_attach(pid_t pid, uint32_t role, struct agent_attach *a, char *err,
		 size_t len);

/*
 * Whether this machine's TSC can be trusted for the agents' stamps: its
 * rate constant (constant_tsc) and ticking in deep idle states
 * (nonstop_tsc), as /proc/cpuinfo's flags say. If not, false with the
 * reason in @why.
 */
bool agent_tsc_trusted(char *why, size_t len);
/* The same of @flags, a cpuinfo "flags" line. */
bool agent_tsc_flags_ok(const char *flags, char *why, size_t len);

/*
 * Turns the agent on for the commands of @f, as a session of its own:
 * commands it followed for an earlier recorder are dropped. The first
 * time, the records an earlier recorder left in the rings (one that was
 * killed) are given up first: none is taken by this one.
 */
void agent_attach_on(struct agent_attach *a, const struct agent_filter *f);
void agent_attach_off(struct agent_attach *a);

enum agent_beat {
	AGENT_BEAT_ON,		/* on, for AGENT_HEARTBEAT_NS more */
	AGENT_BEAT_AGAIN,	/* it had turned itself off: on again */
	AGENT_BEAT_LOST,	/* another recorder has it now: left alone */
};

/*
 * The heartbeat: the agent stays on AGENT_HEARTBEAT_NS more. If it had
 * turned itself off meanwhile (the recorder was stopped that long), it
 * is turned back on, unless another recorder took it over meanwhile
 * (its session is not this recorder's): then it is left to that one,
 * for good.
 */
enum agent_beat agent_attach_beat(struct agent_attach *a);

/* Whether it is on now: off before the recorder's on, or expired. */
bool agent_attach_is_on(const struct agent_attach *a);

void agent_attach_counters(const struct agent_attach *a,
			   struct agent_counters *c);

/*
 * How the agent's patch of listed site @i went: an enum agent_refusal
 * (AGENT_PATCHED), or -1 for a site it did not list.
 */
int agent_attach_site_state(const struct agent_attach *a, unsigned int i);
/* Listed site @i's address as linked (its site list's VADDR), or 0. */
uint64_t agent_attach_site_vaddr(const struct agent_attach *a, unsigned int i);

/*
 * Takes up to @max finished records of every thread into @out, their
 * stamps in CLOCK_MONOTONIC ns, their pid and role this recorder's
 * (@a->pid, @a->role), their flags and transport bounded; how many.
 * None once another recorder has the agent.
 */
size_t agent_attach_take(struct agent_attach *a, struct ntprof_record *out,
			 size_t max);

/*
 * Turns the agent off, if this recorder turned it on and still has it,
 * and unmaps it.
 */
void agent_detach(struct agent_attach *a);

#endif /* NTPROF_AGENT_ATTACH_H */
