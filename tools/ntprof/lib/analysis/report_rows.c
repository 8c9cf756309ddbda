// SPDX-License-Identifier: GPL-2.0
/*
 * Each command of a run with its breakdown and its group: the host files'
 * records with the target records the join gave them, or the target
 * files' records when no host was given (as recording.c feeds the
 * analysis).
 */
#include <stdio.h>
#include <stdlib.h>

#include "analysis/attempts.h"
#include "analysis/recording.h"
#include "analysis/report_rows.h"

double report_tail_threshold(struct ntprof_vec *e2e, double p)
{
	return ntprof_vec_percentile(e2e, p);
}

const char *report_pct_str(double p, char *buf, size_t size)
{
	int prec;

	/*
	 * %g's six digits would make 99.99999 "100"; one digit would make
	 * 50 "5e+01", which reads back as 50 too: two at least.
	 */
	for (prec = 2; prec < 17; prec++) {
		snprintf(buf, size, "%.*g", prec, p);
		if (strtod(buf, NULL) == p)
			break;
	}
	return buf;
}

void report_tail_caption(FILE *f, uint64_t n_tail, double p, double thr_ns,
			 uint64_t n_rest, const char *unit)
{
	char pct[32];

	report_pct_str(p, pct, sizeof(pct));
	if (n_tail == 1)
		fprintf(f, "the command above p%s (%.2f %s)", pct,
			thr_ns / 1e3, unit);
	else
		fprintf(f, "the %llu commands above p%s (%.2f %s)",
			(unsigned long long)n_tail, pct, thr_ns / 1e3, unit);
	if (n_rest == 1)
		fputs(" against the one other", f);
	else
		fprintf(f, " against the other %llu",
			(unsigned long long)n_rest);
}

static uint64_t first_point(const struct ntprof_record *r)
{
	uint64_t t = 0;
	int i;

	for (i = 0; i < NTPROF_PT_COUNT; i++)
		if (r->ts[i] && (!t || r->ts[i] < t))
			t = r->ts[i];
	return t;
}

/*
 * row_call() - call the caller's function for one command. @machine is that
 * of the command's recording on the side grouped.
 */
static int row_call(const struct recording_run *run, uint16_t machine,
		    struct report_row *row, const struct ntprof_tries *tries,
		    int (*fn)(const struct report_row *row, void *arg),
		    void *arg)
{
	const struct ntprof_record *r;
	enum ntprof_kind kind;

	row->usable = !ntprof_breakdown(row->host, row->target, &row->bd);
	row->start_ns = first_point(row->host ? row->host : row->target);
	/* As the tables have it: from its first try, with its outage. */
	if (row->usable && tries && tries->tries > 1) {
		ntprof_tries_breakdown(&row->bd, tries);
		row->start_ns -= tries->aborted_ns + tries->wait_ns;
	}
	row->group = ntprof_analysis_group_of(run->an, machine, row->host,
					      row->target);
	kind = row->host ? (row->target ? NTPROF_KIND_JOINED :
					  NTPROF_KIND_HOST) :
			   NTPROF_KIND_TARGET;
	/* A matched target record whose window was unusable: host alone. */
	if (row->usable)
		kind = row->bd.kind;
	/*
	 * The commands the analysis took, as recording_run_add() picks
	 * them: failed commands outside the sample and the host's aborted
	 * attempts are in no table, nor in any view made of the tables.
	 */
	r = row->host ? row->host : row->target;
	row->in_table = row->usable && row->group && row->group->kind == kind &&
			ntprof_record_in_sample(r, row->host ? NTPROF_ROLE_HOST :
							   NTPROF_ROLE_TARGET);
	return fn(row, arg);
}

/* A streamed run's command, as a row. */
struct stream_rows {
	const struct recording_run *run;
	int (*fn)(const struct report_row *row, void *arg);
	void *arg;
};

static int stream_row(const struct ntprof_record *host,
		      const struct ntprof_record *target,
		      const struct recording *hrec,
		      const struct recording *trec, void *arg)
{
	struct stream_rows *sr = arg;
	struct report_row row = {
		.host = host,
		.target = target,
		.host_path = hrec ? hrec->path : NULL,
		.target_path = trec ? trec->path : NULL,
	};

	return row_call(sr->run, hrec ? hrec->machine :
				 trec ? trec->machine : 0, &row, NULL, sr->fn,
			sr->arg);
}

int report_rows_each(const struct recording_run *run,
		     int (*fn)(const struct report_row *row, void *arg),
		     void *arg)
{
	const struct recording *rec, *t;
	struct report_row row;
	size_t i, j;
	uint32_t k;
	int ret;

	/* Not held: streamed again, a second pass over the files. */
	if (run->streamed) {
		struct stream_rows sr = { run, fn, arg };

		return recording_stream_each(run, stream_row, &sr);
	}
	for (i = 0; i < run->nr_files; i++) {
		rec = &run->files[i];
		if ((rec->hdr->role != NTPROF_ROLE_HOST && run->nr_host_files) ||
		    rec->leg)
			continue;
		for (j = 0; j < rec->n; j++) {
			row = (struct report_row){ 0 };
			if (rec->hdr->role == NTPROF_ROLE_HOST) {
				row.host = &rec->recs[j];
				row.host_path = rec->path;
			} else {
				row.target = &rec->recs[j];
				row.target_path = rec->path;
			}
			k = rec->match_file ? rec->match_file[j] :
					      NTPROF_NO_MATCH;
			if (row.host && k != NTPROF_NO_MATCH) {
				t = &run->files[k];
				row.target = &t->recs[rec->match_idx[j]];
				row.target_path = t->path;
			}
			ret = row_call(run, rec->machine, &row,
				       rec->tries ? &rec->tries[j] : NULL, fn,
				       arg);
			if (ret)
				return ret;
		}
	}
	return 0;
}
