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

/*
 * The most records taken from an agent in one pass: enough to empty every
 * one of its rings once when they are full.
 */
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
 * spdk_procs_find() - sort the processes of @p (or only process @only, if
 * it is not 0) into three sets. Those with an agent are attached (and
 * still off). Those without an agent are left to uprobes. The others are
 * skipped: their agent memory is there but cannot be used (it fails
 * agent_memfd_map()'s checks, is of another version, permission is
 * denied, or another recorder has the agent on). A skipped process is
 * recorded neither through its agent nor through uprobes, whose int3
 * would break a patched entry. When the program is given by PID, the
 * caller records nothing; when it is given by path, the module's filter
 * keeps uprobes out of every process that maps an agent's memfd, as an
 * agent does before it patches. The function waits at most one second in
 * all for agents that are still starting. It returns 0; with @only, it
 * returns -errno if that process is skipped, with the reason in @err.
 */
int spdk_procs_find(const struct spdk_prog *p, pid_t only,
		    struct spdk_procs *ps, char *err, size_t len);
/* spdk_procs_detach() - detach from every agent that @ps attached to. */
void spdk_procs_detach(struct spdk_procs *ps);

/*
 * spdk_procs_say_skipped() - print one line on stderr for each skipped
 * process: "ntprof: CMD: ...".
 */
void spdk_procs_say_skipped(const struct spdk_procs *ps, const char *cmd);

/*
 * spdk_procs_rescan() - add the processes of @p's program that started
 * since @ps was made (when record was given the program by its path). It
 * attaches to each one with an agent and turns the agent on with @f, and
 * leaves each one without an agent to uprobes; it prints one line on
 * stderr for each, and marks it late. It reports an agent that another
 * recorder has on, and leaves it alone. A process counts only once its
 * executable is the program (not a tool that maps the file, as ntprof
 * run does before it execs the program), and is taken for one without an
 * agent only at its second look, because its agent may still be loading.
 */
void spdk_procs_rescan(struct spdk_prog *p, struct spdk_procs *ps,
		       const struct agent_filter *f, bool uprobes,
		       const char *cmd);

/* probe's lines: each process, and each agent's sites, patched or why not. */
void spdk_procs_print(const struct spdk_prog *p, const struct spdk_procs *ps,
		      FILE *f);

/*
 * spdk_procs_line() - print record's line about the processes: "pid 1234
 * through the agent, pid 1240 through uprobes".
 */
void spdk_procs_line(const struct spdk_procs *ps, FILE *f);

/*
 * spdk_procs_on() - turn every agent on with @f; spdk_procs_off() turns
 * them all off.
 */
void spdk_procs_on(struct spdk_procs *ps, const struct agent_filter *f);
void spdk_procs_off(struct spdk_procs *ps);

/*
 * spdk_procs_beat() - send the heartbeat to every agent. It prints one
 * line on stderr for each agent that had turned itself off meanwhile (it
 * is back on), and one for each agent that another recorder took over
 * meanwhile (it is left to that recorder for good).
 */
void spdk_procs_beat(struct spdk_procs *ps, const char *cmd);

/*
 * spdk_procs_take() - take the agents' records into @buf, which holds
 * @max records, and hand each batch to @fn, as session_records_get()
 * does. It returns 0 or @fn's error, and the count in *@count. It takes
 * at most SPDK_TAKE_PASS records from each agent per call, so that an
 * agent that keeps moving its heads costs one pass instead of holding
 * the recorder.
 */
int spdk_procs_take(struct spdk_procs *ps, struct ntprof_record *buf,
		    size_t max,
		    int (*fn)(const struct ntprof_record *, size_t, void *),
		    void *data, uint64_t *count);

/*
 * spdk_procs_lost() - sum the agents' drops (full rings, no ring, faulted
 * loads) and evictions since they were attached.
 */
void spdk_procs_lost(const struct spdk_procs *ps, uint64_t *drops,
		     uint64_t *evicted);

/*
 * spdk_procs_hooks() - append the hook entries of the SPDK sites to
 * *@hooks (*@n of them, grown with realloc()): for each agent, each of its
 * sites (NTPROF_HOOK_AGENT, "pid N: function", attached or refused), and,
 * if @uprobes, the uprobe sites once (NTPROF_HOOK_UPROBE). With @late,
 * only the agents found after the start are listed (for the trailer);
 * without it, only the others (for the header). It returns 0 or -ENOMEM.
 */
int spdk_procs_hooks(const struct spdk_prog *p, const struct spdk_procs *ps,
		     bool uprobes, bool late, struct ntp_hook **hooks,
		     uint32_t *n);

#endif /* NTPROF_SPDK_AGENT_H */
