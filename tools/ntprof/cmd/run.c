// SPDX-License-Identifier: GPL-2.0
/*
 * ntprof run: start an SPDK program with the in-process agent
 * (Documentation/agent.rst). The program's sites are resolved from its
 * DWARF as record's --spdk-target and --spdk-host resolve them, written
 * to a site list the program inherits (a memfd it reads as
 * /proc/self/fd/N), and libntprof-agent.so goes into LD_PRELOAD; then
 * the program replaces this process. --print-env writes the list to a
 * file instead (a new file renamed over it, never through a symbolic
 * link) and prints the two variables, for a container's spec.
 * --wait-recorder holds the program before its main until a recorder
 * turns its agent on, so that a recording has every one of its commands.
 */
#define _GNU_SOURCE	/* memfd_create() */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <ntprof/agent_abi.h>

#include "cmd/cli.h"
#include "cmd/commands.h"
#include "out/out_file.h"
#include "sites/agent_sites.h"
#include "sites/spdk.h"
#include "sites/spdk_role.h"

#ifndef NTPROF_AGENT_LIB
#define NTPROF_AGENT_LIB	"/usr/local/lib/ntprof/libntprof-agent.so"
#endif

static void run_usage(FILE *f)
{
	fputs("usage: ntprof run [-r target|host] [-t tcp|rdma] [--agent LIB]\n"
	      "                  [--wait-recorder SECONDS] [--print-env FILE]\n"
	      "                  -- PROGRAM [ARG]...\n"
	      "\n"
	      "Start an SPDK program (nvmf_tgt, spdk_tgt, spdk_nvme_perf...) with\n"
	      "ntprof's in-process agent, which stamps its commands without a trap\n"
	      "once a recorder turns it on.\n"
	      "\n"
	      "  -r, --role ROLE       target or host; without it, the program's\n"
	      "                        sites say which\n"
	      "  -t, --transport T     tcp or rdma: the host's sites depend on it;\n"
	      "                        without it, the trtype of PROGRAM's\n"
	      "                        arguments (-r 'trtype:RDMA ...'), else\n"
	      "                        the one transport it has a host's sites of\n"
	      "      --agent LIB       the agent's library (default: beside this\n"
	      "                        tool in its build tree, or " NTPROF_AGENT_LIB ")\n"
	      "      --wait-recorder SECONDS\n"
	      "                        hold PROGRAM before its main until a\n"
	      "                        recorder turns the agent on, at most\n"
	      "                        SECONDS (1 to 3600): a recording of its\n"
	      "                        every command\n"
	      "      --print-env FILE  write the site list to FILE and print the\n"
	      "                        environment that starts PROGRAM with the\n"
	      "                        agent, instead of starting it\n"
	      "  -h, --help            show this help\n"
	      "\n"
	      "examples:\n"
	      "  ntprof run -- ./build/bin/nvmf_tgt -m 0x2\n"
	      "  ntprof run --wait-recorder 60 -- ./build/bin/spdk_nvme_perf \\\n"
	      "      -r 'trtype:RDMA adrfam:IPv4 traddr:10.0.0.1 trsvcid:4420' ...\n"
	      "  ntprof run --print-env /srv/ntprof-sites -- /usr/local/bin/spdk_tgt\n",
	      f);
}

/*
 * wait_seconds() - tell whether @s is a valid --wait-recorder value: whole
 * seconds, 1 to 3600, as the agent reads them.
 */
static bool wait_seconds(const char *s)
{
	unsigned long v;
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoul(s, &end, 10);
	return !*end && !errno && v >= 1 && v <= 3600;
}

/*
 * program_path() - find @name as execvp() would, and put its path in @path.
 * It returns -ENOENT if the program is nowhere.
 */
static int program_path(const char *name, char *path, size_t size)
{
	const char *dirs = getenv("PATH"), *end;
	char found[PATH_MAX];
	size_t len;

	if (size < PATH_MAX)
		return -EINVAL;
	if (strchr(name, '/'))
		return realpath(name, path) ? 0 : -errno;
	for (dirs = dirs ? dirs : "/usr/local/bin:/usr/bin:/bin"; *dirs;
	     dirs = *end ? end + 1 : end) {
		end = strchrnul(dirs, ':');
		len = end - dirs;
		if (snprintf(found, sizeof(found), "%.*s/%s", (int)len,
			     len ? dirs : ".", name) < (int)sizeof(found) &&
		    !access(found, X_OK))
			return realpath(found, path) ? 0 : -errno;
	}
	return -ENOENT;
}

/*
 * agent_lib() - find the agent's library. It is @given, if given. Otherwise,
 * if this tool runs in its build tree (tools/ntprof/ntprof, with its main.c
 * beside it), it is the library built beside it in tools/agent/; otherwise
 * it is the installed one. An installed tool never takes a library from a
 * directory near it other than the one it was installed with, because that
 * library would be preloaded into the programs it starts, often as root.
 */
