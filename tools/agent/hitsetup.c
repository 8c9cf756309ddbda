// SPDX-License-Identifier: GPL-2.0
/*
 * The handler's set-up, once at start-up, before any site is on: the
 * sites checked and copied, their identity plans made, the CPU's stamp
 * instruction chosen, the pool of in-flight tables mapped, and what a
 * forked child does. Not the handler: built as any code, it may call
 * libc.
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hit.h"
#include "hitstate.h"

struct agent_hit_state agent_hs = { .fd = -1 };

/* What the handler indexes or reads with, within bounds. */
static bool site_valid(const struct agent_site *s)
{
	const struct agent_fetch *f;
	unsigned int i;

	if (s->point >= NTPROF_RECORD_POINTS || !s->f[AGENT_F_KEY].set)
		return false;
	for (i = 0; i < AGENT_F_COUNT; i++) {
		f = &s->f[i];
		if (f->set && (f->reg > 5 || f->nr_derefs > AGENT_DEREFS_MAX ||
			       (f->width & (f->width - 1)) || f->width > 8))
			return false;
	}
	return true;
}

/*
 * Whether the CPU has rdtscp: CPUID 0x80000001, EDX bit 27. QEMU's
 * qemu64 and kvm64 models, among others, have not: there rdtscp is
 * SIGILL.
 */
static bool cpu_has_rdtscp(void)
{
	unsigned int a, b, c, d;

	if (!__get_cpuid(0x80000001, &a, &b, &c, &d))
		return false;
	return d & (1u << 27);
}

/*
 * A child forked from the program has a copy of every thread-local
 * table and ring pointer of the thread that forked, and the parent's
 * shared memory: two producers on one ring. The child writes nothing
 * shared: with the control page forgotten, its every hit returns at the
 * handler's first test (its site bytes are still the parent's: on while
 * the parent is recorded, its hits cost the stub and that test). Its
 * copy of the memfd's descriptor is closed, so that a recorder does not
 * take it for an agent of its own; the mappings stay, so that the
 * module's uprobes still keep out of its patched code.
 */
static void forked_child(void)
{
	agent_hs.ctl = NULL;
	if (agent_hs.fd >= 0)
		close(agent_hs.fd);
	agent_hs.fd = -1;
}

int agent_hit_setup(void *shm, int fd, const struct agent_site *s,
		    unsigned int n, uint32_t pid)
{
	static bool atfork;
	void *tables;
	unsigned int i;

	if (n > AGENT_SITES_MAX)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!site_valid(&s[i]))
			return -EINVAL;
	/* Address space only: a table's pages cost memory once written. */
	tables = mmap(NULL, AGENT_TABLES_MAX * sizeof(struct agent_table),
		      PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (tables == MAP_FAILED)
		return -errno;
	if (!atfork && pthread_atfork(NULL, NULL, forked_child)) {
		munmap(tables, AGENT_TABLES_MAX * sizeof(struct agent_table));
		return -ENOMEM;
	}
	atfork = true;
	agent_hs.shm_base = shm;
	agent_hs.fd = fd;
	agent_hs.tables = tables;
	agent_hs.tables_claimed = 0;
	agent_hs.rdtscp = cpu_has_rdtscp();
	memcpy(agent_hs.sites, s, n * sizeof(*s));
	for (i = 0; i < n; i++)
		agent_ident_plan(&s[i], &agent_hs.idents[i]);
	agent_hs.nr_sites = n;
	agent_hs.pid = pid;
	agent_hs.ctl = shm;
	return 0;
}
