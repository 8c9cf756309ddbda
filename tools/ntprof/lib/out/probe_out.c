// SPDX-License-Identifier: GPL-2.0
/*
 * The lines of 'ntprof probe': the kernel's means (ftrace, tracepoints),
 * the modules, then every hook of a role and transport with the point it
 * stamps, and the verdict that analysis/probe_verdict.c made.
 */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "common/names.h"
#include "out/probe_out.h"

void probe_no_module_print(void)
{
	puts("ntprof module: not loaded (uprobes need it; the agent does not)");
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
	       !strcmp(name, "nvme_reset_ctrl_sync") ||
	       !strcmp(name, "nvme_tcp_setup_ctrl") ||
	       !strcmp(name, "nvme_rdma_setup_ctrl") ||
	       !strcmp(name, "nvmet_install_queue") ||
	       !strcmp(name, "nvmet_ctrl_free");
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

void probe_kernel_print(const struct session_status *st,
			const struct kernel_caps *caps, uint32_t role,
			uint32_t transport)
{
	const char *release = st->release;
	struct utsname uts;

	/* A module that does not say: the release this process runs on. */
	if (!release[0] && !uname(&uts))
		release = uts.release;
	printf("kernel %s: function hooks %s, tracepoints %s\n", release,
	       caps->ftrace, caps->tracepoints);
	printf("ntprof module %s: loaded, %s\n",
	       st->version[0] ? st->version : "(unknown version)",
	       st->state == NTPROF_STATE_RECORDING ? "recording" : "idle");
	print_modules(st, role, transport);
}

/* Where a hook's layout comes from, for its line. */
static void layout_note(const struct session_hook *hk,
			const struct kbtf_layout *l, char *buf, size_t size)
{
	uint64_t found = kbtf_layout_found(l);
	char lack[192];

	if (hk->lacking) {
		probe_layout_lack_str(hk->lacking, l, lack, sizeof(lack));
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
		mod = probe_hook_module(st, hk);
		if (hk->h.state == NTPROF_HOOK_MISSING && mod && !mod->present)
			snprintf(note, sizeof(note), "  (comes with %s)",
				 mod->name);
		else
			note[0] = '\0';
		layout_note(hk, l, lnote, sizeof(lnote));
		len = snprintf(line, sizeof(line), "  %-7s  %-*s  %-10s  %-*s%s%s%s%s",
			       hook_state_str(hk->h.state), width, hk->h.name,
			       probe_hook_kind(hk->h.kind), pwidth, point,
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

void probe_hooks_print(const struct session_status *st,
		       const struct session_hooks *hooks,
		       const struct kbtf_layout *l,
		       const struct kernel_caps *caps, uint32_t role,
		       uint32_t transport, const struct probe_verdict *v)
{
	printf("\n%s hooks over %s:\n", ntprof_role_name(role),
	       ntprof_transport_name(transport));
	if (!hooks->n)
		puts("  (the module reports none)");
	print_hooks(st, hooks, l);
	if (v->optional_lost)
		puts("  (without an optional hook, the components on either side of its point merge)");
	if (caps->ftrace_disabled)
		puts("  (function tracing is off: the function hooks attach but do not fire)");
	if (v->ok)
		printf("  load: ok%s%s\n", *v->why ? ", but " : "", v->why);
	else
		printf("  load: no, %s\n", v->why);
}

/* The verdict's line of an SPDK program's section. */
static void spdk_load_print(const struct probe_verdict *v)
{
	if (!v->ok)
		printf("  load: no, %s\n", v->why);
	else if (*v->why)
		printf("  load: ok, %s\n", v->why);
	else
		printf("  load: ok\n");
}

void probe_spdk_print(const struct spdk_prog *t, const struct spdk_procs *ps,
		      bool found, const struct probe_verdict *v)
{
	/* Without its processes or its sites, the verdict comes first. */
	bool early = !found || !t->ok;

	putchar('\n');
	spdk_prog_print(t, stdout);
	if (early)
		spdk_load_print(v);
	spdk_procs_print(t, ps, stdout);
	if (!early)
		spdk_load_print(v);
}
