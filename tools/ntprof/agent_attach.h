/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The recorder's side of the in-process agent (Documentation/agent.rst):
 * a running program's agent found and mapped, turned on and off, and its
 * records taken with their TSC stamps made CLOCK_MONOTONIC nanoseconds.
 */
#ifndef NTPROF_AGENT_ATTACH_H
#define NTPROF_AGENT_ATTACH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <uapi/linux/ntprof.h>

/**
 * struct agent_attach - an agent attached to
 * @pid: its process
 * @shm: the shared memory, mapped whole
 * @nr_sites: the sites it listed, bounded
 * @tsc0: a TSC reading taken with @mono0, CLOCK_MONOTONIC ns
 * @ns_per_tick: the TSC's rate, measured against CLOCK_MONOTONIC
 */
struct agent_attach {
	pid_t pid;
	void *shm;
	unsigned int nr_sites;
	uint64_t tsc0;
	uint64_t mono0;
	double ns_per_tick;
};

/*
 * Attaches to the agent of process @pid: 0, -ENOENT if it runs none,
 * -EPROTO if its shared memory is not an agent's of this version, or
 * another -errno (no permission: the process's user or root only); the
 * reason in @err. The agent stays off until agent_attach_set().
 */
int agent_attach(pid_t pid, struct agent_attach *a, char *err, size_t len);

/* Turns the agent on at 1 in @sample, or off with 0. */
void agent_attach_set(struct agent_attach *a, uint32_t sample);

/*
 * Takes up to @max finished records of every thread into @out, their
 * stamps in CLOCK_MONOTONIC ns; how many.
 */
size_t agent_attach_take(struct agent_attach *a, struct ntprof_record *out,
			 size_t max);

/* Turns the agent off and unmaps it. */
void agent_detach(struct agent_attach *a);

#endif /* NTPROF_AGENT_ATTACH_H */
