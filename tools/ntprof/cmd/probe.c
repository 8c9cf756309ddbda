// SPDX-License-Identifier: GPL-2.0
/*
 * ntprof probe: can 'ntprof record' run here, and what will it see? The
 * kernel's means (kprobes, tracepoints), the modules, then every hook of a
 * role and transport with the point it stamps, and a verdict. Run it
 * before recording on a kernel you have not recorded on yet: a hook the
 * kernel inlined or renamed shows here as missing, and a missing optional
 * hook only merges two components of the report into one.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "cmd/cli.h"
#include "cmd/commands.h"
#include "common/names.h"
#include "common/util.h"
#include "genl/conn.h"
#include "genl/session.h"
#include "sites/kbtf.h"
#include "sites/spdk.h"
#include "sites/spdk_agent.h"


static void probe_usage(FILE *f)
{
	fputs("usage: ntprof probe -r host|target [-t tcp|rdma]\n"
	      "                    [--spdk-target BIN|PID | --spdk-host BIN|PID] [-h]\n"
	      "\n"
	      "Check that this kernel can be recorded: kprobes and tracepoints,\n"
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

/* Each point as Documentation/stages.rst names it, and where it is. */
static const char * const point_names[NTPROF_PT_COUNT][2] = {
	[NTPROF_PT_HOST_BLK_START] = { "HOST_BLK_START", "block layer took it" },
	[NTPROF_PT_HOST_QUEUE_RQ] = { "HOST_QUEUE_RQ", "queue_rq entered" },
	[NTPROF_PT_HOST_SETUP] = { "HOST_SETUP", "command built" },
	[NTPROF_PT_HOST_BLK_ISSUE] = { "HOST_BLK_ISSUE", "driver started it" },
	[NTPROF_PT_HOST_SEND] = { "HOST_SEND", "capsule to the wire" },
	[NTPROF_PT_HOST_SEND_DONE] = { "HOST_SEND_DONE", "capsule's SEND done" },
	[NTPROF_PT_HOST_R2T] = { "HOST_R2T", "target asked for data" },
	[NTPROF_PT_HOST_RECV] = { "HOST_RECV", "response in the driver" },
	[NTPROF_PT_HOST_DRIVER_DONE] = { "HOST_DRIVER_DONE",
					 "completion parsed" },
	[NTPROF_PT_HOST_NVME_COMPLETE] = { "HOST_NVME_COMPLETE",
					   "nvme_complete_rq" },
	[NTPROF_PT_HOST_BLK_COMPLETE] = { "HOST_BLK_COMPLETE",
					  "block layer done" },
	[NTPROF_PT_TARGET_RECV] = { "TARGET_RECV", "capsule in the driver" },
	[NTPROF_PT_TARGET_INIT] = { "TARGET_INIT", "command parsed" },
	[NTPROF_PT_TARGET_R2T] = { "TARGET_R2T", "R2T or RDMA READ out" },
	[NTPROF_PT_TARGET_DATA] = { "TARGET_DATA", "write data arrived" },
	[NTPROF_PT_TARGET_EXEC] = { "TARGET_EXEC", "to the backing store" },
	[NTPROF_PT_TARGET_BLK_ISSUE] = { "TARGET_BLK_ISSUE",
					 "backing device started" },
	[NTPROF_PT_TARGET_BLK_COMPLETE] = { "TARGET_BLK_COMPLETE",
					    "backing device done" },
	[NTPROF_PT_TARGET_COMPLETE] = { "TARGET_COMPLETE", "storage done" },
	[NTPROF_PT_TARGET_QUEUE_RESP] = { "TARGET_QUEUE_RESP",
					  "response queued" },
	[NTPROF_PT_TARGET_SEND] = { "TARGET_SEND", "response PDU built" },
	[NTPROF_PT_TARGET_SEND_DONE] = { "TARGET_SEND_DONE",
					 "response's SEND done" },
};

/*
 * The module's control-path hooks (kmod/hooks_events.c), which stamp no
 * point: they record events (Documentation/stages.rst).
 */
