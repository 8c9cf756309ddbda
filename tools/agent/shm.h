/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The memory an agent shares with its recorder, the agent's side: its
 * layout is the agent's ABI (include/ntprof/agent_abi.h), which the tool
 * reads; here, its creation (shm.c).
 */
#ifndef NTPROF_AGENT_SHM_H
#define NTPROF_AGENT_SHM_H

#include <ntprof/agent_abi.h>

/*
 * The agent's side (shm.c): a new memfd of AGENT_SHM_SIZE bytes, named
 * AGENT_SHM_NAME, mode 0600, sealed against shrinking and growing (and
 * further sealing), MFD_NOEXEC_SEAL where the kernel has it, mapped at
 * *@base and off, not yet published. Its descriptor, or -errno.
 */
int agent_shm_create(void **base);

/*
 * Its magic and version, written last, once the sites are patched and
 * their states written: a recorder attaches to a whole control page.
 */
void agent_shm_publish(void *base);

#endif /* NTPROF_AGENT_SHM_H */
