// SPDX-License-Identifier: GPL-2.0
/*
 * Reaching the ntprof module: every subcommand that talks to it starts
 * here, so "the module is not loaded" reads the same everywhere.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <uapi/linux/ntprof.h>

#include "genl/conn.h"

int ntprof_connect(const char *cmd, struct nl_sock **sockp)
{
	return ntprof_connect_sized(cmd, NL_MSG_SIZE, sockp);
}

/*
 * family_resolve() - resolve the family on @sock. On failure, it prints the
 * reason and closes @sock.
 */
static int family_resolve(const char *cmd, struct nl_sock *sock,
			  struct nl_sock **sockp)
{
	int err;

	err = nl_family_resolve(sock, NTPROF_FAMILY_NAME,
				NTPROF_FAMILY_VERSION);
	if (err == -ENOENT) {
		fputs("ntprof: the ntprof module is not loaded (modprobe ntprof)\n",
		      stderr);
		goto fail;
	}
	if (err) {
		nl_perror(sock, cmd, err);
		goto fail;
	}

	/* The family's version changes only when the contract breaks. */
	if (nl_family_version(sock) != NTPROF_FAMILY_VERSION) {
		fprintf(stderr,
			"ntprof: the ntprof module speaks netlink version %u, this tool %u: install matching versions\n",
			nl_family_version(sock), NTPROF_FAMILY_VERSION);
		err = -EPROTO;
		goto fail;
	}

	*sockp = sock;
	return 0;

fail:
	nl_close(sock);
	return err;
}

int ntprof_connect_sized(const char *cmd, size_t recv_size,
			 struct nl_sock **sockp)
{
	struct nl_sock *sock;
	int err;

	err = nl_open_sized(&sock, recv_size);
	if (err) {
		fprintf(stderr, "ntprof: %s: cannot open a netlink socket: %s\n",
			cmd, strerror(-err));
		return err;
	}
	return family_resolve(cmd, sock, sockp);
}

int ntprof_connect_fd(const char *cmd, int fd, struct nl_sock **sockp)
{
	struct nl_sock *sock;
	int err;

	err = nl_open_fd(&sock, fd);
	if (err) {
		fprintf(stderr, "ntprof: %s: cannot use netlink socket %d: %s\n",
			cmd, fd, strerror(-err));
		return err;
	}
	return family_resolve(cmd, sock, sockp);
}

bool ntprof_module_loaded(void)
{
	return !access("/sys/module/ntprof", F_OK);
}
