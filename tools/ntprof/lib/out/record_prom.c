// SPDX-License-Identifier: GPL-2.0
/*
 * ntprof record --prom FILE: the recording's numbers for Prometheus, in
 * the text format that node_exporter's textfile collector reads. FILE is
 * rewritten whole at every interval, atomically (a temporary file in the
 * same directory, then rename()), so that a scrape never sees half of it,
 * and without timestamps, which the textfile collector refuses.
 *
 * Per group of commands and part of their path, the latency as a
 * classic histogram in seconds since the recording started; per group
 * the commands recorded; for the session the kernel's counters. A group
 * is its labels: op, size_bytes, device, transport, and the path's
 * subnqn, traddr, trsvcid and hostnqn, so that a query can sum by any of
 * them and join a host's series with its target's.
 * Documentation/prometheus.rst is the reference of names and labels.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "common/names.h"
#include "common/util.h"
#include "out/prom_text.h"
#include "out/record_prom.h"
#include "out/record_prom_events.h"

/*
 * The parts of a side's path that a histogram is kept of: the stages one
 * side sees, and the two spans the breakdown across machines needs (the
 * host's remote wait, the target's window); Documentation/prometheus.rst.
 */
enum prom_part {
	PP_HOST_BLK,		/* stage host_block_layer */
	PP_HOST_DRV,		/* stage host_driver */
	PP_HOST_RECV,		/* the network stage's host receive path */
	PP_REMOTE_WAIT,		/* HOST_SEND -> HOST_RECV */
	PP_E2E,			/* the host's end to end */
	PP_TGT_DRV,		/* stage target_driver */
	PP_STORAGE,		/* stage storage */
	PP_TGT_WINDOW,		/* TARGET_RECV -> TARGET_END */
	PP_HOST_DATA,		/* the target's network stage: a write's data */

	PP_COUNT
};

static const char * const part_id[PP_COUNT] = {
	[PP_HOST_BLK] = "host_block_layer",
	[PP_HOST_DRV] = "host_driver",
	[PP_HOST_RECV] = "host_receive_path",
	[PP_REMOTE_WAIT] = "remote_wait",
	[PP_E2E] = "end_to_end",
	[PP_TGT_DRV] = "target_driver",
	[PP_STORAGE] = "storage",
	[PP_TGT_WINDOW] = "target_window",
	[PP_HOST_DATA] = "host_data_transfer",
};

/* An op of its own for the overflow series: the classes come first. */
#define PROM_OP_OVERFLOW	NTPROF_OPC_COUNT

/* What makes a group; zeroed whole before it is filled, for memcmp(). */
struct prom_key {
	uint8_t op;		/* enum ntprof_opclass, or PROM_OP_OVERFLOW */
	uint8_t transport;	/* enum ntprof_transport */
	uint32_t size;		/* bytes */
	int32_t path;		/* a path's first controller entry, -1: none */
	char device[NTP_DEV_NAME_MAX + 1];
};

struct prom_group {
	struct prom_key key;
	uint64_t commands;
	struct prom_hist h[PP_COUNT];
};

struct prom {
	const char *path;
	char *tmp;
	uint32_t role;
	struct prom_group *g;
	size_t n, cap;
	size_t nr_groups, nr_overflow;	/* of n: regular, per-path overflow */
	uint64_t overflowed;		/* commands in the overflow series */
	/* The controller table; path_of[i]: the entry whose labels i has. */
	const struct ntp_ctrl *ctrls;
	const prom_nqn *hostnqns;
	int32_t *path_of;
	size_t nr_ctrls;
	/* The last record's entry, looked up once per device. */
	uint32_t last_dev, last_nsid;
	uint8_t last_transport;
	int32_t last_path;
	/* The control-path series (record_prom_events.c). */
	struct prom_ctl *ctl;
};

struct prom *prom_new(const char *path, uint32_t role)
{
	struct prom *p = calloc(1, sizeof(*p));
	size_t len = strlen(path) + 32;

	if (!p)
		return NULL;
	p->tmp = malloc(len);
	p->ctl = prom_ctl_new(role);
	if (!p->tmp || !p->ctl) {
		free(p->tmp);
		prom_ctl_free(p->ctl);
		free(p);
		return NULL;
	}
	/* In FILE's directory, so that rename() stays on one file system. */
	snprintf(p->tmp, len, "%s.tmp.%d", path, (int)getpid());
	p->path = path;
	p->role = role;
	p->last_path = -1;
	return p;
}

