// SPDX-License-Identifier: GPL-2.0
/*
 * ntprof probe's verdict: can 'ntprof record' run with these options? A
 * required hook that is missing, and not waiting for its module, says
 * no; so do function tracing switched off under a required function
 * hook, and a session
 * of the role that runs already. A missing optional hook only merges two
 * components of the report into one. out/probe_out.c prints the verdict.
 */
#include <stdio.h>
#include <string.h>

#include "analysis/probe_verdict.h"
#include "common/names.h"

const char *probe_hook_kind(uint8_t kind)
{
	switch (kind) {
	case NTPROF_HOOK_TRACEPOINT:
		return "tracepoint";
	case NTPROF_HOOK_FUNCTION:
		return "function";
	}
	return "?";
}

const struct session_module *
probe_hook_module(const struct session_status *st,
		  const struct session_hook *hk)
{
	if (hk->h.transport != NTPROF_TRANSPORT_NONE)
		return session_module_find(st, hk->h.role, hk->h.transport);
	if (!strncmp(hk->h.name, "nvme", 4))
		return session_module_find(st, hk->h.role,
					   NTPROF_TRANSPORT_NONE);
	return NULL;
}

/*
 * The layouts the hooks' handlers read: BTF gives a field (record hands
 * it to the module), or the module has it. A hook with a field of
 * neither cannot attach: it is missing, and @lacking says which.
 */
void probe_hooks_layout(struct session_hooks *hooks,
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

void probe_layout_lack_str(uint64_t mask, const struct kbtf_layout *l,
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
		mod = probe_hook_module(st, &hooks->v[i]);
		if (!hooks->v[i].h.required &&
		    hooks->v[i].h.state == NTPROF_HOOK_MISSING &&
		    (!mod || mod->present) && !point_stamped(hooks, i))
			return true;
	}
	return false;
}

/*
 * The verdict on hooks the module reports. Returns true if 'record' can
 * run; @why gets the reason it cannot, or what it will wait for.
 */
static bool hooks_verdict(const struct session_status *st,
			  const struct session_hooks *hooks,
			  const struct kbtf_layout *l,
			  const struct kernel_caps *caps, uint32_t role,
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
		mod = probe_hook_module(st, hk);
		/* It may come with its module: the start will not fail. */
		if (mod && !mod->present)
			continue;
		if (hk->lacking) {
			char lack[192];

			probe_layout_lack_str(hk->lacking, l, lack,
					      sizeof(lack));
			snprintf(why, size,
				 "the required %s %s reads %s",
				 probe_hook_kind(hk->h.kind), hk->h.name, lack);
			return false;
		}
		snprintf(why, size,
			 "the required %s %s is missing from this kernel%s%s",
			 probe_hook_kind(hk->h.kind), hk->h.name,
			 mod ? " although " : "", mod ? mod->name : "");
		if (mod)
			snprintf(why + strlen(why), size - strlen(why),
				 " is loaded");
		return false;
	}
	if (caps->ftrace_disabled) {
		for (k = 0; k < hooks->n; k++) {
			hk = &hooks->v[k];
			if (hk->h.required && hk->h.kind == NTPROF_HOOK_FUNCTION)
				break;
		}
		if (k < hooks->n) {
			snprintf(why, size,
				 "function tracing is off, and the required function hook %s would never fire (sysctl kernel.ftrace_enabled=1)",
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

void probe_hooks_judge(const struct session_status *st,
		       const struct session_hooks *hooks,
		       const struct kbtf_layout *l,
		       const struct kernel_caps *caps, uint32_t role,
		       uint32_t transport, bool busy, struct probe_verdict *v)
{
	v->optional_lost = optional_hook_lost(st, hooks);
	if (!hooks->n) {
		v->ok = false;
		snprintf(v->why, sizeof(v->why),
			 "the module reports no hook for %s over %s",
			 ntprof_role_name(role),
			 ntprof_transport_name(transport));
		return;
	}
	v->ok = hooks_verdict(st, hooks, l, caps, role, transport, busy,
			      v->why, sizeof(v->why));
}

/*
 * SPDK has no kernel hook in its path: each process records through its
 * agent or through uprobes, which need the module.
 */
void probe_spdk_judge(const struct spdk_prog *t, const struct spdk_procs *ps,
		      const char *find_err, bool module, bool busy,
		      uint32_t role, struct probe_verdict *v)
{
	v->optional_lost = false;
	v->ok = false;
	v->why[0] = '\0';
	if (find_err) {
		snprintf(v->why, sizeof(v->why), "%s", find_err);
	} else if (!t->ok) {
		snprintf(v->why, sizeof(v->why), "%s", t->why);
	} else if (ps->nr_agents && ps->nr_agents == ps->n - ps->nr_skipped) {
		/* Agents alone: no session of the module's is needed. */
		v->ok = true;
		snprintf(v->why, sizeof(v->why), "through the agent%s",
			 ps->n > 1 ? "s" : "");
	} else if (!module) {
		snprintf(v->why, sizeof(v->why),
			 "uprobes need the ntprof module (modprobe ntprof), or start the program with 'ntprof run'");
	} else if (busy) {
		snprintf(v->why, sizeof(v->why),
			 "a %s session is already running (another ntprof record?)",
			 ntprof_role_name(role));
	} else {
		v->ok = true;
	}
}
