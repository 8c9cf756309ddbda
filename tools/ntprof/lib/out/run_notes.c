// SPDX-License-Identifier: GPL-2.0
/*
 * The lines of a report about its run rather than its stages: where and
 * how it was recorded, the records and how many matched, and the notes
 * at the end (cut-short files, drops, failed commands, the clocks).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out/run_notes.h"
#include "out/table.h"

/* A machine once, however many of its files there are. */
static bool origin_seen(const struct recording_run *run, size_t i)
{
	const struct ntp_header *a = run->files[i].hdr, *b;
	size_t k;

	for (k = 0; k < i; k++) {
		b = run->files[k].hdr;
		if (!strcmp(a->hostname, b->hostname) &&
		    !strcmp(a->kernel_release, b->kernel_release))
			return true;
	}
	return false;
}

/*
 * The files sampled by the chain rule (record --chain): once when every
 * file was, with one offset; else each such file with its own.
 */
static void print_chain(FILE *f, const struct recording_run *run)
{
	const struct ntp_header *hdr, *first = NULL;
	bool each = false;
	size_t i;

	for (i = 0; i < run->nr_files; i++) {
		hdr = run->files[i].hdr;
		if (!hdr->chain)
			each = true;
		else if (!first)
			first = hdr;
		else if (hdr->chain_offset != first->chain_offset ||
			 hdr->sample != first->sample)
			each = true;
	}
	if (!first)
		return;
	for (i = 0; i < run->nr_files; i++) {
		hdr = run->files[i].hdr;
		if (!hdr->chain || (!each && hdr != first))
			continue;
		fprintf(f, "sampling: 1 in %u, chain rule, offset %" PRIu64 "%s%s\n",
			hdr->sample, hdr->chain_offset, each ? ": " : "",
			each ? run->files[i].path : "");
	}
}

void recording_run_print_origin(FILE *f, const struct recording_run *run)
{
	const struct ntp_header *hdr;
	size_t i, shown = 0;

	fputs("recorded on ", f);
	for (i = 0; i < run->nr_files; i++) {
		if (origin_seen(run, i))
			continue;
		hdr = run->files[i].hdr;
		fprintf(f, "%s%s (kernel %s)", shown ? " and " : "",
			hdr->hostname[0] ? hdr->hostname : "an unnamed machine",
			hdr->kernel_release[0] ? hdr->kernel_release : "unknown");
		shown++;
	}
	if (run->sample > 1)
		fprintf(f, ", one command in %u sampled\n", run->sample);
	else
		fputs(", every command recorded\n", f);
	print_chain(f, run);
}

static void print_clocks(FILE *f, const struct recording_run *run,
			 const struct recording_pair *p)
{
	const struct ntprof_join *j = &p->join;

	fprintf(f, "clocks: %s -> %s: ", run->files[p->host].path,
		run->files[p->target].path);
	if (!j->theta_known) {
		fputs("no command matched, offset unknown\n", f);
		return;
	}
	fprintf(f, "target - host %+.6f s", (double)j->theta_ns / 1e9);
	if (j->theta_from_hint)
		fputs(" (from the recordings' start stamps)\n", f);
	else
		fprintf(f, ", drift %.1f us, from %zu commands in %zu windows\n",
			(double)(j->theta_max_ns - j->theta_min_ns) / 1e3,
			j->pairs, j->windows);
}

unsigned int recording_run_matched_pct(const struct recording_run *run)
{
	const struct ntprof_analysis *an = run->an;

	/* Rounded down: 100 % only when every sampled record matched. */
	if (!an || !an->nr_host)
		return 0;
	return (unsigned int)(100 * (double)an->nr_joined /
			      (double)an->nr_host);
}

