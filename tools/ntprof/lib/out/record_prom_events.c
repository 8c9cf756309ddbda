// SPDX-License-Identifier: GPL-2.0
/*
 * record --prom's control-path series: the episodes that
 * analysis/ctl_events.c makes of the events drained so far, per host
 * controller, counted as ntprof report counts them, so that the file's
 * counters at the end of a recording are the report's.
 *
 * The raw events of a controller are kept only until it is quiet again:
 * after a change to live or to deleting that the kernel made, the
 * pairing's state for it is what it is before any event (no episode
 * open, no reset asked), so the episodes up to there are final. They are
 * added to the controller's series and their events dropped; what is left
 * is an episode still open, paired again at each write. Memory thus holds
 * the events of the outages under way, whatever the recording's length.
 *
 * A controller's labels are its path's, as the other series have them:
 * from the controller table of the recording's start for a controller in
 * it, else read from sysfs once the controller is live (the kernel's
 * subsysnqn attribute dereferences the controller's subsystem, which a
 * controller being connected for the first time does not have yet). A
 * controller deleted before they could be read keeps its name with the
 * path's labels empty. Its series appear once its labels are known; an
 * instance number used again after a delete is a new controller, read
 * anew. Documentation/prometheus.rst names the metrics.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/ctl_events.h"
#include "common/names.h"
#include "common/util.h"
#include "out/prom_text.h"
#include "out/record_prom.h"
#include "out/record_prom_events.h"

/* The episodes' kinds, as ntprof_ctl_kind_name() names them. */
#define PC_KINDS	(NTPROF_CTL_DELETE + 1)

/*
 * Series of their own: past these, a controller's further incarnations
 * (instance numbers used again for other subsystems) share one series of
 * their controller with the path's labels empty.
 */
#define PROM_CTL_SERIES_MAX	256

struct pc_labels {
	char subnqn[NTP_NQN_MAX + 1];
	char traddr[NTP_ADDR_MAX + 1];
	char trsvcid[NTP_ADDR_MAX + 1];
	char hostnqn[NTP_NQN_MAX + 1];
	char transport[32];
};

struct pc_counts {
	uint64_t n[PC_KINDS];	/* episodes */
	uint64_t ns[PC_KINDS];	/* durations of those that ended */
};

struct pc_series {
	uint32_t ctrl;
	struct pc_labels l;
	struct pc_counts c;
};

struct pc_ctrl {
	uint32_t ctrl;
	/* Its events since it was last quiet, in the module's order. */
	struct ntp_event *pend;
	size_t npend, cap;
	/* The current incarnation's series, or -1 while its labels wait. */
	long series;
	/* The current incarnation's final episodes while its labels wait. */
	struct pc_counts acc;
	/* No incarnation of it ended: the table's entry is its own. */
	bool first;
};

struct prom_ctl {
	uint32_t role;
	const char *sysfs;
	const struct ntp_ctrl *tab;
	const char (*hostnqns)[NTP_NQN_MAX + 1];
	size_t ntab;
	struct pc_ctrl *c;
	size_t nc;
	struct pc_series *s;
	size_t ns;
	uint64_t drops;
	uint64_t start_ns;
};

struct prom_ctl *prom_ctl_new(uint32_t role)
{
	struct prom_ctl *pc = calloc(1, sizeof(*pc));

	if (pc) {
		pc->role = role;
		pc->sysfs = PROM_CTL_SYSFS;
	}
	return pc;
}

void prom_ctl_free(struct prom_ctl *pc)
{
	size_t i;

	if (!pc)
		return;
	for (i = 0; i < pc->nc; i++)
		free(pc->c[i].pend);
	free(pc->c);
	free(pc->s);
	free(pc);
}

void prom_ctl_sysfs(struct prom_ctl *pc, const char *dir)
{
	pc->sysfs = dir;
}

void prom_ctl_table(struct prom_ctl *pc, const struct ntp_ctrl *ctrls,
		    const char (*hostnqns)[NTP_NQN_MAX + 1], size_t n)
{
	pc->tab = ctrls;
	pc->hostnqns = hostnqns;
	pc->ntab = n;
}

static struct pc_ctrl *ctrl_get(struct prom_ctl *pc, uint32_t ctrl)
{
	struct pc_ctrl *c;
	size_t i;

