// SPDX-License-Identifier: GPL-2.0
/*
 * An SPDK program's processes, each recorded through its agent or
 * through uprobes. An agent is found by its shared memory among the
 * process's files (agent_attach.c); a process without one is left to the
 * uprobe sites. A process whose agent memory cannot be used (it fails
 * the checks of agent_memfd.c, another ntprof's version, no permission,
 * another recorder's) is skipped with one line, and never ends the
 * recording, since any user can make such a process. It gets no uprobes
 * either, whose int3 over a patched entry would break it: by PID nothing
 * is recorded, by path the module keeps them out of every process that
 * maps an agent's memfd (kmod/uprobes.c), as an agent does first.
 */
#include <errno.h>
#include <sys/stat.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <ntprof/agent_abi.h>

#include "sites/spdk_agent.h"

static void proc_add(struct spdk_procs *ps, pid_t pid)
{
	struct spdk_proc *pr = &ps->v[ps->n++];

	memset(pr, 0, sizeof(*pr));
	pr->pid = pid;
}

/* skip() - mark @pr as recorded neither way, for the reason in @why. */
static void skip(struct spdk_procs *ps, struct spdk_proc *pr, const char *why)
{
	pr->skipped = true;
	snprintf(pr->why, sizeof(pr->why), "%s", why);
	ps->nr_skipped++;
}

/*
 * sort_one() - decide @pr's way at one look of spdk_procs_find(). It returns
 * false if its agent is still starting and @wait is set, so that the process
 * is looked at again.
 */
static bool sort_one(const struct spdk_prog *p, struct spdk_procs *ps,
		     struct spdk_proc *pr, bool wait, int *ret)
{
	char err[256];

	*ret = agent_attach(pr->pid, p->role, &pr->a, err, sizeof(err));
	if (*ret == -EAGAIN && wait)
		return false;
	if (*ret == -ENOENT) {
		*ret = 0;
		return true;
	}
	if (*ret) {
		skip(ps, pr, err);
		return true;
	}
	/* Two recorders would take each other's records. */
	if (agent_attach_is_on(&pr->a)) {
		agent_detach(&pr->a);
		snprintf(err, sizeof(err),
			 "process %d: its agent is on for another recorder (another ntprof record?)",
			 (int)pr->pid);
		skip(ps, pr, err);
		*ret = -EBUSY;
		return true;
	}
	pr->agent = true;
	ps->nr_agents++;
	agent_attach_counters(&pr->a, &pr->base);
	return true;
}

int spdk_procs_find(const struct spdk_prog *p, pid_t only,
		    struct spdk_procs *ps, char *err, size_t len)
{
	struct timespec tick = { 0, 20 * 1000 * 1000 };
	struct spdk_proc *pr;
	unsigned int look;
	size_t i, waiting;
	int ret = 0;

	memset(ps, 0, sizeof(*ps));
	/* A PID: that process, whatever else runs the binary. */
	if (only)
		proc_add(ps, only);
	for (i = 0; !only && i < p->nr_pids; i++)
		proc_add(ps, p->pids[i]);
	for (i = 0; i < ps->n; i++)
		ps->v[i].pending = true;
	/*
	 * Agents still patching (a process that has just started) are
	 * waited for, a second at most in all, however many there are.
	 */
	for (look = 0; look < 50; look++) {
		waiting = 0;
		for (i = 0; i < ps->n; i++) {
			pr = &ps->v[i];
			if (!pr->pending)
				continue;
			if (sort_one(p, ps, pr, look < 49, &ret))
				pr->pending = false;
			else
				waiting++;
		}
		if (!waiting)
			break;
		nanosleep(&tick, NULL);
	}
	if (only && ps->v[0].skipped) {
		snprintf(err, len, "%s", ps->v[0].why);
		spdk_procs_detach(ps);
		return ret ? ret : -EPROTO;
	}
	return 0;
}

void spdk_procs_say_skipped(const struct spdk_procs *ps, const char *cmd)
{
	size_t i;

	for (i = 0; i < ps->n; i++)
		if (ps->v[i].skipped)
			fprintf(stderr, "ntprof: %s: %s: skipped, not recorded\n",
				cmd, ps->v[i].why);
}

