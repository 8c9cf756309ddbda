// SPDX-License-Identifier: GPL-2.0
/*
 * Attaching to an agent. Its memfd is found among the process's open
 * files (/proc/PID/fd, which the kernel lets only the process's user or
 * root open) and mapped shared. Nothing in it is trusted: the header is
 * checked, the counts bounded, and the rings read with
 * agent_ring_take(), which follows no head past a ring.
 *
 * The agent stamps with the TSC; records carry CLOCK_MONOTONIC. The
 * kernel's clock on x86 is the TSC scaled (an invariant TSC, the same on
 * every CPU), so a line through two (TSC, CLOCK_MONOTONIC) pairs maps one
 * to the other: one pair at attach, a second 20 ms later, and the pair
 * of each take after that refining the rate over the whole recording.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "agent/shm.h"
#include "sites/agent_attach.h"

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

/* A (TSC, CLOCK_MONOTONIC) pair read as close together as they can be. */
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

/* The agent's memfd among @pid's open files, opened; -ENOENT if none. */
static int agent_fd(pid_t pid)
{
	char dir[64], path[600], link[256];
	struct dirent *d;
	int fd = -ENOENT;
	ssize_t n;
	DIR *dp;

	snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)pid);
	dp = opendir(dir);
	if (!dp)
		return -errno;
	while (fd == -ENOENT && (d = readdir(dp))) {
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = '\0';
		if (strncmp(link, "/memfd:ntprof-agent ", 20))
			continue;
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			fd = -errno;
	}
	closedir(dp);
	return fd;
}

int agent_attach(pid_t pid, struct agent_attach *a, char *err, size_t len)
{
	const struct agent_shm_ctl *ctl;
	struct timespec wait = { .tv_nsec = 20 * 1000 * 1000 };
	uint64_t t1, m1;
	int fd;

	memset(a, 0, sizeof(*a));
	fd = agent_fd(pid);
	if (fd < 0) {
		snprintf(err, len, "process %d: %s", (int)pid,
			 fd == -ENOENT ? "no ntprof agent (start it with ntprof run)" :
			 strerror(-fd));
		return fd;
	}
	a->shm = mmap(NULL, AGENT_SHM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		      fd, 0);
	close(fd);
	if (a->shm == MAP_FAILED) {
		a->shm = NULL;
		snprintf(err, len, "process %d: its agent's memory: %s",
			 (int)pid, strerror(errno));
		return -EPROTO;
	}
	ctl = a->shm;
	/* Published last, once its sites are patched: else still starting. */
	if (!__atomic_load_n(&ctl->magic, __ATOMIC_ACQUIRE)) {
		snprintf(err, len, "process %d: its agent is still starting",
			 (int)pid);
		munmap(a->shm, AGENT_SHM_SIZE);
		a->shm = NULL;
		return -EAGAIN;
	}
	if (ctl->magic != AGENT_SHM_MAGIC || ctl->version != AGENT_SHM_VERSION) {
		snprintf(err, len, "process %d: its agent is not of this ntprof's version",
			 (int)pid);
		munmap(a->shm, AGENT_SHM_SIZE);
		a->shm = NULL;
		return -EPROTO;
	}
	a->pid = pid;
	a->nr_sites = ctl->nr_sites < AGENT_SITES_MAX ? ctl->nr_sites :
						       AGENT_SITES_MAX;
	clock_pair(&a->tsc0, &a->mono0);
	nanosleep(&wait, NULL);
	clock_pair(&t1, &m1);
	a->ns_per_tick = t1 > a->tsc0 ? (double)(m1 - a->mono0) / (t1 - a->tsc0) :
					1.0;
	return 0;
}

/* The TSC value @ns from now, on the line of the clocks. */
static uint64_t tsc_in(const struct agent_attach *a, uint64_t ns)
{
	return tsc() + (uint64_t)((double)ns / a->ns_per_tick);
}

void agent_attach_on(struct agent_attach *a, const struct agent_filter *f)
{
	struct agent_shm_ctl *ctl = a->shm;
	unsigned int i;

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
	__atomic_fetch_add(&ctl->session, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&ctl->sample, f->sample, __ATOMIC_RELEASE);
	for (i = 0; i < a->nr_sites; i++)
		__atomic_store_n(&ctl->site_on[i], f->sample ? 1 : 0,
				 __ATOMIC_RELEASE);
}

void agent_attach_off(struct agent_attach *a)
{
	struct agent_shm_ctl *ctl = a->shm;
	unsigned int i;

	for (i = 0; i < a->nr_sites; i++)
		__atomic_store_n(&ctl->site_on[i], 0, __ATOMIC_RELEASE);
	__atomic_store_n(&ctl->sample, 0, __ATOMIC_RELEASE);
}

bool agent_attach_beat(struct agent_attach *a)
{
	struct agent_shm_ctl *ctl = a->shm;

	if (__atomic_load_n(&ctl->expired, __ATOMIC_ACQUIRE) != a->expired) {
		agent_attach_on(a, &a->filter);
		return true;
	}
	__atomic_store_n(&ctl->deadline, tsc_in(a, AGENT_HEARTBEAT_NS),
			 __ATOMIC_RELEASE);
	return false;
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
	uint64_t t1, m1;
	size_t n = 0, k;

	/* The longer the line, the better its slope. */
	clock_pair(&t1, &m1);
	if (t1 > a->tsc0 && m1 > a->mono0 + 1000000)
		a->ns_per_tick = (double)(m1 - a->mono0) / (t1 - a->tsc0);
	rings = __atomic_load_n(&ctl->rings_claimed, __ATOMIC_ACQUIRE);
	if (rings > AGENT_RINGS_MAX)
		rings = AGENT_RINGS_MAX;
	for (r = 0; r < rings && n < max; r++)
		n += agent_ring_take(agent_shm_ring(a->shm, r), out + n, max - n);
	for (k = 0; k < n; k++)
		for (i = 0; i < NTPROF_RECORD_POINTS; i++)
			out[k].ts[i] = to_ns(a, out[k].ts[i]);
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
