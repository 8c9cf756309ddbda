/* SPDX-License-Identifier: GPL-2.0 */
/* Reaching the ntprof module over its generic-netlink family. */
#ifndef NTPROF_CONN_H
#define NTPROF_CONN_H

#include <stdbool.h>

#include "genl/nl.h"

/*
 * Opens a socket to the ntprof family for subcommand @cmd. On failure it
 * has already told the user why (module not loaded, version mismatch...)
 * and returns -errno.
 */
int ntprof_connect(const char *cmd, struct nl_sock **sockp);
/* The same, for a socket whose receives are @recv_size bytes (nl.h). */
int ntprof_connect_sized(const char *cmd, size_t recv_size,
			 struct nl_sock **sockp);
/* The same, on a bound socket another process handed over as @fd. */
int ntprof_connect_fd(const char *cmd, int fd, struct nl_sock **sockp);

/* Whether the module is loaded (/sys/module says), without a word. */
bool ntprof_module_loaded(void);

#endif /* NTPROF_CONN_H */