void recording_run_print_records(FILE *f, const struct recording_run *run)
{
	const struct ntprof_analysis *an = run->an;

	/*
	 * Host records outside the sample (failed, aborted): the share
	 * matched is of the sampled ones, which the numbers are made of.
	 */
	if (run->nr_host_files && run->nr_target_files && an &&
	    an->nr_host && an->nr_host != run->nr_host)
		fprintf(f, "records: %" PRIu64 " host, %" PRIu64 " target; %" PRIu64 " matched (%u %% of the host's %" PRIu64 " sampled)\n",
			run->nr_host, run->nr_target, run->matched,
			recording_run_matched_pct(run), an->nr_host);
	else if (run->nr_host_files && run->nr_target_files && !run->nr_host)
		fprintf(f, "records: 0 host, %" PRIu64 " target; 0 matched\n",
			run->nr_target);
	else if (run->nr_target_files && !run->nr_host_files)
		fprintf(f, "records: %" PRIu64 " target\n", run->nr_target);
	else
		ntprof_print_records(f, run->nr_host, run->nr_target,
				     run->matched);
}

/* Hook @i of a recording: its header's, then its trailer's late ones. */
static const struct ntp_hook *hook_at(const struct recording *rec, uint32_t i)
{
	const struct ntp_trailer *t = ntp_trailer(rec->file);

	if (i < rec->hdr->nr_hooks)
		return &rec->hdr->hooks[i];
	return &t->late_hooks[i - rec->hdr->nr_hooks];
}

/*
 * How a recording saw SPDK, from its sites (the header's, and since 1.3
 * the trailer's of processes found after the start): "t.ntp: SPDK pid
 * 3767 through the agent (4 of 4 sites patched), the others through
 * uprobes". Each agent's sites are together, in order.
 */
static void print_spdk_ways(FILE *f, const struct recording *rec)
{
	const struct ntp_trailer *t = ntp_trailer(rec->file);
	unsigned int pid = 0, last = 0, sites = 0, patched = 0;
	uint32_t i, n = rec->hdr->nr_hooks + (t ? t->nr_late_hooks : 0);
	bool uprobes = false, any = false;
	const struct ntp_hook *h = NULL;

	for (i = 0; i <= n; i++) {
		h = i < n ? hook_at(rec, i) : NULL;
		if (h && h->kind == NTPROF_HOOK_UPROBE)
			uprobes = true;
		if (h && (h->kind != NTPROF_HOOK_AGENT ||
			  sscanf(h->name, "pid %u:", &pid) != 1))
			continue;
		if (sites && (!h || pid != last)) {
			fprintf(f, "%s pid %u through the agent (%u of %u sites patched)",
				any ? "," : "note: SPDK in", last, patched, sites);
			any = true;
			sites = 0;
			patched = 0;
		}
		if (!h)
			break;
		last = pid;
		sites++;
		patched += h->state == NTPROF_HOOK_ATTACHED;
	}
	if (uprobes)
		fprintf(f, "%s", any ? ", the others through uprobes" :
				       "note: SPDK through uprobes");
	if (any || uprobes)
		fprintf(f, " (%s)\n", rec->path);
}

/*
 * The kernel hooks that only split a stage into components, listed in
 * the header as there but not attached: a session started with
 * 'record --stages-only' left them out (or, rarely, they could not
 * attach). "note: t.ntp: the components within the stages were not
 * recorded, only the stages (record --stages-only left out
 * block_rq_issue, block_rq_complete)".
 */
static void print_stages_only(FILE *f, const struct recording *rec)
{
	const struct ntp_hook *h;
	unsigned int shown = 0;
	uint32_t i;

	for (i = 0; i < rec->hdr->nr_hooks; i++) {
		h = &rec->hdr->hooks[i];
		if ((h->kind != NTPROF_HOOK_TRACEPOINT &&
		     h->kind != NTPROF_HOOK_FUNCTION) ||
		    h->point >= 64 ||
		    !(NTPROF_PT_DETAIL_MASK & (1ULL << h->point)) ||
		    h->state != NTPROF_HOOK_AVAILABLE)
			continue;
		if (!shown++)
			fprintf(f,
				"note: %s: the components within the stages were not recorded, only the stages (record --stages-only left out %s",
				rec->path, h->name);
		else
			fprintf(f, ", %s", h->name);
	}
	if (shown)
		fputs(")\n", f);
}

