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
 * Maps the agent memory of process @pid, AGENT_SHM_SIZE bytes, shared
 * and writable, into *@shm. The process's descriptor named
 * "memfd:ntprof-agent" is opened read-only first and must be a memfd
 * (it answers F_GET_SEALS) sealed against shrinking and growing, of
 * exactly AGENT_SHM_SIZE bytes, owned by the process's effective uid;
 * only then is it opened again read-write, through this process's own
 * descriptor (the file checked, whatever the process does with its
 * descriptors meanwhile). Returns 0; -ENOENT if the process has no such
 * descriptor; -EPROTO if it is not an agent's memory; another -errno
 * (the process gone, no permission). The reason, without the pid, in
 * @err.
 */
int agent_memfd_map(pid_t pid, void **shm, char *err, size_t len);

#endif /* NTPROF_AGENT_MEMFD_H */
