// SPDX-License-Identifier: GPL-2.0
/*
 * Attaching to an agent. Its memfd is found among the process's open
 * files (/proc/PID/fd, which the kernel lets only the process's user or
 * root open), checked to be an agent's and mapped shared
 * (agent_memfd.c). Nothing in it is trusted: the header is checked, the
 * counts bounded, the rings read with agent_ring_take(), which follows
 * no head past a ring, and each record's pid and role are the
 * recorder's own. A session number the recorder sets tells it whether
 * the agent is still its own: once another recorder has turned it on,
 * this one leaves it alone.
 *
 * The agent stamps with the TSC; records carry CLOCK_MONOTONIC. The
 * kernel's clock on x86 is the TSC scaled (an invariant TSC, the same on
 * every CPU), so a line through two (TSC, CLOCK_MONOTONIC) pairs maps one
 * to the other: one pair at attach, a second 20 ms later, and the pair
 * of each take after that refining the rate over the whole recording.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <ntprof/agent_abi.h>

#include "sites/agent_attach.h"
#include "sites/agent_memfd.h"

/* The flags an agent's record may carry. */
#define REC_FLAGS	(NTPROF_REC_F_SAMPLED | NTPROF_REC_F_FAILED | \
			 NTPROF_REC_F_PARTIAL | NTPROF_REC_F_USER)

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static uint64_t tsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

/*
 * clock_pair() - read a (TSC, CLOCK_MONOTONIC) pair, the two readings taken
 * as close together as they can be.
 */
static void clock_pair(uint64_t *t, uint64_t *m)
{
	uint64_t a, b, best = UINT64_MAX;
	uint64_t mono;
	int i;

	for (i = 0; i < 5; i++) {
		a = tsc();
		mono = mono_ns();
		b = tsc();
		if (b - a < best) {
			best = b - a;
			*t = a + (b - a) / 2;
			*m = mono;
		}
	}
}

int agent_attach(pid_t pid, uint32_t role, struct agent_attach *a, char *err,
		 size_t len)
{
	const struct agent_shm_ctl *ctl;
	struct timespec wait = { .tv_nsec = 20 * 1000 * 1000 };
	const char *why = NULL;
	char reason[200];
	uint64_t t1, m1;
	int ret;

	memset(a, 0, sizeof(*a));
	ret = agent_memfd_map(pid, &a->shm, reason, sizeof(reason));
	if (ret) {
		a->shm = NULL;
		snprintf(err, len, "process %d: %s", (int)pid, reason);
		return ret;
	}
	ctl = a->shm;
	/* Published last, once its sites are patched: else still starting. */
	if (!__atomic_load_n(&ctl->magic, __ATOMIC_ACQUIRE)) {
		why = "its agent is still starting";
		ret = -EAGAIN;
	} else if (ctl->magic != AGENT_SHM_MAGIC ||
		   ctl->version != AGENT_SHM_VERSION) {
		why = "its agent is not of this ntprof's version";
		ret = -EPROTO;
	} else if (ctl->nr_sites > AGENT_SITES_MAX) {
		why = "its agent's header is not an agent's (too many sites)";
		ret = -EPROTO;
	}
	if (ret) {
		snprintf(err, len, "process %d: %s", (int)pid, why);
		munmap(a->shm, AGENT_SHM_SIZE);
		a->shm = NULL;
		return ret;
	}
	a->pid = pid;
	a->role = role;
	a->nr_sites = ctl->nr_sites;
	clock_pair(&a->tsc0, &a->mono0);
	nanosleep(&wait, NULL);
	clock_pair(&t1, &m1);
	if (t1 > a->tsc0) {
		a->ns_per_tick = (double)(m1 - a->mono0) / (t1 - a->tsc0);
	} else {
		/* No stamp of its can be placed in time: said, not guessed. */
		snprintf(err, len,
			 "process %d: the TSC did not move in 20 ms: its agent's stamps cannot be made CLOCK_MONOTONIC",
			 (int)pid);
		munmap(a->shm, AGENT_SHM_SIZE);
		a->shm = NULL;
		return -EPROTO;
	}
	return 0;
}

/*
 * has_flag() - tell whether @flags, the words of a cpuinfo "flags" line,
 * include @word.
 */
static bool has_flag(const char *flags, const char *word)
{
	size_t n = strlen(word);
	const char *p = flags;

	while ((p = strstr(p, word))) {
		if ((p == flags || p[-1] == ' ' || p[-1] == '\t') &&
		    (p[n] == ' ' || p[n] == '\n' || p[n] == '\0'))
			return true;
		p += n;
	}
	return false;
}

