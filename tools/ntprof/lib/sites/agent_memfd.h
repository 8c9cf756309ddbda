/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An agent's shared memory found among a process's open files and
 * mapped, once it is shown to be one: what the recorder checks before
 * it maps anything another process made (Documentation/security.rst).
 */
#ifndef NTPROF_AGENT_MEMFD_H
#define NTPROF_AGENT_MEMFD_H

#include <stddef.h>
#include <sys/types.h>

/*
 * agent_memfd_map() - map the agent memory of process @pid,
 * AGENT_SHM_SIZE bytes, shared and writable, into *@shm. The function
 * first opens the process's descriptor named "memfd:ntprof-agent"
 * read-only. That file must be a memfd (it answers F_GET_SEALS) sealed
 * against shrinking and growing, of exactly AGENT_SHM_SIZE bytes, and
 * owned by the process's effective uid. Only then does the function open
 * it again read-write, through its own read-only descriptor, so that it
 * maps the file it checked, whatever the process does with its
 * descriptors meanwhile. It returns 0; -ENOENT if the process has no such
 * descriptor; -EPROTO if the file is not an agent's memory; or another
 * -errno (the process is gone, or permission is denied). The reason,
 * without the pid, goes in @err.
 */
int agent_memfd_map(pid_t pid, void **shm, char *err, size_t len);

#endif /* NTPROF_AGENT_MEMFD_H */
