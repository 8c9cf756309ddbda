/* SPDX-License-Identifier: GPL-2.0 */
/* Reaching the ntprof module over its generic-netlink family. */
#ifndef NTPROF_CONN_H
#define NTPROF_CONN_H

#include <stdbool.h>

#include "genl/nl.h"

/*
 * ntprof_connect() - open a socket to the ntprof family for subcommand
 * @cmd. On failure, it has already told the user why (the module is not
 * loaded, its version does not match...) and returns -errno.
 */
int ntprof_connect(const char *cmd, struct nl_sock **sockp);
/*
 * ntprof_connect_sized() - do what ntprof_connect() does, for a socket
 * whose receives are @recv_size bytes (nl.h).
 */
int ntprof_connect_sized(const char *cmd, size_t recv_size,
			 struct nl_sock **sockp);
/*
 * ntprof_connect_fd() - do what ntprof_connect() does, on a bound socket
 * that another process handed over as @fd.
 */
int ntprof_connect_fd(const char *cmd, int fd, struct nl_sock **sockp);

/*
 * ntprof_module_loaded() - tell whether the module is loaded, as
 * /sys/module says, without printing anything.
 */
bool ntprof_module_loaded(void);

#endif /* NTPROF_CONN_H */
