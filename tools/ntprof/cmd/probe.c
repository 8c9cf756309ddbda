// SPDX-License-Identifier: GPL-2.0
/*
 * ntprof probe: can 'ntprof record' run here, and what will it see? The
 * kernel's means (ftrace, tracepoints), the modules, then every hook of a
 * role and transport with the point it stamps, and a verdict. Run it
 * before recording on a kernel you have not recorded on yet: a hook the
 * kernel inlined or renamed shows here as missing, and a missing optional
 * hook only merges two components of the report into one.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/probe_verdict.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "genl/conn.h"
#include "genl/session.h"
#include "out/probe_out.h"
#include "sites/kbtf.h"
#include "sites/kcaps.h"
#include "sites/spdk.h"
#include "sites/spdk_agent.h"

static void probe_usage(FILE *f)
{
	fputs("usage: ntprof probe -r host|target [-t tcp|rdma]\n"
	      "                    [--spdk-target BIN|PID | --spdk-host BIN|PID] [-h]\n"
	      "\n"
	      "Check that this kernel can be recorded: ftrace and tracepoints,\n"
	      "the ntprof module, the NVMe-oF modules of the role, and each hook a\n"
	      "recording of that role and transport attaches, with the point of a\n"
	      "command's path it stamps. Ends with 'load: ok' when 'ntprof record'\n"
	      "can run, else 'load: no' and why.\n"
	      "\n"
	      "options:\n"
	      "  -r, --role ROLE            host (initiator) or target\n"
	      "  -t, --transport TRANSPORT  tcp, rdma, or both (tcp,rdma, the default)\n"
	      "      --spdk-target BIN|PID  SPDK's nvmf_tgt (its path, or a running\n"
	      "                             one's PID): its uprobe sites, from its DWARF,\n"
	      "                             and the processes that run it, in place of\n"
	      "                             the kernel target's hooks (-r may be left out)\n"
	      "      --spdk-host BIN|PID    the same for a program on SPDK's NVMe driver\n"
	      "                             (spdk_nvme_perf), as host\n"
	      "  -h, --help                 show this help and exit\n"
	      "\n"
	      "A hook is 'ok' (it can attach, or is attached) or 'missing' (this\n"
	      "kernel inlined or renamed its function, or its module is not\n"
	      "loaded). Without a required hook, recording cannot start; without\n"
	      "an optional one, the two components around its point merge. 'record\n"
	      "--stages-only' leaves out those marked (not with --stages-only).\n"
	      "\n"
	      "exit status: 0 if 'ntprof record' can run with these options, else 1.\n"
	      "\n"
	      "examples:\n"
	      "  ntprof probe -r host -t tcp\n"
	      "      Before recording an NVMe/TCP host: which hooks attach here?\n"
	      "  ntprof probe -r target -t rdma && ntprof record -r target -t rdma -o target.ntp\n"
	      "      Record an NVMe/RDMA target only if this kernel allows it.\n",
	      f);
}

/*
 * --spdk-target, --spdk-host: SPDK has no kernel hook in its path, so
 * the section is its sites and the processes that run it, each through
 * its agent or through uprobes (which need the module). Returns the
 * exit status.
 */
static int probe_spdk(const char *cmd, const char *arg, uint32_t role,
		      uint32_t transport, bool module, bool busy)
{
	struct probe_verdict v;
	struct spdk_procs ps;
	struct spdk_prog t;
	char err[512];
	pid_t only = 0;
	int ret;

	if (spdk_prog_open(arg, role, transport, &t, err, sizeof(err))) {
		fprintf(stderr, "ntprof: %s: %s\n", cmd, err);
		return 1;
	}
	if (strspn(arg, "0123456789") == strlen(arg))
		only = (pid_t)strtoul(arg, NULL, 10);
	ret = spdk_procs_find(&t, only, &ps, err, sizeof(err));
	probe_spdk_judge(&t, &ps, ret ? err : NULL, module, busy, role, &v);
	probe_spdk_print(&t, &ps, !ret, &v);
	spdk_procs_detach(&ps);
	spdk_prog_close(&t);
	return v.ok ? 0 : 1;
}

struct probe_opts {
	uint32_t role;
	uint32_t transport;
	const char *spdk;	/* --spdk-target or --spdk-host, or NULL */
	uint32_t spdk_role;
};

