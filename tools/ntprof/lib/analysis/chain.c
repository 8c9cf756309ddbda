// SPDX-License-Identifier: GPL-2.0
/*
 * A run's chains (chain.h): which machines are middles, the links of
 * each, and each origin command followed down its tree to the leaves,
 * with its stages along the critical path.
 *
 * Chains load whole, never streamed (recording_stream.c): following a
 * command needs the records of every machine at once, which a single
 * pass in time order over one host and one target file cannot give.
 */
#define _GNU_SOURCE	/* vasprintf() */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/chain.h"
#include "analysis/chain_detail.h"
#include "analysis/recording.h"

static bool same_machine(const struct ntp_header *a, const struct ntp_header *b)
{
	return !strcmp(a->hostname, b->hostname) &&
	       !strcmp(a->boot_id, b->boot_id);
}

bool ntprof_chain_present(const struct recording_run *run)
{
	return run->chain && run->chain->nr_mid;
}

/*
 * note_add() - keep a note of one line for the report. It returns 0 or
 * -ENOMEM.
 */
static int __attribute__((format(printf, 2, 3)))
note_add(struct ntprof_chain *ch, const char *fmt, ...)
{
	char **v, *s;
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (len < 0)
		return -ENOMEM;
	v = realloc(ch->notes, (ch->nr_notes + 1) * sizeof(*v));
	if (!v) {
		free(s);
		return -ENOMEM;
	}
	ch->notes = v;
	v[ch->nr_notes++] = s;
	return 0;
}

