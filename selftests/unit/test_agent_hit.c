// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the agent's handler (tools/agent/hit.c) behind real
 * patches: agent-cmd.c's three functions of a command's path patched as
 * a target map's sites (first with the identity, one through a pointer;
 * a middle; a last), the shared memory made as the agent makes it, and
 * its rings read as a recorder would. Checks: off, no record; at -s 1
 * every command recorded once, with its identity, length and pid, its
 * three stamps in order; at -s 7 exactly the commands that the uapi's
 * ntprof_sample_hash() picks; a second thread gets a ring of its own;
 * a full ring counts drops and writes nothing past the recorder's tail;
 * a command that never reaches its last site ends partial when its
 * request comes back.
 * Prints TAP; exits 1 if any test failed.
 */
#define _GNU_SOURCE	/* agent-path.h's dladdr1(), sched_getcpu() */
#include <pthread.h>
#include <sched.h>
#include <sys/wait.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "agent-path.h"
#include "hitstate.h"

static struct agent_patch patches[TPATH_SITES];
static struct agent_shm_ctl *ctl;
static void *shm;

static bool picked(uint32_t i, uint32_t n)
{
	struct tcmd c;

	tcmd_make(&c, i);
	return ntprof_sample_hash(c.qid, c.cid, c.opcode, c.ns->id, c.slba,
				  c.nlb) % n == 0;
}

/* Runs commands [@from, @to) through their path, in one request each. */
static void run(uint32_t from, uint32_t to)
{
	struct tcmd c;
	uint32_t i;

	for (i = from; i < to; i++) {
		tcmd_make(&c, i);
		tcmd_begin(&c);
		tcmd_work(&c);
		tcmd_end(&c);
	}
}

static uint64_t tsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

/* On for every command, a heartbeat far away, as a new session. */
static void set_on(uint32_t sample)
{
	unsigned int i;

	ctl->deadline = UINT64_MAX;
	ctl->ops = NTPROF_OP_READ | NTPROF_OP_WRITE | NTPROF_OP_OTHER;
	ctl->min_len = 0;
	ctl->max_len = UINT32_MAX;
	ctl->transport = 0;
	ctl->session++;
	ctl->sample = sample;
	for (i = 0; i < TPATH_SITES; i++)
		*patches[i].on = !!sample;
}

/* Takes ring @r's records, as a recorder does; how many into @out. */
static size_t drain(unsigned int r, struct ntprof_record *out, size_t max)
{
	return agent_ring_take(agent_shm_ring(shm, r), out, max);
}

/* Each record is command i's, once, whole, its stamps in order. */
static bool records_are(const struct ntprof_record *recs, size_t n,
			uint32_t from, uint32_t to, uint32_t sample)
{
	static uint8_t seen[4096];
	const struct ntprof_record *r;
	struct tcmd c;
	uint32_t i, want = 0;
	size_t k;

	memset(seen, 0, sizeof(seen));
	for (k = 0; k < n; k++) {
		r = &recs[k];
		i = r->slba / 1000;
		tcmd_make(&c, i);
		if (i < from || i >= to || seen[i]++ || r->qid != c.qid ||
		    r->cid != c.cid || r->opcode != c.opcode ||
		    r->nsid != c.ns->id || r->length != c.length ||
		    r->pid != (uint32_t)getpid() ||
		    r->flags != (NTPROF_REC_F_SAMPLED | NTPROF_REC_F_USER) ||
		    !r->ts[NTPROF_PT_TARGET_INIT] ||
		    r->ts[NTPROF_PT_TARGET_INIT] > r->ts[NTPROF_PT_TARGET_EXEC] ||
		    r->ts[NTPROF_PT_TARGET_EXEC] > r->ts[NTPROF_PT_TARGET_COMPLETE]) {
			diag("record %zu (command %u) is not right", k, i);
			return false;
		}
	}
	for (i = from; i < to; i++)
		want += picked(i, sample);
	if (n != want)
		diag("%zu records, %u commands picked", n, want);
	return n == want;
}

static void *thread_run(void *arg)
{
	(void)arg;
	run(0, 100);
	return NULL;
}

/* A thread that begins one command and leaves it in flight. */
static void *thread_begin(void *arg)
{
	static struct tcmd c[AGENT_TABLES_MAX + 1];
	uintptr_t i = (uintptr_t)arg;

	tcmd_make(&c[i], i);
	tcmd_begin(&c[i]);
	return NULL;
}