/* procs_get() - return @pid's entry in @ps, or NULL. */
static struct spdk_proc *procs_get(struct spdk_procs *ps, pid_t pid)
{
	size_t i;

	for (i = 0; i < ps->n; i++)
		if (ps->v[i].pid == pid)
			return &ps->v[i];
	return NULL;
}

/*
 * decide() - decide a pending process's way, if it can be told now, and say
 * so when it is decided.
 */
static void decide(const struct spdk_prog *p, struct spdk_procs *ps,
		   struct spdk_proc *pr, const struct agent_filter *f,
		   bool uprobes, const char *cmd)
{
	char err[256];
	int ret;

	ret = agent_attach(pr->pid, p->role, &pr->a, err, sizeof(err));
	/* Still patching, or its agent not loaded yet: the next look. */
	if (ret == -EAGAIN || (ret == -ENOENT && ++pr->looks < 2))
		return;
	pr->pending = false;
	if (ret == -ENOENT) {
		fprintf(stderr, "ntprof: %s: process %d of %s started: %s\n",
			cmd, (int)pr->pid, p->path, uprobes ?
			"through uprobes (no agent)" :
			"not recorded (no agent, and uprobes need the ntprof module)");
		return;
	}
	if (ret || agent_attach_is_on(&pr->a)) {
		fprintf(stderr, "ntprof: %s: process %d of %s started: not recorded (%s)\n",
			cmd, (int)pr->pid, p->path,
			ret ? err : "its agent is on for another recorder");
		if (!ret)
			agent_detach(&pr->a);
		skip(ps, pr, ret ? err : "its agent is on for another recorder");
		return;
	}
	pr->agent = true;
	ps->nr_agents++;
	agent_attach_counters(&pr->a, &pr->base);
	agent_attach_on(&pr->a, f);
	fprintf(stderr, "ntprof: %s: process %d of %s started: through its agent\n",
		cmd, (int)pr->pid, p->path);
}

void spdk_procs_rescan(struct spdk_prog *p, struct spdk_procs *ps,
		       const struct agent_filter *f, bool uprobes,
		       const char *cmd)
{
	struct spdk_proc *pr;
	size_t i;

	/* Each of them runs the program: its executable is the file. */
	spdk_prog_find_pids(p);
	for (i = 0; i < p->nr_pids; i++) {
		pr = procs_get(ps, p->pids[i]);
		if (!pr) {
			if (ps->n == SPDK_PIDS_MAX)
				continue;
			proc_add(ps, p->pids[i]);
			pr = &ps->v[ps->n - 1];
			pr->late = true;
			pr->pending = true;
		}
		if (pr->pending)
			decide(p, ps, pr, f, uprobes, cmd);
	}
}

void spdk_procs_detach(struct spdk_procs *ps)
{
	size_t i;

	for (i = 0; i < ps->n; i++)
		if (ps->v[i].agent)
			agent_detach(&ps->v[i].a);
	ps->nr_agents = 0;
	ps->nr_skipped = 0;
	ps->n = 0;
}

/* site_at() - return the map's site that the agent lists at @vaddr, or NULL. */
static const struct session_usite *site_at(const struct spdk_prog *p,
					   uint64_t vaddr)
{
	size_t i;

	for (i = 0; i < p->nr_usites; i++)
		if (p->usites[i].vaddr == vaddr)
			return &p->usites[i];
	return NULL;
}

static const char *site_func(const struct spdk_prog *p, uint64_t vaddr)
{
	const struct session_usite *u = site_at(p, vaddr);

	return u ? u->func : NULL;
}

static unsigned int patched(const struct agent_attach *a)
{
	unsigned int i, n = 0;

	for (i = 0; i < a->nr_sites; i++)
		n += agent_attach_site_state(a, i) == AGENT_PATCHED;
	return n;
}

