// SPDX-License-Identifier: GPL-2.0
/*
 * Trampoline memory. A function's 5-byte jump reaches 2 GiB either
 * way, so its trampoline lives in an area mapped near it, 64 KiB: code,
 * then a private page with the pointers to the stubs (which may be
 * farther away, in the agent's own library; stub.S), then a view
 * of the control page that the agent shares with its recorder, which
 * holds each site's on/off byte (shm.h). Code pages are read and
 * execute only, from the start (agent_code_write() writes them), and the
 * stubs' page read-only once its pointers are in: no page of an area is
 * ever writable and executable.
 */
#define _GNU_SOURCE	/* MAP_FIXED_NOREPLACE */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
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
			/* The pointers the code calls through: read-only. */
			slots = (void **)((uint8_t *)p + AREA_SLOTS);
			slots[AGENT_STUB_ALL] = (void *)agent_stub;
			slots[AGENT_STUB_FOLLOW] = (void *)agent_stub_follow;
			if (mprotect(slots, AGENT_PAGE, PROT_READ)) {
				munmap(p, AREA_SIZE);
				continue;
			}
			a = &areas[nr_areas++];
			a->base = p;
			a->code_used = 0;
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

/*
 * Writes code through /proc/self/mem, as a debugger does: the kernel
 * copies the bytes into the page (a private copy of a file's page, as a
 * write after mprotect would make) whatever its protections, which stay
 * as they are. So no page is ever writable and executable at once, and
 * no page of code is ever without execute either: mprotect to
 * read-write, then back to read-execute, would leave a function's page
 * unexecutable for the moment of the write (safe before main, with one
 * thread, but only if the writer's own code is on another page), and
 * under SELinux without the execmod permission the way back to execute
 * of a written file page is refused, leaving the page unexecutable for
 * good: the program would die at its next call into it.
 */
static ssize_t mem_write(int fd, const void *src, size_t len, uintptr_t dst)
{
	ssize_t n;

	do
		n = pwrite(fd, src, len, (off_t)dst);
	while (n < 0 && errno == EINTR);
	return n;
}

int agent_code_write(void *dst, const void *src, size_t len)
{
	uint8_t old[256];
	ssize_t n;
	int fd, err = 0;

	if (len > sizeof(old))
		return -E2BIG;
	memcpy(old, dst, len);
	fd = open("/proc/self/mem", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = mem_write(fd, src, len, (uintptr_t)dst);
	if (n != (ssize_t)len) {
		err = n < 0 ? -errno : -EIO;
		/* A part written (the first page of two): put it back. */
		if (n > 0 && mem_write(fd, old, n, (uintptr_t)dst) != n)
			err = -EIO;
	}
	close(fd);
	/* Nothing on x86, whose caches are coherent: the intent, written. */
	if (!err)
		__builtin___clear_cache((char *)dst, (char *)dst + len);
	return err;
}
