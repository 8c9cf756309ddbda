// SPDX-License-Identifier: GPL-2.0
/*
 * Linking a host's aborted tries to the tries that sent their I/O again
 * (analysis/attempts.h), and the outage stage this gives the command.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/attempts.h"
#include "common/util.h"

/* A record's first and last points (0: none). */
static uint64_t rec_first(const struct ntprof_record *r)
{
	uint64_t t = 0;
	int p;

	for (p = 0; p < NTPROF_PT_COUNT; p++)
		if (r->ts[p] && (!t || r->ts[p] < t))
			t = r->ts[p];
	return t;
}

static uint64_t rec_last(const struct ntprof_record *r)
{
	uint64_t t = 0;
	int p;

	for (p = 0; p < NTPROF_PT_COUNT; p++)
		if (r->ts[p] > t)
			t = r->ts[p];
	return t;
}

/* A record that can take part in a link: its I/O's identity, its times. */
struct cand {
	uint32_t idx;
	uint32_t head;
	uint32_t nsid;
	uint32_t length;
	uint64_t slba;
	uint8_t opcode;
	uint64_t start;
	uint64_t end;
};

#define CMP(a, b)	((a) < (b) ? -1 : (a) > (b))

static int same_io_cmp(const struct cand *a, const struct cand *b)
{
	if (a->head != b->head)
		return CMP(a->head, b->head);
	if (a->nsid != b->nsid)
		return CMP(a->nsid, b->nsid);
	if (a->opcode != b->opcode)
		return CMP(a->opcode, b->opcode);
	if (a->slba != b->slba)
		return CMP(a->slba, b->slba);
	return CMP(a->length, b->length);
}

/* By I/O, then by start. */
static int cand_cmp(const void *pa, const void *pb)
{
	const struct cand *a = pa, *b = pb;
	int c = same_io_cmp(a, b);

	if (c)
		return c;
	if (a->start != b->start)
		return CMP(a->start, b->start);
	return CMP(a->idx, b->idx);
}

/*
 * A record with an identity to link by: a host's command of a namespace,
 * with data. A try that queue_rq failed before building its command
 * (host path error) has its request's op and queue only, no namespace or
 * LBA: it is never linked.
 */
static bool linkable(const struct ntprof_record *r)
{
	return r->role == NTPROF_ROLE_HOST && r->nsid && r->length &&
	       !(r->flags & NTPROF_REC_F_PARTIAL) && rec_first(r);
}

/*
 * The episode that overlapped the outage from @from to @to on the
 * controller @ctrl ("nvme1", NULL: unknown), or, without one of its
 * own, on any controller: a reset, a loss or a recovery.
 */
static const struct ntprof_ctl_event *
episode_of(const struct ntprof_ctl_event *ev, size_t nev, const char *ctrl,
	   uint64_t from, uint64_t to)
{
	const struct ntprof_ctl_event *any = NULL, *e;
	unsigned int c;
	size_t i;

	for (i = 0; i < nev; i++) {
		e = &ev[i];
		if (e->kind != NTPROF_CTL_RESET && e->kind != NTPROF_CTL_LOSS &&
		    e->kind != NTPROF_CTL_RECOVERY)
			continue;
		if (e->start_ns > to || (e->end_ns && e->end_ns < from))
			continue;
		if (ctrl && sscanf(ctrl, "nvme%u", &c) == 1 && c == e->ctrl)
			return e;
		if (!any)
			any = e;
	}
	return any;
}

/*
 * Follow the links back from the last try @last (an index into @c): its
 * tries, their times, and the episode that overlapped them.
 */
static void tries_of(const struct cand *c, const uint32_t *prev, size_t last,
		     const struct ntprof_record *r,
		     const char *(*ctrl_of)(const struct ntprof_record *r,
					    void *arg),
		     void *arg, const struct ntprof_ctl_event *ev, size_t nev,
		     struct ntprof_tries *t)
{
	const struct ntprof_ctl_event *e;
	size_t cur = last, p;
	uint64_t from = 0;

	memset(t, 0, sizeof(*t));
	t->tries = 1;
	while (prev[cur]) {
		p = prev[cur] - 1;
		t->tries++;
		t->aborted_ns += c[p].end - c[p].start;
		t->wait_ns += c[cur].start - c[p].end;
		from = c[p].start;
		cur = p;
	}
	/* The first aborted try names the controller it was on. */
	e = episode_of(ev, nev, ctrl_of ? ctrl_of(&r[c[cur].idx], arg) : NULL,
		       from, c[last].start);
	if (e)
		snprintf(t->episode, sizeof(t->episode), "%s nvme%u",
			 ntprof_ctl_kind_name(e->kind), e->ctrl);
}