	for (i = 0; i < pc->nc; i++)
		if (pc->c[i].ctrl == ctrl)
			return &pc->c[i];
	c = realloc(pc->c, (pc->nc + 1) * sizeof(*c));
	if (!c)
		return NULL;
	pc->c = c;
	c = &c[pc->nc++];
	memset(c, 0, sizeof(*c));
	c->ctrl = ctrl;
	c->series = -1;
	c->first = true;
	return c;
}

static int pend_push(struct pc_ctrl *c, const struct ntp_event *ev)
{
	struct ntp_event *p;

	if (c->npend == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 8;

		p = realloc(c->pend, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		c->pend = p;
		c->cap = cap;
	}
	c->pend[c->npend++] = *ev;
	return 0;
}

/* Whether @ev leaves its controller quiet: a made change to live or deleting. */
static bool quiet_after(const struct ntp_event *ev)
{
	return ev->type == NTPROF_EVENT_CTRL_STATE &&
	       (ev->new_state == NTPROF_CTRL_LIVE ||
		ev->new_state == NTPROF_CTRL_DELETING) &&
	       ntprof_ctl_change_made(ev->old_state, ev->new_state);
}

static void counts_add(struct pc_counts *c, const struct ntprof_ctl_event *e)
{
	if (e->kind >= PC_KINDS)
		return;
	c->n[e->kind]++;
	/* The report's duration: an episode with an end, not a delete. */
	if (e->kind != NTPROF_CTL_DELETE && e->end_ns)
		c->ns[e->kind] += e->end_ns - e->start_ns;
}

/* The first line of @dir/@name into @buf; -1 when it cannot be read. */
static int read_line(const char *dir, const char *name, char *buf,
		     size_t size)
{
	char path[512];
	FILE *f;

	*buf = '\0';
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, (int)size, f))
		*buf = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* The table's labels of @ctrl; false when it has no entry. */
static bool labels_table(const struct prom_ctl *pc, uint32_t ctrl,
			 struct pc_labels *l)
{
	const char *t;
	char name[32];
	size_t i;

	snprintf(name, sizeof(name), "nvme%" PRIu32, ctrl);
	for (i = 0; i < pc->ntab; i++) {
		if (strcmp(pc->tab[i].name, name))
			continue;
		snprintf(l->subnqn, sizeof(l->subnqn), "%s",
			 pc->tab[i].subsysnqn);
		prom_address_part(pc->tab[i].address, "traddr", l->traddr,
				  sizeof(l->traddr));
		prom_address_part(pc->tab[i].address, "trsvcid", l->trsvcid,
				  sizeof(l->trsvcid));
		snprintf(l->hostnqn, sizeof(l->hostnqn), "%s",
			 pc->hostnqns ? pc->hostnqns[i] : "");
		t = ntprof_transport_id(pc->tab[i].transport);
		snprintf(l->transport, sizeof(l->transport), "%s", t ? t : "");
		return true;
	}
	return false;
}

/* The labels of live controller @ctrl from sysfs; false when it is gone. */
static bool labels_sysfs(const struct prom_ctl *pc, uint32_t ctrl,
			 struct pc_labels *l)
{
	char dir[256], addr[NTP_ADDR_MAX + 1];
	struct stat sb;

	snprintf(dir, sizeof(dir), "%s/nvme%" PRIu32, pc->sysfs, ctrl);
	if (stat(dir, &sb) || !S_ISDIR(sb.st_mode))
		return false;
	/* What cannot be read stays empty, as in the other series. */
	read_line(dir, "subsysnqn", l->subnqn, sizeof(l->subnqn));
	read_line(dir, "address", addr, sizeof(addr));
	prom_address_part(addr, "traddr", l->traddr, sizeof(l->traddr));
	prom_address_part(addr, "trsvcid", l->trsvcid, sizeof(l->trsvcid));
	read_line(dir, "hostnqn", l->hostnqn, sizeof(l->hostnqn));
	read_line(dir, "transport", l->transport, sizeof(l->transport));
	return true;
}

/*
 * series_of() - the series of @ctrl with labels @l, made if new; past
 * PROM_CTL_SERIES_MAX, the one of @ctrl with empty labels. -1: no memory.
 */
static long series_of(struct prom_ctl *pc, uint32_t ctrl,
		      const struct pc_labels *l)
{
	static const struct pc_labels none;
	struct pc_series *s;
	size_t i;

	for (i = 0; i < pc->ns; i++)
		if (pc->s[i].ctrl == ctrl && !memcmp(&pc->s[i].l, l, sizeof(*l)))
			return (long)i;
	if (pc->ns >= PROM_CTL_SERIES_MAX && memcmp(l, &none, sizeof(*l)))
		return series_of(pc, ctrl, &none);
	s = realloc(pc->s, (pc->ns + 1) * sizeof(*s));
	if (!s)
		return -1;
	pc->s = s;
	s = &s[pc->ns];
	memset(s, 0, sizeof(*s));
	s->ctrl = ctrl;
	s->l = *l;
	return (long)pc->ns++;
}

