// SPDX-License-Identifier: GPL-2.0
/*
 * The joins of a loaded run: every host file joined with every target
 * file of its transports (a recording of both transports, NONE in its
 * header, with any), the records of a pair told apart by subsystem where
 * one host file's commands go to several target files, and the joins'
 * counts summed.
 *
 * A host record keeps the first target record it matched, and a target
 * record goes to one host record at most. The clock offset is found per
 * pair of files, as each pair of machines has its own. recording.c loads
 * the files and checks that they belong together before it calls these;
 * they live apart from it because matching records is a task of its own.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/recording.h"
#include "common/util.h"

/*
 * same_transports() - tell whether two recordings may hold the same
 * commands, that is, whether they have a transport in common.
 */
static bool same_transports(const struct ntp_header *a,
			    const struct ntp_header *b)
{
	return a->transport == b->transport ||
	       a->transport == NTPROF_TRANSPORT_NONE ||
	       b->transport == NTPROF_TRANSPORT_NONE;
}

/*
 * join_hint() - set the join's fallback guess of the clock offset: none is
 * needed on one machine (in the same boot); otherwise, it is what the two
 * clocks' start stamps say.
 */
static void join_hint(const struct ntp_header *h, const struct ntp_header *t,
		      struct ntprof_join_opts *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->have_hint = true;
	if (h->boot_id[0] && !strcmp(h->boot_id, t->boot_id)) {
		opts->theta_hint_ns = 0;
		opts->hint_error_ns = 1000;
		return;
	}
	opts->theta_hint_ns = (int64_t)(t->start_mono_ns - t->start_real_ns) -
			      (int64_t)(h->start_mono_ns - h->start_real_ns);
}

bool recording_exports(const struct ntp_header *t, const char *nqn)
{
	uint32_t k;

	for (k = 0; k < t->nr_ctrls; k++)
		if (!strcmp(t->ctrls[k].subsysnqn, nqn))
			return true;
	return false;
}

/*
 * exported_elsewhere() - tell whether subsystem @nqn belongs to a target
 * file other than @t: @t does not export it, and another target file of @run
 * does.
 */
static bool exported_elsewhere(const struct recording_run *run,
			       const struct recording *t, const char *nqn)
{
	size_t i;

	if (!nqn[0] || recording_exports(t->hdr, nqn))
		return false;
	for (i = 0; i < run->nr_files; i++)
		if (&run->files[i] != t && !recording_is_host(&run->files[i]) &&
		    recording_exports(run->files[i].hdr, nqn))
			return true;
	return false;
}

/*
 * subsys_skip() - find which of host file @h's records went to a subsystem
 * that another target file of @run exports, not @t. A chain's middle sends a
 * write's clones to every leg from the same queue and tag, and the origin's
 * commands may share a replica's identity, so only the subsystem tells them
 * apart. It sets *@skip to a mask for the join (NULL when every record may
 * match), and returns 1 when no record may match, so that the pair is not
 * joined, 0, or -ENOMEM. A record whose disk no controller names, or whose
 * subsystem no target file names (a file without names, a subsystem made
 * after its target's recording started), is never left out.
 */
static int subsys_skip(const struct recording_run *run,
		       const struct recording *h, const struct recording *t,
		       uint8_t **skip)
{
	uint32_t devs[16], k, nd = 0;
	size_t i, j, masked = 0;
	uint8_t *m;

	*skip = NULL;
	for (k = 0; k < h->hdr->nr_ctrls; k++) {
		if (!exported_elsewhere(run, t, h->hdr->ctrls[k].subsysnqn))
			continue;
		if (nd == ARRAY_SIZE(devs))
			return 0;
		devs[nd++] = h->hdr->ctrls[k].dev;
	}
	if (!nd)
		return 0;
	m = calloc(h->n + 1, 1);
	if (!m)
		return -ENOMEM;
	for (i = 0; i < h->n; i++) {
		for (j = 0; j < nd; j++)
			if (h->recs[i].dev == devs[j])
				m[i] = 1;
		masked += m[i];
	}
	if (masked == h->n) {
		free(m);
		return 1;
	}
	*skip = m;
	return 0;
}

