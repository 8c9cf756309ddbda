/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The agent's handler, which patched functions' trampolines call while
 * their site is on (regs.h): it samples the commands as the kernel's
 * hooks do, follows the sampled ones through their sites in a table of
 * the thread's, and writes each finished record into the thread's ring
 * of the shared memory (shm.h).
 */
#ifndef NTPROF_AGENT_HIT_H
#define NTPROF_AGENT_HIT_H

#include "shm.h"
#include "site.h"

/*
 * The shared memory's mapping and descriptor (closed in a forked child),
 * and the sites by id; called once, before any site is on. -EINVAL for
 * more than AGENT_SITES_MAX sites or one out of range, -errno if the
 * in-flight tables cannot be mapped.
 */
int agent_hit_setup(void *shm, int fd, const struct agent_site *sites,
		    unsigned int nr_sites, uint32_t pid);

#endif /* NTPROF_AGENT_HIT_H */