/*
 * Without rdtscp (as on a CPU whose CPUID says it has none): every
 * command recorded, its stamps in order, its CPU the one the thread is
 * pinned to (the last, so that a CPU of 0 is not right by chance).
 */
static void stamps_without_rdtscp(struct ntprof_record *recs)
{
	bool had = agent_hs.rdtscp;
	cpu_set_t set, old;
	size_t n, k, wrong = 0;
	int cpu;

	sched_getaffinity(0, sizeof(old), &old);
	for (cpu = CPU_SETSIZE - 1; cpu > 0 && !CPU_ISSET(cpu, &old); cpu--)
		;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	agent_hs.rdtscp = false;
	set_on(1);
	run(0, 500);
	agent_hs.rdtscp = had;
	sched_setaffinity(0, sizeof(old), &old);
	n = drain(0, recs, AGENT_RING_RECORDS);
	for (k = 0; k < n; k++)
		wrong += recs[k].cpu_submit != cpu || recs[k].cpu_complete != cpu;
	diag("this CPU's CPUID: %s rdtscp", had ? "has" : "has no");
	ok(records_are(recs, n, 0, 500, 1) && !wrong,
	   "without rdtscp: 500 whole records, stamps in order, each on CPU %d (%zu not)",
	   cpu, wrong);
}

/*
 * A child forked while the parent is recorded runs its own commands at
 * the same time as the parent's: nothing of the child's reaches the
 * parent's ring (two producers on one ring would mix them), the child
 * does not fail, and the parent's records are whole.
 */
static void forked_child_writes_nothing(struct ntprof_record *recs)
{
	int status = -1;
	size_t n;
	pid_t pid;

	set_on(1);
	fflush(stdout);
	pid = fork();
	if (!pid) {
		run(500, 4000);
		_exit(0);
	}
	run(0, 500);
	if (pid > 0)
		waitpid(pid, &status, 0);
	n = drain(0, recs, AGENT_RING_RECORDS);
	ok(pid > 0 && WIFEXITED(status) && !WEXITSTATUS(status) &&
	   records_are(recs, n, 0, 500, 1),
	   "a forked child's 3500 commands while 500 of the parent's are recorded: its none, the parent's whole");
}

