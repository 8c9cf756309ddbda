// SPDX-License-Identifier: GPL-2.0
/*
 * Trampoline memory. A function's 5-byte jump reaches 2 GiB either
 * way, so its trampoline lives in an area mapped near it, 64 KiB: code,
 * then a private page with the pointers to the stubs (which may be
 * farther away, in the agent's own library; stub.S), then a view
 * of the control page that the agent shares with its recorder, which
 * holds each site's on/off byte (shm.h). Code pages are read and
 * execute only, writable for the moment of a write.
 */
#define _GNU_SOURCE	/* MAP_FIXED_NOREPLACE */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "shm.h"
#include "tramp.h"
#include "xref.h"

#define AREA_SIZE	(64 * 1024)
#define AREA_CODE	(AREA_SIZE - 2 * AGENT_PAGE)
#define AREA_SLOTS	AREA_CODE			/* the stubs' addresses */
#define AREA_CTL	(AREA_SIZE - AGENT_PAGE)	/* the control page */
#define AREAS_MAX	256
/* rel32 reaches +-2 GiB; an area must be in reach as a whole. */
#define REACH		((uintptr_t)1 << 31)

struct area {
	uint8_t *base;
	size_t code_used;
};

static struct area areas[AREAS_MAX];
static size_t nr_areas;
/* The memfd whose first page the areas' control views map, or -1. */
static int ctl_fd = -1;

void agent_tramp_ctl(int fd)
{
	ctl_fd = fd;
}

/* The stubs (stub.S), by enum agent_stub_kind. */
void agent_stub(void);
void agent_stub_follow(void);

static bool in_reach(uintptr_t from, uintptr_t base)
{
	uintptr_t d = base > from ? base + AREA_SIZE - from : from - base;

	return d < REACH - AREA_SIZE;
}

/* An area near @near: the free address space closest to it first. */
static struct area *area_new(uintptr_t near)
{
	uintptr_t at = near & ~(uintptr_t)(AREA_SIZE - 1), hint, step;
	struct area *a;
	void *p, **slots;
	int dir;

	if (nr_areas == AREAS_MAX)
		return NULL;
	for (step = AREA_SIZE; step < REACH / 2; step *= 2) {
		for (dir = -1; dir <= 1; dir += 2) {
			if (dir < 0 && at < step + AREA_SIZE)
				continue;
			hint = dir < 0 ? at - step : at + step;
			/* Taken as a hint by kernels before 4.17: checked. */
			p = mmap((void *)hint, AREA_SIZE, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
				 -1, 0);
			if (p == MAP_FAILED)
				continue;
			if (!in_reach(near, (uintptr_t)p) ||
			    mprotect(p, AREA_CODE, PROT_READ | PROT_EXEC) ||
			    (ctl_fd >= 0 &&
			     mmap((char *)p + AREA_CTL, AGENT_PAGE,
				  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
				  ctl_fd, 0) == MAP_FAILED)) {
				munmap(p, AREA_SIZE);
				continue;
			}
			a = &areas[nr_areas++];
			a->base = p;
			a->code_used = 0;
			slots = (void **)(a->base + AREA_SLOTS);
			slots[AGENT_STUB_ALL] = (void *)agent_stub;
			slots[AGENT_STUB_FOLLOW] = (void *)agent_stub_follow;
			return a;
		}
	}
	return NULL;
}

int agent_tramp_get(uintptr_t near, size_t len, uint32_t site,
		    enum agent_stub_kind stub, struct agent_tramp *t)
{
	struct agent_shm_ctl *ctl;
	struct area *a = NULL;
	size_t i;

	if (site >= AGENT_SITES_MAX || stub > AGENT_STUB_FOLLOW)
		return -EINVAL;
	/* Trampolines start on 16 bytes, as functions do. */
	len = (len + 15) & ~(size_t)15;
	for (i = 0; i < nr_areas && !a; i++)
		if (in_reach(near, (uintptr_t)areas[i].base) &&
		    areas[i].code_used + len <= AREA_CODE)
			a = &areas[i];
	if (!a)
		a = area_new(near);
	if (!a)
		return -ENOMEM;
	ctl = (struct agent_shm_ctl *)(a->base + AREA_CTL);
	t->code = a->base + a->code_used;
	t->len = len;
	t->stub_slot = (void *const *)(a->base + AREA_SLOTS) + stub;
	t->on = &ctl->site_on[site];
	a->code_used += len;
	return 0;
}

bool agent_tramp_branch_into(uintptr_t at, size_t len)
{
	size_t i;

	for (i = 0; i < nr_areas; i++)
		if (agent_rel32_into(areas[i].base, areas[i].code_used, at, len))
			return true;
	return false;
}

/* The protections of the mapping that holds @addr, from /proc/self/maps. */
static int prot_of(uintptr_t addr)
{
	unsigned long start, end;
	char perms[8], line[512];
	int prot = -1;
	FILE *f;

	f = fopen("/proc/self/maps", "re");
	if (!f)
		return -1;
	while (prot < 0 && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %7s", &start, &end, perms) != 3 ||
		    addr < start || addr >= end)
			continue;
		prot = (perms[0] == 'r' ? PROT_READ : 0) |
		       (perms[1] == 'w' ? PROT_WRITE : 0) |
		       (perms[2] == 'x' ? PROT_EXEC : 0);
	}
	fclose(f);
	return prot;
}

int agent_code_write(void *dst, const void *src, size_t len)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = (uintptr_t)dst & ~(page - 1);
	uintptr_t end = ((uintptr_t)dst + len + page - 1) & ~(page - 1);
	int prot = prot_of((uintptr_t)dst), prot_end = prot_of(end - 1);

	/* One mapping's protections to give back, or no write. */
	if (prot < 0 || prot != prot_end)
		return -EFAULT;
	/* Executable meanwhile: the writer may run from the same page. */
	if (mprotect((void *)start, end - start,
		     PROT_READ | PROT_WRITE | PROT_EXEC))
		return -errno;
	memcpy(dst, src, len);
	/* Nothing on x86, whose caches are coherent: the intent, written. */
	__builtin___clear_cache((char *)dst, (char *)dst + len);
	if (mprotect((void *)start, end - start, prot))
		return -errno;
	return 0;
}