static bool event_hook(const char *name)
{
	return !strcmp(name, "nvme_change_ctrl_state") ||
	       !strcmp(name, "nvme_reset_ctrl") ||
	       !strcmp(name, "nvme_reset_ctrl_sync");
}

static void point_str(const struct ntp_hook *h, char *buf, size_t size)
{
	uint8_t point = h->point;

	if (point == SESSION_POINT_NONE && event_hook(h->name))
		snprintf(buf, size, "(control-path events)");
	else if (point == SESSION_POINT_NONE)
		snprintf(buf, size, "(helps another hook)");
	else if (point < NTPROF_PT_COUNT)
		snprintf(buf, size, "%s: %s", point_names[point][0],
			 point_names[point][1]);
	else
		snprintf(buf, size, "point %u (unknown to this tool)", point);
}

static const char *kind_str(uint8_t kind)
{
	switch (kind) {
	case NTPROF_HOOK_TRACEPOINT:
		return "tracepoint";
	case NTPROF_HOOK_FUNCTION:
		return "function";
	}
	return "?";
}

static const char *hook_state_str(uint8_t state)
{
	switch (state) {
	case NTPROF_HOOK_AVAILABLE:
	case NTPROF_HOOK_ATTACHED:
		return "ok";
	case NTPROF_HOOK_MISSING:
		return "missing";
	}
	return "?";
}

/* What the kernel offers the module, as far as we can tell from here. */
struct caps {
	const char *kprobes;	/* "yes", "disabled", "no", "unknown" */
	bool kprobes_disabled;
	const char *tracepoints;
};

/* Looks for exported functions in /proc/kallsyms; false when unreadable. */
static bool kallsyms_has(const char * const *names, bool *found, size_t n)
{
	char line[512], sym[256];
	FILE *f = fopen("/proc/kallsyms", "r");
	size_t i;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		/* "ffffffff81234560 T register_kprobe" */
		if (sscanf(line, "%*s %*s %255s", sym) != 1)
			continue;
		for (i = 0; i < n; i++)
			if (!found[i] && !strcmp(sym, names[i]))
				found[i] = true;
	}
	fclose(f);
	return true;
}

static void caps_get(struct caps *c)
{
	static const char * const names[] = {
		"register_kprobe", "tracepoint_probe_register",
	};
	bool found[ARRAY_SIZE(names)] = { false };
	bool readable;
	char buf[8];
	FILE *f;

	readable = kallsyms_has(names, found, ARRAY_SIZE(names));
	c->kprobes = !readable ? "unknown" : found[0] ? "yes" : "no";
	c->tracepoints = !readable ? "unknown" : found[1] ? "yes" : "no";
	c->kprobes_disabled = false;

	/*
	 * Kprobes can be switched off as a whole: then registered ones stay
	 * registered, and never fire. Only debugfs tells.
	 */
	f = fopen("/sys/kernel/debug/kprobes/enabled", "r");
	if (!f)
		return;
	if (fgets(buf, sizeof(buf), f)) {
		if (buf[0] == '0') {
			c->kprobes = "disabled";
			c->kprobes_disabled = true;
		} else if (buf[0] == '1') {
			c->kprobes = "yes";
		}
	}
	fclose(f);
}

/*
 * The module a hook lives in. probe-get does not say; the hooks of a
 * transport live in its module, the others are the role's core's
 * (nvme_*, nvmet_*) or the kernel's (block_*, blk_*).
 */
static const struct session_module *
hook_module(const struct session_status *st, const struct session_hook *hk)
{
	if (hk->h.transport != NTPROF_TRANSPORT_NONE)
		return session_module_find(st, hk->h.role, hk->h.transport);
	if (!strncmp(hk->h.name, "nvme", 4))
		return session_module_find(st, hk->h.role,
					   NTPROF_TRANSPORT_NONE);
	return NULL;
}

