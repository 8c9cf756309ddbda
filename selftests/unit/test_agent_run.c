// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of libntprof-agent.so in a process of its own: agent-run-
 * target started with LD_PRELOAD and a site list of its three command
 * functions (their symbols from nm), the agent's shared memory found in
 * /proc/PID/fd and mapped as the recorder does, the agent turned on and
 * off between runs of the program's commands, through the recorder's
 * side (tools/ntprof/lib/sites/agent_attach.c). Checks: every site patched; the
 * program's results the same off, on and without the agent; on, a
 * record a command with the process's pid, its TSC stamps made
 * CLOCK_MONOTONIC within the run; off, none; a program without a site
 * list, with a bad one, with one whose addresses are not its code (each
 * such site refused as such), with bad near lines (a site's near code
 * not its object's, or more of it than the agent holds: refused), or
 * with one of another build of it (its build ID not the same: every
 * site refused as such), runs as without the agent and exits 0; a
 * program the agent's process starts (its list passed as an inherited
 * descriptor, as ntprof run passes it) inherits no NTPROF_AGENT_*
 * variable, no LD_PRELOAD entry of the agent and no descriptor of the
 * agent's.
 * Prints TAP; exits 1 if any test failed.
 *
 * usage: test_agent_run LIBRARY TARGET
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stdbool.h>
#include <time.h>
#include <ntprof/agent_abi.h>

#include "agent-cmd.h"
#include "sites/agent_attach.h"
#include "tap.h"

struct child {
	pid_t pid;
	FILE *in;
	FILE *out;
	FILE *err;
};

static const char *lib, *target;
/* Another library for LD_PRELOAD after the agent's, or NULL. */
static const char *preload_too;
static char sites_path[] = "/tmp/test_agent_run.XXXXXX";
/* The near lines of the last list written. */
static unsigned int nr_near;

/* @name's "VADDR SIZE" from nm -S, or -1. */
static int symbol(const char *name, unsigned long long *vaddr,
		  unsigned long long *size)
{
	char cmd[512], line[256], sym[128], type;
	unsigned long long v, n;
	int ret = -1;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "nm -S --defined-only '%s'", target);
	f = popen(cmd, "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %llx %c %127s", &v, &n, &type, sym) == 4 &&
		    !strcmp(sym, name)) {
			*vaddr = v;
			*size = n;
			ret = 0;
		}
	if (f)
		pclose(f);
	return ret;
}

/*
 * Near lines for the function at @vaddr: the target's functions within
 * a rel8's reach of its first bytes, from nm, as ntprof run writes them.
 * How many.
 */
static unsigned int near_lines(FILE *out, unsigned long long vaddr)
{
	char cmd[512], line[256], sym[128], type;
	unsigned long long v, n;
	unsigned int k = 0;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "nm -S --defined-only '%s'", target);
	f = popen(cmd, "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %llx %c %127s", &v, &n, &type, sym) == 4 &&
		    strchr("Tt", type) && n && v != vaddr &&
		    v < vaddr + 149 && v + n > vaddr - 128) {
			fprintf(out, "near %#llx %llu\n", v, n);
			k++;
		}
	if (f)
		pclose(f);
	return k;
}

/* The target's GNU build ID from readelf -n, as hex, or -1. */
static int build_id(char *id, size_t len)
{
	char cmd[512], line[256], hex[129];
	int ret = -1;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "readelf -n '%s'", target);
	f = popen(cmd, "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, " Build ID: %128s", hex) == 1 &&
		    strlen(hex) < len) {
			strcpy(id, hex);
			ret = 0;
		}
	if (f)
		pclose(f);
	return ret;
}

/* The site list as it is, of another build, or with bad addresses. */
enum list_kind { LIST_RIGHT, LIST_OTHER_BUILD, LIST_NOT_CODE, LIST_BAD_NEAR };

/*
 * The site list: begin (first, the identity), work, end (last), of the
 * target's build, or of another one (LIST_OTHER_BUILD), or with work at
 * the ELF header (offset 16, in the read-only segment) and end's size
 * 1 GiB (LIST_NOT_CODE), or with begin's near line at the ELF header and
 * work's 17 near lines (LIST_BAD_NEAR).
 */