void prom_free(struct prom *p)
{
	if (!p)
		return;
	free(p->g);
	prom_ctl_free(p->ctl);
	free(p->path_of);
	free(p->tmp);
	free(p);
}

/* Whether entries @a and @b give the same labels. */
static bool same_path(const struct prom *p, size_t a, size_t b)
{
	return !strcmp(p->ctrls[a].subsysnqn, p->ctrls[b].subsysnqn) &&
	       !strcmp(p->ctrls[a].address, p->ctrls[b].address) &&
	       !strcmp(p->hostnqns[a], p->hostnqns[b]);
}

int prom_paths(struct prom *p, const struct ntp_ctrl *ctrls,
	       const prom_nqn *hostnqns, size_t n)
{
	size_t i, j;

	free(p->path_of);
	p->path_of = NULL;
	p->nr_ctrls = 0;
	p->last_dev = 0;
	p->last_path = -1;
	prom_ctl_table(p->ctl, ctrls, hostnqns, n);
	if (!n)
		return 0;
	p->path_of = calloc(n, sizeof(*p->path_of));
	if (!p->path_of)
		return -ENOMEM;
	p->ctrls = ctrls;
	p->hostnqns = hostnqns;
	p->nr_ctrls = n;
	/*
	 * An entry per namespace: those of one controller (host) or port
	 * and subsystem (target) share their labels, and must share their
	 * series too, or the file would hold one series twice.
	 */
	for (i = 0; i < n; i++) {
		p->path_of[i] = (int32_t)i;
		for (j = 0; j < i; j++)
			if (same_path(p, i, j)) {
				p->path_of[i] = p->path_of[j];
				break;
			}
	}
	return 0;
}

/*
 * The entry of @r's path: a host record's by its disk (a path disk has
 * one controller), a target record's by its backing device, namespace
 * and transport. -1 for none, an SPDK record's among them (SPDK's
 * subsystems are not in the table).
 */
static int32_t path_of(struct prom *p, const struct ntprof_record *r)
{
	const struct ntp_ctrl *c;
	size_t i;

	if (!r->dev)
		return -1;
	if (r->dev == p->last_dev && r->nsid == p->last_nsid &&
	    r->transport == p->last_transport)
		return p->last_path;
	p->last_dev = r->dev;
	p->last_nsid = r->nsid;
	p->last_transport = r->transport;
	p->last_path = -1;
	for (i = 0; i < p->nr_ctrls; i++) {
		c = &p->ctrls[i];
		if (c->dev != r->dev)
			continue;
		if (r->role == NTPROF_ROLE_TARGET &&
		    (c->nsid != r->nsid || c->transport != r->transport))
			continue;
		p->last_path = p->path_of[i];
		break;
	}
	return p->last_path;
}

static struct prom_group *group_find(struct prom *p, const struct prom_key *k)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (!memcmp(&p->g[i].key, k, sizeof(*k)))
			return &p->g[i];
	return NULL;
}

static struct prom_group *group_push(struct prom *p, const struct prom_key *k)
{
	struct prom_group *g;

	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 16;
		g = realloc(p->g, p->cap * sizeof(*g));
		if (!g)
			return NULL;
		p->g = g;
	}
	g = &p->g[p->n++];
	memset(g, 0, sizeof(*g));
	g->key = *k;
	return g;
}

/*
 * @k's group, made if new while there is room; else the overflow series
 * of its path, else the one without a path: at most PROM_GROUPS_MAX +
 * PROM_OVERFLOW_MAX + 1 groups, whatever the records.
 */
static struct prom_group *prom_group(struct prom *p, struct prom_key *k)
{
	struct prom_group *g = group_find(p, k);

	if (g)
		return g;
	if (p->nr_groups < PROM_GROUPS_MAX) {
		g = group_push(p, k);
		p->nr_groups += g != NULL;
		return g;
	}
	k->op = PROM_OP_OVERFLOW;
	k->size = 0;
	memset(k->device, 0, sizeof(k->device));
	g = group_find(p, k);
	if (!g && p->nr_overflow < PROM_OVERFLOW_MAX) {
		g = group_push(p, k);
		p->nr_overflow += g != NULL;
		return g;
	}
	if (g)
		return g;
	k->transport = NTPROF_TRANSPORT_NONE;
	k->path = -1;
	g = group_find(p, k);
	return g ? g : group_push(p, k);
}