void spdk_procs_print(const struct spdk_prog *p, const struct spdk_procs *ps,
		      FILE *f)
{
	const struct spdk_proc *pr;
	struct agent_counters c;
	const char *func;
	unsigned int k;
	char addr[32];
	size_t i;
	int st;

	for (i = 0; i < ps->n; i++) {
		pr = &ps->v[i];
		if (pr->skipped) {
			fprintf(f, "  %s: skipped, not recorded\n", pr->why);
			continue;
		}
		if (!pr->agent) {
			fprintf(f, "  process %d: uprobes (no agent: it was not started with ntprof run)\n",
				(int)pr->pid);
			continue;
		}
		agent_attach_counters(&pr->a, &c);
		fprintf(f, "  process %d: agent, %u of %u sites patched, %s",
			(int)pr->pid, patched(&pr->a), pr->a.nr_sites,
			agent_attach_is_on(&pr->a) ? "on (a recorder has it)" : "off");
		if (c.expired)
			fprintf(f, " (it turned itself off %llu time%s: a recorder stopped beating)",
				(unsigned long long)c.expired,
				c.expired == 1 ? "" : "s");
		if (c.faults)
			fprintf(f, " (%llu command%s dropped: a pointer of the program's could not be read)",
				(unsigned long long)c.faults,
				c.faults == 1 ? "" : "s");
		fputc('\n', f);
		for (k = 0; k < pr->a.nr_sites; k++) {
			st = agent_attach_site_state(&pr->a, k);
			func = site_func(p, agent_attach_site_vaddr(&pr->a, k));
			snprintf(addr, sizeof(addr), "%#llx", (unsigned long long)
				 agent_attach_site_vaddr(&pr->a, k));
			if (st == AGENT_PATCHED)
				fprintf(f, "    patched  %s\n", func ? func : addr);
			else
				fprintf(f, "    refused  %-36s %s\n",
					func ? func : addr, st < 0 ?
					"not listed" : agent_refusal_str(st));
		}
	}
}

void spdk_procs_line(const struct spdk_procs *ps, FILE *f)
{
	size_t i;

	bool first = true;

	if (ps->n == ps->nr_skipped)
		return;
	fputs("ntprof: SPDK", f);
	/* The skipped ones had a line of their own. */
	for (i = 0; i < ps->n; i++) {
		if (ps->v[i].skipped)
			continue;
		fprintf(f, "%s pid %d through %s", first ? "" : ",",
			(int)ps->v[i].pid,
			ps->v[i].agent ? "the agent" : "uprobes");
		first = false;
	}
	fputc('\n', f);
}

void spdk_procs_on(struct spdk_procs *ps, const struct agent_filter *f)
{
	size_t i;

	for (i = 0; i < ps->n; i++)
		if (ps->v[i].agent)
			agent_attach_on(&ps->v[i].a, f);
}

void spdk_procs_off(struct spdk_procs *ps)
{
	size_t i;

	for (i = 0; i < ps->n; i++)
		if (ps->v[i].agent)
			agent_attach_off(&ps->v[i].a);
}

void spdk_procs_beat(struct spdk_procs *ps, const char *cmd)
{
	size_t i;

	struct spdk_proc *pr;

	for (i = 0; i < ps->n; i++) {
		pr = &ps->v[i];
		if (!pr->agent)
			continue;
		switch (agent_attach_beat(&pr->a)) {
		case AGENT_BEAT_ON:
			break;
		case AGENT_BEAT_AGAIN:
			fprintf(stderr,
				"ntprof: %s: the agent of process %d had turned itself off (no heartbeat for %llu s: was this recorder stopped?); it is on again, its commands meanwhile are not recorded\n",
				cmd, (int)pr->pid,
				AGENT_HEARTBEAT_NS / 1000000000ULL);
			break;
		case AGENT_BEAT_LOST:
			if (pr->lost_said)
				break;
			pr->lost_said = true;
			fprintf(stderr,
				"ntprof: %s: the agent of process %d was taken over by another recorder while this one was stopped; it is left to that one, and its commands from now on are not in this recording\n",
				cmd, (int)pr->pid);
			break;
		}
	}
}

/*
 * stamped() - move the records of @recs (@n of them) that have a stamp to
 * its front, and return how many there are. An agent writes no record
 * without a stamp, so the others are not commands.
 */