static const struct option probe_options[] = {
	CLI_OPT_ROLE,
	CLI_OPT_TRANSPORT,
	{ "spdk-target", required_argument, NULL, 'S' },
	{ "spdk-host", required_argument, NULL, 'H' },
	CLI_OPT_HELP,
	CLI_OPT_END
};

/* One option of getopt_long()'s @c: -1, or the exit status. */
static int probe_option(const char *cmd, int c, char *argv[],
			struct probe_opts *o)
{
	switch (c) {
	case 'r':
		return role_option(cmd, optarg, &o->role);
	case 't':
		return transport_option(cmd, optarg, &o->transport);
	case 'S':
	case 'H':
		return spdk_option(cmd, optarg, c == 'H' ?
				   NTPROF_ROLE_HOST : NTPROF_ROLE_TARGET,
				   &o->spdk, &o->spdk_role);
	case 'h':
		probe_usage(stdout);
		return 0;
	default:
		return option_error(cmd, c, argv);
	}
}

/* Fills @o from the command line: -1 to go on, else the exit status. */
static int probe_parse(int argc, char *argv[], struct probe_opts *o)
{
	int c, ret;

	memset(o, 0, sizeof(*o));
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":r:t:h", probe_options,
				NULL)) != -1) {
		ret = probe_option(argv[0], c, argv, o);
		if (ret >= 0)
			return ret;
	}
	if (optind < argc)
		return usage_error(argv[0], "unexpected argument '%s'",
				   argv[optind]);
	if (o->spdk) {
		ret = spdk_role_given(argv[0], o->spdk_role, &o->role);
		if (ret >= 0)
			return ret;
	}
	return role_given(argv[0], o->role);
}

/*
 * The module's status and the hooks of @o's session, and whether that
 * session is running already. 0, or 1 after a message.
 */
static int probe_module(const char *cmd, const struct probe_opts *o,
			struct session_status *st,
			struct session_hooks *hooks, bool *busy)
{
	struct nl_sock *sock;
	int err;

	if (ntprof_connect(cmd, &sock))
		return 1;
	err = session_status_get(sock, st);
	if (!err)
		err = session_hooks_get(sock, o->role, o->transport, hooks);
	if (err) {
		nl_perror(sock, cmd, err);
		session_hooks_free(hooks);
		nl_close(sock);
		return 1;
	}
	*busy = session_hooks_busy(sock, o->role) ||
		(st->state == NTPROF_STATE_RECORDING && st->have_session &&
		 st->role == o->role);
	nl_close(sock);
	return 0;
}

/* The kernel's hooks, a line each, and the verdict; the exit status. */
static int probe_hooks(const struct session_status *st,
		       struct session_hooks *hooks,
		       const struct kernel_caps *caps,
		       const struct probe_opts *o, bool busy)
{
	struct kbtf_layout layout;
	struct probe_verdict v;

	kbtf_layout_read(kbtf_sys_dir(), o->role, &layout);
	probe_hooks_layout(hooks, &layout);
	probe_hooks_judge(st, hooks, &layout, caps, o->role, o->transport,
			  busy, &v);
	probe_hooks_print(st, hooks, &layout, caps, o->role, o->transport,
			  &v);
	return v.ok ? 0 : 1;
}

int cmd_probe(int argc, char *argv[])
{
	struct session_hooks hooks = { 0 };
	const char *cmd = argv[0];
	struct session_status st;
	struct probe_opts o;
	struct kernel_caps caps;
	bool busy;
	int ret;

	ret = probe_parse(argc, argv, &o);
	if (ret >= 0)
		return ret;
	/* The agent needs no module: SPDK's section without it. */
	if (o.spdk && !ntprof_module_loaded()) {
		probe_no_module_print();
		return probe_spdk(cmd, o.spdk, o.role, o.transport, false,
				  false);
	}
	if (probe_module(cmd, &o, &st, &hooks, &busy))
		return 1;
	kernel_caps_get(&caps);
	probe_kernel_print(&st, &caps, o.role, o.transport);
	if (o.spdk)
		ret = probe_spdk(cmd, o.spdk, o.role, o.transport, true, busy);
	else
		ret = probe_hooks(&st, &hooks, &caps, &o, busy);
	session_hooks_free(&hooks);
	return ret;
}