/* A side's breakdown into the group's histograms. */
static void parts_add(struct prom_group *g, const struct ntprof_breakdown *bd)
{
	static const struct {
		uint8_t stage;	/* enum ntprof_stage */
		uint8_t part;	/* enum prom_part */
	} map[] = {
		{ NTPROF_STAGE_HOST_BLK, PP_HOST_BLK },
		{ NTPROF_STAGE_HOST_DRV, PP_HOST_DRV },
		{ NTPROF_STAGE_NETWORK, PP_HOST_RECV },
		{ NTPROF_STAGE_NET_TARGET, PP_REMOTE_WAIT },
		{ NTPROF_STAGE_TGT_DRV, PP_TGT_DRV },
		{ NTPROF_STAGE_STORAGE, PP_STORAGE },
	};
	bool target = bd->kind == NTPROF_KIND_TARGET;
	size_t i;
	int s, part;

	/*
	 * A side's breakdown has only its own side's stages; the target's
	 * network stage is a write's data transfer, inside its window.
	 */
	for (i = 0; i < ARRAY_SIZE(map); i++) {
		s = map[i].stage;
		part = map[i].part;
		if (target && s == NTPROF_STAGE_NETWORK)
			part = PP_HOST_DATA;
		if (bd->stage_has & (1U << s))
			prom_hist_add(&g->h[part], bd->stage[s]);
	}
	/*
	 * A target record's end to end is its window, TARGET_RECV (or its
	 * first point) to TARGET_END: what the wire's formula subtracts.
	 */
	if (bd->has & (1U << NTPROF_COMP_E2E))
		prom_hist_add(&g->h[target ? PP_TGT_WINDOW : PP_E2E],
			 bd->comp[NTPROF_COMP_E2E]);
}

int prom_add(struct prom *p, const struct ntprof_record *r,
	     const char *device)
{
	bool host = r->role == NTPROF_ROLE_HOST;
	struct ntprof_breakdown bd;
	struct prom_group *g;
	struct prom_key k;

	if (!ntprof_record_in_sample(r, p->role))
		return 0;
	memset(&k, 0, sizeof(k));
	k.op = ntprof_opclass_of(r->qid, r->opcode);
	k.transport = r->transport;
	k.size = r->length;
	k.path = path_of(p, r);
	snprintf(k.device, sizeof(k.device), "%s", device);
	g = prom_group(p, &k);
	if (!g)
		return -ENOMEM;
	if (g->key.op == PROM_OP_OVERFLOW)
		p->overflowed++;
	g->commands++;
	if (ntprof_breakdown(host ? r : NULL, host ? NULL : r, &bd))
		return 0;
	parts_add(g, &bd);
	return 0;
}

const char *prom_subnqn(struct prom *p, const struct ntprof_record *r)
{
	int32_t path = path_of(p, r);

	return path >= 0 ? p->ctrls[path].subsysnqn : "";
}

void prom_address_part(const char *address, const char *key, char *buf,
		       size_t size)
{
	size_t klen = strlen(key), vlen;
	const char *s = address;

	*buf = '\0';
	while (s && *s) {
		if (!strncmp(s, key, klen) && s[klen] == '=') {
			s += klen + 1;
			vlen = strcspn(s, ",");
			if (vlen >= size)
				vlen = size - 1;
			memcpy(buf, s, vlen);
			buf[vlen] = '\0';
			return;
		}
		s = strchr(s, ',');
		if (s)
			s++;
	}
}

