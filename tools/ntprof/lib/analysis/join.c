// SPDX-License-Identifier: GPL-2.0
/*
 * The join of a host's and a target's recordings, by command identity and
 * causality: see join.h for the method. Memory beyond the records: 32
 * bytes per record of each side, 24 per unique pair, 4 per host record
 * for the result, and a sort's scratch copy of one of these at a time:
 * at most about 100 bytes per command, against the records' 232 each.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/join.h"
#include "analysis/stats.h"
#include "common/util.h"

/* Pairs per theta window: a median of this many shrugs off a few bad. */
#define WINDOW		128
/* Runs of one key this long, equal on both sides, pair up in order. */
#define ORDER_RUN_MAX	8

#define DEFAULT_SLACK_NS	50000
#define DEFAULT_HINT_ERROR_NS	10000000

/*
 * One record of either side: its key's hash, its window on its own clock
 * (ntprof_record_window()) and its index. Matching works on these alone,
 * in order, and goes back to the records only to compare keys.
 */
struct jent {
	uint64_t hash;
	uint64_t start;
	uint64_t end;
	uint64_t idx;		/* index | route << 32 | RUN_SAME */
};

/*
 * Set on the first host entry of a run whose entries, host and target,
 * all carry the same key: the hash says nothing about equality.
 */
#define RUN_SAME	(1ULL << 63)
#define IDX(e)		((e).idx & 0xffffffffULL)
/* The entry's route (ntprof_join_opts.host_route), 0 without routes. */
#define ROUTE(e)	(((e).idx >> 32) & 0xffffULL)

/* A pair for theta: the host's send, and the bounds it puts on theta. */
struct pair {
	uint64_t t;
	int64_t lo;
	int64_t hi;
};

struct window {
	uint64_t t;		/* host time of its middle pair */
	int64_t theta;
	int64_t err;		/* half the width of its bounds */
};

struct theta_map {
	struct window *w;
	size_t n;
	int64_t hint_theta;
	int64_t hint_err;
};

/*
 * What a command's identity holds beyond its NVMe fields, when both
 * sides recorded it (see keys_of()): the controller id, the transport.
 */
#define KEY_CNTLID	(1U << 0)
#define KEY_TRANSPORT	(1U << 1)

/* cmd_hash() - hash a command's identity over the fields in @keys (KEY_*). */
static uint64_t cmd_hash(const struct ntprof_record *r, unsigned int keys)
{
	uint64_t id = (keys & KEY_CNTLID ? (uint64_t)r->cntlid << 48 : 0) ^
		      (keys & KEY_TRANSPORT ? (uint64_t)r->transport << 40 : 0);
	uint64_t h = ntprof_fmix64(r->slba ^ 0x9e3779b97f4a7c15ULL ^ id);

	/* Not the length: a userspace site records none (same_cmd()). */
	h = ntprof_fmix64(h ^ r->nsid);
	return ntprof_fmix64(h ^ ((uint64_t)r->qid << 32 |
				  (uint64_t)r->cid << 16 | r->opcode));
}

/*
 * same_cmd() - tell whether @a and @b are the same command. A length of 0
 * matches any length, because a userspace site (SPDK, kmod/uprobes.c) sees
 * no byte count, while every data command of a kernel side has one. A
 * transport of NONE, which a side that could not tell the transport records,
 * matches any too, because a recording of both transports holds commands of
 * each.
 */
static bool same_cmd(const struct ntprof_record *a,
		     const struct ntprof_record *b, unsigned int keys)
{
	return (!(keys & KEY_CNTLID) || a->cntlid == b->cntlid) &&
	       (a->transport == b->transport || !a->transport ||
		!b->transport) &&
	       a->qid == b->qid && a->cid == b->cid &&
	       a->opcode == b->opcode && a->nsid == b->nsid &&
	       a->slba == b->slba &&
	       (a->length == b->length || !a->length || !b->length);
}

