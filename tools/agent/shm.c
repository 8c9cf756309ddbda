// SPDX-License-Identifier: GPL-2.0
/*
 * The shared memory, made by the agent at start-up: a memfd named
 * "ntprof-agent", mode 0600, its control page set up off (sample 0,
 * every site's byte clear), its rings empty; published (its magic
 * written) once the sites are patched. The recorder finds it in
 * /proc/PID/fd, which only the process's user or root may open.
 *
 * Once sized it is sealed against shrinking and growing, and the seals
 * themselves sealed: no one who can open it (the process's user, root)
 * can truncate it under the program's mappings, whose next load would
 * raise SIGBUS, and the recorder refuses a memfd without these seals
 * (tools/ntprof/lib/sites/agent_memfd.c). Where the kernel has it (6.3
 * and later), it is also made MFD_NOEXEC_SEAL: never executable, and
 * allowed where vm.memfd_noexec=2 refuses every memfd without it. The
 * seals do not stop writes: whoever can open it can still write into
 * its pages (turn sampling on, fill the rings); the agent bounds every
 * value it reads from it (hit.c), and the recorder every value it
 * reads (agent_attach.c).
 */
#define _GNU_SOURCE	/* memfd_create() */
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shm.h"

/* Linux 6.3's; the kernel refuses it with EINVAL where it has not. */
#ifndef MFD_NOEXEC_SEAL
#define MFD_NOEXEC_SEAL	0x0008U
#endif
#ifndef F_ADD_SEALS
#define F_ADD_SEALS	1033
#endif
#ifndef F_SEAL_SEAL
#define F_SEAL_SEAL	0x0001
#define F_SEAL_SHRINK	0x0002
#define F_SEAL_GROW	0x0004
#endif

/*
 * A sealable memfd, never executable where the kernel can say so; with
 * vm.memfd_noexec=2 the one without MFD_NOEXEC_SEAL is refused, so that
 * one is tried first.
 */
static int shm_memfd(void)
{
	int fd;

	fd = memfd_create(AGENT_SHM_NAME,
			  MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_NOEXEC_SEAL);
	if (fd < 0 && errno == EINVAL)
		fd = memfd_create(AGENT_SHM_NAME, MFD_CLOEXEC | MFD_ALLOW_SEALING);
	return fd;
}

int agent_shm_create(void **base)
{
	void *p;
	int fd, err;

	fd = shm_memfd();
	if (fd < 0)
		return -errno;
	if (fchmod(fd, 0600) || ftruncate(fd, AGENT_SHM_SIZE) ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)) {
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
