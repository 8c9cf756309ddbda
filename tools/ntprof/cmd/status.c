// SPDX-License-Identifier: GPL-2.0
/*
 * ntprof status: is the module there, what is it doing, and which NVMe-oF
 * modules does it see. The first thing to run when something looks off.
 */
#include <getopt.h>
#include <stdio.h>

#include "cmd/cli.h"
#include "cmd/commands.h"
#include "genl/conn.h"
#include "genl/session.h"
#include "out/status_out.h"

static void status_usage(FILE *f)
{
	fputs("usage: ntprof status [-h]\n"
	      "\n"
	      "Show the ntprof module's version and state, the running kernel, and\n"
	      "which NVMe-oF host and target modules are loaded.\n"
	      "\n"
	      "options:\n"
	      "  -h, --help   show this help and exit\n"
	      "\n"
	      "examples:\n"
	      "  ntprof status\n"
	      "      Check that the module is loaded and idle, and that the\n"
	      "      transport you want to profile (tcp, rdma) is present.\n",
	      f);
}

int cmd_status(int argc, char *argv[])
{
	static const struct option options[] = {
		CLI_OPT_HELP,
		CLI_OPT_END
	};
	struct session_status st;
	struct nl_sock *sock;
	int err, c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
		switch (c) {
		case 'h':
			status_usage(stdout);
			return 0;
		default:
			return option_error(argv[0], c, argv);
		}
	}
	if (optind < argc)
		return usage_error(argv[0], "unexpected argument '%s'",
				   argv[optind]);

	if (ntprof_connect(argv[0], &sock))
		return 1;
	err = session_status_get(sock, &st);
	if (err)
		nl_perror(sock, argv[0], err);
	else
		status_print(&st);
	nl_close(sock);
	return err ? 1 : 0;
}