/* resolve() - give @c's current incarnation its series, labelled @l. */
static int resolve(struct prom_ctl *pc, struct pc_ctrl *c,
		   const struct pc_labels *l)
{
	long i = series_of(pc, c->ctrl, l);
	int k;

	if (i < 0)
		return -ENOMEM;
	for (k = 0; k < PC_KINDS; k++) {
		pc->s[i].c.n[k] += c->acc.n[k];
		pc->s[i].c.ns[k] += c->acc.ns[k];
	}
	memset(&c->acc, 0, sizeof(c->acc));
	c->series = i;
	return 0;
}

/*
 * fold() - add the episodes of @c's first @n pending events, which leave
 * it quiet, to its incarnations' counts, and drop those events.
 */
static int fold(struct prom_ctl *pc, struct pc_ctrl *c, size_t n)
{
	struct ntprof_ctl_event *e = NULL;
	struct pc_labels l;
	size_t ne = 0, cap = 0, i;
	int err;

	err = ntprof_ctl_events(c->pend, n, pc->start_ns, 0, &e, &ne, &cap);
	for (i = 0; i < ne && !err; i++) {
		if (e[i].kind == NTPROF_CTL_DELETE && c->series < 0) {
			/* Gone: the table's labels, or none. */
			memset(&l, 0, sizeof(l));
			if (c->first)
				labels_table(pc, c->ctrl, &l);
			err = resolve(pc, c, &l);
			if (err)
				break;
		}
		counts_add(c->series >= 0 ? &pc->s[c->series].c : &c->acc,
			   &e[i]);
		if (e[i].kind == NTPROF_CTL_DELETE) {
			/* The instance number may come back: a new controller. */
			c->series = -1;
			c->first = false;
		}
	}
	free(e);
	if (err)
		return err;
	memmove(c->pend, c->pend + n, (c->npend - n) * sizeof(*c->pend));
	c->npend -= n;
	return 0;
}

/* Whether @c's pending events leave an episode open; -ENOMEM. */
static int pending_open(const struct prom_ctl *pc, const struct pc_ctrl *c,
			struct pc_counts *cnt)
{
	struct ntprof_ctl_event *e = NULL;
	size_t ne = 0, cap = 0, i;
	int open = 0;

	if (ntprof_ctl_events(c->pend, c->npend, pc->start_ns, 0, &e, &ne,
			      &cap)) {
		free(e);
		return -ENOMEM;
	}
	for (i = 0; i < ne; i++) {
		if (cnt)
			counts_add(cnt, &e[i]);
		if (e[i].kind != NTPROF_CTL_DELETE && !e[i].end_ns)
			open = 1;
	}
	free(e);
	return open;
}

static bool acc_any(const struct pc_counts *c)
{
	int k;

	for (k = 0; k < PC_KINDS; k++)
		if (c->n[k])
			return true;
	return false;
}

/* labels_try() - give @c's incarnation its labels if they can be read. */
static int labels_try(struct prom_ctl *pc, struct pc_ctrl *c)
{
	struct pc_labels l;
	int open;

	if (c->series >= 0)
		return 0;
	memset(&l, 0, sizeof(l));
	if (c->first && labels_table(pc, c->ctrl, &l))
		return resolve(pc, c, &l);
	open = pending_open(pc, c, NULL);
	if (open < 0)
		return open;
	/* Before it is live, or once it is gone, they wait. */
	if (open || !labels_sysfs(pc, c->ctrl, &l))
		return 0;
	return resolve(pc, c, &l);
}