static int u32_push(uint32_t **v, size_t *n, uint32_t x)
{
	uint32_t *nv = realloc(*v, (*n + 1) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	nv[(*n)++] = x;
	*v = nv;
	return 0;
}

/*
 * middle_of() - return the middle of @rec's machine, and create it if it is
 * new; NULL when out of memory.
 */
static struct ntprof_chain_middle *middle_of(struct recording_run *run,
					     size_t f)
{
	struct ntprof_chain *ch = run->chain;
	struct ntprof_chain_middle *m, *v;
	size_t i;

	for (i = 0; i < ch->nr_mid; i++) {
		m = &ch->mid[i];
		if (same_machine(run->files[m->up_files[0]].hdr,
				 run->files[f].hdr))
			return m;
	}
	v = realloc(ch->mid, (ch->nr_mid + 1) * sizeof(*v));
	if (!v)
		return NULL;
	ch->mid = v;
	m = &v[ch->nr_mid++];
	memset(m, 0, sizeof(*m));
	m->label = run->files[f].hdr->hostname;
	return m;
}

/*
 * loops_back() - tell whether host file @f reaches only targets of its own
 * machine: a hop over loopback, as a lab of one guest runs it, and not a
 * middle's legs. That is the case when a target file of the same machine
 * exports every subsystem that its controllers name; a file that names none
 * is taken as a middle's.
 */
static bool loops_back(const struct recording_run *run, size_t f)
{
	const struct ntp_header *h = run->files[f].hdr, *t;
	bool named = false, found;
	uint32_t k;
	size_t i;

	for (k = 0; k < h->nr_ctrls; k++) {
		if (!h->ctrls[k].subsysnqn[0])
			continue;
		named = true;
		found = false;
		for (i = 0; i < run->nr_files && !found; i++) {
			t = run->files[i].hdr;
			found = !recording_is_host(&run->files[i]) &&
				same_machine(t, h) &&
				recording_exports(t, h->ctrls[k].subsysnqn);
		}
		if (!found)
			return false;
	}
	return named;
}

/*
 * is_downstream() - tell whether file @f is a middle's host side, the
 * recording of its legs.
 */
static bool is_downstream(const struct recording_run *run, size_t f)
{
	return recording_is_host(&run->files[f]) && !loops_back(run, f);
}

int ntprof_chain_setup(struct recording_run *run, const char *cmd)
{
	struct ntprof_chain_middle *m;
	struct ntprof_chain *ch;
	bool has_host, has_target, rule = false;
	size_t f, k;

	run->chain = calloc(1, sizeof(*run->chain));
	if (!run->chain)
		goto nomem;
	ch = run->chain;
	ch->file_mid = malloc((run->nr_files + 1) * sizeof(*ch->file_mid));
	ch->file_base = calloc(run->nr_files + 1, sizeof(*ch->file_base));
	if (!ch->file_mid || !ch->file_base)
		goto nomem;
	for (f = 0; f < run->nr_files; f++) {
		ch->file_mid[f] = -1;
		rule |= run->files[f].hdr->chain != 0;
	}
	/*
	 * A machine with both roles' recordings is a middle, in a run of
	 * chains: one of its files recorded with the chain rule. Without
	 * the rule anywhere, both roles on one machine are a hop over
	 * loopback, reported as ever.
	 */
	for (f = 0; rule && f < run->nr_files; f++) {
		has_host = has_target = false;
		for (k = 0; k < run->nr_files; k++) {
			if (!same_machine(run->files[k].hdr, run->files[f].hdr))
				continue;
			has_host |= is_downstream(run, k);
			has_target |= !recording_is_host(&run->files[k]);
		}
		if (!has_host || !has_target || recording_is_host(&run->files[f]))
			continue;
		m = middle_of(run, f);
		if (!m || u32_push(&m->up_files, &m->nr_up_files, (uint32_t)f))
			goto nomem;
		ch->file_mid[f] = (int32_t)(m - ch->mid);
	}
	for (f = 0; f < run->nr_files; f++) {
		if (!is_downstream(run, f))
			continue;
		for (k = 0; k < ch->nr_mid; k++) {
			m = &ch->mid[k];
			if (!same_machine(run->files[m->up_files[0]].hdr,
					  run->files[f].hdr))
				continue;
			if (u32_push(&m->down_files, &m->nr_down_files,
				     (uint32_t)f))
				goto nomem;
			ch->file_mid[f] = (int32_t)k;
			run->files[f].leg = true;
		}
	}
	ch->active = rule;
	return 0;
nomem:
	fprintf(stderr, "ntprof: %s: out of memory for the chains\n", cmd);
	return 1;
}

/*
 * middle_check() - tell whether the files of middle @m can be linked: every
 * file must be recorded with the chain rule and one -s. If they cannot, a
 * note names them.
 */
static int middle_check(struct recording_run *run, struct ntprof_chain_middle *m)
{
	const struct recording *a = &run->files[m->up_files[0]], *b;
	size_t i, nr = m->nr_up_files + m->nr_down_files;

	for (i = 0; i < nr; i++) {
		b = &run->files[i < m->nr_up_files ? m->up_files[i] :
				m->down_files[i - m->nr_up_files]];
		if (!b->hdr->chain)
			return note_add(run->chain,
					"not linked: %s (%s) was recorded without --chain: the middle's downstream commands cannot be told from its own",
					b->path, m->label) ?: 1;
		if (b->hdr->sample != a->hdr->sample)
			return note_add(run->chain,
					"not linked: %s sampled one command in %u, %s one in %u (%s)",
					a->path, a->hdr->sample, b->path,
					b->hdr->sample, m->label) ?: 1;
	}
	return 0;
}

/*
 * middle_link() - link middle @m's records. It returns 0, -ENOMEM or
 * -EINVAL.
 */
static int middle_link(struct recording_run *run, struct ntprof_chain_middle *m)
{
	struct ntprof_chain *ch = run->chain;
	struct ntprof_chain_side *up, *down;
	const struct recording *rec;
	uint32_t base;
	size_t i;
	int err = -ENOMEM;

	up = calloc(m->nr_up_files + 1, sizeof(*up));
	down = calloc(m->nr_down_files + 1, sizeof(*down));
	if (!up || !down)
		goto out;
	for (i = 0, base = 0; i < m->nr_up_files; i++) {
		rec = &run->files[m->up_files[i]];
		up[i] = (struct ntprof_chain_side){ rec->recs, rec->n,
						    rec->hdr->chain_offset };
		ch->file_base[m->up_files[i]] = base;
		base += (uint32_t)rec->n;
	}
	for (i = 0, base = 0; i < m->nr_down_files; i++) {
		rec = &run->files[m->down_files[i]];
		down[i] = (struct ntprof_chain_side){ rec->recs, rec->n,
						      rec->hdr->chain_offset };
		ch->file_base[m->down_files[i]] = base;
		base += (uint32_t)rec->n;
	}
	err = ntprof_chain_link(up, m->nr_up_files, down, m->nr_down_files,
				&m->links);
	if (!err) {
		ch->down += m->links.nr_down;
		ch->linked += m->links.linked;
		ch->no_upstream += m->links.no_upstream;
		ch->ambiguous += m->links.ambiguous;
		ch->outside += m->links.outside;
	}
out:
	free(up);
	free(down);
	return err;
}

/*
 * missing_notes() - note what is missing: per middle, the middle's
 * downstream records that no replica's target recording matched; in a run of
 * chains, a target recording to which no host recording sent anything.
 */
static int missing_notes(struct recording_run *run)
{
	struct ntprof_chain *ch = run->chain;
	const struct recording *rec;
	uint64_t unmatched, n;
	size_t f, i;
	int err = 0;

	for (f = 0; f < run->nr_files && !err; f++) {
		rec = &run->files[f];
		/*
		 * An origin host's unmatched commands are the join's to
		 * report; a target's matter only when hosts were given.
		 */
		if ((recording_is_host(rec) && !rec->leg) ||
		    (!recording_is_host(rec) && !run->nr_host_files))
			continue;
		unmatched = n = 0;
		for (i = 0; i < rec->n; i++) {
			if (!ntprof_record_in_sample(&rec->recs[i],
						     rec->hdr->role))
				continue;
			n++;
			if (recording_is_host(rec))
				unmatched += rec->match_file[i] ==
					     NTPROF_NO_MATCH;
			else
				unmatched += !rec->taken ||
					     !rec->taken[i];
		}
		if (!n || unmatched < n)
			continue;
		if (rec->leg)
			err = note_add(ch, "missing: the replicas' target recordings for %s (%s's host side): none of its %" PRIu64 " commands matched a target record",
				       rec->path, rec->hdr->hostname, n);
		else if (!recording_is_host(rec))
			err = note_add(ch, "missing: the host recording that sent %s's %" PRIu64 " commands (%s): none matched a host record",
				       rec->path, n, rec->hdr->hostname);
	}
	return err;
}

int ntprof_chain_link_run(struct recording_run *run, const char *cmd)
{
	struct ntprof_chain *ch = run->chain;
	struct ntprof_chain_middle *m;
	size_t i;
	int err = 0;

	for (i = 0; i < ch->nr_mid && err >= 0; i++) {
		m = &ch->mid[i];
		err = middle_check(run, m);
		if (err)
			continue;
		err = middle_link(run, m);
		m->linked = !err;
	}
	if (err >= 0)
		err = missing_notes(run);
	if (err >= 0)
		return 0;
	fprintf(stderr, "ntprof: %s: linking the middles' records: %s\n", cmd,
		strerror(-err));
	return 1;
}

void ntprof_chain_free(struct recording_run *run)
{
	struct ntprof_chain *ch = run->chain;
	size_t i;

	if (!ch)
		return;
	for (i = 0; i < ch->nr_mid; i++) {
		free(ch->mid[i].up_files);
		free(ch->mid[i].down_files);
		ntprof_chain_links_free(&ch->mid[i].links);
	}
	for (i = 0; i < ch->nr_notes; i++)
		free(ch->notes[i]);
	free(ch->notes);
	free(ch->mid);
	free(ch->legs);
	free(ch->file_mid);
	free(ch->file_base);
	ntprof_chain_detail_free(ch);
	ntprof_chain_stats_free(ch);
	free(ch);
	run->chain = NULL;
}

/*
 * down_ref() - return a downstream number of middle @m as a record of the
 * run.
 */
static struct ntprof_chain_ref down_ref(const struct recording_run *run,
					const struct ntprof_chain_middle *m,
					uint32_t d)
{
	const struct ntprof_chain *ch = run->chain;
	uint32_t f;
	size_t i;

	for (i = 0; i < m->nr_down_files; i++) {
		f = m->down_files[i];
		if (d - ch->file_base[f] < run->files[f].n)
			return (struct ntprof_chain_ref){ f, d - ch->file_base[f] };
	}
	return (struct ntprof_chain_ref){ 0, NTPROF_CHAIN_NONE };
}

static const struct ntprof_record *rec_at(const struct recording_run *run,
					  struct ntprof_chain_ref r)
{
	return r.idx == NTPROF_CHAIN_NONE ? NULL :
	       &run->files[r.file].recs[r.idx];
}

/* target_of() - return @host's target record, as the join gave it. */
static struct ntprof_chain_ref target_of(const struct recording_run *run,
					 struct ntprof_chain_ref host)
{
	const struct recording *rec = &run->files[host.file];

	if (!rec->match_file || rec->match_file[host.idx] == NTPROF_NO_MATCH)
		return (struct ntprof_chain_ref){ 0, NTPROF_CHAIN_NONE };
	return (struct ntprof_chain_ref){ rec->match_file[host.idx],
					  rec->match_idx[host.idx] };
}

/* node_middle() - return the linked middle of a node's target, or NULL. */
static const struct ntprof_chain_middle *
node_middle(const struct recording_run *run, const struct ntprof_chain_node *n)
{
	int32_t k;

	if (n->target.idx == NTPROF_CHAIN_NONE)
		return NULL;
	k = run->chain->file_mid[n->target.file];
	if (k < 0 || !run->chain->mid[k].linked)
		return NULL;
	return &run->chain->mid[k];
}

/*
 * tree_expand() - append node @i's children: its target's linked downstream
 * records.
 */
static void tree_expand(const struct recording_run *run,
			struct ntprof_chain_cmd *c, int i)
{
	const struct ntprof_chain_middle *m = node_middle(run, &c->node[i]);
	struct ntprof_chain_node *n;
	uint32_t u, k;

	if (!m || c->node[i].hop >= NTPROF_CHAIN_MAX_HOPS)
		return;
	u = run->chain->file_base[c->node[i].target.file] + c->node[i].target.idx;
	for (k = m->links.first[u]; k < m->links.first[u + 1]; k++) {
		if (c->nr == NTPROF_CHAIN_MAX_NODES) {
			c->truncated = true;
			return;
		}
		n = &c->node[c->nr++];
		n->host = down_ref(run, m, m->links.down[k]);
		n->target = target_of(run, n->host);
		n->parent = (int16_t)i;
		n->hop = (uint8_t)(c->node[i].hop + 1);
		n->critical = false;
	}
}

/*
 * hop_stages() - put the stages of node @i's hop into @c: all of them at a
 * leaf; at a middle, those before the target's storage and then the middle's
 * own time, which is the storage less the critical leg's end to end. It
 * returns false when a stage is missing, and then the command is not
 * followed.
 */
static bool hop_stages(const struct recording_run *run,
		       struct ntprof_chain_cmd *c, int i, int child)
{
	const struct ntprof_chain_node *n = &c->node[i];
	struct ntprof_breakdown bd, cbd;
	struct ntprof_chain_stage *st;
	size_t k;
	int s;

	if (ntprof_breakdown(rec_at(run, n->host), rec_at(run, n->target),
			     &bd) || bd.kind != NTPROF_KIND_JOINED)
		return false;
	if (child >= 0 &&
	    (!(bd.stage_has & (1U << NTPROF_STAGE_STORAGE)) ||
	     ntprof_breakdown(rec_at(run, c->node[child].host), NULL, &cbd) ||
	     !(cbd.has & (1U << NTPROF_COMP_E2E))))
		return false;
	for (k = 0; k < NTPROF_STAGE_COUNT; k++) {
		s = ntprof_stage_order[k];
		if (!(bd.stage_has & (1U << s)))
			continue;
		st = &c->stages[c->nr_stages++];
		st->hop = n->hop;
		st->stage = (uint8_t)s;
		st->ns = bd.stage[s];
		if (child >= 0 && s == NTPROF_STAGE_STORAGE) {
			st->stage = NTPROF_CHAIN_STAGE_MIDDLE;
			st->ns -= cbd.comp[NTPROF_COMP_E2E];
		}
	}
	if (n->hop == 1)
		c->e2e_ns = bd.comp[NTPROF_COMP_E2E];
	return true;
}

/*
 * critical_path() - find the critical path from node 0, mark its nodes, and
 * collect its stages.
 */
static void critical_path(const struct recording_run *run,
			  struct ntprof_chain_cmd *c)
{
	uint64_t last, best;
	int i = 0, k, child;
	bool ok = true;

	c->node[0].critical = true;
	for (;;) {
		child = -1;
		best = 0;
		for (k = i + 1; k < (int)c->nr; k++) {
			if (c->node[k].parent != i)
				continue;
			last = recording_last_point(rec_at(run, c->node[k].host), 1);
			if (child < 0 || last > best) {
				child = k;
				best = last;
			}
		}
		c->hops = c->node[i].hop;
		if (ok)
			ok = hop_stages(run, c, i, child);
		if (child < 0)
			break;
		c->node[child].critical = true;
		i = child;
	}
	c->critical_leaf = i;
	/* A middle none of whose records linked: the path stops short. */
	c->followed = ok && c->node[i].target.idx != NTPROF_CHAIN_NONE &&
		      run->chain->file_mid[c->node[i].target.file] < 0;
	if (!c->followed)
		c->nr_stages = 0;
}

int ntprof_chain_cmd_get(const struct recording_run *run, uint32_t file,
			 uint32_t idx, struct ntprof_chain_cmd *c)
{
	const struct recording *rec;
	size_t i;

	if (file >= run->nr_files)
		return -EINVAL;
	rec = &run->files[file];
	if (!recording_is_host(rec) || rec->leg || idx >= rec->n)
		return -EINVAL;
	c->nr = 1;
	c->truncated = false;
	c->followed = false;
	c->nr_stages = 0;
	c->e2e_ns = 0;
	c->node[0] = (struct ntprof_chain_node){
		.host = { file, idx }, .parent = -1, .hop = 1,
	};
	c->node[0].target = target_of(run, c->node[0].host);
	/* Breadth first: each node's children follow the nodes before. */
	for (i = 0; i < c->nr; i++)
		tree_expand(run, c, (int)i);
	critical_path(run, c);
	return 0;
}

int ntprof_chain_each(const struct recording_run *run,
		      int (*fn)(const struct ntprof_chain_cmd *c, void *arg),
		      void *arg)
{
	struct ntprof_chain_cmd *c;
	size_t f, i;
	int ret = 0;

	c = malloc(sizeof(*c));
	if (!c)
		return -ENOMEM;
	for (f = 0; f < run->nr_files && !ret; f++) {
		if (!recording_is_host(&run->files[f]) || run->files[f].leg)
			continue;
		for (i = 0; i < run->files[f].n && !ret; i++) {
			ntprof_chain_cmd_get(run, (uint32_t)f, (uint32_t)i, c);
			ret = fn(c, arg);
		}
	}
	free(c);
	return ret;
}

static void node_print(FILE *f, const struct recording_run *run,
		       const struct ntprof_chain_cmd *c, int i)
{
	const struct ntprof_chain_node *n = &c->node[i];
	int k;

	fprintf(f, "%s%u:%s#%" PRIu32 ">", i ? " " : "", n->hop,
		run->files[n->host.file].path, n->host.idx);
	if (n->target.idx == NTPROF_CHAIN_NONE)
		fputc('-', f);
	else
		fprintf(f, "%s#%" PRIu32, run->files[n->target.file].path,
			n->target.idx);
	if (n->critical)
		fputc('*', f);
	for (k = i + 1; k < (int)c->nr; k++)
		if (c->node[k].parent == i)
			node_print(f, run, c, k);
}

void ntprof_chain_cmd_print(FILE *f, const struct recording_run *run,
			    const struct ntprof_chain_cmd *c)
{
	node_print(f, run, c, 0);
	fputc('\n', f);
}
