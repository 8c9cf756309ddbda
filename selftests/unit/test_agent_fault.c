// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the agent's handler against the program's bad pointers
 * (tools/agent/load.h, fault.c): agent-cmd.c's three functions patched
 * as test_agent_hit patches them, the agent's fault handler installed,
 * at -s 1. Checks: a command whose namespace pointer is to an unmapped
 * page (a freed object: the identity plan's load faults), and one whose
 * length is read at a negative offset that lands on an unmapped page
 * (the generic fetch's load faults), each leave the process running,
 * write no record and count one fault in the control page; the commands
 * after them are recorded whole; and the program's own faults are still
 * its own: a genuine SIGSEGV kills with SIGSEGV (the default action, as
 * without the agent), reaches a handler the program had installed
 * before with its address, kills even where the program ignored
 * SIGSEGV, and a SIGSEGV sent with kill() kills too.
 * Prints TAP; exits 1 if any test failed.
 */
#define _GNU_SOURCE	/* agent-path.h's dladdr1() */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent-path.h"
#include "fault.h"

/* The length 64 bytes before the request: a field of an outer object. */
#define LENGTH_BEFORE	(-64)

static struct agent_site sites[TPATH_SITES];
static struct agent_patch patches[TPATH_SITES];
static struct agent_shm_ctl *ctl;
static void *shm;

static size_t drain(struct ntprof_record *out, size_t max)
{
	return agent_ring_take(agent_shm_ring(shm, 0), out, max);
}

static void command(struct tcmd *c)
{
	tcmd_begin(c);
	tcmd_work(c);
	tcmd_end(c);
}

/*
 * Two pages, the first unmapped: the second's start, where a request
 * whose fields before it are not there begins.
 */
static char *after_hole(void)
{
	char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED || munmap(p, 4096))
		return NULL;
	return p + 4096;
}

/* An address with no page behind it. */
static void *hole(void)
{
	char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED || munmap(p, 4096))
		return NULL;
	return p;
}

/* The page the children's genuine faults touch. */
static void *bad_page;

/* A program's own SA_SIGINFO handler: its exit says whether it saw the address. */
static void program_handler(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	_exit(si->si_addr == bad_page ? 42 : 43);
}

static void genuine_fault(void)
{
	*(volatile int *)bad_page = 1;
}

/* The program's handler first, then the agent's, as at its start-up. */
static void fault_with_handler(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = program_handler;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, NULL);
	if (agent_fault_install())
		_exit(2);
	genuine_fault();
}

static void fault_ignored(void)
{
	signal(SIGSEGV, SIG_IGN);
	if (agent_fault_install())
		_exit(2);
	genuine_fault();
}

static void sent(void)
{
	kill(getpid(), SIGSEGV);
	/* Not reached if it kills; give it time to be delivered. */
	usleep(100000);
}

/* How a child that does @what ends: its signal, or 1000 + exit status. */
static int child_end(void (*what)(void))
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (!pid) {
		what();
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFSIGNALED(status) ? WTERMSIG(status) : 1000 + WEXITSTATUS(status);
}

/* The handler against the program's bad pointers, and its own faults. */
static void test_faults(void)
{
	static struct ntprof_record recs[AGENT_RING_RECORDS];
	struct tcmd *c;
	unsigned int i;
	bool patched;
	size_t n;

	/*
	 * agent-path.h's sites, but the first reads the length at a negative
	 * offset from the request, as in an outer object.
	 */
	memcpy(sites, tpath_sites, sizeof(sites));
	sites[0].f[AGENT_F_LENGTH] = (struct agent_fetch){
		.set = 1, .reg = 0, .offset = LENGTH_BEFORE, .width = 4,
	};
	shm = tpath_setup(sites, "the shared memory is made");
	if (!shm)
		return;
	ctl = shm;
	ok(!agent_fault_install(), "the agent's fault handler is installed");
	patched = tpath_patch(sites, patches);
	c = (struct tcmd *)after_hole();
	bad_page = hole();
	if (!patched || !c || !bad_page)
		return;

	ctl->deadline = UINT64_MAX;
	ctl->ops = NTPROF_OP_READ | NTPROF_OP_WRITE | NTPROF_OP_OTHER;
	ctl->max_len = UINT32_MAX;
	ctl->session = 1;
	ctl->sample = 1;
	for (i = 0; i < TPATH_SITES; i++)
		*patches[i].on = 1;

	/* A request whose namespace was freed: the plan's load faults. */
	tcmd_make(c, 1);
	c->ns = bad_page;
	command(c);
	n = drain(recs, AGENT_RING_RECORDS);
	ok(!n && ctl->faults == 1,
	   "a namespace pointer to an unmapped page: the process runs, no record, 1 fault counted (%lu)",
	   (unsigned long)ctl->faults);

	/*
	 * A request at the start of its page, the page before not there: its
	 * identity reads, its length, 64 bytes before it, faults.
	 */
	tcmd_make(c, 2);
	command(c);
	n = drain(recs, AGENT_RING_RECORDS);
	ok(!n && ctl->faults == 2,
	   "a negative offset onto an unmapped page: no record, a second fault counted (%lu)",
	   (unsigned long)ctl->faults);

	/* The same request with its outer object there: recorded. */
	{
		static struct {
			char before[64];
			struct tcmd c;
		} outer __attribute__((aligned(64)));

		for (i = 0; i < 100; i++) {
			tcmd_make(&outer.c, i);
			*(uint32_t *)outer.before = 4096;
			command(&outer.c);
		}
		n = drain(recs, AGENT_RING_RECORDS);
		for (i = 0; i < n && recs[i].length == 4096 &&
			    recs[i].ts[NTPROF_PT_TARGET_INIT] &&
			    recs[i].ts[NTPROF_PT_TARGET_COMPLETE]; i++)
			;
		ok(n == 100 && i == n && ctl->faults == 2,
		   "then 100 good commands: 100 whole records, no fault");
	}

	ok(child_end(genuine_fault) == SIGSEGV,
	   "a genuine SIGSEGV of the program: it dies of SIGSEGV, as without the agent");
	ok(child_end(fault_with_handler) == 1042,
	   "the program's own SIGSEGV handler gets its fault, with its address");
	ok(child_end(fault_ignored) == SIGSEGV,
	   "a fault where the program ignores SIGSEGV: it dies of SIGSEGV");
	ok(child_end(sent) == SIGSEGV,
	   "a SIGSEGV sent with kill(): it dies of SIGSEGV");
}

static const struct tap_case cases[] = {
	{ "faults", test_faults },
};

int main(int argc, char *argv[])
{
	return tap_main(argc, argv, "test_agent_fault", cases, TAP_NR_CASES(cases));
}