/* The subsystems of a pair, numbered from 1 for the join's routes. */
struct routes {
	const char *nqn[64];
	unsigned int n;
};

/*
 * route_of() - return @nqn's number in @rt, and add it if it is new; 0 when
 * @rt is full.
 */
static uint16_t route_of(struct routes *rt, const char *nqn)
{
	unsigned int i;

	for (i = 0; i < rt->n; i++)
		if (!strcmp(rt->nqn[i], nqn))
			return (uint16_t)(i + 1);
	if (rt->n == ARRAY_SIZE(rt->nqn))
		return 0;
	rt->nqn[rt->n++] = nqn;
	return (uint16_t)rt->n;
}

/*
 * subsys_of() - return the subsystem that a record of @hdr went to: a host
 * record's by its disk, a target record's by its device and namespace. It
 * returns NULL when the table names none, or more than one (a target's
 * device in two subsystems).
 */
static const char *subsys_of(const struct ntp_header *hdr,
			     const struct ntprof_record *r)
{
	const char *found = NULL;
	uint32_t k;

	for (k = 0; k < hdr->nr_ctrls; k++) {
		const struct ntp_ctrl *c = &hdr->ctrls[k];

		if (c->dev != r->dev || !c->subsysnqn[0] ||
		    (hdr->role == NTPROF_ROLE_TARGET && c->nsid != r->nsid))
			continue;
		if (found && strcmp(found, c->subsysnqn))
			return NULL;
		found = c->subsysnqn;
	}
	return found;
}

/*
 * routes_fill() - put each record's route in @rt. It returns -1 when a
 * record has none.
 */
static int routes_fill(const struct recording *rec, const uint8_t *skip,
		       struct routes *rt, uint16_t *out)
{
	const char *nqn;
	size_t i;

	for (i = 0; i < rec->n; i++) {
		out[i] = 0;
		if (skip && skip[i])
			continue;
		nqn = subsys_of(rec->hdr, &rec->recs[i]);
		out[i] = nqn ? route_of(rt, nqn) : 0;
		if (!out[i])
			return -1;
	}
	return 0;
}

/*
 * pair_routes() - make the routes of @h's join with @t
 * (ntprof_join_opts.host_route): each record's subsystem, when @t exports
 * several subsystems. A machine that holds the replicas of a middle's two
 * legs does so, and the middle sends the same write to both subsystems from
 * the same queue and tag. The routes are left NULL, and the join goes by
 * identity alone, when a record of either side has no subsystem that its
 * table names. It returns 0 or -ENOMEM.
 */
static int pair_routes(const struct recording *h, const struct recording *t,
		       const uint8_t *skip, uint16_t **hr, uint16_t **tr)
{
	struct routes rt = { .n = 0 };
	uint32_t k;

	*hr = NULL;
	*tr = NULL;
	for (k = 0; k < t->hdr->nr_ctrls; k++)
		if (t->hdr->ctrls[k].subsysnqn[0])
			route_of(&rt, t->hdr->ctrls[k].subsysnqn);
	if (rt.n < 2)
		return 0;
	*hr = malloc((h->n + 1) * sizeof(**hr));
	*tr = malloc((t->n + 1) * sizeof(**tr));
	if (!*hr || !*tr) {
		free(*hr);
		free(*tr);
		*hr = *tr = NULL;
		return -ENOMEM;
	}
	if (routes_fill(h, skip, &rt, *hr) || routes_fill(t, NULL, &rt, *tr)) {
		free(*hr);
		free(*tr);
		*hr = *tr = NULL;
	}
	return 0;
}

