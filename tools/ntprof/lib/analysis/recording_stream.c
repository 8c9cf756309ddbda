// SPDX-License-Identifier: GPL-2.0
/*
 * A run joined in one pass over its files, in memory that depends on a
 * window, not on the number of records: report of recordings of any
 * length (issue 27).
 *
 * The host's records come in chunks of STREAM_CHUNK, in file order. A
 * chunk spans [S, E] on the host's clock; the target's records that can
 * match one of its commands are those whose window, moved by theta, lies
 * within [S - M, E + M] (M: STREAM_MARGIN_NS). They are kept in a queue
 * that the target's file fills as the chunks move on, and that drops
 * from its head what is older than the next chunk's S - M. Each chunk is
 * joined with the queue's records no earlier chunk took, by ntprof_join()
 * itself (join.c), whose theta becomes the next chunk's; a first pass
 * over a sample (the host's first records, looked up in the target's
 * file from its start) gives the first chunk's theta, whatever the two
 * clocks' offset.
 *
 * The matches are those of the join of the whole files, as long as a
 * command's records on the two sides are within M of each other once
 * theta is taken out, and the files are in time order within M (a
 * recorder writes records as it drains them: within milliseconds). The
 * clock summary differs: theta comes from each chunk's unique commands
 * rather than the whole run's. Memory: a chunk of host records, the
 * queue, and the analysis (whose samples past 1 Mi values a group go
 * into histograms, stats_hist.c).
 *
 * A run of one host recording and one target recording (each a file or
 * parts), or of one side alone, can stream; others are loaded whole.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/chain.h"
#include "analysis/recording.h"
#include "common/util.h"

/* Host records a chunk; overridable for the tests' chunk boundaries. */
#define STREAM_CHUNK		(1U << 16)
/* How far a target window may lie outside its chunk's span. */
#define STREAM_MARGIN_NS	(20 * (int64_t)NSEC_PER_MSEC)
/*
 * Streamed by default when the records, loaded, would take more than this:
 * 4.6 M records (1 GiB of 1.x files, about 370 MB of 2.0's).
 */
#define STREAM_AUTO_BYTES	(1ULL << 30)
/* The sampled first pass: host records looked up, hits wanted. */
#define THETA_SAMPLE		65536
#define THETA_HITS		1024
/* ... looked up in at most this many target records (3.6 GiB loaded). */
#define THETA_SCAN		(1U << 24)

bool recording_stream_wanted(const struct recording_run *run,
			     enum recording_stream mode)
{
	const struct ntp_header *a, *b;
	uint64_t records = 0;
	size_t i, k;

	/*
	 * Several hosts with targets: each pair's join, first match wins.
	 * Chains load whole (chain.c): a middle's links need its records
	 * and its replicas' at once.
	 */
	if (mode == RECORDING_STREAM_NEVER ||
	    ntprof_chain_present(run) ||
	    (run->nr_host_files && run->nr_target_files &&
	     (run->nr_host_files > 1 || run->nr_target_files > 1)))
		return false;
	/* A host and a target of no transport in common: not joined. */
	if (run->nr_host_files && run->nr_target_files) {
		a = run->files[0].hdr;
		b = run->files[1].hdr;
		if (a->transport != b->transport &&
		    a->transport != NTPROF_TRANSPORT_NONE &&
		    b->transport != NTPROF_TRANSPORT_NONE)
			return false;
	}
	if (mode == RECORDING_STREAM_ALWAYS)
		return true;
	for (i = 0; i < run->nr_files; i++)
		for (k = 0; k < run->files[i].nr_parts; k++)
			records += ntp_records_bound(run->files[i].parts[k].file);
	return records > STREAM_AUTO_BYTES / sizeof(struct ntprof_record);
}

/* A recording read record by record, part after part. */
struct reader {
	struct recording *rec;
	bool own;		/* handles of its own, opened by path */
	size_t part;
	struct ntp_file *f;
	const struct ntprof_record *blk;
	size_t n, i;
	uint64_t count;
	uint64_t last_point;
	const char *cmd;
	int err;		/* 1 after a message */
};

