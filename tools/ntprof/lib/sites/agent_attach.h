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
 * agent_attach() - attach to the agent of process @pid, for a recording
 * of @role. It returns 0; -ENOENT if the process runs no agent; -EAGAIN
 * if the agent is still patching (not yet published); -EPROTO if its
 * shared memory is not an agent's of this version (agent_memfd_map()'s
 * checks, then the header's); or another -errno (no permission: only the
 * process's user or root may attach). The reason goes in @err, as
 * "process PID: ...". The agent stays off until agent_attach_on().
 */
int agent_attach(pid_t pid, uint32_t role, struct agent_attach *a, char *err,
		 size_t len);

/*
 * agent_tsc_trusted() - tell whether this machine's TSC can be trusted
 * for the agents' stamps: whether its rate is constant (constant_tsc) and
 * it keeps ticking in deep idle states (nonstop_tsc), as /proc/cpuinfo's
 * flags say. If not, it returns false with the reason in @why.
 */
bool agent_tsc_trusted(char *why, size_t len);
/*
 * agent_tsc_flags_ok() - do what agent_tsc_trusted() does, for @flags, a
 * cpuinfo "flags" line.
 */
bool agent_tsc_flags_ok(const char *flags, char *why, size_t len);

/*
 * agent_attach_on() - turn the agent on for the commands of @f, as a
 * session of its own, so that the commands it followed for an earlier
 * recorder are dropped. The first time, it first gives up the records
 * that an earlier recorder (one that was killed) left in the rings: this
 * recorder takes none of them.
 */
void agent_attach_on(struct agent_attach *a, const struct agent_filter *f);
/*
 * agent_attach_off() - turn the agent off, unless another recorder has
 * taken it over.
 */
void agent_attach_off(struct agent_attach *a);

enum agent_beat {
	AGENT_BEAT_ON,		/* on, for AGENT_HEARTBEAT_NS more */
	AGENT_BEAT_AGAIN,	/* it had turned itself off: on again */
	AGENT_BEAT_LOST,	/* another recorder has it now: left alone */
};

/*
 * agent_attach_beat() - send the heartbeat, which keeps the agent on for
 * AGENT_HEARTBEAT_NS more. If the agent had turned itself off meanwhile
 * (because the recorder was stopped that long), it turns the agent back
 * on, unless another recorder took the agent over meanwhile (its session
 * is not this recorder's); in that case it leaves the agent to the other
 * recorder for good.
 */
enum agent_beat agent_attach_beat(struct agent_attach *a);

/*
 * agent_attach_is_on() - tell whether the agent is on now. It is off
 * before the recorder turns it on, and after it expired.
 */
bool agent_attach_is_on(const struct agent_attach *a);

/* agent_attach_counters() - read the agent's counters into @c. */
void agent_attach_counters(const struct agent_attach *a,
			   struct agent_counters *c);

/*
 * agent_attach_site_state() - return how the agent's patch of listed site
 * @i went, as an enum agent_refusal (AGENT_PATCHED when it succeeded), or
 * -1 for a site that the agent did not list.
 */
int agent_attach_site_state(const struct agent_attach *a, unsigned int i);
/*
 * agent_attach_site_vaddr() - return the address of listed site @i as
 * linked (its VADDR in the site list), or 0.
 */
uint64_t agent_attach_site_vaddr(const struct agent_attach *a, unsigned int i);

/*
 * agent_attach_take() - take up to @max finished records of every thread
 * into @out and return how many it took. Their stamps are converted to
 * CLOCK_MONOTONIC ns, their pid and role are this recorder's (@a->pid,
 * @a->role), and their flags and transport are bounded. It takes none
 * once another recorder has the agent.
 */
size_t agent_attach_take(struct agent_attach *a, struct ntprof_record *out,
			 size_t max);

/*
 * agent_detach() - turn the agent off, if this recorder turned it on and
 * still has it, and unmap it.
 */
void agent_detach(struct agent_attach *a);

#endif /* NTPROF_AGENT_ATTACH_H */
