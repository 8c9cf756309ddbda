// SPDX-License-Identifier: GPL-2.0
/*
 * Loading a run: its recordings, the checks that they belong together,
 * the joins of every host file with every target file, and the analysis.
 *
 * Several hosts and several targets: each host file is joined with each
 * target file of its transports in turn (a recording of both transports,
 * NONE in its header, with any), and a host record keeps the first
 * target record it matched; a target record goes to one host record at
 * most. The join's clock offset is per pair of files, as each pair of
 * machines has its own.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/chain.h"
#include "analysis/recording.h"
#include "common/files.h"
#include "common/util.h"


static uint64_t record_last_ts(const struct ntprof_record *r)
{
	uint64_t last = 0;
	int p;

	for (p = 0; p < NTPROF_RECORD_POINTS; p++)
		if (r->ts[p] > last)
			last = r->ts[p];
	return last;
}

uint64_t recording_last_point(const struct ntprof_record *r, size_t n)
{
	uint64_t end = 0, ts;
	size_t i;

	for (i = 0; i < n; i++) {
		ts = record_last_ts(&r[i]);
		if (ts > end)
			end = ts;
	}
	return end;
}

void recording_read_done(struct recording *rec, uint64_t last_point)
{
	const struct recording_part *last = &rec->parts[rec->nr_parts - 1];
	const struct ntp_trailer *t = ntp_trailer(last->file);
	uint64_t start = rec->parts[0].hdr->part_start_mono_ns;
	size_t i;

	/* The last part's trailer is the fullest (devices, hooks). */
	for (i = rec->nr_parts; rec->nr_parts > 1 && i-- > 0;)
		if (ntp_trailer(rec->parts[i].file)) {
			rec->file = rec->parts[i].file;
			rec->hdr = ntp_header(rec->file);
			break;
		}
	/* From its (first part's) start to its (last part's) end. */
	if (!start)
		start = rec->hdr->start_mono_ns;
	if (t && t->end_mono_ns > start)
		rec->duration_ns = t->end_mono_ns - start;
	else
		rec->duration_ns = last_point > start ? last_point - start : 0;
}

/* A recording in one file, read whole. 0, or 1 after a message. */
static int file_read(struct recording *rec, const char *cmd)
{
	const struct ntp_trailer *t;

	if (ntp_read_all(rec->file, &rec->recs, &rec->n)) {
		fprintf(stderr, "ntprof: %s: %s\n", cmd, ntp_error(rec->file));
		return 1;
	}
	t = ntp_trailer(rec->file);
	rec->cut_short = !t;
	rec->discarded = ntp_discarded(rec->file);
	if (t) {
		rec->drops = t->drops;
		rec->evictions = t->evictions;
	}
	return 0;
}

/*
 * A recording whose files are open, its parts in order, before its
 * records are read. 0, or 1 after a message.
 */
static int recording_prepare(struct recording *rec, const char *cmd)
{
	if (rec->nr_parts > 1 || rec->parts[0].hdr->part) {
		if (recording_parts_order(rec, cmd))
			return 1;
	}
	rec->path = rec->parts[0].path;
	rec->file = rec->parts[rec->nr_parts - 1].file;
	rec->hdr = ntp_header(rec->file);
	if (rec->hdr->role != NTPROF_ROLE_HOST &&
	    rec->hdr->role != NTPROF_ROLE_TARGET) {
		fprintf(stderr,
			"ntprof: %s: %s: neither a host's nor a target's recording (role %u)\n",
			cmd, rec->path, rec->hdr->role);
		return 1;
	}
	return 0;
}

/* The records of a prepared recording. 0, or 1 after a message. */
static int recording_read(struct recording *rec, const char *cmd)
{
	if (rec->nr_parts == 1 && !rec->parts[0].hdr->part) {
		if (file_read(rec, cmd))
			return 1;
	} else if (recording_parts_read(rec, cmd)) {
		return 1;
	}
	recording_read_done(rec, recording_last_point(rec->recs, rec->n));
	return 0;
}

/* @rec with one more file; -ENOMEM. */
static int part_add(struct recording *rec, const char *path,
		    struct ntp_file *f)
{
	struct recording_part *v;