static void reader_close_part(struct reader *r)
{
	const struct ntp_trailer *t;

	if (!r->f)
		return;
	t = ntp_trailer(r->f);
	if (!r->own) {
		/* The first pass: what the notes show of the recording. */
		r->rec->cut_short |= !t;
		r->rec->discarded += ntp_discarded(r->f);
		if (t) {
			r->rec->drops += t->drops;
			r->rec->evictions += t->evictions;
		}
	} else {
		ntp_close(r->f);
	}
	r->f = NULL;
}

static int reader_open_part(struct reader *r)
{
	char err[512];

	if (!r->own) {
		r->f = r->rec->parts[r->part].file;
		return 0;
	}
	if (ntp_open(r->rec->parts[r->part].path, &r->f, err, sizeof(err))) {
		fprintf(stderr, "ntprof: %s: %s\n", r->cmd, err);
		r->err = 1;
		return 1;
	}
	return 0;
}

static int reader_init(struct reader *r, struct recording *rec, bool own,
		       const char *cmd)
{
	memset(r, 0, sizeof(*r));
	r->rec = rec;
	r->own = own;
	r->cmd = cmd;
	return reader_open_part(r);
}

/*
 * reader_next() - return the next record, or NULL at the end or after an
 * error (r->err).
 */
static const struct ntprof_record *reader_next(struct reader *r)
{
	const struct ntprof_record *x;
	int ret;

	while (r->i == r->n) {
		if (!r->f)
			return NULL;
		ret = ntp_next_block(r->f, &r->blk, &r->n);
		r->i = 0;
		if (ret > 0)
			continue;
		r->n = 0;
		if (ret < 0) {
			fprintf(stderr, "ntprof: %s: %s\n", r->cmd,
				ntp_error(r->f));
			r->err = 1;
			return NULL;
		}
		reader_close_part(r);
		if (++r->part == r->rec->nr_parts || reader_open_part(r))
			return NULL;
	}
	x = &r->blk[r->i++];
	r->count++;
	if (!r->own) {
		uint64_t p = recording_last_point(x, 1);

		if (p > r->last_point)
			r->last_point = p;
	}
	return x;
}

/* reader_drop() - close a sample's reader, left where it stopped. */
static void reader_drop(struct reader *r)
{
	if (r->own && r->f)
		ntp_close(r->f);
	r->f = NULL;
}

/*
 * reader_done() - read the rest of the recording (for its count and its
 * trailers), then close it.
 */
static void reader_done(struct reader *r)
{
	while (r->f && !r->err && reader_next(r))
		;
	reader_close_part(r);
}

/* A target record in the queue, with its window on the target's clock. */
struct tent {
	struct ntprof_record r;
	int64_t start;
	int64_t end;
	bool taken;
};

struct stream {
	const struct recording_run *run;
	const char *cmd;
	struct recording *hrec, *trec;
	struct reader h, t;
	bool first;		/* the first pass: counts and notes */
	size_t chunk;
	int64_t theta;
	struct ntprof_record *hbuf;
	struct tent *q;		/* the queue: [head, tail) */
	size_t head, tail, cap;
	bool t_end;
	struct ntprof_record *tsel;	/* a chunk's candidates */
	size_t *tmap;		/* ... and their places in the queue */
	size_t tsel_cap;
	/* The chunks' clock estimates, for the summary. */
	struct ntprof_join total;
	int64_t *thetas;
	size_t nr_thetas;
	int (*fn)(const struct ntprof_record *host,
		  const struct ntprof_record *target,
		  const struct recording *hrec,
		  const struct recording *trec, void *arg);
	void *arg;
};

/* key_hash() - hash a command's identity, for the first pass's lookup. */
static uint64_t key_hash(const struct ntprof_record *r)
{
	uint64_t h = ntprof_fmix64(r->slba ^ 0x9e3779b97f4a7c15ULL);

	h = ntprof_fmix64(h ^ r->nsid);
	return ntprof_fmix64(h ^ ((uint64_t)r->qid << 32 |
				  (uint64_t)r->cid << 16 | r->opcode)) | 1;
}

