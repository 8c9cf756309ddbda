/* SPDX-License-Identifier: GPL-2.0 */
/* The test client's session holder: one netlink socket for many runs. */
#ifndef NTPROF_TEST_HOLDER_H
#define NTPROF_TEST_HOLDER_H

#include <sys/types.h>

/*
 * The running holder's socket, a new descriptor of it, or -1 when no
 * holder runs; @pid (may be NULL) gets the holder's pid.
 */
int holder_get(pid_t *pid);
/* Starts a holder unless one runs. 0 or -errno. */
int holder_start(void);
/*
 * Kills the holder, if one runs, and waits until it is gone: its socket
 * closed, its sessions stopped. 0 or -errno.
 */
int holder_release(void);

#endif /* NTPROF_TEST_HOLDER_H */