	v = realloc(rec->parts, (rec->nr_parts + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	rec->parts = v;
	v[rec->nr_parts++] = (struct recording_part) {
		.path = path, .file = f, .hdr = ntp_header(f),
	};
	return 0;
}

/*
 * Every file opened, each a recording, or a part joining the recording
 * of its session. 0, or 1 after a message.
 */
static int recordings_open(struct recording_run *run, const char *cmd)
{
	const struct recording_paths *p = &run->paths;
	const struct ntp_header *hdr;
	struct recording *rec;
	struct ntp_file *f;
	char err[512];
	size_t i, k;

	run->files = calloc(p->n + 1, sizeof(*run->files));
	if (!run->files)
		goto nomem;
	for (i = 0; i < p->n; i++) {
		if (ntp_open(p->v[i], &f, err, sizeof(err))) {
			fprintf(stderr, "ntprof: %s: %s\n", cmd, err);
			return 1;
		}
		hdr = ntp_header(f);
		for (k = 0; !hdr->part && k < run->nr_files; k++) {
			if (!recording_copy_of(run->files[k].parts[0].hdr, hdr))
				continue;
			fprintf(stderr,
				"ntprof: %s: %s and %s are one recording (same machine, boot and start): a copy is counted twice\n",
				cmd, run->files[k].parts[0].path, p->v[i]);
			ntp_close(f);
			return 1;
		}
		for (k = 0; hdr->part && k < run->nr_files; k++)
			if (recording_same_session(run->files[k].parts[0].hdr,
						   hdr))
				break;
		rec = &run->files[hdr->part ? k : run->nr_files];
		if (rec == &run->files[run->nr_files])
			run->nr_files++;
		if (part_add(rec, p->v[i], f)) {
			ntp_close(f);
			goto nomem;
		}
	}
	return 0;
nomem:
	fprintf(stderr, "ntprof: %s: out of memory\n", cmd);
	return 1;
}

/* Whether two recordings may hold the same commands: a transport in common. */
static bool same_transports(const struct ntp_header *a,
			    const struct ntp_header *b)
{
	return a->transport == b->transport ||
	       a->transport == NTPROF_TRANSPORT_NONE ||
	       b->transport == NTPROF_TRANSPORT_NONE;
}

/* Whether the run holds commands of both transports, or may. */
static bool several_transports(const struct recording_run *run)
{
	size_t i;

	for (i = 0; i < run->nr_files; i++)
		if (run->files[i].hdr->transport == NTPROF_TRANSPORT_NONE ||
		    run->files[i].hdr->transport != run->files[0].hdr->transport)
			return true;
	return false;
}

static bool is_host(const struct recording *rec)
{
	return rec->hdr->role == NTPROF_ROLE_HOST;
}

/*
 * All files must share N: a join of different samples matches a part.
 * A middle's host side is checked against its middle apart (chain.c): a
 * difference there leaves the middle unlinked, with a note.
 */
static int check_sample(struct recording_run *run, const char *cmd)
{
	const struct recording *a = &run->files[0], *b;
	size_t i;

	while (a->leg)
		a++;
	for (i = 1; i < run->nr_files; i++) {
		b = &run->files[i];
		if (b->hdr->sample == a->hdr->sample || b->leg)
			continue;
		fprintf(stderr,
			"ntprof: %s: %s sampled one command in %u, %s one in %u: record every side with the same -s to report them together\n",
			cmd, a->path, a->hdr->sample, b->path, b->hdr->sample);
		return 1;
	}
	run->sample = a->hdr->sample ? a->hdr->sample : 1;
	return 0;
}

/*
 * The join's fallback guess of the clock offset: none needed on one
 * machine (same boot), else what the two clocks' start stamps say.
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

/* Whether target header @t has a controller of subsystem @nqn. */
static bool exports(const struct ntp_header *t, const char *nqn)
{
	uint32_t k;

	for (k = 0; k < t->nr_ctrls; k++)
		if (!strcmp(t->ctrls[k].subsysnqn, nqn))
			return true;
	return false;
}

/*
 * Whether subsystem @nqn belongs to another target file than @t: @t does
 * not export it, and another target file of @run does.
 */
static bool exported_elsewhere(const struct recording_run *run,
			       const struct recording *t, const char *nqn)
{
	size_t i;

	if (!nqn[0] || exports(t->hdr, nqn))
		return false;
	for (i = 0; i < run->nr_files; i++)
		if (&run->files[i] != t && !is_host(&run->files[i]) &&
		    exports(run->files[i].hdr, nqn))
			return true;
	return false;
}

/*
 * Which of host file @h's records went to a subsystem that another
 * target file of @run exports, not @t: a chain's middle sends a write's
 * clones to every leg from the same queue and tag, and the origin's
 * commands may share a replica's identity; only the subsystem tells
 * them apart. Sets *@skip to a mask for the join (NULL: every record may
 * match) and returns 1 when no record may match, so that the pair is
 * not joined, 0, or -ENOMEM. A record whose disk no controller names,
 * or whose subsystem no target file names (a file without names, a
 * subsystem made after its target's recording started), is never left
 * out.
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

/* @nqn's number in @rt, added if new; 0 when @rt is full. */
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
 * The subsystem a record of @hdr went to: a host's by its disk, a
 * target's by its device and namespace. NULL when the table names none,
 * or (a target's device in two subsystems) more than one.
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

/* Each record's route in @rt, or -1 when one has none. */
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
 * The routes of @h's join with @t (ntprof_join_opts.host_route): when
 * @t exports several subsystems, as a machine holding a middle's two
 * legs' replicas does, to whose two subsystems the middle sends the
 * same write from the same queue and tag, each record's subsystem. Left
 * NULL, the join goes by identity alone, when a record of either side
 * has no subsystem its table names: 0, or -ENOMEM.
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

static int join_all(struct recording_run *run, const char *cmd)
{
	struct recording *rec;
	size_t hi, ti;

	run->pairs = calloc(run->nr_host_files * run->nr_target_files + 1,
			    sizeof(*run->pairs));
	if (!run->pairs)
		goto nomem;
	for (hi = 0; hi < run->nr_files; hi++) {
		rec = &run->files[hi];
		if (is_host(rec)) {
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
		if (!is_host(&run->files[hi]))
			continue;
		for (ti = 0; ti < run->nr_files; ti++) {
			if (is_host(&run->files[ti]) ||
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

/* The joins' counts summed, and the first pair's clocks, for the JSON. */
static void join_total(struct recording_run *run)
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

/*
 * The device names of one side's files, per machine (recording.machine),
 * first name of a number wins: two hosts' 259:0 are two devices.
 */
/* @devs' names not in @v yet, appended; 0 or -ENOMEM. */
static int devs_add(struct ntprof_devname **v, size_t *n, size_t *cap,
		    const struct ntp_dev *devs, size_t nr, uint16_t machine)
{
	struct ntprof_devname *nv;
	size_t k, d;

	for (d = 0; d < nr; d++) {
		for (k = 0; k < *n; k++)
			if ((*v)[k].dev == devs[d].dev &&
			    (*v)[k].machine == machine)
				break;
		if (k < *n)
			continue;
		if (*n == *cap) {
			*cap = *cap ? 2 * *cap : 16;
			nv = realloc(*v, *cap * sizeof(*nv));
			if (!nv)
				return -ENOMEM;
			*v = nv;
		}
		(*v)[*n].dev = devs[d].dev;
		(*v)[*n].name = devs[d].name;
		(*v)[*n].machine = machine;
		(*n)++;
	}
	return 0;
}

/*
 * The names of one side's devices: each file's header table, then the
 * devices its trailer names, that appeared after the start (1.2).
 */
static int devs_collect(struct recording_run *run, bool host,
			struct ntprof_devname **out, size_t *nr)
{
	struct ntprof_devname *v = NULL;
	const struct ntp_trailer *t;
	const struct ntp_header *hdr;
	size_t n = 0, cap = 0, i;

	for (i = 0; i < run->nr_files; i++) {
		/* A middle's host side names its own devices apart. */
		if (is_host(&run->files[i]) != host || run->files[i].leg)
			continue;
		hdr = run->files[i].hdr;
		t = ntp_trailer(run->files[i].file);
		if (devs_add(&v, &n, &cap, hdr->devs, hdr->nr_devs,
			     run->files[i].machine) ||
		    (t && devs_add(&v, &n, &cap, t->late_devs,
				   t->nr_late_devs, run->files[i].machine))) {
			free(v);
			return -ENOMEM;
		}
	}
	*out = v;
	*nr = n;
	return 0;
}

/*
 * The host files' paths: each controller entry with a disk, first entry
 * of a number wins. 0 or -ENOMEM.
 */
static int paths_collect(struct recording_run *run)
{
	struct ntprof_pathname *v = NULL, *nv;
	const struct ntp_header *hdr;
	size_t n = 0, cap = 0, i, c, k;

	for (i = 0; i < run->nr_files; i++) {
		if (!is_host(&run->files[i]) || run->files[i].leg)
			continue;
		hdr = run->files[i].hdr;
		for (c = 0; c < hdr->nr_ctrls; c++) {
			for (k = 0; k < n && (v[k].dev != hdr->ctrls[c].dev ||
					      v[k].machine !=
					      run->files[i].machine); k++)
				;
			if (!hdr->ctrls[c].dev || k < n)
				continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 8;
				nv = realloc(v, cap * sizeof(*v));
				if (!nv) {
					free(v);
					return -ENOMEM;
				}
				v = nv;
			}
			v[n++] = (struct ntprof_pathname){
				.dev = hdr->ctrls[c].dev,
				.ctrl = hdr->ctrls[c].name,
				.address = hdr->ctrls[c].address,
				.machine = run->files[i].machine,
			};
		}
	}
	free(run->host_paths);
	run->host_paths = v;
	run->nr_host_paths = n;
	return 0;
}

/* A failed command outside the sample: counted, not analysed. */
static void failed_add(struct recording_failed *fl,
		       const struct ntprof_record *host,
		       const struct ntprof_record *target)
{
	const struct ntprof_record *r = host ? host : target;
	struct ntprof_breakdown bd;
	size_t i;

	fl->n++;
	fl->n_unmatched += host && !target;
	if (!ntprof_breakdown(host, target, &bd) &&
	    (bd.has & (1U << NTPROF_COMP_E2E))) {
		fl->n_latency++;
		fl->latency_sum_ns += (double)bd.comp[NTPROF_COMP_E2E];
	}
	for (i = 0; i < RECORDING_STATUSES; i++) {
		if (fl->status_n[i] && fl->status[i] != r->status)
			continue;
		fl->status[i] = r->status;
		fl->status_n[i]++;
		return;
	}
	fl->other_status_n++;
}

int recording_run_add(struct recording_run *run, uint8_t role,
		      const struct ntprof_record *r,
		      const struct ntprof_record *t)
{
	bool hosts = role == NTPROF_ROLE_HOST;

	/* As record counts them: the sample, then the failed. */
	if (ntprof_record_in_sample(r, role))
		return ntprof_analysis_add(run->an, hosts ? r : NULL,
					   hosts ? t : r);
	if (ntprof_record_aborted(r)) {
		/* Not joined: its points are the host's alone. */
		failed_add(&run->aborted, r, NULL);
		run->aborted.n_requeued += !!(r->flags & NTPROF_REC_F_REQUEUED);
		run->aborted.n_sampled += !!(r->flags & NTPROF_REC_F_SAMPLED);
	} else if (r->role == role) {
		failed_add(&run->failed, hosts ? r : NULL, hosts ? t : r);
	}
	return 0;
}

/*
 * The analysis, empty, with the devices' names the files hold so far (a
 * streamed run reads its trailers' at the end, and relabels then).
 */
int recording_analysis_begin(struct recording_run *run, unsigned int by)
{
	struct ntprof_analysis_opts opts = { .sample = run->sample, .by = by };
	bool hosts = run->nr_host_files > 0;
	size_t f;

	free(run->host_devs);
	free(run->target_devs);
	run->host_devs = run->target_devs = NULL;
	if (devs_collect(run, true, &run->host_devs, &run->nr_host_devs) ||
	    devs_collect(run, false, &run->target_devs, &run->nr_target_devs) ||
	    paths_collect(run))
		return -ENOMEM;
	opts.host_paths = run->host_paths;
	opts.nr_host_paths = run->nr_host_paths;
	opts.transports = several_transports(run);
	opts.machines = run->machines;
	opts.nr_machines = run->nr_machines;
	opts.rates_over_span = true;
	opts.host_devs = run->host_devs;
	opts.nr_host_devs = run->nr_host_devs;
	opts.target_devs = run->target_devs;
	opts.nr_target_devs = run->nr_target_devs;
	/* Recordings of one side run side by side: the longest is the run. */
	for (f = 0; f < run->nr_files; f++)
		if (is_host(&run->files[f]) == hosts && !run->files[f].leg &&
		    run->files[f].duration_ns > opts.duration_ns)
			opts.duration_ns = run->files[f].duration_ns;
	if (run->an) {
		run->an->opts = opts;
		return 0;
	}
	run->an = ntprof_analysis_new(&opts);
	return run->an ? 0 : -ENOMEM;
}

static int analyse(struct recording_run *run, const char *cmd,
		   unsigned int by)
{
	const struct ntprof_record *t;
	struct recording *rec;
	bool hosts = run->nr_host_files > 0;
	size_t f, i;
	int err;

	err = recording_analysis_begin(run, by);
	for (f = 0; f < run->nr_files && !err; f++) {
		rec = &run->files[f];
		/* A middle's host records show only through its chains. */
		if (is_host(rec) != hosts || rec->leg)
			continue;
		ntprof_analysis_set_machine(run->an, rec->machine);
		for (i = 0; i < rec->n && !err; i++) {
			t = NULL;
			if (hosts && rec->match_file &&
			    rec->match_file[i] != NTPROF_NO_MATCH)
				t = &run->files[rec->match_file[i]]
					     .recs[rec->match_idx[i]];
			err = recording_run_add(run, rec->hdr->role,
						&rec->recs[i], t);
		}
	}
	if (!err)
		err = ntprof_analysis_finish(run->an);
	if (!err)
		return 0;
	fprintf(stderr, "ntprof: %s: out of memory for the analysis\n", cmd);
	return 1;
}

int recording_run_load(struct recording_run *run, const char *cmd,
		       char *const paths[], size_t nr_paths, unsigned int by)
{
	struct recording_paths *p = &run->paths;
	struct recording *rec;
	size_t i, k;

	memset(run, 0, sizeof(*run));
	if (recording_paths_expand(p, cmd, paths, nr_paths))
		return 1;
	/* One file twice would match every record with itself. */
	for (i = 0; i < p->n; i++) {
		for (k = 0; k < i; k++) {
			if (!ntprof_same_file(p->v[k], p->v[i]))
				continue;
			fprintf(stderr, "ntprof: %s: %s is given twice\n",
				cmd, p->v[i]);
			return 1;
		}
	}
	if (recordings_open(run, cmd))
		return 1;
	for (i = 0; i < run->nr_files; i++) {
		rec = &run->files[i];
		if (recording_prepare(rec, cmd))
			return 1;
		if (is_host(rec))
			run->nr_host_files++;
		else
			run->nr_target_files++;
	}
	if (ntprof_chain_setup(run, cmd) || check_sample(run, cmd) ||
	    recording_machines(run, cmd))
		return 1;
	if (recording_stream_wanted(run))
		return recording_stream_load(run, cmd, by);
	for (i = 0; i < run->nr_files; i++) {
		rec = &run->files[i];
		if (recording_read(rec, cmd))
			return 1;
		if (is_host(rec) && !rec->leg)
			run->nr_host += rec->n;
		else if (!is_host(rec))
			run->nr_target += rec->n;
	}
	if (run->nr_host_files && run->nr_target_files && join_all(run, cmd))
		return 1;
	if (run->chain->active && ntprof_chain_link_run(run, cmd))
		return 1;
	join_total(run);
	return analyse(run, cmd, by);
}

void recording_run_free(struct recording_run *run)
{
	struct recording *rec;
	size_t i, k;

	for (i = 0; i < run->nr_files; i++) {
		rec = &run->files[i];
		free(rec->recs);
		free(rec->match_file);
		free(rec->match_idx);
		free(rec->taken);
		for (k = 0; k < rec->nr_parts; k++)
			ntp_close(rec->parts[k].file);
		free(rec->parts);
	}
	for (i = 0; i < run->nr_pairs; i++)
		ntprof_join_free(&run->pairs[i].join);
	free(run->pairs);
	free(run->files);
	free(run->host_devs);
	free(run->target_devs);
	free(run->host_paths);
	recording_machines_free(run);
	ntprof_chain_free(run);
	ntprof_analysis_free(run->an);
	recording_paths_free(&run->paths);
	memset(run, 0, sizeof(*run));
}
