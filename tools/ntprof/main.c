// SPDX-License-Identifier: GPL-2.0
/*
 * ntprof, the NVMe-over-Fabrics latency profiler's command line. main()
 * only picks a subcommand from the table; each one lives in its own file.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cli.h"
#include "cmd/commands.h"
#include "common/util.h"

#ifndef NTPROF_VERSION
#error "NTPROF_VERSION is not defined: build with the Makefile"
#endif
#ifndef NTPROF_RELEASE
#error "NTPROF_RELEASE is not defined: build with the Makefile"
#endif


/* Only main.o is rebuilt when the version changes: the others read this. */
const char ntprof_version[] = NTPROF_VERSION;

static int cmd_version(int argc, char *argv[]);
static int cmd_help(int argc, char *argv[]);

static const struct subcommand {
	const char *name;
	int (*fn)(int argc, char *argv[]);
	const char *summary;
} subcommands[] = {
	{ "status", cmd_status,
	  "show the module's state and the NVMe-oF modules it sees" },
	{ "probe", cmd_probe,
	  "check that this kernel can be recorded, hook by hook" },
	{ "record", cmd_record,
	  "record a host's or a target's commands into a .ntp file" },
	{ "report", cmd_report,
	  "join recordings and show where the latency went, stage by stage" },
	{ "compare", cmd_compare,
	  "compare two runs stage by stage (latency amplification)" },
	{ "run", cmd_run,
	  "start an SPDK program with the in-process agent" },
	{ "version", cmd_version, "print the version of this tool" },
	{ "help", cmd_help, "show this help, or a command's" },
};

static const struct subcommand *subcommand_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(subcommands); i++)
		if (!strcmp(subcommands[i].name, name))
			return &subcommands[i];
	return NULL;
}

static void ntprof_usage(FILE *f)
{
	size_t i;

	fputs("usage: ntprof <command> [<args>]\n"
	      "       ntprof -h | --help | --version\n"
	      "\n"
	      "Profile the latency of NVMe-over-Fabrics I/O with the ntprof kernel\n"
	      "module.\n"
	      "\n"
	      "commands:\n", f);
	for (i = 0; i < ARRAY_SIZE(subcommands); i++)
		fprintf(f, "  %-9s %s\n", subcommands[i].name,
			subcommands[i].summary);
	fputs("\n"
	      "Run 'ntprof <command> --help' for a command's options.\n"
	      "\n"
	      "examples:\n"
	      "  ntprof status         is the module loaded, and what does it see?\n"
	      "  ntprof probe -r host -t tcp\n"
	      "                        can an NVMe/TCP host be recorded here?\n"
	      "  ntprof record -r host -t tcp -s 100 -d 20 -o host.ntp\n"
	      "                        record 1 in 100 commands for 20 s\n"
	      "  ntprof report host.ntp target.ntp\n"
	      "                        join both sides: where did the time go?\n"
	      "  ntprof compare base/host.ntp,base/target.ntp load/host.ntp,load/target.ntp\n"
	      "                        which stage got slower, and by how much\n"
	      "  ntprof help record    the options of 'record'\n", f);
}

static void version_usage(FILE *f)
{
	fputs("usage: ntprof version [-h]\n"
	      "\n"
	      "Print the version of this tool. 'ntprof status' shows the\n"
	      "module's.\n"
	      "\n"
	      "options:\n"
	      "  -h, --help   show this help and exit\n"
	      "\n"
	      "examples:\n"
	      "  ntprof version\n"
	      "  ntprof --version\n", f);
}

/*
 * The release (the VERSION file's, as the module and DKMS give it) and,
 * when built from a git tree, the commit it was built from: "ntprof 0.1.0
 * (git a1bbb59)". A build from a release's tarball has only the release.
 */
static void version_print(void)
{
	if (!strcmp(NTPROF_VERSION, NTPROF_RELEASE))
		puts("ntprof " NTPROF_RELEASE);
	else
		puts("ntprof " NTPROF_RELEASE " (git " NTPROF_VERSION ")");
}

static int cmd_version(int argc, char *argv[])
{
	int ret = parse_help_only(argc, argv, version_usage, 0);

	if (ret >= 0)
		return ret;
	version_print();
	return 0;
}

static void help_usage(FILE *f)
{
	fputs("usage: ntprof help [<command>]\n"
	      "\n"
	      "Show the list of commands, or the help of one.\n"
	      "\n"
	      "options:\n"
	      "  -h, --help   show this help and exit\n"
	      "\n"
	      "examples:\n"
	      "  ntprof help\n"
	      "  ntprof help status\n", f);
}

static int cmd_help(int argc, char *argv[])
{
	static char help_option[] = "--help";
	char *sub_argv[] = { NULL, help_option, NULL };
	const struct subcommand *sc;
	int ret = parse_help_only(argc, argv, help_usage, 1);

	if (ret >= 0)
		return ret;
	if (optind == argc) {
		ntprof_usage(stdout);
		return 0;
	}
	sc = subcommand_find(argv[optind]);
	if (!sc)
		return usage_error(argv[0], "'%s' is not an ntprof command",
				   argv[optind]);
	/*
	 * Each command owns its help text: ask it, as --help would. In glibc,
	 * optind = 0 restarts getopt from scratch for the command's parsing.
	 */
	sub_argv[0] = argv[optind];
	optind = 0;
	return sc->fn(2, sub_argv);
}

/* Like close_stdout(): a full disk or a closed pipe is an error too. */
static int stdout_flush(int ret)
{
	if (fflush(stdout) == EOF || ferror(stdout)) {
		fprintf(stderr, "ntprof: cannot write the output: %s\n",
			strerror(errno));
		return 1;
	}
	return ret;
}

int main(int argc, char *argv[])
{
	const struct subcommand *sc;
	const char *arg;

	if (argc < 2) {
		ntprof_usage(stderr);
		return 1;
	}
	arg = argv[1];
	if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
		ntprof_usage(stdout);
		return stdout_flush(0);
	}
	if (!strcmp(arg, "--version")) {
		version_print();
		return stdout_flush(0);
	}
	if (arg[0] == '-') {
		fprintf(stderr, "ntprof: unknown option '%s'\n"
			"Try 'ntprof --help'.\n", arg);
		return 1;
	}

	sc = subcommand_find(arg);
	if (!sc) {
		fprintf(stderr, "ntprof: '%s' is not an ntprof command\n"
			"Try 'ntprof --help'.\n", arg);
		return 1;
	}
	return stdout_flush(sc->fn(argc - 1, argv + 1));
}
