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
 * @rings: rings its threads took
 */
struct agent_counters {
	uint64_t drops;
	uint64_t evicted;
	uint64_t ringless;
	uint64_t expired;
	unsigned int rings;
};

/**
 * struct agent_attach - an agent attached to
 * @pid: its process
 * @shm: the shared memory, mapped whole
 * @nr_sites: the sites it listed, bounded
 * @tsc0: a TSC reading taken with @mono0, CLOCK_MONOTONIC ns
 * @ns_per_tick: the TSC's rate, measured against CLOCK_MONOTONIC
 * @filter: what it was turned on with, to turn it back on
 * @expired: ctl's count when it was last turned on
 * @owner: this recorder turned it on
 */
struct agent_attach {
	pid_t pid;
	void *shm;
	unsigned int nr_sites;
	uint64_t tsc0;
	uint64_t mono0;
	double ns_per_tick;
	struct agent_filter filter;
	uint64_t expired;
	bool owner;
};

/*
 * Attaches to the agent of process @pid: 0, -ENOENT if it runs none,
 * -EAGAIN if it is still patching (not yet published), -EPROTO if its
 * shared memory is not an agent's of this version, or
 * another -errno (no permission: the process's user or root only); the
 * reason in @err. The agent stays off until agent_attach_set().
 */
int agent_attach(pid_t pid, struct agent_attach *a, char *err, size_t len);

/*
 * Turns the agent on for the commands of @f, as a session of its own:
 * commands it followed for an earlier recorder are dropped.
 */
void agent_attach_on(struct agent_attach *a, const struct agent_filter *f);
void agent_attach_off(struct agent_attach *a);

/*
 * The heartbeat: the agent stays on AGENT_HEARTBEAT_NS more. Returns
 * true if it had turned itself off meanwhile (the recorder was stopped
 * that long), and turns it back on.
 */
bool agent_attach_beat(struct agent_attach *a);

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
 * stamps in CLOCK_MONOTONIC ns; how many.
 */
size_t agent_attach_take(struct agent_attach *a, struct ntprof_record *out,
			 size_t max);

/* Turns the agent off, if this recorder turned it on, and unmaps it. */
void agent_detach(struct agent_attach *a);

#endif /* NTPROF_AGENT_ATTACH_H */