bool agent_tsc_flags_ok(const char *flags, char *why, size_t len)
{
	static const char *const need[] = { "constant_tsc", "nonstop_tsc" };
	char missing[64];
	size_t i, n = 0;

	for (i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
		if (has_flag(flags, need[i]))
			continue;
		n += snprintf(missing + n, sizeof(missing) - n, "%s%s",
			      n ? " nor " : "", need[i]);
	}
	if (n)
		snprintf(why, len, "the CPU's TSC has no %s", missing);
	return !n;
}

bool agent_tsc_trusted(char *why, size_t len)
{
	char line[4096];
	bool found = false;
	FILE *f;

	f = fopen("/proc/cpuinfo", "re");
	if (!f) {
		snprintf(why, len, "/proc/cpuinfo: %s", strerror(errno));
		return false;
	}
	/* The first CPU's flags: the kernel gives all CPUs the same. */
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, "flags", 5);
	fclose(f);
	if (!found) {
		snprintf(why, len, "/proc/cpuinfo has no flags");
		return false;
	}
	return agent_tsc_flags_ok(line, why, len);
}

/*
 * tsc_in() - return the TSC value @ns from now, on the line that relates the
 * two clocks.
 */
static uint64_t tsc_in(const struct agent_attach *a, uint64_t ns)
{
	return tsc() + (uint64_t)((double)ns / a->ns_per_tick);
}

/*
 * rings_forget() - give up the records that an earlier recorder left in the
 * rings, by moving each ring's tail to its head. The agent is off (this
 * recorder found it so), and a command that it followed for that recorder is
 * dropped once the session moves on, so every record written after this
 * recorder's session starts is this recorder's.
 */
static void rings_forget(struct agent_attach *a)
{
	const struct agent_shm_ctl *ctl = a->shm;
	struct agent_shm_ring *ring;
	unsigned int r, rings;

	rings = __atomic_load_n(&ctl->rings_claimed, __ATOMIC_ACQUIRE);
	if (rings > AGENT_RINGS_MAX)
		rings = AGENT_RINGS_MAX;
	for (r = 0; r < rings; r++) {
		ring = agent_shm_ring(a->shm, r);
		__atomic_store_n(&ring->tail,
				 __atomic_load_n(&ring->head, __ATOMIC_ACQUIRE),
				 __ATOMIC_RELEASE);
	}
}

void agent_attach_on(struct agent_attach *a, const struct agent_filter *f)
{
	struct agent_shm_ctl *ctl = a->shm;
	unsigned int i;

	if (a->lost)
		return;
	if (!a->owner)
		rings_forget(a);
	a->filter = *f;
	a->owner = true;
	a->expired = __atomic_load_n(&ctl->expired, __ATOMIC_ACQUIRE);
	/* Everything the sites read first: a site turned on sees it all. */
	__atomic_store_n(&ctl->deadline, tsc_in(a, AGENT_HEARTBEAT_NS),
			 __ATOMIC_RELAXED);
	__atomic_store_n(&ctl->ops, f->ops, __ATOMIC_RELAXED);
	__atomic_store_n(&ctl->min_len, f->min_len, __ATOMIC_RELAXED);
	__atomic_store_n(&ctl->max_len, f->max_len, __ATOMIC_RELAXED);
	__atomic_store_n(&ctl->transport, f->transport, __ATOMIC_RELAXED);
	a->session = __atomic_add_fetch(&ctl->session, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&ctl->sample, f->sample, __ATOMIC_RELEASE);
	for (i = 0; i < a->nr_sites; i++)
		__atomic_store_n(&ctl->site_on[i], f->sample ? 1 : 0,
				 __ATOMIC_RELEASE);
}

/*
 * still_ours() - tell whether the agent is still this recorder's, that is,
 * whether no other recorder has turned it on since (each one does so with a
 * session of its own). Once the agent is not ours, it never is again.
 */
static bool still_ours(struct agent_attach *a)
{
	const struct agent_shm_ctl *ctl = a->shm;

	if (!a->lost && a->owner &&
	    __atomic_load_n(&ctl->session, __ATOMIC_ACQUIRE) != a->session)
		a->lost = true;
	return !a->lost;
}

void agent_attach_off(struct agent_attach *a)
{
	struct agent_shm_ctl *ctl = a->shm;
	unsigned int i;

	if (!still_ours(a))
		return;
	for (i = 0; i < a->nr_sites; i++)
		__atomic_store_n(&ctl->site_on[i], 0, __ATOMIC_RELEASE);
	__atomic_store_n(&ctl->sample, 0, __ATOMIC_RELEASE);
}

enum agent_beat agent_attach_beat(struct agent_attach *a)
{
	struct agent_shm_ctl *ctl = a->shm;

