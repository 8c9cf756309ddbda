// SPDX-License-Identifier: GPL-2.0
/*
 * Loading a run: its recordings, the checks that they belong together,
 * and the analysis. The joins of its host files with its target files
 * are recording_join.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/attempts.h"
#include "analysis/chain.h"
#include "analysis/recording.h"
#include "common/files.h"


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

/*
 * file_read() - read a recording in one file whole. It returns 0, or 1 after
 * a message.
 */
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
 * recording_prepare() - prepare a recording before its records are read:
 * open its files and put its parts in order. It returns 0, or 1 after a
 * message.
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

/*
 * recording_read() - read the records of a prepared recording. It returns 0,
 * or 1 after a message.
 */
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

/* part_add() - add one more file to @rec. It returns 0 or -ENOMEM. */
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
 * recordings_open() - open every file, each as a recording, or as a part
 * that joins the recording of its session. It returns 0, or 1 after a
 * message.
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

/*
 * several_transports() - tell whether the run holds commands of both
 * transports, or may hold them.
 */
static bool several_transports(const struct recording_run *run)
{
	size_t i;

	for (i = 0; i < run->nr_files; i++)
		if (run->files[i].hdr->transport == NTPROF_TRANSPORT_NONE ||
		    run->files[i].hdr->transport != run->files[0].hdr->transport)
			return true;
	return false;
}

/*
 * check_sample() - check that all files share N, because a join of different
 * samples matches only some of the commands. A middle's host side is checked
 * separately against its middle (chain.c): a difference there leaves the
 * middle unlinked, with a note.
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
 * The device names of one side's files, per machine (recording.machine),
 * first name of a number wins: two hosts' 259:0 are two devices.
 */
/*
 * devs_add() - append the names of @devs that are not in @v yet. It returns
 * 0 or -ENOMEM.
 */
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
 * devs_collect() - collect the names of one side's devices: each file's
 * header table, then the devices that its trailer names, which appeared
 * after the start (1.2).
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
		if (recording_is_host(&run->files[i]) != host || run->files[i].leg)
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
 * paths_collect() - collect the host files' paths: each controller entry
 * with a disk, the first entry of a number winning. It returns 0 or -ENOMEM.
 */
static int paths_collect(struct recording_run *run)
{
	struct ntprof_pathname *v = NULL, *nv;
	const struct ntp_header *hdr;
	size_t n = 0, cap = 0, i, c, k;

	for (i = 0; i < run->nr_files; i++) {
		if (!recording_is_host(&run->files[i]) || run->files[i].leg)
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

/*
 * failed_add() - count a failed command outside the sample; it is not
 * analysed.
 */
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
 * recording_analysis_begin() - create the run's analysis, empty, with the
 * devices' names that the files hold so far (a streamed run reads its
 * trailers' names at the end, and relabels then).
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
		if (recording_is_host(&run->files[f]) == hosts && !run->files[f].leg &&
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
	struct ntprof_attempts at = { 0 };
	const struct ntprof_record *t;
	struct recording *rec;
	bool hosts = run->nr_host_files > 0;
	size_t f, i;
	int err;

	err = recording_analysis_begin(run, by);
	for (f = 0; f < run->nr_files && !err; f++) {
		rec = &run->files[f];
		/* A middle's host records show only through its chains. */
		if (recording_is_host(rec) != hosts || rec->leg)
			continue;
		ntprof_analysis_set_machine(run->an, rec->machine);
		/* A command's aborted tries, linked to its last. */
		memset(&at, 0, sizeof(at));
		if (hosts)
			err = recording_attempts(run, rec, &at);
		run->aborted.n_linked += at.n_linked;
		run->aborted.n_outage += at.n_commands;
		for (i = 0; i < rec->n && !err; i++) {
			t = NULL;
			if (hosts && rec->match_file &&
			    rec->match_file[i] != NTPROF_NO_MATCH)
				t = &run->files[rec->match_file[i]]
					     .recs[rec->match_idx[i]];
			if (at.of && at.of[i].tries > 1)
				err = ntprof_analysis_add_tries(run->an,
								&rec->recs[i],
								t, &at.of[i]);
			else
				err = recording_run_add(run, rec->hdr->role,
							&rec->recs[i], t);
		}
		/* Kept for the views of each command (report_rows.c). */
		free(rec->tries);
		rec->tries = at.of;
		at.of = NULL;
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
	struct recording_opts o = { .by = by };

	return recording_run_load_opts(run, cmd, paths, nr_paths, &o);
}

int recording_run_load_opts(struct recording_run *run, const char *cmd,
			    char *const paths[], size_t nr_paths,
			    const struct recording_opts *o)
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
		if (recording_is_host(rec))
			run->nr_host_files++;
		else
			run->nr_target_files++;
	}
	if (ntprof_chain_setup(run, cmd) || check_sample(run, cmd) ||
	    recording_machines(run, cmd))
		return 1;
	if (recording_stream_wanted(run, o->stream))
		return recording_stream_load(run, cmd, o->by);
	for (i = 0; i < run->nr_files; i++) {
		rec = &run->files[i];
		if (recording_read(rec, cmd))
			return 1;
		if (recording_is_host(rec) && !rec->leg)
			run->nr_host += rec->n;
		else if (!recording_is_host(rec))
			run->nr_target += rec->n;
	}
	if (run->nr_host_files && run->nr_target_files &&
	    recording_join_all(run, cmd))
		return 1;
	if (run->chain->active && ntprof_chain_link_run(run, cmd))
		return 1;
	recording_join_total(run);
	return analyse(run, cmd, o->by);
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
		free(rec->tries);
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
