// SPDX-License-Identifier: GPL-2.0
/*
 * A middle's chain for Prometheus, live: the records of its target side
 * (upstream) and of its host side (downstream, the legs) are kept as they
 * come, and linked window by window with the report's rule
 * (ntprof_chain_link(), chain_link.c) on the middle's one clock. Each
 * upstream command taken gives the middle stage, its storage less its
 * critical leg's end to end (the leg that completed last), as the report
 * computes it (chain.c); each downstream command linked gives its leg's
 * host stages, its count and whether it was critical.
 *
 * A record's link partner may come in a later window: a downstream
 * command completes before the upstream command that caused it, and a
 * second upstream command of the same range may still be in flight. So
 * an upstream record is taken only once it ended before the previous
 * window's safe point (every record that ended by then, of both roles,
 * had been added); what is not taken is linked again at the next
 * window. The carry-over is bounded by time, one window: a command whose
 * partner ends more than a window after it is counted without it.
 * Documentation/prometheus.rst ("A chain's middle") names the metrics.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "analysis/chain.h"
#include "analysis/recording.h"
#include "common/util.h"
#include "ntp/ntp.h"
#include "out/chain_prom.h"
#include "out/prom_text.h"

/* Device names met; later ones are "". */
#define CP_NAMES_MAX	128

/* What a series holds a histogram of. */
enum cp_part {
	CP_MIDDLE,		/* the middle's own time */
	CP_HOST_BLK,		/* a leg's stage host_block_layer */
	CP_HOST_DRV,		/* stage host_driver */
	CP_HOST_RECV,		/* the network stage's host receive path */
	CP_REMOTE_WAIT,		/* HOST_SEND -> HOST_RECV */
	CP_E2E,			/* the leg command's end to end */

	CP_COUNT
};

static const char * const cp_part_id[CP_COUNT] = {
	[CP_MIDDLE] = "middle",
	[CP_HOST_BLK] = "host_block_layer",
	[CP_HOST_DRV] = "host_driver",
	[CP_HOST_RECV] = "host_receive_path",
	[CP_REMOTE_WAIT] = "remote_wait",
	[CP_E2E] = "end_to_end",
};

#define CP_OP_OVERFLOW	NTPROF_OPC_COUNT

/* The upstream command's group and the leg: -1 for the middle's. */
struct cp_key {
	uint8_t op;
	uint32_t size;
	uint16_t dev;		/* of names */
	uint16_t subnqn;	/* of names */
	int32_t leg;		/* of names, -1: the middle */
};

struct cp_series {
	struct cp_key key;
	uint64_t commands;
	uint64_t critical;
	struct prom_hist h[CP_COUNT];
};

/* Records waiting for their partner, with their names. */
struct cp_side {
	struct ntprof_record *r;
	uint16_t *dev;
	uint16_t *subnqn;
	size_t n, cap;
};

struct chain_prom {
	const char *path;
	char *tmp;
	uint64_t offset[2];	/* [0] upstream, [1] downstream */
	struct cp_side side[2];
	uint64_t cut;		/* the previous settle's safe point */
	char names[CP_NAMES_MAX][NTP_NQN_MAX + 1];
	size_t nr_names;
	struct cp_series *s;
	size_t n, cap;
	/* Downstream records as linking left them (enum ntprof_chain_state). */
	uint64_t state[NTPROF_CHAIN_OUTSIDE + 1];
	uint64_t upstream;	/* upstream commands taken */
	uint64_t dropped;	/* records not kept: too many waiting */
	uint64_t overflowed;	/* commands in the overflow series */
};

struct chain_prom *chain_prom_new(const char *path, uint64_t up_offset,
				  uint64_t down_offset)
{
	struct chain_prom *cp = calloc(1, sizeof(*cp));
	size_t len = strlen(path) + 32;

	if (!cp)
		return NULL;
	cp->tmp = malloc(len);
	if (!cp->tmp) {
		free(cp);
		return NULL;
	}
	/* In FILE's directory, so that rename() stays on one file system. */
	snprintf(cp->tmp, len, "%s.tmp.%d", path, (int)getpid());
	cp->path = path;
	cp->offset[0] = up_offset;
	cp->offset[1] = down_offset;
	/* Name 0 is "": unknown, and every name past the table's end. */
	cp->nr_names = 1;
	return cp;
}

void chain_prom_free(struct chain_prom *cp)
{
	int i;

	if (!cp)
		return;
	for (i = 0; i < 2; i++) {
		free(cp->side[i].r);
		free(cp->side[i].dev);
		free(cp->side[i].subnqn);
	}
	free(cp->s);
	free(cp->tmp);
	free(cp);
}