static size_t stamped(struct ntprof_record *recs, size_t n)
{
	size_t i, k, kept = 0;

	for (i = 0; i < n; i++)
		for (k = 0; k < NTPROF_RECORD_POINTS; k++)
			if (recs[i].ts[k]) {
				recs[kept++] = recs[i];
				break;
			}
	return kept;
}

int spdk_procs_take(struct spdk_procs *ps, struct ntprof_record *buf,
		    size_t max,
		    int (*fn)(const struct ntprof_record *, size_t, void *),
		    void *data, uint64_t *count)
{
	size_t i, n, kept, budget;
	int err;

	*count = 0;
	for (i = 0; i < ps->n; i++) {
		if (!ps->v[i].agent)
			continue;
		/* The rest, if any, at the next pass. */
		for (budget = SPDK_TAKE_PASS; budget; budget -= n) {
			n = agent_attach_take(&ps->v[i].a, buf,
					      max < budget ? max : budget);
			if (!n)
				break;
			kept = stamped(buf, n);
			if (!kept)
				continue;
			*count += kept;
			err = fn(buf, kept, data);
			if (err)
				return err;
		}
	}
	return 0;
}

void spdk_procs_lost(const struct spdk_procs *ps, uint64_t *drops,
		     uint64_t *evicted)
{
	const struct spdk_proc *pr;
	struct agent_counters c;
	size_t i;

	for (i = 0; i < ps->n; i++) {
		pr = &ps->v[i];
		if (!pr->agent)
			continue;
		agent_attach_counters(&pr->a, &c);
		/* A fault of the handler's cost a record, as a full ring does. */
		*drops += c.drops - pr->base.drops + c.ringless -
			  pr->base.ringless + c.faults - pr->base.faults;
		*evicted += c.evicted - pr->base.evicted;
	}
}

/*
 * hook_add() - append a hook entry of @u's, of @kind, to *@hooks. It returns
 * NULL when memory is short.
 */
static struct ntp_hook *hook_add(struct ntp_hook **hooks, uint32_t *n,
				 const struct spdk_prog *p,
				 const struct session_usite *u, uint8_t kind)
{
	struct ntp_hook *v, *h;

	if (*n >= NTP_HOOKS_MAX)
		return NULL;
	v = realloc(*hooks, (*n + 1) * sizeof(*v));
	if (!v)
		return NULL;
	*hooks = v;
	h = &v[(*n)++];
	memset(h, 0, sizeof(*h));
	h->kind = kind;
	h->role = p->role;
	h->transport = u->transport;
	h->point = u->point;
	h->required = !!(u->flags & (NTPROF_USITE_F_FIRST |
				     NTPROF_USITE_F_LAST));
	h->state = NTPROF_HOOK_ATTACHED;
	return h;
}

int spdk_procs_hooks(const struct spdk_prog *p, const struct spdk_procs *ps,
		     bool uprobes, bool late, struct ntp_hook **hooks,
		     uint32_t *n)
{
	const struct session_usite *u;
	const struct spdk_proc *pr;
	struct ntp_hook *h;
	unsigned int k;
	size_t i;

	for (i = 0; i < ps->n; i++) {
		pr = &ps->v[i];
		for (k = 0; pr->agent && pr->late == late &&
			    k < pr->a.nr_sites; k++) {
			u = site_at(p, agent_attach_site_vaddr(&pr->a, k));
			if (!u)
				continue;
			h = hook_add(hooks, n, p, u, NTPROF_HOOK_AGENT);
			if (!h)
				return -ENOMEM;
			if (agent_attach_site_state(&pr->a, k) != AGENT_PATCHED)
				h->state = NTPROF_HOOK_MISSING;
			snprintf(h->name, sizeof(h->name), "pid %d: %s",
				 (int)pr->pid, u->func ? u->func : "?");
		}
	}
	for (i = 0; uprobes && i < p->nr_usites; i++) {
		u = &p->usites[i];
		h = hook_add(hooks, n, p, u, NTPROF_HOOK_UPROBE);
		if (!h)
			return -ENOMEM;
		snprintf(h->name, sizeof(h->name), "%s", u->func ? u->func : "?");
	}
	return 0;
}