static void print_modules(const struct session_status *st, uint32_t role,
			  uint32_t transport)
{
	const struct session_module *mod;
	const char *sep = " ";
	uint32_t t[SESSION_TRANSPORTS];
	int i, n = session_transports(transport, t);

	printf("%s modules:", ntprof_role_name(role));
	for (i = 0; i < n; i++) {
		mod = session_module_find(st, role, t[i]);
		if (!mod)
			continue;
		printf("%s%s %s", sep, mod->name,
		       mod->present ? "present" : "absent");
		sep = ", ";
	}
	if (*sep == ' ')
		fputs(" none reported", stdout);
	putchar('\n');
}

/*
 * The layouts the hooks' handlers read: BTF gives a field (record hands
 * it to the module), or the module has it. A hook with a field of
 * neither cannot attach: it is missing, and @lacking says which.
 */
static void hooks_layout(struct session_hooks *hooks,
			 const struct kbtf_layout *l)
{
	uint64_t found = kbtf_layout_found(l);
	size_t i;

	for (i = 0; i < hooks->n; i++) {
		hooks->v[i].lacking = hooks->v[i].fields_missing & ~found;
		if (hooks->v[i].lacking)
			hooks->v[i].h.state = NTPROF_HOOK_MISSING;
	}
}

/* The first field of @mask, as "struct.member", with why BTF lacks it. */
static void layout_lack_str(uint64_t mask, const struct kbtf_layout *l,
			    char *buf, size_t size)
{
	const struct kbtf_field_def *f;
	unsigned int id;

	for (id = 0; id < NTPROF_LF_COUNT && !(mask >> id & 1); id++)
		;
	f = kbtf_field(id);
	if (!f) {
		snprintf(buf, size, "a member");
		return;
	}
	snprintf(buf, size, "%s.%s (%s; no built-in offset for this release)",
		 f->st, f->member, l->why[id][0] ? l->why[id] : "not in BTF");
}

/* Where a hook's layout comes from, for its line. */
static void layout_note(const struct session_hook *hk,
			const struct kbtf_layout *l, char *buf, size_t size)
{
	uint64_t found = kbtf_layout_found(l);
	char lack[192];

	if (hk->lacking) {
		layout_lack_str(hk->lacking, l, lack, sizeof(lack));
		snprintf(buf, size, "  [no layout: %s]", lack);
	} else if (!hk->fields) {
		buf[0] = '\0';
	} else if (!(hk->fields & ~found)) {
		snprintf(buf, size, "  [layout: BTF]");
	} else {
		snprintf(buf, size, "  [layout: built-in]");
	}
}

static void print_hooks(const struct session_status *st,
			const struct session_hooks *hooks,
			const struct kbtf_layout *l)
{
	const struct session_module *mod;
	char point[96], note[96], lnote[256], line[896];
	int width = 0, pwidth = 0, len;
	size_t i;

	for (i = 0; i < hooks->n; i++) {
		if ((int)strlen(hooks->v[i].h.name) > width)
			width = strlen(hooks->v[i].h.name);
		point_str(&hooks->v[i].h, point, sizeof(point));
		if ((int)strlen(point) > pwidth)
			pwidth = strlen(point);
	}
	for (i = 0; i < hooks->n; i++) {
		const struct session_hook *hk = &hooks->v[i];

		point_str(&hk->h, point, sizeof(point));
		/* Missing for now: it comes when its module loads. */
		mod = hook_module(st, hk);
		if (hk->h.state == NTPROF_HOOK_MISSING && mod && !mod->present)
			snprintf(note, sizeof(note), "  (comes with %s)",
				 mod->name);
		else
			note[0] = '\0';
		layout_note(hk, l, lnote, sizeof(lnote));
		len = snprintf(line, sizeof(line), "  %-7s  %-*s  %-10s  %-*s%s%s%s%s",
			       hook_state_str(hk->h.state), width, hk->h.name,
			       kind_str(hk->h.kind), pwidth, point,
			       hk->h.required ? "  (required)" : "",
			       hk->detail ? "  (not with --stages-only)" : "",
			       note, lnote);
		if (len >= (int)sizeof(line))
			len = sizeof(line) - 1;
		/* The columns pad; the end of a line does not. */
		while (len > 0 && line[len - 1] == ' ')
			line[--len] = '\0';
		puts(line);
	}
}

