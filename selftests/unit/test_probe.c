// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of ntprof probe's verdict (lib/analysis/probe_verdict.c) and
 * its lines (lib/out/probe_out.c), on module replies and kernels made up
 * here, since this machine has no module: a required hook missing, a
 * hook that comes with a module not loaded yet, an optional hook lost,
 * function tracing switched off, a session already running, no hook at all; and
 * an SPDK program's processes through agents or uprobes.
 * Prints TAP; exits 1 if any test failed.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "analysis/probe_verdict.h"
#include "out/probe_out.h"
#include "tap.h"

static struct session_status st;
static struct session_hook hook_v[4];
static struct session_hooks hooks = { .v = hook_v };
static struct kbtf_layout layout;
static const struct kernel_caps caps_on = { "yes", false, "yes" };
static const struct kernel_caps caps_off = { "disabled", true, "yes" };

static void module_add(const char *name, uint32_t transport, bool present)
{
	struct session_module *m = &st.modules[st.nr_modules++];

	snprintf(m->name, sizeof(m->name), "%s", name);
	m->role = NTPROF_ROLE_HOST;
	m->transport = transport;
	m->present = present;
}

static void hook_add(const char *name, uint8_t kind, uint32_t transport,
		     uint8_t point, bool required, uint8_t state)
{
	struct session_hook *hk = &hook_v[hooks.n++];

	memset(hk, 0, sizeof(*hk));
	snprintf(hk->h.name, sizeof(hk->h.name), "%s", name);
	hk->h.kind = kind;
	hk->h.role = NTPROF_ROLE_HOST;
	hk->h.transport = transport;
	hk->h.point = point;
	hk->h.required = required;
	hk->h.state = state;
}

/*
 * A host over TCP: nvme_core and nvme_tcp (@tcp_present), the block
 * layer's tracepoint, and two function hooks of nvme_tcp's in @tcp_state.
 */
static void host_tcp(bool tcp_present, uint8_t tcp_state)
{
	memset(&st, 0, sizeof(st));
	memset(&layout, 0, sizeof(layout));
	hooks.n = 0;
	snprintf(st.version, sizeof(st.version), "1.0");
	snprintf(st.release, sizeof(st.release), "6.1.0-57-amd64");
	module_add("nvme_core", NTPROF_TRANSPORT_NONE, true);
	module_add("nvme_tcp", NTPROF_TRANSPORT_TCP, tcp_present);
	hook_add("block_rq_issue", NTPROF_HOOK_TRACEPOINT,
		 NTPROF_TRANSPORT_NONE, NTPROF_PT_HOST_BLK_ISSUE, true,
		 NTPROF_HOOK_AVAILABLE);
	hook_add("nvme_tcp_queue_rq", NTPROF_HOOK_FUNCTION, NTPROF_TRANSPORT_TCP,
		 NTPROF_PT_HOST_QUEUE_RQ, true, tcp_state);
	hook_add("nvme_tcp_try_send_cmd_pdu", NTPROF_HOOK_FUNCTION,
		 NTPROF_TRANSPORT_TCP, NTPROF_PT_HOST_SEND, false, tcp_state);
}

/* The verdict on the hooks, after their layouts, as probe makes it. */
static void judge(const struct kernel_caps *caps, bool busy,
		  struct probe_verdict *v)
{
	probe_hooks_layout(&hooks, &layout);
	probe_hooks_judge(&st, &hooks, &layout, caps, NTPROF_ROLE_HOST,
			  NTPROF_TRANSPORT_TCP, busy, v);
}

struct printed_args {
	const struct kernel_caps *caps;
	const struct probe_verdict *v;
};

static void print_hooks(void *arg)
{
	const struct printed_args *a = arg;

	probe_hooks_print(&st, &hooks, &layout, a->caps, NTPROF_ROLE_HOST,
			  NTPROF_TRANSPORT_TCP, a->v);
}

/* What probe_hooks_print() writes for @v, as a string. */
static const char *printed(const struct kernel_caps *caps,
			   const struct probe_verdict *v)
{
	struct printed_args a = { caps, v };

	return tap_capture(STDOUT_FILENO, print_hooks, &a);
}

static void test_all_there(void)
{
	struct probe_verdict v;

	host_tcp(true, NTPROF_HOOK_AVAILABLE);
	judge(&caps_on, false, &v);
	ok(v.ok && !v.optional_lost && !*v.why,
	   "every hook there: record can run, nothing to add");
	tap_same(printed(&caps_on, &v),
	     "\nhost hooks over tcp:\n"
	     "  ok       block_rq_issue             tracepoint  HOST_BLK_ISSUE: driver started it  (required)\n"
	     "  ok       nvme_tcp_queue_rq          function    HOST_QUEUE_RQ: queue_rq entered    (required)\n"
	     "  ok       nvme_tcp_try_send_cmd_pdu  function    HOST_SEND: capsule to the wire\n"
	     "  load: ok\n",
	     "every hook there: a line each, columns aligned, 'load: ok'");
}