static int agent_lib(const char *given, char *path, size_t size)
{
	char self[PATH_MAX], dir[PATH_MAX], beside[PATH_MAX + 32];
	ssize_t n;

	if (size < PATH_MAX)
		return -EINVAL;
	if (given)
		return realpath(given, path) ? 0 : -errno;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		snprintf(dir, sizeof(dir), "%s", dirname(self));
		snprintf(beside, sizeof(beside), "%s/main.c", dir);
		if (!access(beside, F_OK)) {
			snprintf(beside, sizeof(beside),
				 "%s/../agent/libntprof-agent.so", dir);
			if (realpath(beside, path))
				return 0;
		}
	}
	snprintf(path, size, "%s", NTPROF_AGENT_LIB);
	return access(path, R_OK) ? -errno : 0;
}

/*
 * resolve_one() - resolve @program's sites for @role over @transport. It
 * returns 0 if the program has all of them.
 */
static int resolve_one(const char *cmd, const char *program, uint32_t role,
		       uint32_t transport, struct spdk_prog *p)
{
	char err[512];

	if (spdk_prog_open(program, role, transport, p, err, sizeof(err))) {
		fprintf(stderr, "ntprof: %s: %s\n", cmd, err);
		return -1;
	}
	if (p->ok)
		return 0;
	return 1;
}

/*
 * has_sites() - answer spdk_choose()'s question: does @ctx, the program,
 * have these sites?
 */
static bool has_sites(void *ctx, uint32_t role, uint32_t transport)
{
	struct spdk_prog p;
	char err[512];
	bool ok;

	if (spdk_prog_open(ctx, role, transport, &p, err, sizeof(err)))
		return false;
	ok = p.ok;
	spdk_prog_close(&p);
	return ok;
}

/*
 * resolve() - resolve @program's sites for @role over @transport or, when
 * they are not given, for what its sites and its arguments @args say
 * (spdk_choose()). It returns 0, or 1 after printing the reason.
 */
static int resolve(const char *cmd, char *program, uint32_t role,
		   uint32_t transport, char *const args[], int nargs,
		   struct spdk_prog *p)
{
	char why[256];
	int ret;

	if (spdk_choose(role, transport, args, nargs, has_sites, program,
			&role, &transport, why, sizeof(why))) {
		fprintf(stderr, "ntprof: %s: %s: %s\n", cmd, program, why);
		return 1;
	}
	ret = resolve_one(cmd, program, role, transport, p);
	if (!ret)
		return 0;
	if (ret > 0) {
		fprintf(stderr, "ntprof: %s: %s: %s\n", cmd, program, p->why);
		spdk_prog_close(p);
	}
	return 1;
}

/*
 * list_memfd() - write the site list into a memfd that the program inherits,
 * and name it for the program in @env.
 */
static int list_memfd(const struct spdk_prog *p, const char *program,
		      char *env, size_t size)
{
	FILE *f;
	int fd, err;

	fd = memfd_create("ntprof-agent-sites", 0);
	if (fd < 0)
		return -errno;
	f = fdopen(dup(fd), "w");
	if (!f) {
		close(fd);
		return -errno;
	}
	err = agent_sites_write(f, p, program);
	if (fclose(f) && !err)
		err = -EIO;
	if (err) {
		close(fd);
		return err;
	}
	snprintf(env, size, "/proc/self/fd/%d", fd);
	return 0;
}

/*
 * write_list() - write the site list to a new file beside @file, then rename
 * it over @file. So nothing is written through a symbolic link at @file
 * (often as root), and a reader never sees half a list. A symbolic link at
 * @file is refused, not replaced. It returns 0, or -errno.
 */