static uint16_t name_of(struct chain_prom *cp, const char *name)
{
	size_t i;

	if (!name || !*name)
		return 0;
	for (i = 1; i < cp->nr_names; i++)
		if (!strcmp(cp->names[i], name))
			return (uint16_t)i;
	if (cp->nr_names == CP_NAMES_MAX)
		return 0;
	snprintf(cp->names[cp->nr_names], sizeof(cp->names[0]), "%s", name);
	return (uint16_t)cp->nr_names++;
}

static int side_grow(struct cp_side *sd)
{
	size_t cap = sd->cap ? 2 * sd->cap : 1024;
	void *r, *d, *q;

	r = realloc(sd->r, cap * sizeof(*sd->r));
	if (!r)
		return -ENOMEM;
	sd->r = r;
	d = realloc(sd->dev, cap * sizeof(*sd->dev));
	if (!d)
		return -ENOMEM;
	sd->dev = d;
	q = realloc(sd->subnqn, cap * sizeof(*sd->subnqn));
	if (!q)
		return -ENOMEM;
	sd->subnqn = q;
	sd->cap = cap;
	return 0;
}

int chain_prom_add(struct chain_prom *cp, const struct ntprof_record *r,
		   const char *device, const char *subnqn)
{
	struct cp_side *sd = &cp->side[r->role == NTPROF_ROLE_HOST];

	if (sd->n == CHAIN_PROM_PENDING_MAX) {
		cp->dropped++;
		return 0;
	}
	if (sd->n == sd->cap && side_grow(sd))
		return -ENOMEM;
	sd->r[sd->n] = *r;
	sd->dev[sd->n] = name_of(cp, device);
	sd->subnqn[sd->n] = name_of(cp, subnqn);
	sd->n++;
	return 0;
}

/* A record's last point: when it ended. */
/* @k's series, made while there is room, else the overflow's; NULL: ENOMEM. */
static struct cp_series *series_of(struct chain_prom *cp, struct cp_key *k,
				   bool *overflow)
{
	struct cp_series *s;
	size_t i;

	*overflow = false;
	for (;;) {
		for (i = 0; i < cp->n; i++)
			if (!memcmp(&cp->s[i].key, k, sizeof(*k)))
				return &cp->s[i];
		if (cp->n < CHAIN_PROM_SERIES_MAX || k->op == CP_OP_OVERFLOW)
			break;
		/* One overflow series per leg and the middle's: few. */
		*overflow = true;
		k->op = CP_OP_OVERFLOW;
		k->size = 0;
		k->dev = 0;
		k->subnqn = 0;
	}
	*overflow = k->op == CP_OP_OVERFLOW;
	if (cp->n == cp->cap) {
		cp->cap = cp->cap ? 2 * cp->cap : 16;
		s = realloc(cp->s, cp->cap * sizeof(*s));
		if (!s)
			return NULL;
		cp->s = s;
	}
	s = &cp->s[cp->n++];
	memset(s, 0, sizeof(*s));
	s->key = *k;
	return s;
}

/* A leg command's host stages into its series. */
static void leg_parts(struct cp_series *s, const struct ntprof_breakdown *bd)
{
	static const struct {
		uint8_t stage;
		uint8_t part;
	} map[] = {
		{ NTPROF_STAGE_HOST_BLK, CP_HOST_BLK },
		{ NTPROF_STAGE_HOST_DRV, CP_HOST_DRV },
		{ NTPROF_STAGE_NETWORK, CP_HOST_RECV },
		{ NTPROF_STAGE_NET_TARGET, CP_REMOTE_WAIT },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(map); i++)
		if (bd->stage_has & (1U << map[i].stage))
			prom_hist_add(&s->h[map[i].part], bd->stage[map[i].stage]);
	if (bd->has & (1U << NTPROF_COMP_E2E))
		prom_hist_add(&s->h[CP_E2E], bd->comp[NTPROF_COMP_E2E]);
}

/*
 * Upstream record @u taken with its linked downstream records: the
 * middle's series and each leg's. 0 or -ENOMEM.
 */
