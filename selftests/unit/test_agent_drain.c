// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the recorder's side of an agent's memory
 * (tools/ntprof/lib/sites/agent_attach.c, spdk_agent.c), on a memory
 * this test makes and writes as a hostile agent would, with no process:
 * a drain whose every batch finds the rings full again ends after one
 * ring's worth of each ring; each record taken carries the attached pid
 * and the recording's role, its flags and transport bounded, and none
 * without a stamp is passed on; the first turn-on gives up the records
 * an earlier recorder left; a recorder whose agent another one turned on
 * since neither takes its records, nor turns it back on, nor off; a TSC
 * without constant_tsc or nonstop_tsc is not trusted, and said why.
 * Prints TAP; exits 1 if any test failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <ntprof/agent_abi.h>

#include "sites/spdk_agent.h"
#include "tap.h"

#define PID	4242

static void *shm;
static struct ntprof_record buf[4096];

/* Ring @r full: a ring's worth of records after its tail, as @rec. */
static void fill(unsigned int r, const struct ntprof_record *rec)
{
	struct agent_shm_ring *ring = agent_shm_ring(shm, r);
	uint64_t i;

	for (i = ring->tail; i < ring->tail + AGENT_RING_RECORDS; i++)
		ring->recs[i % AGENT_RING_RECORDS] = *rec;
	ring->head = ring->tail + AGENT_RING_RECORDS;
}

/* An agent's record as a fake writes it: its own pid, role and flags. */
static const struct ntprof_record fake = {
	.role = NTPROF_ROLE_HOST, .transport = 7, .flags = 0xff, .pid = 1,
	.ts = { 1000, 2000 },
};

struct seen {
	bool refill;		/* every ring full again after each batch */
	unsigned int batches;
	size_t records;
	size_t wrong;		/* pid, role, flags or transport not ours */
	size_t unstamped;
};

/* Each batch: checked, then every ring full again, as a fast fake's. */
static int batch(const struct ntprof_record *recs, size_t n, void *data)
{
	struct seen *s = data;
	unsigned int r, k;
	bool stamped;
	size_t i;

	for (i = 0; i < n; i++) {
		s->wrong += recs[i].pid != PID ||
			    recs[i].role != NTPROF_ROLE_TARGET ||
			    recs[i].flags != (NTPROF_REC_F_SAMPLED |
					      NTPROF_REC_F_FAILED |
					      NTPROF_REC_F_PARTIAL |
					      NTPROF_REC_F_USER) ||
			    recs[i].transport != NTPROF_TRANSPORT_NONE;
		for (k = 0, stamped = false; k < NTPROF_RECORD_POINTS; k++)
			stamped |= recs[i].ts[k] != 0;
		s->unstamped += !stamped;
	}
	s->records += n;
	/* A loop with no bound: stopped here, and failed. */
	if (++s->batches > 10 * AGENT_RINGS_MAX)
		return -ELOOP;
	for (r = 0; s->refill && r < AGENT_RINGS_MAX; r++)
		fill(r, &fake);
	return 0;
}

/* A process attached, as spdk_procs_find() leaves it. */
static void attached(struct spdk_procs *ps)
{
	memset(ps, 0, sizeof(*ps));
	ps->n = 1;
	ps->nr_agents = 1;
	ps->v[0].pid = PID;
	ps->v[0].agent = true;
	ps->v[0].a = (struct agent_attach){
		.pid = PID, .role = NTPROF_ROLE_TARGET, .shm = shm,
		.nr_sites = 1, .ns_per_tick = 1.0,
	};
}