static int cmp_start(const void *a, const void *b)
{
	const struct jent *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

/*
 * sort_run() - sort a run of one hash in time order; runs are short, but not
 * always.
 */
static void sort_run(struct jent *e, size_t n)
{
	struct jent x;
	size_t i, k;

	if (n > 16) {
		qsort(e, n, sizeof(*e), cmp_start);
		return;
	}
	for (i = 1; i < n; i++) {
		x = e[i];
		for (k = i; k > 0 && e[k - 1].start > x.start; k--)
			e[k] = e[k - 1];
		e[k] = x;
	}
}

/* run_end() - return the end of the run of entries that share e[i]'s hash. */
static size_t run_end(const struct jent *e, size_t n, size_t i)
{
	size_t k = i + 1;

	while (k < n && e[k].hash == e[i].hash)
		k++;
	return k;
}

/*
 * A walk over the hashes that both sides' sorted entries hold: the
 * current one's runs are he[i, i1) and te[j, j1).
 */
struct common_runs {
	const struct jent *he, *te;
	size_t nhe, nte;
	size_t i, i1, j, j1;
};

/*
 * next_common_run() - step @c to the next hash that both sides have. It
 * returns false when none is left.
 */
static bool next_common_run(struct common_runs *c)
{
	c->i = c->i1;
	c->j = c->j1;
	while (c->i < c->nhe && c->j < c->nte) {
		if (c->he[c->i].hash < c->te[c->j].hash) {
			c->i = run_end(c->he, c->nhe, c->i);
		} else if (c->he[c->i].hash > c->te[c->j].hash) {
			c->j = run_end(c->te, c->nte, c->j);
		} else {
			c->i1 = run_end(c->he, c->nhe, c->i);
			c->j1 = run_end(c->te, c->nte, c->j);
			return true;
		}
	}
	return false;
}

/*
 * entries() - make the entries of one side's usable records, sorted by
 * (hash, time).
 */
static int entries(const struct ntprof_record *r, size_t n, uint8_t role,
		   unsigned int keys, const uint8_t *skip,
		   const uint16_t *route, struct jent **out, size_t *nr)
{
	uint64_t start, end;
	size_t i, i1, k = 0;
	struct jent *e;
	int err;

	*out = NULL;
	*nr = 0;
	e = malloc((n ? n : 1) * sizeof(*e));
	if (!e)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (r[i].role != role || (skip && skip[i]) ||
		    ntprof_record_window(&r[i], &start, &end))
			continue;
		e[k].hash = cmd_hash(&r[i], keys);
		e[k].start = start;
		e[k].end = end;
		e[k].idx = i;
		if (route) {
			e[k].hash = ntprof_fmix64(e[k].hash ^
						  ((uint64_t)route[i] << 1 | 1));
			e[k].idx |= (uint64_t)route[i] << 32;
		}
		k++;
	}
	err = ntprof_radix_sort(e, k, sizeof(*e), offsetof(struct jent, hash));
	if (err) {
		free(e);
		return err;
	}
	for (i = 0; i < k; i = i1) {
		i1 = run_end(e, k, i);
		if (i1 - i > 1)
			sort_run(&e[i], i1 - i);
	}
	*out = e;
	*nr = k;
	return 0;
}

/* run_one_cmd() - tell whether every entry of both runs is the same command. */
static bool run_one_cmd(const struct ntprof_record *host,
			const struct jent *h, size_t nh,
			const struct ntprof_record *target,
			const struct jent *t, size_t nt, unsigned int keys)
{
	const struct ntprof_record *first = &host[IDX(h[0])];
	size_t i;

	for (i = 1; i < nh; i++)
		if (!same_cmd(first, &host[IDX(h[i])], keys) ||
		    ROUTE(h[i]) != ROUTE(h[0]))
			return false;
	for (i = 0; i < nt; i++)
		if (!same_cmd(first, &target[IDX(t[i])], keys) ||
		    ROUTE(t[i]) != ROUTE(h[0]))
			return false;
	return true;
}

/*
 * collect_pairs() - mark the runs of one command (RUN_SAME) and collect
 * pairs for theta: keys that occur once on each side and, with @ordered,
 * where there are none, also short runs of equal length on both sides,
 * paired in time order (a guess, which the median tolerates). The causality
 * bounds of a pair: the target received the command after the host sent it,
 * and answered before the host received the answer.
 */
static size_t collect_pairs(const struct ntprof_record *host, struct jent *he,
			    size_t nhe, const struct ntprof_record *target,
			    const struct jent *te, size_t nte, bool ordered,
			    unsigned int keys, struct pair *pairs)
{
	struct common_runs c = { .he = he, .nhe = nhe, .te = te, .nte = nte };
	const struct jent *h, *t;
	size_t len, k, n = 0;

	while (next_common_run(&c)) {
		len = c.i1 - c.i;
		he[c.i].idx &= ~RUN_SAME;
		if (run_one_cmd(host, &he[c.i], len, target, &te[c.j],
				c.j1 - c.j, keys))
			he[c.i].idx |= RUN_SAME;
		if ((he[c.i].idx & RUN_SAME) && len == c.j1 - c.j &&
		    (len == 1 || (ordered && len <= ORDER_RUN_MAX))) {
			for (k = 0; k < len; k++) {
				h = &he[c.i + k];
				t = &te[c.j + k];
				pairs[n].t = h->start;
				pairs[n].lo = (int64_t)(t->end - h->end);
				pairs[n].hi = (int64_t)(t->start - h->start);
				n++;
			}
		}
	}
	return n;
}

