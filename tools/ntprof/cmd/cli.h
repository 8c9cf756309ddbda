/* SPDX-License-Identifier: GPL-2.0 */
/* The option parsing the subcommands share (cli.c). */
#ifndef NTPROF_CLI_H
#define NTPROF_CLI_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

/* The long options every subcommand spells alike, for their tables. */
#define CLI_OPT_ROLE		{ "role", required_argument, NULL, 'r' }
#define CLI_OPT_TRANSPORT	{ "transport", required_argument, NULL, 't' }
#define CLI_OPT_HELP		{ "help", no_argument, NULL, 'h' }
#define CLI_OPT_END		{ NULL, 0, NULL, 0 }

/*
 * So that every usage error reads alike: "ntprof: <cmd>: <what>" and a
 * pointer to --help. Both return 1, the exit status of a usage error.
 */
int usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* After getopt_long() returned '?' or ':' (with opterr = 0, ":" first). */
int option_error(const char *cmd, int c, char *argv[]);

/*
 * -r ROLE and -t TRANSPORT of probe and record, and that both were given:
 * -1 when all is well, else usage_error()'s 1.
 */
int role_option(const char *cmd, const char *arg, uint32_t *role);
int transport_option(const char *cmd, const char *arg, uint32_t *transport);
int role_given(const char *cmd, uint32_t role);
/*
 * --spdk-target and --spdk-host give the role: sets *@role when -r was
 * not given; -1, or the exit status of a usage error when -r differs.
 */
int spdk_role_given(const char *cmd, uint32_t spdk_role, uint32_t *role);
/*
 * --spdk-target or --spdk-host @arg (@spdk_role, the option's): sets
 * *@spdk and *@role; -1, or the exit status of a usage error when one
 * was given already.
 */
int spdk_option(const char *cmd, const char *arg, uint32_t spdk_role,
		const char **spdk, uint32_t *role);

/*
 * The options of a subcommand that has only --help and at most
 * @max_args arguments: -1 to go on, else the exit status.
 */
int parse_help_only(int argc, char *argv[], void (*help)(FILE *f),
		    int max_args);

#endif /* NTPROF_CLI_H */