	if (a->lost)
		return AGENT_BEAT_LOST;
	/* Taken over while this recorder was stopped: that one's now. */
	if (!still_ours(a))
		return AGENT_BEAT_LOST;
	if (__atomic_load_n(&ctl->expired, __ATOMIC_ACQUIRE) != a->expired) {
		agent_attach_on(a, &a->filter);
		return AGENT_BEAT_AGAIN;
	}
	__atomic_store_n(&ctl->deadline, tsc_in(a, AGENT_HEARTBEAT_NS),
			 __ATOMIC_RELEASE);
	return AGENT_BEAT_ON;
}

bool agent_attach_is_on(const struct agent_attach *a)
{
	const struct agent_shm_ctl *ctl = a->shm;

	return __atomic_load_n(&ctl->sample, __ATOMIC_ACQUIRE) &&
	       tsc() <= __atomic_load_n(&ctl->deadline, __ATOMIC_ACQUIRE);
}

void agent_attach_counters(const struct agent_attach *a,
			   struct agent_counters *c)
{
	const struct agent_shm_ctl *ctl = a->shm;
	unsigned int r;

	memset(c, 0, sizeof(*c));
	c->evicted = __atomic_load_n(&ctl->evicted, __ATOMIC_RELAXED);
	c->ringless = __atomic_load_n(&ctl->ringless, __ATOMIC_RELAXED);
	c->expired = __atomic_load_n(&ctl->expired, __ATOMIC_RELAXED);
	c->faults = __atomic_load_n(&ctl->faults, __ATOMIC_RELAXED);
	c->rings = __atomic_load_n(&ctl->rings_claimed, __ATOMIC_RELAXED);
	if (c->rings > AGENT_RINGS_MAX)
		c->rings = AGENT_RINGS_MAX;
	for (r = 0; r < c->rings; r++)
		c->drops += __atomic_load_n(&agent_shm_ring(a->shm, r)->drops,
					    __ATOMIC_RELAXED);
}

int agent_attach_site_state(const struct agent_attach *a, unsigned int i)
{
	const struct agent_shm_ctl *ctl = a->shm;
	uint8_t st;

	if (i >= a->nr_sites)
		return -1;
	st = __atomic_load_n(&ctl->site_state[i], __ATOMIC_RELAXED);
	return st ? st - 1 : -1;
}

uint64_t agent_attach_site_vaddr(const struct agent_attach *a, unsigned int i)
{
	const struct agent_shm_ctl *ctl = a->shm;

	return i < a->nr_sites ?
	       __atomic_load_n(&ctl->site_vaddr[i], __ATOMIC_RELAXED) : 0;
}

static uint64_t to_ns(const struct agent_attach *a, uint64_t ticks)
{
	return ticks ? a->mono0 + (uint64_t)((double)(int64_t)(ticks - a->tsc0) *
					     a->ns_per_tick) : 0;
}

size_t agent_attach_take(struct agent_attach *a, struct ntprof_record *out,
			 size_t max)
{
	const struct agent_shm_ctl *ctl = a->shm;
	unsigned int r, rings, i;
	struct ntprof_record *rec;
	uint64_t t1, m1;
	size_t n = 0, k;

	/* The longer the line, the better its slope. */
	clock_pair(&t1, &m1);
	if (t1 > a->tsc0 && m1 > a->mono0 + 1000000)
		a->ns_per_tick = (double)(m1 - a->mono0) / (t1 - a->tsc0);
	if (!still_ours(a))
		return 0;
	rings = __atomic_load_n(&ctl->rings_claimed, __ATOMIC_ACQUIRE);
	if (rings > AGENT_RINGS_MAX)
		rings = AGENT_RINGS_MAX;
	for (r = 0; r < rings && n < max; r++)
		n += agent_ring_take(agent_shm_ring(a->shm, r), out + n, max - n);
	for (k = 0; k < n; k++) {
		rec = &out[k];
		for (i = 0; i < NTPROF_RECORD_POINTS; i++)
			rec->ts[i] = to_ns(a, rec->ts[i]);
		/* Who and what it is, the recorder's word, not the agent's. */
		rec->pid = (uint32_t)a->pid;
		rec->role = (uint8_t)a->role;
		rec->flags = (rec->flags & REC_FLAGS) | NTPROF_REC_F_USER;
		if (rec->transport != NTPROF_TRANSPORT_TCP &&
		    rec->transport != NTPROF_TRANSPORT_RDMA)
			rec->transport = NTPROF_TRANSPORT_NONE;
	}
	return n;
}

void agent_detach(struct agent_attach *a)
{
	if (!a->shm)
		return;
	/* Not another recorder's: only an agent this one turned on. */
	if (a->owner)
		agent_attach_off(a);
	munmap(a->shm, AGENT_SHM_SIZE);
	a->shm = NULL;
}
