// SPDX-License-Identifier: GPL-2.0
/*
 * The option parsing the subcommands share, so that every usage error
 * reads alike: "ntprof: <cmd>: <what>" and a pointer to --help.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <uapi/linux/ntprof.h>

#include "cmd/cli.h"
#include "common/names.h"

int usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ntprof: %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'ntprof %s --help'.\n", cmd);
	return 1;
}

int option_error(const char *cmd, int c, char *argv[])
{
	/* optopt names a bad short option; a bad long one is the last word. */
	if (c == ':')
		return usage_error(cmd, "option '%s' needs a value",
				   argv[optind - 1]);
	if (optopt)
		return usage_error(cmd, "unknown option '-%c'", optopt);
	return usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
}

int role_option(const char *cmd, const char *arg, uint32_t *role)
{
	if (ntprof_role_parse(arg, role))
		return usage_error(cmd, "-r takes host or target, not '%s'", arg);
	return -1;
}

int transport_option(const char *cmd, const char *arg, uint32_t *transport)
{
	if (ntprof_transport_parse(arg, transport))
		return usage_error(cmd, "-t takes tcp, rdma or tcp,rdma, not '%s'",
				   arg);
	return -1;
}

int role_given(const char *cmd, uint32_t role)
{
	if (!role)
		return usage_error(cmd, "which role? -r host or -r target");
	return -1;
}

int spdk_role_given(const char *cmd, uint32_t spdk_role, uint32_t *role)
{
	bool host = spdk_role == NTPROF_ROLE_HOST;

	if (!*role)
		*role = spdk_role;
	else if (*role != spdk_role)
		return usage_error(cmd, "--spdk-%s records the %s: -r %s, or no -r",
				   host ? "host" : "target",
				   host ? "host" : "target",
				   host ? "host" : "target");
	return -1;
}

int spdk_option(const char *cmd, const char *arg, uint32_t spdk_role,
		const char **spdk, uint32_t *role)
{
	if (*spdk)
		return usage_error(cmd,
				   "one SPDK program at a time: --spdk-target or --spdk-host, once");
	*spdk = arg;
	*role = spdk_role;
	return -1;
}

int parse_help_only(int argc, char *argv[], void (*help)(FILE *f),
			   int max_args)
{
	static const struct option options[] = {
		CLI_OPT_HELP,
		CLI_OPT_END
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
		if (c != 'h')
			return option_error(argv[0], c, argv);
		help(stdout);
		return 0;
	}
	if (argc - optind > max_args)
		return usage_error(argv[0], "unexpected argument '%s'",
				   argv[optind + max_args]);
	return -1;
}