int prom_ctl_add(struct prom_ctl *pc, const struct ntp_event *ev, size_t n,
		 uint64_t drops, uint64_t start_ns)
{
	struct pc_ctrl *c;
	size_t i, j, q;
	int err;

	pc->start_ns = start_ns;
	if (drops > pc->drops)
		pc->drops = drops;
	for (i = 0; i < n; i++) {
		/*
		 * A target's controllers (nvmet's, by their cntlid) are not
		 * the machine's NVMe controllers: no series of their own.
		 */
		if (ev[i].type == NTPROF_EVENT_TARGET_CTRL_CREATED ||
		    ev[i].type == NTPROF_EVENT_TARGET_CTRL_FREED)
			continue;
		c = ctrl_get(pc, ev[i].ctrl);
		if (!c || pend_push(c, &ev[i]))
			return -ENOMEM;
	}
	for (i = 0; i < pc->nc; i++) {
		c = &pc->c[i];
		for (q = 0, j = 0; j < c->npend; j++)
			if (quiet_after(&c->pend[j]))
				q = j + 1;
		err = q ? fold(pc, c, q) : 0;
		if (!err && c->series < 0 && (c->npend || acc_any(&c->acc)))
			err = labels_try(pc, c);
		if (err)
			return err;
	}
	return 0;
}

/* The series' labels, from '{' on, without the closing brace. */
static void labels_print(FILE *f, const struct prom_ctl *pc,
			 const struct pc_series *s)
{
	char name[32];

	snprintf(name, sizeof(name), "nvme%" PRIu32, s->ctrl);
	fprintf(f, "{role=\"%s\"", ntprof_role_name(pc->role));
	prom_label(f, "controller", name);
	prom_label(f, "transport", s->l.transport);
	prom_label(f, "subnqn", s->l.subnqn);
	prom_label(f, "traddr", s->l.traddr);
	prom_label(f, "trsvcid", s->l.trsvcid);
	prom_label(f, "hostnqn", s->l.hostnqn);
}

/* Each series' counts with its controller's open episodes, and its gauge. */
struct pc_view {
	struct pc_counts c;
	int out;
};

static int views_make(const struct prom_ctl *pc, struct pc_view *v)
{
	const struct pc_ctrl *c;
	size_t i;
	int open;

	for (i = 0; i < pc->ns; i++)
		v[i].c = pc->s[i].c;
	for (i = 0; i < pc->nc; i++) {
		c = &pc->c[i];
		if (c->series < 0 || !c->npend)
			continue;
		open = pending_open(pc, c, &v[c->series].c);
		if (open < 0)
			return open;
		v[c->series].out |= open;
	}
	return 0;
}

int prom_ctl_print(FILE *f, const struct prom_ctl *pc)
{
	struct pc_view *v;
	size_t i;
	int k;

	if (pc->role != NTPROF_ROLE_HOST)
		return 0;
	v = calloc(pc->ns ? pc->ns : 1, sizeof(*v));
	if (!v || views_make(pc, v)) {
		free(v);
		return -ENOMEM;
	}
	fputs("# HELP ntprof_ctrl_events_total Control-path episodes of the controller, by event (connect, reset, loss, recovery, delete), as ntprof report lists them.\n"
	      "# TYPE ntprof_ctrl_events_total counter\n", f);
	for (i = 0; i < pc->ns; i++)
		for (k = 0; k < PC_KINDS; k++) {
			fputs("ntprof_ctrl_events_total", f);
			labels_print(f, pc, &pc->s[i]);
			fprintf(f, ",event=\"%s\"} %" PRIu64 "\n",
				ntprof_ctl_kind_name(k), v[i].c.n[k]);
		}
	fputs("# HELP ntprof_ctrl_event_seconds_total Durations of the controller's episodes that ended, by event: connect, reset, loss, recovery.\n"
	      "# TYPE ntprof_ctrl_event_seconds_total counter\n", f);
	for (i = 0; i < pc->ns; i++)
		for (k = 0; k < PC_KINDS; k++) {
			if (k == NTPROF_CTL_DELETE)
				continue;
			fputs("ntprof_ctrl_event_seconds_total", f);
			labels_print(f, pc, &pc->s[i]);
			fprintf(f, ",event=\"%s\"} %.9f\n",
				ntprof_ctl_kind_name(k), v[i].c.ns[k] / 1e9);
		}
	fputs("# HELP ntprof_ctrl_out 1 while an episode of the controller is open (not live since a connect, reset, loss or recovery), else 0.\n"
	      "# TYPE ntprof_ctrl_out gauge\n", f);
	for (i = 0; i < pc->ns; i++) {
		fputs("ntprof_ctrl_out", f);
		labels_print(f, pc, &pc->s[i]);
		fprintf(f, "} %d\n", v[i].out);
	}
	prom_counter(f, "ntprof_ctrl_events_dropped_total",
		     "Control-path events the module's full buffer dropped.",
		     ntprof_role_name(pc->role), pc->drops);
	free(v);
	return 0;
}
