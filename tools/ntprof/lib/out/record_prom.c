// SPDX-License-Identifier: GPL-2.0
/*
 * ntprof record --prom FILE: the recording's numbers for Prometheus, in
 * the text format that node_exporter's textfile collector reads. FILE is
 * rewritten whole at every interval, atomically (a temporary file in the
 * same directory, then rename()), so that a scrape never sees half of it.
 *
 * Per group of commands (op, size, device, as the report makes them) and
 * stage, the latency as a cumulative histogram in seconds since the
 * recording started; per group the commands recorded; for the session the
 * kernel's counters (commands seen and sampled, records, drops,
 * evictions). Names follow Prometheus' conventions: base units, _total
 * for counters (Documentation/ntprof.rst, Prometheus).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "out/record_prom.h"
#include "out/table.h"

/* 1 us, 2 us, ... 2^23 us (8.4 s), then +Inf. */
#define PROM_BUCKETS	24
/* The stages, then the end to end. */
#define PROM_PARTS	(NTPROF_STAGE_COUNT + 1)

struct prom_hist {
	uint64_t b[PROM_BUCKETS + 1];	/* [PROM_BUCKETS]: above all */
	uint64_t n;
	double sum_s;
};

struct prom_group {
	char label[96];
	uint64_t commands;
	struct prom_hist h[PROM_PARTS];
};

struct prom {
	const char *path;
	char *tmp;
	uint32_t role;
	struct prom_group *g;
	size_t n, cap;
};

struct prom *prom_new(const char *path, uint32_t role)
{
	struct prom *p = calloc(1, sizeof(*p));
	size_t len = strlen(path) + 32;

	if (!p)
		return NULL;
	p->tmp = malloc(len);
	if (!p->tmp) {
		free(p);
		return NULL;
	}
	/* In FILE's directory, so that rename() stays on one file system. */
	snprintf(p->tmp, len, "%s.tmp.%d", path, (int)getpid());
	p->path = path;
	p->role = role;
	return p;
}

void prom_free(struct prom *p)
{
	if (!p)
		return;
	free(p->g);
	free(p->tmp);
	free(p);
}

static struct prom_group *prom_group(struct prom *p, const char *label)
{
	struct prom_group *g;
	size_t i;

	for (i = 0; i < p->n; i++)
		if (!strcmp(p->g[i].label, label))
			return &p->g[i];
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 16;
		g = realloc(p->g, p->cap * sizeof(*g));
		if (!g)
			return NULL;
		p->g = g;
	}
	g = &p->g[p->n++];
	memset(g, 0, sizeof(*g));
	snprintf(g->label, sizeof(g->label), "%s", label);
	return g;
}

static void hist_add(struct prom_hist *h, int64_t ns)
{
	int k = 0;

	while (k < PROM_BUCKETS && ns > (int64_t)1000 << k)
		k++;
	h->b[k]++;
	h->n++;
	h->sum_s += (double)ns / 1e9;
}

int prom_add(struct prom *p, const char *label, const struct ntprof_record *r)
{
	bool host = r->role == NTPROF_ROLE_HOST;
	struct ntprof_breakdown bd;
	struct prom_group *g;
	int s;

	if (!ntprof_record_in_sample(r, p->role))
		return 0;
	g = prom_group(p, label);
	if (!g)
		return -ENOMEM;
	g->commands++;
	if (ntprof_breakdown(host ? r : NULL, host ? NULL : r, &bd))
		return 0;
	for (s = 0; s < NTPROF_STAGE_COUNT; s++)
		if (bd.stage_has & (1U << s))
			hist_add(&g->h[s], bd.stage[s]);
	if (bd.has & (1U << NTPROF_COMP_E2E))
		hist_add(&g->h[NTPROF_STAGE_COUNT], bd.comp[NTPROF_COMP_E2E]);
	return 0;
}