/*
 * Which parts of a rotated recording were read: those --keep removed
 * are expected, a part missing between two others is a loss.
 */
static void print_parts(FILE *f, const struct recording *rec)
{
	uint32_t first = rec->parts[0].hdr->part;
	uint32_t last = rec->parts[rec->nr_parts - 1].hdr->part;

	if (!first)
		return;
	if (first == last)
		fprintf(f, "note: %s: part %" PRIu32 " of a rotated recording",
			rec->path, first);
	else
		fprintf(f, "note: %s: parts %" PRIu32 " to %" PRIu32 " of a rotated recording",
			rec->path, first, last);
	if (first == 2)
		fprintf(f, "; part 1 was removed (record --keep) or not given");
	else if (first > 2)
		fprintf(f, "; parts 1 to %" PRIu32 " were removed (record --keep) or not given",
			first - 1);
	fputc('\n', f);
	if (rec->missing_parts == 1)
		fprintf(f,
			"WARNING: %s: a part between %" PRIu32 " and %" PRIu32 " is missing: its commands are not in the numbers\n",
			rec->path, first, last);
	else if (rec->missing_parts)
		fprintf(f,
			"WARNING: %s: %" PRIu32 " parts between %" PRIu32 " and %" PRIu32 " are missing: their commands are not in the numbers\n",
			rec->path, rec->missing_parts, first, last);
}

/* " status 0x371 (12), 0x370 (2); mean latency 1.50 us" and a newline. */
static void print_statuses(FILE *f, const struct recording_failed *fl)
{
	size_t i;

	fputs(" status", f);
	for (i = 0; i < RECORDING_STATUSES && fl->status_n[i]; i++)
		fprintf(f, "%s %#x (%" PRIu64 ")", i ? "," : "",
			fl->status[i], fl->status_n[i]);
	if (fl->other_status_n)
		fprintf(f, ", others (%" PRIu64 ")", fl->other_status_n);
	if (fl->n_latency)
		fprintf(f, "; mean latency %.2f us",
			fl->latency_sum_ns / (double)fl->n_latency / 1e3);
	fputc('\n', f);
}

void recording_run_print_notes(FILE *f, const struct recording_run *run,
			       bool detail)
{
	const struct recording *rec;
	uint64_t unmatched;
	size_t i;

	for (i = 0; i < run->nr_files; i++) {
		rec = &run->files[i];
		print_parts(f, rec);
		print_spdk_ways(f, rec);
		if (detail)
			print_stages_only(f, rec);
		if (rec->cut_short)
			fprintf(f,
				"note: %s ends early (its recorder did not finish it): %zu records read%s\n",
				rec->path, rec->n,
				rec->discarded ? ", a partial block after them ignored" : "");
		if (rec->drops)
			fprintf(f,
				"WARNING: %s: %" PRIu64 " records were dropped (the buffers were full): those commands are missing\n",
				rec->path, rec->drops);
		if (rec->evictions)
			fprintf(f,
				"WARNING: %s: %" PRIu64 " commands were evicted from the in-flight table before they completed\n",
				rec->path, rec->evictions);
	}
	if (run->failed.n) {
		fprintf(f, "failed: %" PRIu64 " %s commands outside the sample, kept out of the numbers above:",
			run->failed.n, run->nr_host_files ? "host" : "target");
		print_statuses(f, &run->failed);
	}
	if (run->aborted.n) {
		fprintf(f, "aborted: %" PRIu64 " host commands without a response or sent again (%" PRIu64 " requeued: retried or failed over; %" PRIu64 " of the sample), kept out of the numbers above:",
			run->aborted.n, run->aborted.n_requeued,
			run->aborted.n_sampled);
		print_statuses(f, &run->aborted);
		if (run->streamed)
			fputs("outage: a streamed run links no aborted try to its retry, and the outage is in no stage: report with --load to see it\n",
			      f);
		else
			fprintf(f, "outage: %" PRIu64 " commands waited through an outage, in its stage: %" PRIu64 " of the aborted linked to the try that sent their I/O again (inferred: same namespace, op, LBA and length)\n",
				run->aborted.n_outage, run->aborted.n_linked);
	}
	/*
	 * A target need not record a host's failure it did not sample, and
	 * an aborted command is joined to nothing.
	 */
	unmatched = run->nr_host - run->matched - run->failed.n_unmatched -
		    run->aborted.n;
	if (run->nr_host_files && run->nr_target_files && unmatched)
		fprintf(f,
			"note: %" PRIu64 " host records have no target record: the target's recording started later, ended earlier or dropped them, or they went to a target not given here\n",
			unmatched);
	for (i = 0; detail && i < run->nr_pairs; i++)
		print_clocks(f, run, &run->pairs[i]);
}

