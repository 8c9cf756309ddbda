/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The agent's SIGSEGV and SIGBUS handler, which turns a fault of one of
 * the handler's loads (load.h) into a failed read, and passes every
 * other fault on to what the program had, unchanged.
 */
#ifndef NTPROF_AGENT_FAULT_H
#define NTPROF_AGENT_FAULT_H

/*
 * Installs it, keeping the program's handlers to chain to: once, at
 * start-up, while the process has one thread. 0 or -errno (nothing
 * installed: the caller leaves its sites off).
 */
int agent_fault_install(void);

#endif /* NTPROF_AGENT_FAULT_H */