/* Whether another hook than @i, not missing, stamps hook @i's point. */
static bool point_stamped(const struct session_hooks *hooks, size_t i)
{
	uint8_t point = hooks->v[i].h.point;
	size_t k;

	if (point == SESSION_POINT_NONE)
		return false;
	for (k = 0; k < hooks->n; k++)
		if (k != i && hooks->v[k].h.point == point &&
		    hooks->v[k].h.state != NTPROF_HOOK_MISSING)
			return true;
	return false;
}

/*
 * The verdict. Returns true if 'record' can run; @why gets the reason it
 * cannot, or what it will wait for.
 */

static bool probe_verdict(const struct session_status *st,
			  const struct session_hooks *hooks,
			  const struct kbtf_layout *l,
			  const struct caps *caps, uint32_t role,
			  uint32_t transport, bool busy, char *why,
			  size_t size)
{
	const struct session_module *mod, *absent[SESSION_TRANSPORTS];
	uint32_t t[SESSION_TRANSPORTS];
	int n = session_transports(transport, t);
	const struct session_hook *hk;
	int nr_absent = 0, i;
	size_t k;

	*why = '\0';
	if (busy) {
		snprintf(why, size,
			 "a %s session is already running (another ntprof record?)",
			 ntprof_role_name(role));
		return false;
	}
	for (k = 0; k < hooks->n; k++) {
		hk = &hooks->v[k];
		if (!hk->h.required || hk->h.state != NTPROF_HOOK_MISSING)
			continue;
		mod = hook_module(st, hk);
		/* It may come with its module: the start will not fail. */
		if (mod && !mod->present)
			continue;
		if (hk->lacking) {
			char lack[192];

			layout_lack_str(hk->lacking, l, lack, sizeof(lack));
			snprintf(why, size,
				 "the required %s %s reads %s",
				 kind_str(hk->h.kind), hk->h.name, lack);
			return false;
		}
		snprintf(why, size,
			 "the required %s %s is missing from this kernel%s%s",
			 kind_str(hk->h.kind), hk->h.name,
			 mod ? " although " : "", mod ? mod->name : "");
		if (mod)
			snprintf(why + strlen(why), size - strlen(why),
				 " is loaded");
		return false;
	}
	if (caps->kprobes_disabled) {
		for (k = 0; k < hooks->n; k++) {
			hk = &hooks->v[k];
			if (hk->h.required && hk->h.kind == NTPROF_HOOK_FUNCTION)
				break;
		}
		if (k < hooks->n) {
			snprintf(why, size,
				 "kprobes are disabled, and the required kprobe %s would never fire (echo 1 > /sys/kernel/debug/kprobes/enabled)",
				 hooks->v[k].h.name);
			return false;
		}
	}

	for (i = 0; i < n; i++) {
		mod = session_module_find(st, role, t[i]);
		if (mod && !mod->present)
			absent[nr_absent++] = mod;
	}
	if (nr_absent == 1)
		snprintf(why, size,
			 "%s is not loaded: a recording waits for it and its hooks attach when it loads",
			 absent[0]->name);
	else if (nr_absent > 1)
		snprintf(why, size,
			 "%s%s%s and %s are not loaded: a recording waits for them and their hooks attach when they load",
			 absent[0]->name, nr_absent > 2 ? ", " : "",
			 nr_absent > 2 ? absent[1]->name : "",
			 absent[nr_absent - 1]->name);
	return true;
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
	putchar('\n');
	spdk_prog_print(&t, stdout);
	if (ret)
		printf("  load: no, %s\n", err);
	else if (!t.ok)
		printf("  load: no, %s\n", t.why);
	spdk_procs_print(&t, &ps, stdout);
	if (ret || !t.ok) {
		ret = 1;
	} else if (ps.nr_agents && ps.nr_agents == ps.n - ps.nr_skipped) {
		/* Agents alone: no session of the module's is needed. */
		printf("  load: ok, through the agent%s\n",
		       ps.n > 1 ? "s" : "");
		ret = 0;
	} else if (!module) {
		printf("  load: no, uprobes need the ntprof module (modprobe ntprof), or start the program with 'ntprof run'\n");
		ret = 1;
	} else if (busy) {
		printf("  load: no, a %s session is already running (another ntprof record?)\n",
		       ntprof_role_name(role));
		ret = 1;
	} else {
		printf("  load: ok\n");
		ret = 0;
	}
	spdk_procs_detach(&ps);
	spdk_prog_close(&t);
	return ret;
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

/* The kernel, the module and the NVMe-oF modules, a line each. */
static void print_kernel(struct session_status *st, const struct caps *caps,
			 const struct probe_opts *o)
{
	struct utsname uts;

	if (!st->release[0] && !uname(&uts))
		snprintf(st->release, sizeof(st->release), "%s", uts.release);
	printf("kernel %s: kprobes %s, tracepoints %s\n", st->release,
	       caps->kprobes, caps->tracepoints);
	printf("ntprof module %s: loaded, %s\n",
	       st->version[0] ? st->version : "(unknown version)",
	       st->state == NTPROF_STATE_RECORDING ? "recording" : "idle");
	print_modules(st, o->role, o->transport);
}

/*
 * Missing for good, not waiting for its module, and no other hook stamps
 * its point (kernels differ in which of two functions they have): a split
 * is lost.
 */
static bool optional_hook_lost(const struct session_status *st,
			       const struct session_hooks *hooks)
{
	const struct session_module *mod;
	size_t i;

	for (i = 0; i < hooks->n; i++) {
		mod = hook_module(st, &hooks->v[i]);
		if (!hooks->v[i].h.required &&
		    hooks->v[i].h.state == NTPROF_HOOK_MISSING &&
		    (!mod || mod->present) && !point_stamped(hooks, i))
			return true;
	}
	return false;
}

/* The kernel's hooks, a line each, and the verdict; the exit status. */
static int probe_hooks(const struct session_status *st,
		       struct session_hooks *hooks, const struct caps *caps,
		       const struct probe_opts *o, bool busy)
{
	struct kbtf_layout layout;
	char why[512];
	bool ok;

	kbtf_layout_read(kbtf_sys_dir(), o->role, &layout);
	hooks_layout(hooks, &layout);
	printf("\n%s hooks over %s:\n", ntprof_role_name(o->role),
	       ntprof_transport_name(o->transport));
	if (!hooks->n)
		puts("  (the module reports none)");
	print_hooks(st, hooks, &layout);
	if (optional_hook_lost(st, hooks))
		puts("  (without an optional hook, the components on either side of its point merge)");
	if (caps->kprobes_disabled)
		puts("  (kprobes are disabled: the kprobe hooks attach but do not fire)");

	ok = hooks->n && probe_verdict(st, hooks, &layout, caps, o->role,
				       o->transport, busy, why, sizeof(why));
	if (!hooks->n)
		snprintf(why, sizeof(why), "the module reports no hook for %s over %s",
			 ntprof_role_name(o->role),
			 ntprof_transport_name(o->transport));
	if (ok)
		printf("  load: ok%s%s\n", *why ? ", but " : "", why);
	else
		printf("  load: no, %s\n", why);
	return ok ? 0 : 1;
}

int cmd_probe(int argc, char *argv[])
{
	struct session_hooks hooks = { 0 };
	const char *cmd = argv[0];
	struct session_status st;
	struct probe_opts o;
	struct caps caps;
	bool busy;
	int ret;

	ret = probe_parse(argc, argv, &o);
	if (ret >= 0)
		return ret;
	/* The agent needs no module: SPDK's section without it. */
	if (o.spdk && !ntprof_module_loaded()) {
		puts("ntprof module: not loaded (uprobes need it; the agent does not)");
		return probe_spdk(cmd, o.spdk, o.role, o.transport, false,
				  false);
	}
	if (probe_module(cmd, &o, &st, &hooks, &busy))
		return 1;
	caps_get(&caps);
	print_kernel(&st, &caps, &o);
	if (o.spdk)
		ret = probe_spdk(cmd, o.spdk, o.role, o.transport, true, busy);
	else
		ret = probe_hooks(&st, &hooks, &caps, &o, busy);
	session_hooks_free(&hooks);
	return ret;
}