struct sample_ent {
	uint64_t key;		/* 0: empty */
	uint64_t start;
	uint64_t end;
	bool dup;
};

/*
 * sample_host() - put the host's first THETA_SAMPLE commands into a table by
 * identity, with open addressing.
 */
static struct sample_ent *sample_host(struct stream *s, size_t *mask)
{
	size_t nslots = 2 * THETA_SAMPLE, j, n = 0;
	const struct ntprof_record *x;
	struct sample_ent *tab;
	uint64_t start, end, k;
	struct reader r;

	tab = calloc(nslots, sizeof(*tab));
	if (!tab || reader_init(&r, s->hrec, true, s->cmd)) {
		free(tab);
		return NULL;
	}
	while (n < THETA_SAMPLE && (x = reader_next(&r))) {
		if (x->role != NTPROF_ROLE_HOST ||
		    ntprof_record_window(x, &start, &end))
			continue;
		k = key_hash(x);
		for (j = k & (nslots - 1); tab[j].key && tab[j].key != k;
		     j = (j + 1) & (nslots - 1))
			;
		if (tab[j].key)
			tab[j].dup = true;
		tab[j] = (struct sample_ent){ k, start, end, tab[j].dup };
		n++;
	}
	reader_drop(&r);
	*mask = nslots - 1;
	return tab;
}

/*
 * theta_first() - estimate the first chunk's theta: look the host's first
 * commands up in the target's file from its start, and take the median of
 * the midpoints of their causality bounds (join.h). Without a hit, it uses
 * the headers' start stamps.
 */
static int theta_first(struct stream *s)
{
	const struct ntp_header *h = s->hrec->hdr, *t = s->trec->hdr;
	struct sample_ent *tab, *e;
	const struct ntprof_record *x;
	int64_t *mid = NULL;
	uint64_t start, end, k, since = 0, scanned = 0;
	size_t mask, j, n = 0;
	struct reader r;

	s->theta = (int64_t)(t->start_mono_ns - t->start_real_ns) -
		   (int64_t)(h->start_mono_ns - h->start_real_ns);
	if (h->boot_id[0] && !strcmp(h->boot_id, t->boot_id))
		s->theta = 0;
	tab = sample_host(s, &mask);
	mid = malloc(THETA_HITS * sizeof(*mid));
	if (!tab || !mid || reader_init(&r, s->trec, true, s->cmd)) {
		free(tab);
		free(mid);
		return -ENOMEM;
	}
	/*
	 * Past the hits, a chunk's worth without one: the sample is behind.
	 * A target that ran long before the host's start has its hits far
	 * in; past THETA_SCAN, the start stamps will do.
	 */
	while (n < THETA_HITS && (!n || since < s->chunk) &&
	       scanned++ < THETA_SCAN && (x = reader_next(&r))) {
		since++;
		if (x->role != NTPROF_ROLE_TARGET ||
		    ntprof_record_window(x, &start, &end))
			continue;
		k = key_hash(x);
		for (j = k & mask; tab[j].key && tab[j].key != k;
		     j = (j + 1) & mask)
			;
		e = &tab[j];
		if (!e->key || e->dup)
			continue;
		mid[n++] = (int64_t)(end - e->end) / 2 +
			   (int64_t)(start - e->start) / 2;
		since = 0;
	}
	reader_drop(&r);
	if (n) {
		qsort(mid, n, sizeof(*mid), cmp_i64);
		s->theta = mid[n / 2];
	}
	free(tab);
	free(mid);
	return 0;
}

/*
 * queue_reserve() - make room for @n more records in the queue. It returns 0
 * or -ENOMEM.
 */