/* A group's labels, from '{' on, without the closing brace. */
static void group_labels(FILE *f, const struct prom *p,
			 const struct prom_group *g)
{
	const struct prom_key *k = &g->key;
	const struct ntp_ctrl *c = k->path >= 0 ? &p->ctrls[k->path] : NULL;
	const char *t = ntprof_transport_id(k->transport);
	char addr[NTP_ADDR_MAX + 1], size[16] = "";

	fprintf(f, "{role=\"%s\"", ntprof_role_name(p->role));
	prom_label(f, "op", k->op == PROM_OP_OVERFLOW ? "overflow" :
			    ntprof_opclass_name(k->op));
	if (k->op != PROM_OP_OVERFLOW)
		snprintf(size, sizeof(size), "%" PRIu32, k->size);
	prom_label(f, "size_bytes", size);
	prom_label(f, "device", k->device);
	prom_label(f, "transport", t ? t : "");
	prom_label(f, "subnqn", c ? c->subsysnqn : "");
	prom_address_part(c ? c->address : "", "traddr", addr, sizeof(addr));
	prom_label(f, "traddr", addr);
	prom_address_part(c ? c->address : "", "trsvcid", addr, sizeof(addr));
	prom_label(f, "trsvcid", addr);
	prom_label(f, "hostnqn", c ? p->hostnqns[k->path] : "");
}

/* A group's histograms, its labels printed once; 0 or -ENOMEM. */
static int hists_write(FILE *f, const struct prom *p,
		       const struct prom_group *g)
{
	char *labels = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&labels, &len);
	int s;

	if (!m)
		return -ENOMEM;
	group_labels(m, p, g);
	if (fclose(m)) {
		free(labels);
		return -ENOMEM;
	}
	for (s = 0; s < PP_COUNT; s++)
		if (g->h[s].n)
			prom_hist_write(f, "ntprof_stage_latency_seconds",
					labels, part_id[s], &g->h[s]);
	free(labels);
	return 0;
}

static int prom_hists(FILE *f, const struct prom *p)
{
	size_t i;

	fputs("# HELP ntprof_stage_latency_seconds Time of each part of the sampled commands' path since the recording started (Documentation/prometheus.rst).\n"
	      "# TYPE ntprof_stage_latency_seconds histogram\n", f);
	for (i = 0; i < p->n; i++)
		if (hists_write(f, p, &p->g[i]))
			return -ENOMEM;
	fputs("# HELP ntprof_group_commands_total Sampled commands recorded, per group.\n"
	      "# TYPE ntprof_group_commands_total counter\n", f);
	for (i = 0; i < p->n; i++) {
		fputs("ntprof_group_commands_total", f);
		group_labels(f, p, &p->g[i]);
		fprintf(f, "} %" PRIu64 "\n", p->g[i].commands);
	}
	return 0;
}

static void prom_session(FILE *f, const char *role,
			 const struct prom_counters *c)
{
	prom_counter(f, "ntprof_commands_seen_total",
		     "Commands the session's first hooks saw.", role, c->seen);
	prom_counter(f, "ntprof_commands_sampled_total",
		     "Commands the 1-in-N sampling picked.", role, c->sampled);
	prom_counter(f, "ntprof_records_total",
		     "Records the kernel handed to the recorder.", role,
		     c->records);
	prom_counter(f, "ntprof_records_dropped_total",
		     "Records the kernel's full buffers dropped.", role,
		     c->drops);
	prom_counter(f, "ntprof_inflight_evicted_total",
		     "Commands evicted from the full in-flight table.", role,
		     c->evicted);
}

struct prom_print {
	const struct prom *p;
	const struct prom_counters *c;
};

static int prom_print(FILE *f, const void *arg)
{
	const struct prom_print *pp = arg;
	const char *role = ntprof_role_name(pp->p->role);

	if (prom_hists(f, pp->p))
		return -ENOMEM;
	prom_counter(f, "ntprof_overflow_commands_total",
		     "Sampled commands of groups beyond the cap, in op=\"overflow\" series.",
		     role, pp->p->overflowed);
	if (pp->c)
		prom_session(f, role, pp->c);
	return prom_ctl_print(f, pp->p->ctl);
}

int prom_events(struct prom *p, const struct ntp_event *ev, size_t n,
		uint64_t drops, uint64_t start_ns)
{
	return prom_ctl_add(p->ctl, ev, n, drops, start_ns);
}

void prom_events_sysfs(struct prom *p, const char *dir)
{
	prom_ctl_sysfs(p->ctl, dir);
}

int prom_write(struct prom *p, const struct prom_counters *c)
{
	struct prom_print pp = { p, c };

	return prom_file_write(p->path, p->tmp, prom_print, &pp);
}