/* The recorder's side against shared memory written as a hostile agent would. */
static void test_hostile(void)
{
	const struct agent_filter f = { .sample = 1, .ops = 7,
					.max_len = UINT32_MAX };
	struct ntprof_record none = { .role = NTPROF_ROLE_TARGET };
	char why[128] = "";
	struct agent_shm_ctl *ctl;
	struct spdk_procs ps, other;
	struct seen s = { .refill = true };
	struct agent_shm_ring *ring;
	uint64_t count;
	unsigned int r;
	int ret;

	shm = mmap(NULL, AGENT_SHM_SIZE, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shm == MAP_FAILED)
		tap_bail("no memory");
	ctl = shm;
	ctl->magic = AGENT_SHM_MAGIC;
	ctl->version = AGENT_SHM_VERSION;
	ctl->nr_sites = 1;
	ctl->rings_claimed = AGENT_RINGS_MAX;

	attached(&ps);
	for (r = 0; r < AGENT_RINGS_MAX; r++)
		fill(r, &fake);
	ret = spdk_procs_take(&ps, buf, 4096, batch, &s, &count);
	if (!ok(!ret && s.records == SPDK_TAKE_PASS && count == s.records,
		"rings full again at every batch: one drain ends after %zu records, every ring's worth",
		(size_t)SPDK_TAKE_PASS))
		diag("returned %d after %u batches, %zu records", ret,
		     s.batches, s.records);
	ok(s.records && !s.wrong,
	   "each record carries the attached pid and the recording's role, flags and transport bounded (%zu wrong)",
	   s.wrong);

	memset(&s, 0, sizeof(s));
	for (r = 0; r < AGENT_RINGS_MAX; r++)
		fill(r, &none);
	fill(0, &fake);
	ret = spdk_procs_take(&ps, buf, 4096, batch, &s, &count);
	ok(!ret && !s.unstamped && s.records == AGENT_RING_RECORDS &&
	   count == s.records,
	   "records without a stamp are not passed on (%zu of ring 0's taken, %zu unstamped)",
	   s.records, s.unstamped);

	/* A killed recorder's records left in the rings. */
	for (r = 0; r < AGENT_RINGS_MAX; r++)
		fill(r, &fake);
	attached(&ps);
	agent_attach_on(&ps.v[0].a, &f);
	ring = agent_shm_ring(shm, AGENT_RINGS_MAX - 1);
	ok(ring->tail == ring->head &&
	   !agent_attach_take(&ps.v[0].a, buf, 4096),
	   "turned on first: the records an earlier recorder left are given up, none taken");
	agent_attach_off(&ps.v[0].a);
	agent_attach_on(&ps.v[0].a, &f);
	fill(0, &fake);
	agent_attach_off(&ps.v[0].a);
	agent_attach_on(&ps.v[0].a, &f);
	ok(agent_attach_take(&ps.v[0].a, buf, 4096) == 4096,
	   "turned on again by the same recorder: its own records stay");

	/* Another recorder takes the agent over while this one is stopped. */
	__atomic_store_n(&ctl->expired, ctl->expired + 1, __ATOMIC_RELAXED);
	agent_attach_off(&ps.v[0].a);
	attached(&other);
	agent_attach_on(&other.v[0].a, &f);
	fill(1, &fake);
	ok(agent_attach_beat(&ps.v[0].a) == AGENT_BEAT_LOST &&
	   !agent_attach_take(&ps.v[0].a, buf, 4096) &&
	   agent_attach_take(&other.v[0].a, buf, 4096) == 4096,
	   "a recorder whose agent another turned on since: lost, takes none of the other's records");
	agent_attach_off(&ps.v[0].a);
	ok(ctl->sample == 1 && ctl->site_on[0] == 1 &&
	   ctl->session == other.v[0].a.session &&
	   agent_attach_beat(&other.v[0].a) == AGENT_BEAT_ON,
	   "... and neither turns it off nor on again: the other still has it");

	ok(agent_tsc_flags_ok("flags\t\t: fpu tsc constant_tsc rep_good nonstop_tsc cpuid\n",
			      why, sizeof(why)),
	   "a TSC with constant_tsc and nonstop_tsc: trusted");
	ok(!agent_tsc_flags_ok("flags\t\t: fpu tsc constant_tsc_x nonstop_tsc\n",
			       why, sizeof(why)) &&
	   !strcmp(why, "the CPU's TSC has no constant_tsc"),
	   "one without constant_tsc (a longer word is not it): said, %s", why);
	ok(!agent_tsc_flags_ok("flags\t\t: fpu tsc\n", why, sizeof(why)) &&
	   !strcmp(why, "the CPU's TSC has no constant_tsc nor nonstop_tsc"),
	   "one with neither: said, %s", why);
}

static const struct tap_case cases[] = {
	{ "hostile", test_hostile },
};

int main(int argc, char *argv[])
{
	return tap_main(argc, argv, "test_agent_drain", cases, TAP_NR_CASES(cases));
}