static int queue_reserve(struct stream *s, size_t n)
{
	struct tent *q;
	size_t cap;

	if (s->head && s->head >= s->tail / 2) {
		memmove(s->q, s->q + s->head, (s->tail - s->head) * sizeof(*q));
		s->tail -= s->head;
		s->head = 0;
	}
	if (s->tail + n <= s->cap)
		return 0;
	cap = s->cap ? 2 * s->cap : 4096;
	while (cap < s->tail + n)
		cap *= 2;
	q = realloc(s->q, cap * sizeof(*q));
	if (!q)
		return -ENOMEM;
	s->q = q;
	s->cap = cap;
	return 0;
}

/*
 * queue_fill() - fill the queue up to the target records that may match a
 * command of the chunk [@lo, @hi] (on the host's clock): read the file until
 * a record starts after @hi, and drop from the head those that ended before
 * @lo.
 */
static int queue_fill(struct stream *s, int64_t lo, int64_t hi)
{
	const struct ntprof_record *x;
	uint64_t start, end;
	struct tent *e;

	while (s->head < s->tail && s->q[s->head].end - s->theta < lo)
		s->head++;
	while (!s->t_end &&
	       (s->head == s->tail ||
		s->q[s->tail - 1].start - s->theta <= hi)) {
		x = reader_next(&s->t);
		if (!x) {
			s->t_end = true;
			break;
		}
		/* Without a window it matches nothing: counted, not kept. */
		if (x->role != NTPROF_ROLE_TARGET ||
		    ntprof_record_window(x, &start, &end))
			continue;
		if (queue_reserve(s, 1))
			return -ENOMEM;
		e = &s->q[s->tail++];
		e->r = *x;
		e->start = (int64_t)start;
		e->end = (int64_t)end;
		e->taken = false;
	}
	return s->t.err ? -EIO : 0;
}

/*
 * chunk_span() - find the span of the chunk's host windows, on the host's
 * clock.
 */
static bool chunk_span(const struct ntprof_record *h, size_t n, int64_t *lo,
		       int64_t *hi)
{
	uint64_t start, end;
	bool any = false;
	size_t i;

	for (i = 0; i < n; i++) {
		if (h[i].role != NTPROF_ROLE_HOST ||
		    ntprof_record_window(&h[i], &start, &end))
			continue;
		if (!any || (int64_t)start < *lo)
			*lo = (int64_t)start;
		if (!any || (int64_t)end > *hi)
			*hi = (int64_t)end;
		any = true;
	}
	return any;
}

/*
 * chunk_candidates() - gather the queue's records that no earlier chunk
 * took: the chunk's candidates.
 */
static int chunk_candidates(struct stream *s, size_t *nt)
{
	size_t n = s->tail - s->head, k;

	*nt = 0;
	if (n > s->tsel_cap) {
		free(s->tsel);
		free(s->tmap);
		s->tsel = malloc(n * sizeof(*s->tsel));
		s->tmap = malloc(n * sizeof(*s->tmap));
		s->tsel_cap = s->tsel && s->tmap ? n : 0;
		if (!s->tsel_cap)
			return -ENOMEM;
	}
	for (k = s->head; k < s->tail; k++) {
		if (s->q[k].taken)
			continue;
		s->tsel[*nt] = s->q[k].r;
		s->tmap[(*nt)++] = k;
	}
	return 0;
}