int ntprof_attempts_link(const struct ntprof_record *r, size_t n,
			 uint32_t (*head)(const struct ntprof_record *r,
					  void *arg),
			 void *head_arg,
			 const char *(*ctrl_of)(const struct ntprof_record *r,
						void *arg),
			 const struct ntprof_ctl_event *ev, size_t nev,
			 struct ntprof_attempts *out)
{
	uint32_t *prev = NULL, *next = NULL;
	size_t i, j, k, nc = 0, run;
	struct cand *c = NULL;
	bool any = false;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < n && !any; i++)
		any = ntprof_record_aborted(&r[i]);
	if (!any)
		return 0;

	c = malloc(n * sizeof(*c));
	prev = calloc(n, sizeof(*prev));
	next = calloc(n, sizeof(*next));
	out->of = calloc(n, sizeof(*out->of));
	if (!c || !prev || !next || !out->of)
		goto nomem;
	for (i = 0; i < n; i++) {
		if (!linkable(&r[i])) {
			out->n_unlinked += ntprof_record_aborted(&r[i]);
			continue;
		}
		c[nc++] = (struct cand){
			.idx = (uint32_t)i, .head = head(&r[i], head_arg),
			.nsid = r[i].nsid, .length = r[i].length,
			.slba = r[i].slba, .opcode = r[i].opcode,
			.start = rec_first(&r[i]), .end = rec_last(&r[i]),
		};
	}
	qsort(c, nc, sizeof(*c), cand_cmp);

	/*
	 * In each I/O's run of records, by start: an aborted try's next try
	 * is the first record after it that starts once it ended and that
	 * no other try leads to.
	 */
	for (i = 0; i < nc; i = run) {
		for (run = i + 1; run < nc && !same_io_cmp(&c[i], &c[run]);
		     run++)
			;
		for (j = i; j < run; j++) {
			if (!ntprof_record_aborted(&r[c[j].idx]))
				continue;
			for (k = j + 1; k < run; k++)
				if (!prev[k] && c[k].start >= c[j].end)
					break;
			if (k == run) {
				out->n_unlinked++;
				continue;
			}
			prev[k] = (uint32_t)j + 1;
			next[j] = (uint32_t)k + 1;
			out->n_linked++;
		}
	}
	/* The last tries that completed, in the sample, with tries before. */
	for (k = 0; k < nc; k++) {
		if (!prev[k] || next[k] ||
		    !ntprof_record_in_sample(&r[c[k].idx], NTPROF_ROLE_HOST))
			continue;
		tries_of(c, prev, k, r, ctrl_of, head_arg, ev, nev,
			 &out->of[c[k].idx]);
		out->n_commands++;
	}
	free(c);
	free(prev);
	free(next);
	return 0;
nomem:
	free(c);
	free(prev);
	free(next);
	free(out->of);
	out->of = NULL;
	return -ENOMEM;
}

/* Append @name to @g's episodes, once. */
static void events_add(struct ntprof_group *g, const char *name)
{
	size_t len = strlen(g->outage_events), nl = strlen(name);
	const char *p = g->outage_events;

	if (!*name)
		return;
	while ((p = strstr(p, name))) {
		if ((p == g->outage_events || p[-1] == ' ') &&
		    (p[nl] == ',' || !p[nl]))
			return;
		p += nl;
	}
	if (len + nl + 3 > sizeof(g->outage_events))
		return;
	snprintf(g->outage_events + len, sizeof(g->outage_events) - len,
		 "%s%s", len ? ", " : "", name);
}

void ntprof_tries_breakdown(struct ntprof_breakdown *bd,
			    const struct ntprof_tries *t)
{
	if (t->tries < 2)
		return;
	bd->comp[NTPROF_COMP_ABORTED_TRIES] = (int64_t)t->aborted_ns;
	bd->comp[NTPROF_COMP_OUTAGE_WAIT] = (int64_t)t->wait_ns;
	bd->has |= BIT(NTPROF_COMP_ABORTED_TRIES) | BIT(NTPROF_COMP_OUTAGE_WAIT);
	bd->stage[NTPROF_STAGE_OUTAGE] = (int64_t)(t->aborted_ns + t->wait_ns);
	bd->stage_has |= BIT(NTPROF_STAGE_OUTAGE);
	/* From the first try's start: the stages still add up to it. */
	bd->comp[NTPROF_COMP_E2E] += (int64_t)(t->aborted_ns + t->wait_ns);
}

void ntprof_tries_apply(struct ntprof_group *g, struct ntprof_breakdown *bd,
			const struct ntprof_tries *t)
{
	if (t->tries < 2)
		return;
	ntprof_tries_breakdown(bd, t);
	g->n_outage++;
	g->outage_tries += t->tries;
	events_add(g, t->episode);
}