/* A label value: backslash, quote and newline escaped. */
static void prom_label(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', f);
		if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

static void prom_labels(FILE *f, const char *role, const char *group,
			const char *stage)
{
	fprintf(f, "{role=\"%s\",group=\"", role);
	prom_label(f, group);
	fputc('"', f);
	if (stage)
		fprintf(f, ",stage=\"%s\"", stage);
}

static void prom_hists(FILE *f, const struct prom *p, const char *role)
{
	const struct prom_hist *h;
	const struct prom_group *g;
	const char *stage;
	uint64_t cum;
	size_t i;
	int s, k;

	fputs("# HELP ntprof_stage_latency_seconds Latency of each stage of the sampled commands, and their end to end (stage=\"end_to_end\"), since the recording started.\n"
	      "# TYPE ntprof_stage_latency_seconds histogram\n", f);
	for (i = 0; i < p->n; i++) {
		g = &p->g[i];
		for (s = 0; s < PROM_PARTS; s++) {
			h = &g->h[s];
			if (!h->n)
				continue;
			stage = s < NTPROF_STAGE_COUNT ? ntprof_stage_id(s) :
							 "end_to_end";
			for (k = 0, cum = 0; k <= PROM_BUCKETS; k++) {
				cum += h->b[k];
				fputs("ntprof_stage_latency_seconds_bucket", f);
				prom_labels(f, role, g->label, stage);
				if (k < PROM_BUCKETS)
					fprintf(f, ",le=\"%.6f\"} %" PRIu64 "\n",
						(double)(1ULL << k) / 1e6, cum);
				else
					fprintf(f, ",le=\"+Inf\"} %" PRIu64 "\n",
						cum);
			}
			fputs("ntprof_stage_latency_seconds_sum", f);
			prom_labels(f, role, g->label, stage);
			fprintf(f, "} %.9f\n", h->sum_s);
			fputs("ntprof_stage_latency_seconds_count", f);
			prom_labels(f, role, g->label, stage);
			fprintf(f, "} %" PRIu64 "\n", h->n);
		}
	}
	fputs("# HELP ntprof_group_commands_total Sampled commands recorded, per group.\n"
	      "# TYPE ntprof_group_commands_total counter\n", f);
	for (i = 0; i < p->n; i++) {
		fputs("ntprof_group_commands_total", f);
		prom_labels(f, role, p->g[i].label, NULL);
		fprintf(f, "} %" PRIu64 "\n", p->g[i].commands);
	}
}

static void prom_counter(FILE *f, const char *name, const char *help,
			 const char *role, uint64_t v)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s counter\n%s{role=\"%s\"} %" PRIu64 "\n",
		name, help, name, name, role, v);
}

int prom_write(struct prom *p, const struct prom_counters *c)
{
	const char *role = p->role == NTPROF_ROLE_HOST ? "host" : "target";
	FILE *f = fopen(p->tmp, "w");
	int err = 0;

	if (!f)
		return -errno;
	prom_hists(f, p, role);
	if (c) {
		prom_counter(f, "ntprof_commands_seen_total",
			     "Commands the session's first hooks saw.", role,
			     c->seen);
		prom_counter(f, "ntprof_commands_sampled_total",
			     "Commands the 1-in-N sampling picked.", role,
			     c->sampled);
		prom_counter(f, "ntprof_records_total",
			     "Records the kernel handed to the recorder.", role,
			     c->records);
		prom_counter(f, "ntprof_records_dropped_total",
			     "Records the kernel's full buffers dropped.", role,
			     c->drops);
		prom_counter(f, "ntprof_inflight_evicted_total",
			     "Commands evicted from the full in-flight table.",
			     role, c->evicted);
	}
	if (fflush(f) || ferror(f))
		err = -EIO;
	if (fclose(f) && !err)
		err = -errno;
	if (!err && rename(p->tmp, p->path))
		err = -errno;
	if (err)
		unlink(p->tmp);
	return err;
}