/* The handler behind patched entries, its rings read as a recorder would. */
static void test_handler(void)
{
	static struct ntprof_record recs[AGENT_RING_RECORDS];
	struct agent_shm_ring *ring;
	pthread_t th;
	unsigned int i;
	size_t n;

	shm = tpath_setup(tpath_sites, "the shared memory is made, off");
	if (!shm)
		return;
	ctl = shm;
	if (!tpath_patch(tpath_sites, patches))
		return;

	run(0, 500);
	ok(!ctl->rings_claimed && !drain(0, recs, AGENT_RING_RECORDS),
	   "off: 500 commands, no record, no ring claimed");

	set_on(1);
	ok(ctl->site_on[0] && ctl->site_on[1] && ctl->site_on[2],
	   "the trampolines' site bytes are the shared control page's");
	run(0, 500);
	n = drain(0, recs, AGENT_RING_RECORDS);
	ok(records_are(recs, n, 0, 500, 1),
	   "-s 1: each of 500 commands recorded once, whole, in order");

	set_on(7);
	run(500, 1500);
	n = drain(0, recs, AGENT_RING_RECORDS);
	ok(records_are(recs, n, 500, 1500, 7),
	   "-s 7: the %zu commands ntprof_sample_hash() picks, no other", n);

	set_on(1);
	pthread_create(&th, NULL, thread_run, NULL);
	pthread_join(th, NULL);
	n = drain(1, recs, AGENT_RING_RECORDS);
	ok(ctl->rings_claimed == 2 && records_are(recs, n, 0, 100, 1) &&
	   !drain(0, recs, AGENT_RING_RECORDS),
	   "a second thread's 100 records in a ring of its own");

	ring = agent_shm_ring(shm, 0);
	run(0, AGENT_RING_RECORDS + 100);
	ok(ring->head - ring->tail == AGENT_RING_RECORDS && ring->drops == 100,
	   "a full ring: %d records kept, 100 counted as drops",
	   AGENT_RING_RECORDS);
	drain(0, recs, AGENT_RING_RECORDS);
	ring->tail = ring->head + 5;	/* a recorder's wrong tail */
	run(0, 10);
	ok(ring->drops == 110, "a tail past the head: no write, drops counted");
	ring->tail = ring->head;

	/* A command whose last site never runs: its request comes back. */
	{
		struct tcmd c;

		tcmd_make(&c, 3);
		tcmd_begin(&c);
		tcmd_work(&c);
		tcmd_begin(&c);
		tcmd_work(&c);
		tcmd_end(&c);
		n = drain(0, recs, AGENT_RING_RECORDS);
		ok(n == 2 && (recs[0].flags & NTPROF_REC_F_PARTIAL) &&
		   !recs[0].ts[NTPROF_PT_TARGET_COMPLETE] &&
		   !(recs[1].flags & NTPROF_REC_F_PARTIAL) &&
		   recs[1].ts[NTPROF_PT_TARGET_COMPLETE],
		   "a request reused before its last site: a partial record, then the new one");
	}

	/* 300 requests in flight on one thread: the table keeps 256 at most. */
	{
		static struct tcmd many[300];

		for (i = 0; i < 300; i++) {
			tcmd_make(&many[i], i);
			tcmd_begin(&many[i]);
		}
		for (i = 0; i < 300; i++)
			tcmd_end(&many[i]);
		n = drain(0, recs, AGENT_RING_RECORDS);
		ok(ctl->evicted && n + ctl->evicted == 300,
		   "300 in flight on one thread: %zu recorded, %lu counted as evicted",
		   n, (unsigned long)ctl->evicted);
	}

	/* The recorder's filters: reads (every third command writes). */
	set_on(1);
	ctl->ops = NTPROF_OP_READ;
	run(0, 300);
	n = drain(0, recs, AGENT_RING_RECORDS);
	for (i = 0; i < n && recs[i].opcode == 2; i++)
		;
	ok(n == 200 && i == n, "reads only: the 200 reads of 300 commands");
	set_on(1);
	ctl->min_len = 2048;
	ctl->max_len = 4096;
	run(0, 300);
	n = drain(0, recs, AGENT_RING_RECORDS);
	{
		struct tcmd c;
		size_t want = 0;

		for (i = 0; i < 300; i++) {
			tcmd_make(&c, i);
			want += c.length >= 2048 && c.length <= 4096;
		}
		for (i = 0; i < n && recs[i].length >= 2048 &&
			    recs[i].length <= 4096; i++)
			;
		ok(n == want && i == n && want && want < 300,
		   "2048 to 4096 bytes: the %zu commands of those lengths", want);
	}

	/* A command begun for an earlier recorder: never finished. */
	{
		struct tcmd c;

		set_on(1);
		tcmd_make(&c, 5);
		tcmd_begin(&c);
		set_on(1);
		tcmd_work(&c);
		tcmd_end(&c);
		ok(!drain(0, recs, AGENT_RING_RECORDS),
		   "a command begun in the last session: no record in this one");
	}

	/* The recorder's heartbeat past: off at the next look. */
	set_on(1);
	ctl->deadline = tsc() - 1;
	run(0, 10);
	drain(0, recs, AGENT_RING_RECORDS);
	ok(!ctl->sample && !ctl->site_on[0] && !ctl->site_on[1] &&
	   !ctl->site_on[2] && ctl->expired == 1,
	   "no heartbeat: the agent turned itself off, and counted it");
	run(0, 100);
	ok(!drain(0, recs, AGENT_RING_RECORDS) && ctl->expired == 1,
	   "then 100 commands: no record, off once");

	stamps_without_rdtscp(recs);
	forked_child_writes_nothing(recs);

	/* Every thread's table taken: a thread past them counts evictions. */
	{
		uint64_t evicted = ctl->evicted;
		pthread_t t;
		uintptr_t k;

		set_on(1);
		for (k = agent_hs.tables_claimed; k <= AGENT_TABLES_MAX; k++) {
			pthread_create(&t, NULL, thread_begin, (void *)k);
			pthread_join(t, NULL);
		}
		ok(agent_hs.tables_claimed == AGENT_TABLES_MAX + 1 &&
		   ctl->evicted == evicted + 1,
		   "%d threads' tables taken: the next thread's command counted as evicted",
		   AGENT_TABLES_MAX);
	}

	set_on(0);
	run(0, 100);
	ok(!drain(0, recs, AGENT_RING_RECORDS), "off again: no record");
}

static const struct tap_case cases[] = {
	{ "handler", test_handler },
};

int main(int argc, char *argv[])
{
	return tap_main(argc, argv, "test_agent_hit", cases, TAP_NR_CASES(cases));
}