static int take(struct chain_prom *cp, const struct ntprof_chain_links *l,
		uint32_t u)
{
	const struct cp_side *up = &cp->side[0], *down = &cp->side[1];
	const struct ntprof_record *t = &up->r[u], *d;
	struct ntprof_breakdown tbd, dbd;
	struct cp_key key;
	struct cp_series *s;
	uint64_t last, best = 0;
	uint32_t k, crit = NTPROF_CHAIN_NONE;
	bool of;

	if (l->first[u] == l->first[u + 1])
		return 0;
	memset(&key, 0, sizeof(key));
	key.op = ntprof_opclass_of(t->qid, t->opcode);
	key.size = t->length;
	key.dev = up->dev[u];
	key.subnqn = up->subnqn[u];
	for (k = l->first[u]; k < l->first[u + 1]; k++) {
		last = recording_last_point(&down->r[l->down[k]], 1);
		if (crit == NTPROF_CHAIN_NONE || last > best) {
			crit = l->down[k];
			best = last;
		}
	}
	for (k = l->first[u]; k < l->first[u + 1]; k++) {
		d = &down->r[l->down[k]];
		key.leg = down->dev[l->down[k]];
		s = series_of(cp, &key, &of);
		if (!s)
			return -ENOMEM;
		cp->overflowed += of;
		s->commands++;
		s->critical += l->down[k] == crit;
		if (!ntprof_breakdown(d, NULL, &dbd))
			leg_parts(s, &dbd);
	}
	key.op = ntprof_opclass_of(t->qid, t->opcode);
	key.size = t->length;
	key.dev = up->dev[u];
	key.subnqn = up->subnqn[u];
	key.leg = -1;
	s = series_of(cp, &key, &of);
	if (!s)
		return -ENOMEM;
	cp->overflowed += of;
	cp->upstream++;
	s->commands++;
	/* The report's middle: the storage less the critical leg's end to end. */
	if (!ntprof_breakdown(NULL, t, &tbd) &&
	    (tbd.stage_has & (1U << NTPROF_STAGE_STORAGE)) &&
	    !ntprof_breakdown(&down->r[crit], NULL, &dbd) &&
	    (dbd.has & (1U << NTPROF_COMP_E2E)))
		prom_hist_add(&s->h[CP_MIDDLE], tbd.stage[NTPROF_STAGE_STORAGE] -
					   dbd.comp[NTPROF_COMP_E2E]);
	return 0;
}

/* Keeps the records of @sd not marked in @gone, in their order. */
static void side_compact(struct cp_side *sd, const uint8_t *gone)
{
	size_t i, j = 0;

	for (i = 0; i < sd->n; i++) {
		if (gone[i])
			continue;
		if (j != i) {
			sd->r[j] = sd->r[i];
			sd->dev[j] = sd->dev[i];
			sd->subnqn[j] = sd->subnqn[i];
		}
		j++;
	}
	sd->n = j;
}

int chain_prom_settle(struct chain_prom *cp, uint64_t safe)
{
	struct cp_side *up = &cp->side[0], *down = &cp->side[1];
	struct ntprof_chain_side us = { up->r, up->n, cp->offset[0] };
	struct ntprof_chain_side ds = { down->r, down->n, cp->offset[1] };
	uint64_t cut = safe == UINT64_MAX ? safe : cp->cut;
	struct ntprof_chain_links l;
	uint8_t *gone_up, *gone_down;
	size_t i;
	uint32_t k;
	int err;

	cp->cut = safe;
	err = ntprof_chain_link(&us, 1, &ds, 1, &l);
	gone_up = calloc(up->n + 1, 1);
	gone_down = calloc(down->n + 1, 1);
	if (err || !gone_up || !gone_down) {
		err = err ? err : -ENOMEM;
		goto out;
	}
	for (i = 0; i < up->n; i++) {
		if (recording_last_point(&up->r[i], 1) > cut)
			continue;
		err = take(cp, &l, (uint32_t)i);
		if (err)
			goto out;
		gone_up[i] = 1;
		for (k = l.first[i]; k < l.first[i + 1]; k++)
			gone_down[l.down[k]] = 1;
	}
	for (i = 0; i < down->n; i++) {
		if (l.state[i] == NTPROF_CHAIN_LINKED) {
			cp->state[NTPROF_CHAIN_LINKED] += gone_down[i];
			continue;
		}
		/*
		 * Outside the links whatever comes; without an upstream
		 * record, or with several, once it could have come.
		 */
		if (l.state[i] != NTPROF_CHAIN_OUTSIDE &&
		    recording_last_point(&down->r[i], 1) > cut)
			continue;
		cp->state[l.state[i]]++;
		gone_down[i] = 1;
	}
	side_compact(up, gone_up);
	side_compact(down, gone_down);
out:
	ntprof_chain_links_free(&l);
	free(gone_up);
	free(gone_down);
	return err;
}

/* Output */