/*
 * window_theta() - estimate one window's theta from @n pairs, sorted by host
 * time.
 */
static void window_theta(const struct pair *pairs, size_t n, struct window *w)
{
	int64_t med, l = INT64_MIN, h = INT64_MAX, mid[WINDOW];
	size_t i;

	for (i = 0; i < n; i++)
		/* Halves first: the sum of two offsets could overflow. */
		mid[i] = pairs[i].lo / 2 + pairs[i].hi / 2;
	w->t = pairs[n / 2].t;
	qsort(mid, n, sizeof(*mid), cmp_i64);
	med = mid[n / 2];
	/*
	 * The pairs whose bounds hold the median are taken to be true
	 * pairs; their bounds all hold theta, so it is in the intersection,
	 * which is as narrow as the fastest round trip among them.
	 */
	for (i = 0; i < n; i++) {
		if (pairs[i].lo > med || pairs[i].hi < med)
			continue;
		if (pairs[i].lo > l)
			l = pairs[i].lo;
		if (pairs[i].hi < h)
			h = pairs[i].hi;
	}
	if (l <= h) {
		w->theta = l / 2 + h / 2;
		w->err = h / 2 - l / 2;
	} else {
		/* No pair's bounds hold it: windows stamped too wide. */
		w->theta = med;
		w->err = (mid[n - 1 - n / 4] - mid[n / 4]) / 2;
	}
}

static int64_t median3(int64_t a, int64_t b, int64_t c)
{
	if (a > b) {
		int64_t x = a;

		a = b;
		b = x;
	}
	if (b > c)
		b = c;
	return a > b ? a : b;
}

static int theta_map_build(const struct pair *pairs, size_t n,
			   struct theta_map *m)
{
	int64_t *raw;
	size_t i, nw, first, len;

	nw = (n + WINDOW - 1) / WINDOW;
	m->w = calloc(nw ? nw : 1, sizeof(*m->w));
	raw = calloc(nw ? nw : 1, sizeof(*raw));
	if (!m->w || !raw) {
		free(raw);
		return -ENOMEM;
	}
	/* The last window takes the remainder. */
	for (i = 0; i < nw; i++) {
		first = i * WINDOW;
		len = n - first < WINDOW ? n - first : WINDOW;
		window_theta(&pairs[first], len, &m->w[i]);
		raw[i] = m->w[i].theta;
	}
	/* A window of mostly false pairs stands out from its neighbours. */
	for (i = 1; i + 1 < nw; i++)
		m->w[i].theta = median3(raw[i - 1], raw[i], raw[i + 1]);
	m->n = nw;
	free(raw);
	return 0;
}

/* theta_at() - return theta, and its uncertainty, at host time @t. */
static void theta_at(const struct theta_map *m, uint64_t t, int64_t *theta,
		     int64_t *err)
{
	const struct window *a, *b;
	size_t lo = 0, hi, mid;
	double f;

	if (!m->n) {
		*theta = m->hint_theta;
		*err = m->hint_err;
		return;
	}
	/* The first window after t. */
	hi = m->n;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (m->w[mid].t <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || lo == m->n) {
		a = &m->w[lo ? lo - 1 : 0];
		*theta = a->theta;
		*err = a->err;
		return;
	}
	a = &m->w[lo - 1];
	b = &m->w[lo];
	f = b->t > a->t ? (double)(t - a->t) / (double)(b->t - a->t) : 0;
	*theta = a->theta + (int64_t)(f * (double)(b->theta - a->theta));
	*err = a->err > b->err ? a->err : b->err;
}

/*
 * misfit() - return how far target window [ts, te] (on the target's clock)
 * sticks out of host window [hs, hr] once moved to the host's clock by
 * @theta; 0 when it is inside.
 */
