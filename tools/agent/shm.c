// SPDX-License-Identifier: GPL-2.0
/*
 * The shared memory, made by the agent at start-up: a memfd named
 * "ntprof-agent", mode 0600, its control page set up off (sample 0,
 * every site's byte clear), its rings empty; published (its magic
 * written) once the sites are patched. The recorder finds it in
 * /proc/PID/fd, which only the process's user or root may open.
 */
#define _GNU_SOURCE	/* memfd_create() */
#include <errno.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shm.h"

int agent_shm_create(void **base)
{
	void *p;
	int fd, err;

	fd = memfd_create("ntprof-agent", MFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fchmod(fd, 0600) || ftruncate(fd, AGENT_SHM_SIZE)) {
		err = -errno;
		close(fd);
		return err;
	}
	p = mmap(NULL, AGENT_SHM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		err = -errno;
		close(fd);
		return err;
	}
	*base = p;
	return fd;
}

void agent_shm_publish(void *base)
{
	struct agent_shm_ctl *ctl = base;

	ctl->version = AGENT_SHM_VERSION;
	__atomic_store_n(&ctl->magic, AGENT_SHM_MAGIC, __ATOMIC_RELEASE);
}