static void test_missing(void)
{
	struct probe_verdict v;

	host_tcp(true, NTPROF_HOOK_MISSING);
	judge(&caps_on, false, &v);
	tap_same(v.ok ? "ok" : v.why,
	     "the required function nvme_tcp_queue_rq is missing from this kernel although nvme_tcp is loaded",
	     "a required kprobe missing with its module loaded: no, and which");
	ok(v.optional_lost, "the optional hook missing too: two components merge");
	tap_same(strstr(printed(&caps_on, &v), "  (without"),
	     "  (without an optional hook, the components on either side of its point merge)\n"
	     "  load: no, the required function nvme_tcp_queue_rq is missing from this kernel although nvme_tcp is loaded\n",
	     "the note on the merge, then 'load: no' and why");
}

static void test_module_absent(void)
{
	struct probe_verdict v;
	const char *out;

	host_tcp(false, NTPROF_HOOK_MISSING);
	judge(&caps_on, false, &v);
	ok(v.ok && !v.optional_lost,
	   "hooks that come with a module not loaded: record can run, no split lost");
	tap_same(v.why,
	     "nvme_tcp is not loaded: a recording waits for it and its hooks attach when it loads",
	     "and it says what the recording waits for");
	out = printed(&caps_on, &v);
	ok(strstr(out, "nvme_tcp_queue_rq          function    HOST_QUEUE_RQ: queue_rq entered    (required)  (comes with nvme_tcp)\n") &&
	   strstr(out, "  load: ok, but nvme_tcp is not loaded"),
	   "each such hook '(comes with nvme_tcp)', and 'load: ok, but'");
}

static void test_ftrace_off(void)
{
	struct probe_verdict v;

	host_tcp(true, NTPROF_HOOK_AVAILABLE);
	judge(&caps_off, false, &v);
	tap_same(v.ok ? "ok" : v.why,
	     "function tracing is off, and the required function hook nvme_tcp_queue_rq would never fire (sysctl kernel.ftrace_enabled=1)",
	     "function tracing switched off under a required function hook: no, and how to turn it on");
	ok(strstr(printed(&caps_off, &v),
		  "  (function tracing is off: the function hooks attach but do not fire)\n") != NULL,
	   "and a note that the function hooks do not fire");
}

static void test_busy_and_none(void)
{
	struct probe_verdict v;

	host_tcp(true, NTPROF_HOOK_AVAILABLE);
	judge(&caps_on, true, &v);
	tap_same(v.ok ? "ok" : v.why,
	     "a host session is already running (another ntprof record?)",
	     "a host session already running: no");
	host_tcp(true, NTPROF_HOOK_AVAILABLE);
	hooks.n = 0;
	judge(&caps_on, false, &v);
	tap_same(v.ok ? "ok" : v.why, "the module reports no hook for host over tcp",
	     "no hook reported: no");
	tap_same(printed(&caps_on, &v),
	     "\nhost hooks over tcp:\n"
	     "  (the module reports none)\n"
	     "  load: no, the module reports no hook for host over tcp\n",
	     "no hook reported: the section says so");
}

static void test_spdk(void)
{
	struct spdk_prog t = { .ok = true };
	struct spdk_procs ps = { 0 };
	struct probe_verdict v;

	ps.n = 2;
	ps.nr_agents = 2;
	probe_spdk_judge(&t, &ps, NULL, false, false, NTPROF_ROLE_TARGET, &v);
	tap_same(v.ok ? v.why : "no", "through the agents",
	     "SPDK processes all with agents: ok without the module");
	ps.nr_agents = 1;
	probe_spdk_judge(&t, &ps, NULL, false, false, NTPROF_ROLE_TARGET, &v);
	tap_same(v.ok ? "ok" : v.why,
	     "uprobes need the ntprof module (modprobe ntprof), or start the program with 'ntprof run'",
	     "one process without an agent and no module: no");
	probe_spdk_judge(&t, &ps, NULL, true, true, NTPROF_ROLE_TARGET, &v);
	tap_same(v.ok ? "ok" : v.why,
	     "a target session is already running (another ntprof record?)",
	     "through uprobes, with a target session running: no");
	probe_spdk_judge(&t, &ps, NULL, true, false, NTPROF_ROLE_TARGET, &v);
	ok(v.ok && !*v.why, "through uprobes, with the module: ok");
	probe_spdk_judge(&t, &ps, "cannot list /proc", true, false,
			 NTPROF_ROLE_TARGET, &v);
	tap_same(v.ok ? "ok" : v.why, "cannot list /proc",
	     "processes that cannot be listed: no, and why");
}

static const struct tap_case cases[] = {
	{ "all_there", test_all_there },
	{ "missing", test_missing },
	{ "module_absent", test_module_absent },
	{ "ftrace_off", test_ftrace_off },
	{ "busy_and_none", test_busy_and_none },
	{ "spdk", test_spdk },
};

int main(int argc, char *argv[])
{
	return tap_main(argc, argv, "test_probe", cases, TAP_NR_CASES(cases));
}