static int write_sites(enum list_kind kind)
{
	static const char *const names[] = { "tcmd_begin", "tcmd_work", "tcmd_end" };
	static const unsigned int points[] = {
		NTPROF_PT_TARGET_INIT, NTPROF_PT_TARGET_EXEC,
		NTPROF_PT_TARGET_COMPLETE,
	};
	static const char *const flags[] = { "first", "mid", "last" };
	unsigned long long vaddr, size;
	char exe[4096], id[129];
	unsigned int i, k;
	FILE *f;

	nr_near = 0;
	f = fopen(sites_path, "w");
	if (!f || !realpath(target, exe) || build_id(id, sizeof(id)))
		return -1;
	/* Another build: the same ID but its first byte. */
	if (kind == LIST_OTHER_BUILD)
		id[0] = id[0] == '0' ? '1' : '0';
	fprintf(f, "# test_agent_run's sites\nobject %s build-id %s\n", exe, id);
	for (i = 0; i < 3; i++) {
		if (symbol(names[i], &vaddr, &size))
			return -1;
		if (kind == LIST_NOT_CODE && i == 1)
			vaddr = 16;
		if (kind == LIST_NOT_CODE && i == 2)
			size = 1ULL << 30;
		fprintf(f, "site %s %#llx %llu %u %s %u %u key=0", exe, vaddr,
			size, points[i], flags[i], NTPROF_ROLE_TARGET,
			NTPROF_TRANSPORT_TCP);
		if (!i)
			fprintf(f, " qid=0+%zu:2 cid=0+%zu:2 opcode=0+%zu:1 nsid=0>%zu+%zu:4 slba=0+%zu:8 nlb=0+%zu:2 length=0+%zu:4",
				offsetof(struct tcmd, qid), offsetof(struct tcmd, cid),
				offsetof(struct tcmd, opcode), offsetof(struct tcmd, ns),
				offsetof(struct tcmd_ns, id), offsetof(struct tcmd, slba),
				offsetof(struct tcmd, nlb), offsetof(struct tcmd, length));
		fputc('\n', f);
		nr_near += near_lines(f, vaddr);
		if (kind == LIST_BAD_NEAR && i == 0)
			fputs("near 0x10 16\n", f);
		for (k = 0; kind == LIST_BAD_NEAR && i == 1 && k < 17; k++)
			fprintf(f, "near %#llx %llu\n", vaddr, size);
	}
	return fclose(f);
}

