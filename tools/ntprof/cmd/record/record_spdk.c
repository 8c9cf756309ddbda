// SPDX-License-Identifier: GPL-2.0
/*
 * record's SPDK side: --spdk-target and --spdk-host. The program's sites
 * are resolved from its DWARF; its processes that run the agent (ntprof
 * run) are recorded through it, from their shared memory, with no
 * kernel module; the others through the sites as uprobes, in the
 * module's session. Which is which, the file's header says, and a line
 * at the start.
 *
 * With a PID, that process alone: the agent if it has one, else uprobes;
 * none if its agent memory is there but cannot be used (it is skipped,
 * and there is nothing else to record). With a path, such a process is
 * skipped with a line, and the others are recorded.
 * With a program's path, uprobes cover its processes without an agent,
 * those that start later too; the processes that start later are looked
 * for every SCAN_MS, and those with an agent recorded through it (their
 * sites go in the file's trailer). Without the module loaded, the agents
 * alone are recorded, and the notes say what that leaves out.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/record/record.h"
#include "genl/conn.h"

/* Records taken from the agents at a time: one ring's. */
#define TAKE_MAX	4096
/* How often a program's new processes are looked for, in /proc. */
#define SCAN_MS		1000

int record_spdk_open(const char *cmd, struct record_opts *o,
		     struct record_spdk *rs)
{
	struct spdk_prog *p = &rs->prog;
	pid_t only = 0;
	char err[512];

	memset(rs, 0, sizeof(*rs));
	p->fd = -1;
	if (spdk_prog_open(o->spdk, o->cfg.role, o->cfg.transport, p, err,
			   sizeof(err))) {
		fprintf(stderr, "ntprof: %s: %s\n", cmd, err);
		return 1;
	}
	if (!p->ok) {
		fprintf(stderr, "ntprof: %s: %s: %s\n", cmd, p->path, p->why);
		goto fail;
	}
	if (strspn(o->spdk, "0123456789") == strlen(o->spdk))
		only = (pid_t)strtoul(o->spdk, NULL, 10);
	rs->by_pid = only;
	/* With a PID, that process skipped leaves nothing to record. */
	if (spdk_procs_find(p, only, &rs->procs, err, sizeof(err))) {
		fprintf(stderr, "ntprof: %s: %s\n", cmd, err);
		goto fail;
	}
	spdk_procs_say_skipped(&rs->procs, cmd);
	if (p->nr_left_out)
		spdk_prog_say_left_out(p, stderr, "ntprof: ");
	if ((rs->procs.nr_agents || !only) &&
	    !agent_tsc_trusted(err, sizeof(err)))
		fprintf(stderr,
			"ntprof: %s: %s: the agents' stamps, read from it, may be off\n",
			cmd, err);
	rs->buf = malloc(TAKE_MAX * sizeof(*rs->buf));
	if (!rs->buf) {
		fprintf(stderr, "ntprof: %s: %s\n", cmd, strerror(ENOMEM));
		goto fail;
	}

	if (only) {
		rs->uprobes = !rs->procs.nr_agents;
	} else if (ntprof_module_loaded() ||
		   (rs->procs.n > rs->procs.nr_skipped &&
		    !rs->procs.nr_agents)) {
		/* Without the module, that start says why nothing can be. */
		rs->uprobes = true;
	} else {
		fprintf(stderr,
			"ntprof: the ntprof module is not loaded: only the processes with the agent are recorded, those running and those that start, not %s's others\n",
			p->path);
	}
	if (rs->uprobes) {
		o->cfg.usites = p->usites;
		o->cfg.nr_usites = p->nr_usites;
		/* A PID: that process's commands only, not its binary's others. */
		o->cfg.pid = (uint32_t)only;
	}
	/*
	 * The sites hold all they need except the file, which the start
	 * request sends: the parse is freed now, and the file is closed at
	 * the end.
	 */
	spdk_prog_close_elf(p);
	if (!p->nr_pids)
		fprintf(stderr,
			"ntprof: no process runs %s yet: its sites fire in those that start\n",
			p->path);
	return 0;

fail:
	record_spdk_close(rs);
	return 1;
}

void record_spdk_close(struct record_spdk *rs)
{
	spdk_procs_detach(&rs->procs);
	spdk_prog_close(&rs->prog);
	free(rs->buf);
	rs->buf = NULL;
}

void record_spdk_start(struct record_spdk *rs, const struct session_config *cfg)
{
	struct agent_filter f = {
		.sample = cfg->sample,
		.ops = cfg->has_ops ? cfg->ops :
		       NTPROF_OP_READ | NTPROF_OP_WRITE | NTPROF_OP_OTHER,
		.min_len = cfg->has_min_len ? cfg->min_len : 0,
		.max_len = cfg->has_max_len ? cfg->max_len : UINT32_MAX,
		.transport = cfg->transport,
	};

	rs->filter = f;
	spdk_procs_on(&rs->procs, &f);
	spdk_procs_line(&rs->procs, stdout);
}

/*
 * gone_check() - say, once for each, which agents' processes are gone; their
 * last records stay.
 */
static void gone_check(struct record_spdk *rs, const char *cmd)
{
	struct spdk_proc *pr;
	size_t i;

	for (i = 0; i < rs->procs.n; i++) {
		pr = &rs->procs.v[i];
		if (!pr->agent || pr->gone ||
		    !(kill(pr->pid, 0) && errno == ESRCH))
			continue;
		pr->gone = true;
		fprintf(stderr,
			"ntprof: %s: process %d (through the agent) exited; the recording goes on with its records so far\n",
			cmd, (int)pr->pid);
	}
}

int record_spdk_take(struct record_spdk *rs, const char *cmd,
		     int (*fn)(const struct ntprof_record *, size_t, void *),
		     void *data, uint64_t *count)
{
	uint64_t now;

	*count = 0;
	if (!rs->by_pid && !rs->stopped) {
		now = clock_ns(CLOCK_MONOTONIC);
		if (now >= rs->next_scan_ns) {
			spdk_procs_rescan(&rs->prog, &rs->procs, &rs->filter,
					  rs->uprobes, cmd);
			rs->next_scan_ns = now + SCAN_MS * NSEC_PER_MSEC;
		}
	}
	if (!rs->procs.nr_agents)
		return 0;
	gone_check(rs, cmd);
	spdk_procs_beat(&rs->procs, cmd);
	return spdk_procs_take(&rs->procs, rs->buf, TAKE_MAX, fn, data, count);
}

void record_spdk_stop(struct record_spdk *rs)
{
	rs->stopped = true;
	spdk_procs_off(&rs->procs);
}