/* chunk_clock() - add the chunk's clock estimate to the run's summary. */
static int chunk_clock(struct stream *s, const struct ntprof_join *j)
{
	int64_t *v;

	if (!j->theta_known || j->theta_from_hint)
		return 0;
	s->theta = j->theta_ns;
	s->total.pairs += j->pairs;
	s->total.windows += j->windows;
	if (!s->nr_thetas || j->theta_min_ns < s->total.theta_min_ns)
		s->total.theta_min_ns = j->theta_min_ns;
	if (!s->nr_thetas || j->theta_max_ns > s->total.theta_max_ns)
		s->total.theta_max_ns = j->theta_max_ns;
	v = realloc(s->thetas, (s->nr_thetas + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	s->thetas = v;
	s->thetas[s->nr_thetas++] = j->theta_ns;
	return 0;
}

/*
 * chunk_join() - join one chunk of @n host records, and hand each command to
 * fn.
 */
static int chunk_join(struct stream *s, size_t n)
{
	struct ntprof_join_opts opts = {
		.have_hint = true,
		.theta_hint_ns = s->theta,
		.hint_error_ns = STREAM_MARGIN_NS,
	};
	const struct ntprof_record *t;
	struct ntprof_join j = { 0 };
	int64_t lo = 0, hi = 0;
	size_t nt = 0, i;
	uint32_t k;
	int err;

	if (s->trec && chunk_span(s->hbuf, n, &lo, &hi)) {
		err = queue_fill(s, lo - STREAM_MARGIN_NS,
				 hi + STREAM_MARGIN_NS);
		if (!err)
			err = chunk_candidates(s, &nt);
		if (!err)
			err = ntprof_join(s->hbuf, n, s->tsel, nt, &opts, &j);
		if (!err)
			err = chunk_clock(s, &j);
		if (err) {
			ntprof_join_free(&j);
			return err;
		}
	}
	for (i = 0, err = 0; i < n && !err; i++) {
		t = NULL;
		k = j.match ? j.match[i] : NTPROF_NO_MATCH;
		if (k != NTPROF_NO_MATCH) {
			s->q[s->tmap[k]].taken = true;
			t = &s->q[s->tmap[k]].r;
			s->total.matched++;
		}
		err = s->fn(&s->hbuf[i], t, s->hrec, t ? s->trec : NULL,
			    s->arg);
	}
	ntprof_join_free(&j);
	return err;
}

/* stream_join() - join the host's records, one chunk at a time. */
static int stream_join(struct stream *s)
{
	const struct ntprof_record *x;
	size_t n;
	int err = 0;

	s->hbuf = malloc(s->chunk * sizeof(*s->hbuf));
	if (!s->hbuf)
		return -ENOMEM;
	if (s->trec)
		err = theta_first(s);
	if (!err && reader_init(&s->h, s->hrec, !s->first, s->cmd))
		return -EIO;
	if (!err && s->trec && reader_init(&s->t, s->trec, !s->first, s->cmd))
		return -EIO;
	while (!err) {
		for (n = 0; n < s->chunk && (x = reader_next(&s->h)); n++)
			s->hbuf[n] = *x;
		if (s->h.err)
			return -EIO;
		if (!n)
			break;
		err = chunk_join(s, n);
	}
	/* The rest of the target's file: counted, its trailer read. */
	if (!err && s->trec)
		reader_done(&s->t);
	return err ? err : s->t.err ? -EIO : 0;
}

/* stream_side() - stream one side alone, every recording in the run's order. */
static int stream_side(struct stream *s)
{
	const struct recording_run *run = s->run;
	const struct ntprof_record *x;
	struct recording *rec;
	size_t f;
	int err = 0;

	for (f = 0; f < run->nr_files && !err; f++) {
		rec = &run->files[f];
		if (recording_is_host(rec) != (run->nr_host_files > 0))
			continue;
		if (reader_init(&s->h, rec, !s->first, s->cmd))
			return -EIO;
		while (!err && (x = reader_next(&s->h)))
			err = recording_is_host(rec) ? s->fn(x, NULL, rec, NULL, s->arg) :
					     s->fn(NULL, x, NULL, rec, s->arg);
		if (s->h.err)
			return -EIO;
		if (s->first) {
			rec->n = s->h.count;
			recording_read_done(rec, s->h.last_point);
		}
		reader_done(&s->h);
	}
	return err;
}

static int stream_run(struct stream *s)
{
	const struct recording_run *run = s->run;
	const char *env = getenv("NTPROF_STREAM_CHUNK");
	size_t f;
	int err;

	/* The tests' small chunks: boundaries in every ntpgen case. */
	s->chunk = env && atol(env) > 0 ? (size_t)atol(env) : STREAM_CHUNK;
	for (f = 0; f < run->nr_files; f++) {
		if (recording_is_host(&run->files[f]) && !s->hrec)
			s->hrec = &run->files[f];
		else if (!recording_is_host(&run->files[f]) && !s->trec)
			s->trec = &run->files[f];
	}
	if (!s->hrec || !s->trec)
		err = stream_side(s);
	else
		err = stream_join(s);
	if (!err && s->first && s->hrec && s->trec) {
		s->hrec->n = s->h.count;
		s->trec->n = s->t.count;
		recording_read_done(s->hrec, s->h.last_point);
		recording_read_done(s->trec, s->t.last_point);
	}
	/* After an error the handles of a later pass are still open. */
	if (!s->first) {
		reader_close_part(&s->h);
		reader_close_part(&s->t);
	}
	free(s->hbuf);
	free(s->q);
	free(s->tsel);
	free(s->tmap);
	return err;
}

static int load_fn(const struct ntprof_record *host,
		   const struct ntprof_record *target,
		   const struct recording *hrec, const struct recording *trec,
		   void *arg)
{
	(void)hrec;
	if (host)
		return recording_run_add(arg, NTPROF_ROLE_HOST, host, target);
	return recording_run_add(arg, trec->hdr->role, target, NULL);
}

/*
 * stream_summary() - sum the clocks of the chunks as one pair's join, for
 * the notes and the JSON.
 */
static int stream_summary(struct recording_run *run, struct stream *s)
{
	struct ntprof_join *j;
	size_t f;

	run->nr_host = run->nr_target = 0;
	for (f = 0; f < run->nr_files; f++) {
		if (recording_is_host(&run->files[f]))
			run->nr_host += run->files[f].n;
		else
			run->nr_target += run->files[f].n;
	}
	run->matched = s->total.matched;
	if (!s->hrec || !s->trec)
		return 0;
	run->pairs = calloc(1, sizeof(*run->pairs));
	if (!run->pairs)
		return -ENOMEM;
	run->nr_pairs = 1;
	run->pairs[0].host = s->hrec - run->files;
	run->pairs[0].target = s->trec - run->files;
	j = &run->pairs[0].join;
	*j = s->total;
	j->nr_host = run->nr_host;
	j->nr_target = run->nr_target;
	j->theta_known = true;
	if (s->nr_thetas) {
		qsort(s->thetas, s->nr_thetas, sizeof(*s->thetas), cmp_i64);
		j->theta_ns = s->thetas[s->nr_thetas / 2];
	} else {
		j->theta_from_hint = true;
		j->theta_ns = j->theta_min_ns = j->theta_max_ns = s->theta;
	}
	run->total = *j;
	return 0;
}

int recording_stream_load(struct recording_run *run, const char *cmd,
			  unsigned int by)
{
	struct stream s = { .run = run, .cmd = cmd, .first = true,
			    .fn = load_fn, .arg = run };
	int err;

	run->streamed = true;
	run->by = by;
	err = recording_analysis_begin(run, by);
	if (!err)
		err = stream_run(&s);
	if (err == -EIO) {
		free(s.thetas);
		return 1;	/* said */
	}
	/* The trailers' devices, read at last, and the run's length. */
	if (!err)
		err = recording_analysis_begin(run, by);
	if (!err) {
		ntprof_analysis_relabel(run->an);
		err = stream_summary(run, &s);
	}
	if (!err)
		err = ntprof_analysis_finish(run->an);
	free(s.thetas);
	if (!err)
		return 0;
	fprintf(stderr, "ntprof: %s: out of memory for the analysis\n", cmd);
	return 1;
}

int recording_stream_each(const struct recording_run *run,
			  int (*fn)(const struct ntprof_record *host,
				    const struct ntprof_record *target,
				    const struct recording *hrec,
				    const struct recording *trec, void *arg),
			  void *arg)
{
	struct stream s = { .run = run, .fn = fn, .arg = arg, .cmd = "report" };
	int err;

	err = stream_run(&s);
	free(s.thetas);
	return err;
}