/* A series' labels from '{' on, without the closing brace. */
static void series_labels(FILE *f, const struct chain_prom *cp,
			  const struct cp_series *s)
{
	const struct cp_key *k = &s->key;
	char size[16] = "";

	fputs("{role=\"middle\"", f);
	prom_label(f, "op", k->op == CP_OP_OVERFLOW ? "overflow" :
			  ntprof_opclass_name(k->op));
	if (k->op != CP_OP_OVERFLOW)
		snprintf(size, sizeof(size), "%" PRIu32, k->size);
	prom_label(f, "size_bytes", size);
	prom_label(f, "device", cp->names[k->dev]);
	prom_label(f, "subnqn", cp->names[k->subnqn]);
	/*
	 * As a chain of one middle numbers them: the middle ends hop 1, its
	 * legs are hop 2 (the middle cannot see the hops above it).
	 */
	prom_label(f, "hop", k->leg < 0 ? "1" : "2");
	prom_label(f, "leg", k->leg < 0 ? "" : cp->names[k->leg]);
}

/* A series' histograms, its labels printed once; 0 or -ENOMEM. */
static int hists_write(FILE *f, const struct chain_prom *cp,
		       const struct cp_series *s)
{
	char *labels = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&labels, &len);
	int p;

	if (!m)
		return -ENOMEM;
	series_labels(m, cp, s);
	if (fclose(m)) {
		free(labels);
		return -ENOMEM;
	}
	for (p = 0; p < CP_COUNT; p++)
		if (s->h[p].n)
			prom_hist_write(f, "ntprof_chain_stage_latency_seconds",
					labels, cp_part_id[p], &s->h[p]);
	free(labels);
	return 0;
}

/* A counter per series, of the legs' (@legs) or the middle's. */
static void series_counter(FILE *f, const struct chain_prom *cp,
			   const char *name, const char *help, bool legs,
			   bool critical)
{
	size_t i;

	fprintf(f, "# HELP %s %s\n# TYPE %s counter\n", name, help, name);
	for (i = 0; i < cp->n; i++) {
		if ((cp->s[i].key.leg >= 0) != legs)
			continue;
		fputs(name, f);
		series_labels(f, cp, &cp->s[i]);
		fprintf(f, "} %" PRIu64 "\n",
			critical ? cp->s[i].critical : cp->s[i].commands);
	}
}

static int chain_prom_print(FILE *f, const void *arg)
{
	const struct chain_prom *cp = arg;
	static const char * const state_id[] = {
		[NTPROF_CHAIN_LINKED] = "linked",
		[NTPROF_CHAIN_NO_UPSTREAM] = "no_upstream",
		[NTPROF_CHAIN_AMBIGUOUS] = "ambiguous",
		[NTPROF_CHAIN_OUTSIDE] = "outside",
	};
	const char *m = "ntprof_chain_downstream_commands_total";
	size_t i;

	fputs("# HELP ntprof_chain_stage_latency_seconds Time of the middle's own part and of its legs' stages, of the linked sampled commands since the recording started (Documentation/prometheus.rst).\n"
	      "# TYPE ntprof_chain_stage_latency_seconds histogram\n", f);
	for (i = 0; i < cp->n; i++)
		if (hists_write(f, cp, &cp->s[i]))
			return -ENOMEM;
	series_counter(f, cp, "ntprof_chain_commands_total",
		       "Upstream sampled commands the middle linked to the commands they caused.",
		       false, false);
	series_counter(f, cp, "ntprof_chain_leg_commands_total",
		       "Downstream sampled commands of each leg linked to the command that caused them.",
		       true, false);
	series_counter(f, cp, "ntprof_chain_leg_critical_total",
		       "Of those, the ones that completed last of their upstream command's.",
		       true, true);
	fprintf(f, "# HELP %s Downstream sampled commands as linking left them.\n# TYPE %s counter\n",
		m, m);
	for (i = 0; i < ARRAY_SIZE(state_id); i++)
		fprintf(f, "%s{role=\"middle\",state=\"%s\"} %" PRIu64 "\n",
			m, state_id[i], cp->state[i]);
	prom_counter(f, "ntprof_chain_records_dropped_total",
		     "Sampled records not linked: too many waited for their partner.",
		     "middle", cp->dropped);
	prom_counter(f, "ntprof_chain_overflow_commands_total",
		     "Commands in op=\"overflow\" series, beyond the cap.",
		     "middle", cp->overflowed);
	return 0;
}

int chain_prom_write(struct chain_prom *cp)
{
	return prom_file_write(cp->path, cp->tmp, chain_prom_print, cp);
}