static int pair_join(struct recording_run *run, const char *cmd, size_t hi,
		     size_t ti)
{
	struct recording *h = &run->files[hi], *t = &run->files[ti];
	struct recording_pair *p;
	uint16_t *hroute = NULL, *troute = NULL;
	struct ntprof_join_opts opts;
	uint8_t *skip;
	uint32_t k;
	size_t i;
	int err;

	err = subsys_skip(run, h, t, &skip);
	if (err > 0)
		return 0;	/* nothing of one goes to the other */
	p = &run->pairs[run->nr_pairs++];
	p->host = hi;
	p->target = ti;
	join_hint(h->hdr, t->hdr, &opts);
	opts.host_skip = skip;
	if (!err)
		err = pair_routes(h, t, skip, &hroute, &troute);
	opts.host_route = hroute;
	opts.target_route = troute;
	if (!err)
		err = ntprof_join(h->recs, h->n, t->recs, t->n, &opts,
				  &p->join);
	free(skip);
	free(hroute);
	free(troute);
	if (err) {
		fprintf(stderr, "ntprof: %s: joining %s with %s: %s\n", cmd,
			h->path, t->path, strerror(-err));
		return 1;
	}
	for (i = 0; i < h->n; i++) {
		k = p->join.match[i];
		if (k == NTPROF_NO_MATCH || h->match_file[i] != NTPROF_NO_MATCH ||
		    t->taken[k])
			continue;
		h->match_file[i] = (uint32_t)ti;
		h->match_idx[i] = k;
		t->taken[k] = 1;
		/* A middle's downstream commands are no origin's. */
		run->matched += !h->leg;
	}
	return 0;
}

int recording_join_all(struct recording_run *run, const char *cmd)
{
	struct recording *rec;
	size_t hi, ti;

	run->pairs = calloc(run->nr_host_files * run->nr_target_files + 1,
			    sizeof(*run->pairs));
	if (!run->pairs)
		goto nomem;
	for (hi = 0; hi < run->nr_files; hi++) {
		rec = &run->files[hi];
		if (recording_is_host(rec)) {
			rec->match_file = malloc((rec->n + 1) * sizeof(uint32_t));
			rec->match_idx = malloc((rec->n + 1) * sizeof(uint32_t));
			if (!rec->match_file || !rec->match_idx)
				goto nomem;
			memset(rec->match_file, 0xff, rec->n * sizeof(uint32_t));
		} else {
			rec->taken = calloc(rec->n + 1, 1);
			if (!rec->taken)
				goto nomem;
		}
	}
	for (hi = 0; hi < run->nr_files; hi++) {
		if (!recording_is_host(&run->files[hi]))
			continue;
		for (ti = 0; ti < run->nr_files; ti++) {
			if (recording_is_host(&run->files[ti]) ||
			    !same_transports(run->files[ti].hdr,
					     run->files[hi].hdr))
				continue;
			if (pair_join(run, cmd, hi, ti))
				return 1;
		}
	}
	return 0;
nomem:
	fprintf(stderr, "ntprof: %s: out of memory for the join\n", cmd);
	return 1;
}

/*
 * recording_join_total() - sum the joins' counts, and take the first pair's
 * clocks, for the JSON.
 */
void recording_join_total(struct recording_run *run)
{
	struct ntprof_join *tot = &run->total;
	size_t i;

	memset(tot, 0, sizeof(*tot));
	tot->nr_host = run->nr_host;
	tot->nr_target = run->nr_target;
	tot->matched = run->matched;
	for (i = 0; i < run->nr_pairs; i++) {
		tot->pairs += run->pairs[i].join.pairs;
		tot->windows += run->pairs[i].join.windows;
	}
	if (run->nr_pairs) {
		tot->theta_known = run->pairs[0].join.theta_known;
		tot->theta_from_hint = run->pairs[0].join.theta_from_hint;
		tot->theta_ns = run->pairs[0].join.theta_ns;
		tot->theta_min_ns = run->pairs[0].join.theta_min_ns;
		tot->theta_max_ns = run->pairs[0].join.theta_max_ns;
	}
}