static void json_apart(struct ntprof_json *js, const char *key,
		       const struct recording_failed *fl, bool aborted)
{
	size_t i;

	ntprof_json_obj_start(js, key);
	ntprof_json_u64(js, "n", fl->n);
	if (aborted) {
		ntprof_json_u64(js, "requeued", fl->n_requeued);
		ntprof_json_u64(js, "sampled", fl->n_sampled);
		ntprof_json_u64(js, "linked", fl->n_linked);
		ntprof_json_u64(js, "outage_commands", fl->n_outage);
	}
	ntprof_json_num(js, "mean_us", fl->n_latency ?
			fl->latency_sum_ns / (double)fl->n_latency / 1e3 : NAN,
			3);
	ntprof_json_arr_start(js, "statuses");
	for (i = 0; i < RECORDING_STATUSES && fl->status_n[i]; i++) {
		ntprof_json_obj_start(js, NULL);
		ntprof_json_u64(js, "status", fl->status[i]);
		ntprof_json_u64(js, "n", fl->status_n[i]);
		ntprof_json_obj_end(js);
	}
	ntprof_json_arr_end(js);
	ntprof_json_u64(js, "other_statuses", fl->other_status_n);
	ntprof_json_obj_end(js);
}

void recording_run_json_apart(struct ntprof_json *js,
			      const struct recording_run *run)
{
	json_apart(js, "failed", &run->failed, false);
	json_apart(js, "aborted", &run->aborted, true);
}

/*
 * The lines of recording_run_print_notes(), each a string: the warnings
 * (their "WARNING: " taken off) in "warnings", the others in "notes".
 */
void recording_run_json_notes(struct ntprof_json *js,
			      const struct recording_run *run, bool detail)
{
	static const char warn[] = "WARNING: ";
	char *buf = NULL, *line, *end;
	size_t size = 0;
	FILE *m;
	int pass;

	m = open_memstream(&buf, &size);
	if (m) {
		recording_run_print_notes(m, run, detail);
		if (fclose(m)) {
			free(buf);
			buf = NULL;
		}
	}
	for (pass = 0; pass < 2; pass++) {
		ntprof_json_arr_start(js, pass ? "notes" : "warnings");
		for (line = buf; line && *line; line = end + 1) {
			end = strchr(line, '\n');
			if (!end)
				end = line + strlen(line);
			*end = '\0';
			if (!strncmp(line, warn, sizeof(warn) - 1) == !pass)
				ntprof_json_str(js, NULL, pass ? line :
						line + sizeof(warn) - 1);
			*end = '\n';
			if (!end[0])
				break;
		}
		ntprof_json_arr_end(js);
	}
	free(buf);
}