static int64_t misfit(uint64_t hs, uint64_t hr, uint64_t ts, uint64_t te,
		      int64_t theta)
{
	int64_t s = (int64_t)(ts - hs) - theta;	/* target start - hs */
	int64_t e = (int64_t)(te - hr) - theta;	/* target end - hr */

	return (s < 0 ? -s : 0) + (e > 0 ? e : 0);
}

/*
 * match_run() - match the host entries @h to the target entries @t of one
 * command, both in time order. As a cid is not reused while in flight, each
 * side's windows follow each other, and the best fit for each host record is
 * among the few target windows that overlap its own.
 */
static size_t match_run(const struct jent *h, size_t nh, const struct jent *t,
			size_t nt, const struct theta_map *m, int64_t slack,
			uint32_t *match)
{
	int64_t theta, err, tol, v, best_v;
	size_t i, j = 0, k, best, n = 0;

	for (i = 0; i < nh && j < nt; i++) {
		theta_at(m, h[i].start, &theta, &err);
		tol = slack + err;
		/* Targets that ended before this host window began: none's. */
		while (j < nt &&
		       (int64_t)(t[j].end - h[i].start) - theta < -tol)
			j++;
		best = nt;
		best_v = INT64_MAX;
		for (k = j; k < nt; k++) {
			if ((int64_t)(t[k].start - h[i].end) - theta > tol)
				break;
			v = misfit(h[i].start, h[i].end, t[k].start, t[k].end,
				   theta);
			if (v < best_v) {
				best_v = v;
				best = k;
			}
		}
		if (best < nt && best_v <= tol) {
			match[IDX(h[i])] = IDX(t[best]);
			n++;
			j = best + 1;
		}
	}
	return n;
}

/*
 * match_mixed() - match a hash run that holds two different commands (a
 * 64-bit collision, which almost never happens): each host record takes its
 * best unmatched candidate.
 */
static size_t match_mixed(const struct ntprof_record *host,
			  const struct jent *h, size_t nh,
			  const struct ntprof_record *target,
			  const struct jent *t, size_t nt,
			  const struct theta_map *m, int64_t slack,
			  unsigned int keys,
			  uint32_t *match, uint8_t *taken)
{
	int64_t theta, err, v, best_v;
	size_t i, k, best, n = 0;

	memset(taken, 0, nt);
	for (i = 0; i < nh; i++) {
		theta_at(m, h[i].start, &theta, &err);
		best = nt;
		best_v = INT64_MAX;
		for (k = 0; k < nt; k++) {
			if (taken[k] || ROUTE(h[i]) != ROUTE(t[k]) ||
			    !same_cmd(&host[IDX(h[i])], &target[IDX(t[k])],
				      keys))
				continue;
			v = misfit(h[i].start, h[i].end, t[k].start, t[k].end,
				   theta);
			if (v < best_v) {
				best_v = v;
				best = k;
			}
		}
		if (best < nt && best_v <= slack + err) {
			taken[best] = 1;
			match[IDX(h[i])] = IDX(t[best]);
			n++;
		}
	}
	return n;
}

/*
 * match_all() - match every run; call it after collect_pairs(), which marked
 * the runs of one command.
 */
static int match_all(const struct ntprof_record *host, const struct jent *he,
		     size_t nhe, const struct ntprof_record *target,
		     const struct jent *te, size_t nte,
		     const struct theta_map *m, int64_t slack,
		     unsigned int keys,
		     uint32_t *match, size_t *matched)
{
	struct common_runs c = { .he = he, .nhe = nhe, .te = te, .nte = nte };
	uint8_t *taken = NULL;

	*matched = 0;
	while (next_common_run(&c)) {
		if (he[c.i].idx & RUN_SAME) {
			*matched += match_run(&he[c.i], c.i1 - c.i, &te[c.j],
					      c.j1 - c.j, m, slack, match);
		} else {
			free(taken);
			taken = malloc(c.j1 - c.j);
			if (!taken)
				return -ENOMEM;
			*matched += match_mixed(host, &he[c.i], c.i1 - c.i,
						target, &te[c.j], c.j1 - c.j,
						m, slack, keys, match, taken);
		}
	}
	free(taken);
	return 0;
}