/* Starts the target with the agent and @sites (NULL: no site list). */
static int start(struct child *c, const char *sites)
{
	int in[2], out[2], err[2];
	char line[64];

	if (pipe(in) || pipe(out) || pipe(err))
		return -1;
	c->pid = fork();
	if (c->pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		dup2(err[1], 2);
		if (preload_too) {
			char both[4096];

			snprintf(both, sizeof(both), "%s:%s", lib, preload_too);
			setenv("LD_PRELOAD", both, 1);
		} else {
			setenv("LD_PRELOAD", lib, 1);
		}
		if (sites)
			setenv("NTPROF_AGENT_SITES", sites, 1);
		else
			unsetenv("NTPROF_AGENT_SITES");
		execl(target, target, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	close(err[1]);
	c->in = fdopen(in[1], "w");
	c->out = fdopen(out[0], "r");
	c->err = fdopen(err[0], "r");
	setvbuf(c->in, NULL, _IOLBF, 0);
	return fgets(line, sizeof(line), c->out) && !strcmp(line, "ready\n") ?
	       0 : -1;
}

/* Runs commands [@from, @to) in the child: their results' sum. */
static unsigned long long run(struct child *c, unsigned int from,
			      unsigned int to)
{
	unsigned long long sum = 0;
	char line[64];

	fprintf(c->in, "run %u %u\n", from, to);
	if (!fgets(line, sizeof(line), c->out) ||
	    sscanf(line, "done %llu", &sum) != 1)
		return 0;
	return sum;
}

/* Ends the child: its exit status, and its stderr's first line. */
static int finish(struct child *c, char *err, size_t len)
{
	int status;

	fputs("quit\n", c->in);
	fclose(c->in);
	if (!fgets(err, len, c->err))
		*err = '\0';
	err[strcspn(err, "\n")] = '\0';
	fclose(c->out);
	fclose(c->err);
	waitpid(c->pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* How many of process @pid's mappings are writable and executable. */
static unsigned int wx_mappings(pid_t pid)
{
	char path[64], line[512], perms[8];
	unsigned int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f))
		n += sscanf(line, "%*x-%*x %7s", perms) == 1 &&
		     perms[1] == 'w' && perms[2] == 'x';
	if (f)
		fclose(f);
	return f ? n : 1;
}

/* Whether process @pid runs an agent that can be attached to. */
static bool has_agent(pid_t pid)
{
	struct agent_attach a;
	char err[256];

	if (agent_attach(pid, NTPROF_ROLE_TARGET, &a, err, sizeof(err)))
		return false;
	agent_detach(&a);
	return true;
}

/*
 * The target started with a list of @kind: its three sites' states are
 * @want, and it runs as without the agent (@plain), its one patched
 * site said. Non-zero: it did not start.
 */
static int refused_as(enum list_kind kind, const enum agent_refusal want[3],
		      unsigned long long plain, const char *what)
{
	const struct agent_shm_ctl *ctl = NULL;
	struct agent_attach a;
	unsigned long long sum;
	struct child c;
	char err[512];

	if (write_sites(kind) || start(&c, sites_path)) {
		printf("Bail out! the target does not start: %s\n", what);
		return 1;
	}
	sum = run(&c, 0, 500);
	if (!agent_attach(c.pid, NTPROF_ROLE_TARGET, &a, err, sizeof(err)))
		ctl = a.shm;
	if (!ok(ctl && a.nr_sites == 3 &&
		ctl->site_state[0] == AGENT_STATE(want[0]) &&
		ctl->site_state[1] == AGENT_STATE(want[1]) &&
		ctl->site_state[2] == AGENT_STATE(want[2]), "%s", what))
		diag("states %d %d %d", ctl ? ctl->site_state[0] : -1,
		     ctl ? ctl->site_state[1] : -1, ctl ? ctl->site_state[2] : -1);
	if (ctl)
		agent_detach(&a);
	ok(sum == plain && finish(&c, err, sizeof(err)) == 0 &&
	   !strcmp(err, "ntprof-agent: 1 of 3 sites patched"),
	   "... and the program runs as without the agent: %s", err);
	return 0;
}

/* The library in a process of its own, attached as a recorder would. */
static void test_process(void)
{
	static struct ntprof_record recs[AGENT_RING_RECORDS];
	unsigned long long plain, sum;
	const struct agent_shm_ctl *ctl;
	uint64_t before, after;
	struct agent_attach a;
	struct child c;
	char err[256];
	size_t n, k, bad = 0, outside = 0;
	struct tcmd cmd;
	int tmp_fd;
	FILE *f;

	/* Its descriptor closed: the children inherit only what is tested. */
	tmp_fd = mkstemp(sites_path);
	if (tmp_fd < 0 || close(tmp_fd) || write_sites(LIST_RIGHT))
		tap_bail("cannot write the site list");

	if (start(&c, NULL))
		tap_bail("the target does not start");
	plain = run(&c, 0, 500);
	ok(agent_attach(c.pid, NTPROF_ROLE_TARGET, &a, err, sizeof(err)) == -ENOENT &&
	   strstr(err, "no ntprof agent") &&
	   finish(&c, err, sizeof(err)) == 0 && !*err,
	   "without a site list: no agent to attach to, no word, exit 0");

	if (start(&c, sites_path))
		tap_bail("the target does not start with the agent");
	if (!ok(!agent_attach(c.pid, NTPROF_ROLE_TARGET, &a, err, sizeof(err)),
		"the agent's memfd found in /proc/PID/fd and attached"))
	{
		diag("%s", err);
		return;
	}
	ctl = a.shm;
	ok(a.nr_sites == 3 &&
	   ctl->site_state[0] == AGENT_STATE(AGENT_PATCHED) &&
	   ctl->site_state[1] == AGENT_STATE(AGENT_PATCHED) &&
	   ctl->site_state[2] == AGENT_STATE(AGENT_PATCHED),
	   "the control page says the three sites are patched, %u functions near them decoded",
	   nr_near);
	ok(!wx_mappings(c.pid),
	   "no mapping of the process is writable and executable");
	sum = run(&c, 0, 500);
	ok(sum == plain && !agent_attach_take(&a, recs, AGENT_RING_RECORDS),
	   "off: the program's results as without the agent, no record");
	agent_attach_on(&a, &(struct agent_filter){
		.sample = 1, .ops = NTPROF_OP_READ | NTPROF_OP_WRITE | NTPROF_OP_OTHER,
		.max_len = UINT32_MAX });
	before = mono_ns();
	sum = run(&c, 0, 500);
	after = mono_ns();
	n = agent_attach_take(&a, recs, AGENT_RING_RECORDS);
	for (k = 0; k < n; k++) {
		tcmd_make(&cmd, recs[k].slba / 1000);
		bad += recs[k].pid != (uint32_t)c.pid || recs[k].qid != cmd.qid ||
		       recs[k].nsid != cmd.ns->id ||
		       recs[k].flags != (NTPROF_REC_F_SAMPLED | NTPROF_REC_F_USER) ||
		       !recs[k].ts[NTPROF_PT_TARGET_INIT] ||
		       recs[k].ts[NTPROF_PT_TARGET_INIT] > recs[k].ts[NTPROF_PT_TARGET_EXEC] ||
		       recs[k].ts[NTPROF_PT_TARGET_EXEC] > recs[k].ts[NTPROF_PT_TARGET_COMPLETE];
		/* TSC made CLOCK_MONOTONIC: within the run, give or take 1 ms. */
		outside += recs[k].ts[NTPROF_PT_TARGET_INIT] + 1000000 < before ||
			   recs[k].ts[NTPROF_PT_TARGET_COMPLETE] > after + 1000000;
	}
	if (!ok(sum == plain && n == 500 && !bad,
		"on at -s 1: the same results, 500 whole records with the process's pid"))
		diag("sum %llu (%llu), %zu records, %zu wrong", sum, plain, n, bad);
	ok(n && !outside,
	   "their stamps are CLOCK_MONOTONIC, within the run (%zu outside)", outside);
	agent_attach_off(&a);
	sum = run(&c, 0, 500);
	ok(sum == plain && !agent_attach_take(&a, recs, AGENT_RING_RECORDS),
	   "off again: the same results, no record");
	agent_detach(&a);
	ok(finish(&c, err, sizeof(err)) == 0 &&
	   !strcmp(err, "ntprof-agent: 3 of 3 sites patched"),
	   "the program exits 0; the agent said one line: %s", err);

	/*
	 * The list passed as ntprof run passes it, an inherited descriptor:
	 * a program the agent's process starts inherits none of the agent.
	 */
	{
		char fdpath[64], line[4096], leaks[512] = "";
		int fd = open(sites_path, O_RDONLY);

		bool other = false;

		snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fd);
		preload_too = "libm.so.6";
		if (fd < 0 || start(&c, fdpath))
			tap_bail("the target does not start with its list's descriptor");
		preload_too = NULL;
		close(fd);
		fputs("spawn\n", c.in);
		while (fgets(line, sizeof(line), c.out) && strcmp(line, "done 0\n")) {
			if (!strcmp(line, "LD_PRELOAD=libm.so.6\n")) {
				other = true;
				continue;
			}
			if ((strstr(line, "NTPROF_AGENT_") || strstr(line, "LD_PRELOAD") ||
			     strstr(line, "ntprof-agent") || strstr(line, sites_path)) &&
			    strlen(leaks) + strlen(line) < sizeof(leaks))
				strcat(leaks, line);
		}
		if (!ok(finish(&c, err, sizeof(err)) == 0 &&
			!strcmp(err, "ntprof-agent: 3 of 3 sites patched") &&
			!*leaks && other,
			"a child of the agent's process: no NTPROF_AGENT_*, LD_PRELOAD without the agent (the other library kept), no descriptor of the agent's"))
			diag("%s: %s%s", err, leaks, other ? "" : "(libm.so.6 not kept)");
	}

	{
		static const enum agent_refusal not_code[3] = {
			AGENT_PATCHED, AGENT_NOT_IN_TEXT, AGENT_NOT_IN_TEXT };
		static const enum agent_refusal bad_near[3] = {
			AGENT_NOT_IN_TEXT, AGENT_BRANCH_FROM_OBJECT, AGENT_PATCHED };

		if (refused_as(LIST_NOT_CODE, not_code, plain,
			       "a site at the ELF header and one of 1 GiB: refused as not its object's code") ||
		    refused_as(LIST_BAD_NEAR, bad_near, plain,
			       "a near line at the ELF header, and 17 near lines: both sites refused"))
			exit(1);
	}

	if (write_sites(LIST_OTHER_BUILD) || start(&c, sites_path))
		tap_bail("the target does not start with another build's list");
	sum = run(&c, 0, 500);
	ok(!agent_attach(c.pid, NTPROF_ROLE_TARGET, &a, err, sizeof(err)) && a.nr_sites == 3 &&
	   ((struct agent_shm_ctl *)a.shm)->site_state[0] ==
	   AGENT_STATE(AGENT_OTHER_BUILD) &&
	   ((struct agent_shm_ctl *)a.shm)->site_state[2] ==
	   AGENT_STATE(AGENT_OTHER_BUILD),
	   "a list of another build: every site refused as such");
	agent_detach(&a);
	ok(sum == plain && finish(&c, err, sizeof(err)) == 0 &&
	   !strcmp(err, "ntprof-agent: 0 of 3 sites patched"),
	   "... and the program runs as without the agent: %s", err);

	f = fopen(sites_path, "w");
	fputs("site nonsense\n", f);
	fclose(f);
	if (start(&c, sites_path))
		tap_bail("the target does not start with a bad list");
	sum = run(&c, 0, 500);
	ok(sum == plain && !has_agent(c.pid) && finish(&c, err, sizeof(err)) == 0 &&
	   strstr(err, "line 1: not a site: the agent stays off"),
	   "a bad site list: the agent says so and stays off, the program runs: %s",
	   err);
	unlink(sites_path);
}

static const struct tap_case cases[] = {
	{ "process", test_process },
};

/*
 * The library and the target program, by default those the Makefile
 * builds beside this program: ../../tools/agent/libntprof-agent.so and
 * agent-run-target.
 */
int main(int argc, char *argv[])
{
	static char dir[PATH_MAX], lib_path[PATH_MAX + 64],
		    target_path[PATH_MAX + 64];
	int a = tap_args(argc, argv, cases, TAP_NR_CASES(cases));
	ssize_t n;

	if (argc - a == 2) {
		lib = argv[a];
		target = argv[a + 1];
	} else if (argc == a) {
		n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
		if (n <= 0 || !strrchr(dir, '/'))
			tap_bail("readlink /proc/self/exe");
		dir[n] = '\0';
		*strrchr(dir, '/') = '\0';
		snprintf(lib_path, sizeof(lib_path),
			 "%s/../../tools/agent/libntprof-agent.so", dir);
		snprintf(target_path, sizeof(target_path), "%s/agent-run-target",
			 dir);
		lib = lib_path;
		target = target_path;
	} else {
		fputs("usage: test_agent_run [-l] [-t NAME]... [LIBRARY TARGET]\n",
		      stderr);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
	tap_run(cases, TAP_NR_CASES(cases));
	return tap_done("test_agent_run");
}