static int write_list(const struct spdk_prog *p, const char *program,
		      const char *file)
{
	char tmp[PATH_MAX + 16], copy[PATH_MAX];
	struct stat st;
	FILE *f;
	int fd, err;

	if (!lstat(file, &st) && S_ISLNK(st.st_mode))
		return -ELOOP;
	snprintf(copy, sizeof(copy), "%s", file);
	if (snprintf(tmp, sizeof(tmp), "%s/.ntprof-sites.XXXXXX",
		     dirname(copy)) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	/* O_EXCL, mode 0600: a name of its own, that no one else opened. */
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		err = -errno;
		close(fd);
		unlink(tmp);
		return err;
	}
	err = agent_sites_write(f, p, program);
	/* The program may run as another user: the list is readable. */
	if (!err && fchmod(fd, 0644))
		err = -errno;
	if (fclose(f) && !err)
		err = -EIO;
	if (!err && rename(tmp, file))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

static int print_env(const char *cmd, const struct spdk_prog *p,
		     const char *program, const char *lib, const char *file)
{
	char abs[PATH_MAX];
	int err;

	/* Never over a recording (out_file.c). */
	if (out_file_check(cmd, "--print-env", file, NULL, 0) >= 0)
		return 1;
	err = write_list(p, program, file);
	if (err == -ELOOP) {
		fprintf(stderr, "ntprof: %s: %s is a symbolic link: not followed, nothing written (name the file itself)\n",
			cmd, file);
		return 1;
	}
	if (err || !realpath(file, abs)) {
		fprintf(stderr, "ntprof: %s: cannot write %s: %s\n", cmd, file,
			strerror(err ? -err : errno));
		return 1;
	}
	printf("LD_PRELOAD=%s\nNTPROF_AGENT_SITES=%s\n", lib, abs);
	return 0;
}

struct run_opts {
	uint32_t role;
	uint32_t transport;
	const char *given_lib;	/* --agent, or NULL */
	const char *env_file;	/* --print-env, or NULL */
	const char *wait;	/* --wait-recorder, or NULL */
};

static const struct option run_options[] = {
	CLI_OPT_ROLE,
	CLI_OPT_TRANSPORT,
	{ "agent", required_argument, NULL, 'A' },
	{ "print-env", required_argument, NULL, 'P' },
	{ "wait-recorder", required_argument, NULL, 'W' },
	CLI_OPT_HELP,
	CLI_OPT_END
};

/*
 * run_option() - handle one option, getopt_long()'s @c. It returns -1 to go
 * on, or the exit status.
 */
static int run_option(const char *cmd, int c, char *argv[],
		      struct run_opts *o)
{
	int ret;

	switch (c) {
	case 'r':
		return role_option(cmd, optarg, &o->role);
	case 't':
		ret = transport_option(cmd, optarg, &o->transport);
		if (ret < 0 && o->transport != NTPROF_TRANSPORT_TCP &&
		    o->transport != NTPROF_TRANSPORT_RDMA)
			return usage_error(cmd, "-t takes tcp or rdma");
		return ret;
	case 'A':
		o->given_lib = optarg;
		return -1;
	case 'P':
		o->env_file = optarg;
		return -1;
	case 'W':
		if (!wait_seconds(optarg))
			return usage_error(cmd, "--wait-recorder takes 1 to 3600 seconds");
		o->wait = optarg;
		return -1;
	case 'h':
		run_usage(stdout);
		return 0;
	default:
		return option_error(cmd, c, argv);
	}
}

/*
 * run_parse() - fill @o from the command line up to PROGRAM, at
 * argv[optind]. It returns -1 to go on, or else the exit status.
 */
static int run_parse(int argc, char *argv[], struct run_opts *o)
{
	int c, ret;

	*o = (struct run_opts) { .role = NTPROF_ROLE_NONE,
				 .transport = NTPROF_TRANSPORT_NONE };
	opterr = 0;
	/* '+': PROGRAM's own options are not ours. */
	while ((c = getopt_long(argc, argv, "+:r:t:h", run_options,
				NULL)) != -1) {
		ret = run_option(argv[0], c, argv, o);
		if (ret >= 0)
			return ret;
	}
	if (optind >= argc)
		return usage_error(argv[0], "which program? ntprof run [OPTIONS] -- PROGRAM [ARG]...");
	return -1;
}

/*
 * run_with_agent() - run @program (@argv) with the agent of @lib preloaded
 * and its sites @p in a memfd. It returns only on failure, with the exit
 * status.
 */
static int run_with_agent(const char *cmd, const struct run_opts *o,
			  struct spdk_prog *p, const char *program,
			  const char *lib, char *argv[])
{
	char preload[2 * PATH_MAX], sites[64];
	const char *pre;
	int ret;

	ret = list_memfd(p, program, sites, sizeof(sites));
	spdk_prog_close(p);
	if (ret) {
		fprintf(stderr, "ntprof: %s: cannot write the site list: %s\n",
			cmd, strerror(-ret));
		return 1;
	}
	pre = getenv("LD_PRELOAD");
	snprintf(preload, sizeof(preload), "%s%s%s", lib, pre && *pre ? ":" : "",
		 pre ? pre : "");
	if (setenv("LD_PRELOAD", preload, 1) ||
	    setenv(AGENT_ENV_SITES, sites, 1) ||
	    (o->wait && setenv(AGENT_ENV_WAIT, o->wait, 1)))
		return fprintf(stderr, "ntprof: %s: %s\n", cmd, strerror(errno)), 1;
	execv(program, argv);
	fprintf(stderr, "ntprof: %s: cannot run %s: %s\n", cmd, program,
		strerror(errno));
	return 1;
}

int cmd_run(int argc, char *argv[])
{
	char program[PATH_MAX], lib[PATH_MAX];
	const char *cmd = argv[0];
	struct spdk_prog p;
	struct run_opts o;
	int ret;

	ret = run_parse(argc, argv, &o);
	if (ret >= 0)
		return ret;
	ret = program_path(argv[optind], program, sizeof(program));
	if (ret) {
		fprintf(stderr, "ntprof: %s: %s: %s\n", cmd, argv[optind],
			strerror(-ret));
		return 1;
	}
	ret = agent_lib(o.given_lib, lib, sizeof(lib));
	if (ret) {
		fprintf(stderr, "ntprof: %s: the agent's library %s: %s\n", cmd,
			o.given_lib ? o.given_lib : lib, strerror(-ret));
		return 1;
	}
	if (resolve(cmd, program, o.role, o.transport, argv + optind + 1,
		    argc - optind - 1, &p))
		return 1;
	if (o.env_file) {
		ret = print_env(cmd, &p, program, lib, o.env_file);
		spdk_prog_close(&p);
		return ret;
	}
	return run_with_agent(cmd, &o, &p, program, lib, argv + optind);
}