static void theta_summary(const struct theta_map *m, struct ntprof_join *j)
{
	int64_t *v;
	size_t i;

	j->windows = m->n;
	if (!m->n) {
		j->theta_ns = m->hint_theta;
		j->theta_min_ns = m->hint_theta;
		j->theta_max_ns = m->hint_theta;
		return;
	}
	j->theta_min_ns = m->w[0].theta;
	j->theta_max_ns = m->w[0].theta;
	for (i = 1; i < m->n; i++) {
		if (m->w[i].theta < j->theta_min_ns)
			j->theta_min_ns = m->w[i].theta;
		if (m->w[i].theta > j->theta_max_ns)
			j->theta_max_ns = m->w[i].theta;
	}
	v = malloc(m->n * sizeof(*v));
	if (!v) {
		/* Only a summary: the middle window will do. */
		j->theta_ns = m->w[m->n / 2].theta;
		return;
	}
	for (i = 0; i < m->n; i++)
		v[i] = m->w[i].theta;
	qsort(v, m->n, sizeof(*v), cmp_i64);
	j->theta_ns = v[m->n / 2];
	free(v);
}

/*
 * keys_of() - choose the key fields for records @r. Recordings made before
 * records carried the controller id, and kernels on which a side cannot read
 * it, have 0 there, and a side that cannot tell a command's transport
 * records NONE; in those cases the field is left out of the keys (same_cmd()
 * still lets NONE match any transport).
 */
static unsigned int keys_of(const struct ntprof_record *r, size_t n)
{
	unsigned int keys = n ? KEY_CNTLID | KEY_TRANSPORT : 0;
	size_t i;

	for (i = 0; keys && i < n; i++) {
		if (!r[i].cntlid)
			keys &= ~KEY_CNTLID;
		if (!r[i].transport)
			keys &= ~KEY_TRANSPORT;
	}
	return keys;
}

int ntprof_join(const struct ntprof_record *host, size_t nr_host,
		const struct ntprof_record *target, size_t nr_target,
		const struct ntprof_join_opts *opts, struct ntprof_join *j)
{
	struct jent *he = NULL, *te = NULL;
	struct theta_map m = { 0 };
	struct pair *pairs = NULL;
	size_t nhe = 0, nte = 0, np, i;
	int64_t slack;
	unsigned int keys;
	bool routed;
	int err;

	memset(j, 0, sizeof(*j));
	if (nr_host >= NTPROF_NO_MATCH || nr_target >= NTPROF_NO_MATCH)
		return -EINVAL;
	j->nr_host = nr_host;
	j->nr_target = nr_target;
	j->match = malloc((nr_host ? nr_host : 1) * sizeof(*j->match));
	if (!j->match)
		return -ENOMEM;
	for (i = 0; i < nr_host; i++)
		j->match[i] = NTPROF_NO_MATCH;
	slack = opts && opts->slack_ns ? opts->slack_ns : DEFAULT_SLACK_NS;

	keys = keys_of(host, nr_host) & keys_of(target, nr_target);
	routed = opts && opts->host_route && opts->target_route;
	err = entries(host, nr_host, NTPROF_ROLE_HOST, keys,
		      opts ? opts->host_skip : NULL,
		      routed ? opts->host_route : NULL, &he, &nhe);
	if (!err)
		err = entries(target, nr_target, NTPROF_ROLE_TARGET, keys,
			      NULL, routed ? opts->target_route : NULL, &te,
			      &nte);
	if (err)
		goto out;

	np = nhe < nte ? nhe : nte;
	pairs = malloc((np ? np : 1) * sizeof(*pairs));
	if (!pairs) {
		err = -ENOMEM;
		goto out;
	}
	np = collect_pairs(host, he, nhe, target, te, nte, false, keys,
			   pairs);
	if (!np)
		np = collect_pairs(host, he, nhe, target, te, nte, true,
				   keys, pairs);
	err = ntprof_radix_sort(pairs, np, sizeof(*pairs),
				offsetof(struct pair, t));
	if (err)
		goto out;
	j->pairs = np;

	err = theta_map_build(pairs, np, &m);
	if (err)
		goto out;
	free(pairs);
	pairs = NULL;
	if (!m.n) {
		if (!opts || !opts->have_hint)
			goto out;	/* nothing to go by: no match */
		m.hint_theta = opts->theta_hint_ns;
		m.hint_err = opts->hint_error_ns ? opts->hint_error_ns :
						   DEFAULT_HINT_ERROR_NS;
		j->theta_from_hint = true;
	}
	j->theta_known = true;
	theta_summary(&m, j);

	err = match_all(host, he, nhe, target, te, nte, &m, slack, keys,
			j->match, &j->matched);
out:
	free(m.w);
	free(pairs);
	free(he);
	free(te);
	return err;
}

void ntprof_join_free(struct ntprof_join *j)
{
	free(j->match);
	j->match = NULL;
}
