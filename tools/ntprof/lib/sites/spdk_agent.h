/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The processes of an SPDK program that run ntprof's in-process agent
 * (ntprof run), as record and probe use them: each one recorded through
 * its agent, with no kernel module; the others through uprobes, which
 * the module keeps out of the agents' processes (kmod/uprobes.c).
 */
#ifndef NTPROF_SPDK_AGENT_H
#define NTPROF_SPDK_AGENT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include <ntprof/agent_abi.h>

#include "ntp/ntp.h"
#include "sites/agent_attach.h"
#include "sites/spdk.h"

/* An agent's records taken in one pass: its every ring once full. */
#define SPDK_TAKE_PASS	((size_t)AGENT_RINGS_MAX * AGENT_RING_RECORDS)

/* A process of the program and how it is recorded. */
struct spdk_proc {
	pid_t pid;
	bool agent;			/* else uprobes, unless skipped */
	bool skipped;			/* not recorded at all: @why */
	bool lost_said;			/* its agent taken over: said */
	bool gone;			/* it exited, and record said so */
	bool late;			/* found after the recording began */
	bool pending;			/* late, its way not decided yet */
	unsigned int looks;		/* pending: looks that found no agent */
	struct agent_attach a;		/* with the agent */
	struct agent_counters base;	/* its counters when attached */
	char why[256];			/* skipped: "process N: reason" */
};

struct spdk_procs {
	struct spdk_proc v[SPDK_PIDS_MAX];
	size_t n;
	size_t nr_agents;
	size_t nr_skipped;
};

/*
 * Sorts the processes of @p (or process @only, if not 0) into those
 * with an agent, attached (still off), those without one, and those
 * skipped: an agent memory that is there but cannot be used (it fails
 * agent_memfd_map()'s checks, is of another version, no permission, or
 * another recorder has the agent on). A skipped process is not
 * recorded through its agent; nor through uprobes, whose int3 would
 * break a patched entry: by PID the caller records nothing, by path the
 * module's filter keeps them out of every process that maps an agent's
 * memfd, as an agent does before it patches. Waits a second at most in
 * all for agents still starting. Returns 0; with @only, -errno if that process is
 * skipped, its reason in @err.
 */
int spdk_procs_find(const struct spdk_prog *p, pid_t only,
		    struct spdk_procs *ps, char *err, size_t len);
void spdk_procs_detach(struct spdk_procs *ps);

/* One line on stderr for each skipped process: "ntprof: CMD: ...". */
void spdk_procs_say_skipped(const struct spdk_procs *ps, const char *cmd);

/*
 * The processes of @p's program that started since @ps was made (record
 * of a program by its path): each with an agent is attached and turned
 * on with @f, one without is left to uprobes; each is said in one line
 * on stderr, and marked late. An agent another recorder has on is said
 * and left alone. A process counts once its executable is the program
 * (not a tool that maps the file, as ntprof run does before it execs
 * it), and is taken for one without an agent only at its second look
 * (its agent may be loading).
 */
void spdk_procs_rescan(struct spdk_prog *p, struct spdk_procs *ps,
		       const struct agent_filter *f, bool uprobes,
		       const char *cmd);

/* probe's lines: each process, and each agent's sites, patched or why not. */
void spdk_procs_print(const struct spdk_prog *p, const struct spdk_procs *ps,
		      FILE *f);

/* "pid 1234 through the agent, pid 1240 through uprobes" for record. */
void spdk_procs_line(const struct spdk_procs *ps, FILE *f);

/* Turns every agent on with @f, or off. */
void spdk_procs_on(struct spdk_procs *ps, const struct agent_filter *f);
void spdk_procs_off(struct spdk_procs *ps);

/*
 * The heartbeat of every agent; one line on stderr for each that had
 * turned itself off meanwhile (it is back on), and one for each that
 * another recorder took over meanwhile (left to it, for good).
 */
void spdk_procs_beat(struct spdk_procs *ps, const char *cmd);

/*
 * Takes the agents' records into @buf (@max of them) and hands each
 * batch to @fn, as session_records_get() does: 0, or @fn's error. The
 * count in *@count. At most SPDK_TAKE_PASS records of each agent a
 * call: one that keeps moving its heads costs a pass, not the recorder.
 */
int spdk_procs_take(struct spdk_procs *ps, struct ntprof_record *buf,
		    size_t max,
		    int (*fn)(const struct ntprof_record *, size_t, void *),
		    void *data, uint64_t *count);

/*
 * The agents' drops (full rings, no ring, faulted loads) and evictions
 * since they were attached.
 */
void spdk_procs_lost(const struct spdk_procs *ps, uint64_t *drops,
		     uint64_t *evicted);

/*
 * The hook entries of the SPDK sites: for each agent, each site
 * (NTPROF_HOOK_AGENT, "pid N: function", attached or refused), and the
 * uprobe sites once (NTPROF_HOOK_UPROBE) if @uprobes. @late: only the
 * agents found after the start (for the trailer), else only the others
 * (for the header). Appended to *@hooks (*@n of them, realloc()ed);
 * -ENOMEM.
 */
int spdk_procs_hooks(const struct spdk_prog *p, const struct spdk_procs *ps,
		     bool uprobes, bool late, struct ntp_hook **hooks,
		     uint32_t *n);

#endif /* NTPROF_SPDK_AGENT_H */
