// SPDX-License-Identifier: GPL-2.0
/*
 * ntprof record's file: the header it starts with, and after the loop,
 * the stop, the last records, the trailer and the summary (made from the
 * file read back, when it can be).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "cmd/commands.h"
#include "cmd/record/record.h"
#include "common/names.h"
#include "genl/session.h"
#include "ntp/ntp.h"
#include "out/record_prom.h"
#include "sites/spdk.h"

/* After the stop: dumps until one comes back empty, at most this many. */
#define FINAL_DRAINS	64

static void read_boot_id(char *buf, size_t size)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
	size_t len;

	*buf = '\0';
	if (!f)
		return;
	if (fgets(buf, size, f)) {
		len = strcspn(buf, "\n");
		buf[len] = '\0';
		/* A boot id is a UUID: anything else is not one to compare. */
		if (len != NTP_BOOT_ID_MAX)
			*buf = '\0';
	}
	fclose(f);
}

/*
 * record_header() - fill the header. The hooks are the session's as it
 * attached them. Without them (after a failed dump, or when memory is short)
 * the file is still a recording: that costs the list, not the recording. The
 * same goes for the devices, which the caller gathers. It returns the hooks,
 * which the caller frees.
 */
struct ntp_hook *record_header(struct recorder *rec,
				      struct ntp_header *hdr)
{
	const struct record_opts *o = rec->o;
	struct session_hooks hooks = { 0 };
	struct ntp_hook *h = NULL;
	struct utsname uts;
	long cpus;
	size_t i;

	memset(hdr, 0, sizeof(*hdr));
	hdr->role = o->cfg.role;
	hdr->transport = o->cfg.transport;
	hdr->sample = o->cfg.sample;
	hdr->chain = o->cfg.chain;
	hdr->chain_offset = o->cfg.chain ? o->cfg.chain_offset : 0;
	cpus = sysconf(_SC_NPROCESSORS_CONF);
	hdr->nr_cpus = cpus > 0 ? cpus : 0;
	hdr->start_mono_ns = rec->start_mono;
	hdr->start_real_ns = rec->start_real;
	if (gethostname(hdr->hostname, sizeof(hdr->hostname)))
		hdr->hostname[0] = '\0';
	hdr->hostname[sizeof(hdr->hostname) - 1] = '\0';
	if (!uname(&uts))
		snprintf(hdr->kernel_release, sizeof(hdr->kernel_release),
			 "%s", uts.release);
	read_boot_id(hdr->boot_id, sizeof(hdr->boot_id));
	snprintf(hdr->tool_version, sizeof(hdr->tool_version), "%s",
		 ntprof_version);

	if (rec->kernel &&
	    !session_hooks_get(rec->sock, o->cfg.role, o->cfg.transport,
			       &hooks) && hooks.n) {
		if (hooks.n > NTP_HOOKS_MAX)
			hooks.n = NTP_HOOKS_MAX;
		h = calloc(hooks.n, sizeof(*h));
		for (i = 0; h && i < hooks.n; i++)
			h[i] = hooks.v[i].h;
		hdr->nr_hooks = h ? hooks.n : 0;
	}
	session_hooks_free(&hooks);
	/* The SPDK sites: each agent's, and the uprobes'; all or none. */
	if (rec->spdk &&
	    spdk_procs_hooks(&rec->spdk->prog, &rec->spdk->procs,
			     rec->spdk->uprobes, false, &h, &hdr->nr_hooks)) {
		free(h);
		h = NULL;
		hdr->nr_hooks = 0;
	}
	hdr->hooks = h;
	hdr->nr_devs = rec->devs.ntab;
	hdr->devs = rec->devs.tab;
	hdr->nr_ctrls = rec->nr_ctrls;
	hdr->ctrls = rec->ctrls;
	return h;
}

/*
 * record_readback_possible() - tell whether the summary can be made at the
 * end from the file just opened for writing: a regular file that can be read
 * (not a FIFO, /dev/null or a file without read permission). If not, the
 * summary is made live, as the records come.
 */
bool record_readback_possible(struct recorder *rec)
{
	struct stat st;

	if (stat(rec->o->out, &st) || !S_ISREG(st.st_mode) ||
	    access(rec->o->out, R_OK))
		return false;
	rec->out_dev = st.st_dev;
	rec->out_ino = st.st_ino;
	return true;
}

/*
 * readback_file() - feed the records of @path to the summary's analysis, and
 * count them in *@got. It returns 0, or -1 with the reason in @why.
 */
static int readback_file(struct recorder *rec, const char *path,
			 uint64_t *got, char *why, size_t whylen)
{
	uint32_t role = rec->o->cfg.role;
	const struct ntprof_record *recs;
	struct ntp_file *f = NULL;
	size_t i, n;
	int ret;

	ret = ntp_open(path, &f, why, whylen);
	if (ret)
		return -1;
	while ((ret = ntp_next_block(f, &recs, &n)) > 0) {
		*got += n;
		for (i = 0; rec->all && i < n; i++) {
			if (!ntprof_record_in_sample(&recs[i], role))
				continue;
			if (record_analysis_add(rec->all, role, &recs[i])) {
				ntprof_analysis_free(rec->all);
				rec->all = NULL;
				rec->all_lost = true;
			}
		}
	}
	if (ret < 0)
		snprintf(why, whylen, "%s", ntp_error(f));
	ntp_close(f);
	return ret < 0 ? -1 : 0;
}

/*
 * readback_parts() - read back the parts still on disk (--keep removed the
 * older ones), oldest first; the summary covers them. It returns 0, or -1
 * with the reason in @why.
 */
static int readback_parts(struct recorder *rec, char *why, size_t whylen)
{
	const struct record_rotation *rot = &rec->rot;
	uint64_t got, want;
	char path[sizeof(rot->path)];
	uint32_t p;

	for (p = rot->first; p <= rot->part; p++) {
		got = 0;
		want = rot->parts[p - 1].records;
		if (rotate_part_path(rot->base, p, path, sizeof(path)) ||
		    readback_file(rec, path, &got, why, whylen))
			return -1;
		if (got != want) {
			/* The path is in the message's hint: the part's number. */
			snprintf(why, whylen,
				 "part %" PRIu32 ": %" PRIu64 " records read back, %" PRIu64 " written",
				 p, got, want);
			return -1;
		}
	}
	return 0;
}

/*
 * record_readback() - make the summary's analysis after the file was closed:
 * read its records back block by block, and feed the sampled ones in the
 * order they were written, as record_take() would have. The devices were
 * named while recording (devmap_add()), so the analysis sees the same names.
 * It returns 0, or -1 after a one-line note when the file does not read back
 * as it was written; then there is no summary, only the count.
 */
static int record_readback(struct recorder *rec, const char *cmd)
{
	const struct record_opts *o = rec->o;
	char why[512] = "";
	uint64_t got = 0;
	struct stat st;

	rec->all = record_analysis_new(rec, false);
	if (!rec->all) {
		rec->all_lost = true;
		return 0;
	}
	if (rec->rot.size) {
		if (readback_parts(rec, why, sizeof(why)))
			goto fail;
		return 0;
	}
	if (stat(o->out, &st) || st.st_dev != rec->out_dev ||
	    st.st_ino != rec->out_ino) {
		snprintf(why, sizeof(why), "%s: not the file written any more",
			 o->out);
		goto fail;
	}
	if (readback_file(rec, o->out, &got, why, sizeof(why)))
		goto fail;
	if (got != rec->written) {
		snprintf(why, sizeof(why),
			 "%s: %" PRIu64 " records read back, %" PRIu64 " written",
			 o->out, got, rec->written);
		goto fail;
	}
	return 0;

fail:
	fprintf(stderr,
		"ntprof: %s: no summary: cannot read the recording back (%s); it stays as written: see 'ntprof report %s'\n",
		cmd, why, o->out);
	ntprof_analysis_free(rec->all);
	rec->all = NULL;
	return -1;
}

/*
 * late_devs() - list, for the trailer, the devices named after the start:
 * the records' devices that the header's table lacks, looked up as their
 * first records came. So a namespace created in the middle of a recording
 * gets its name in the report too.
 */
static struct ntp_dev *late_devs(const struct recorder *rec, uint32_t *nr)
{
	const struct devmap *dm = &rec->devs;
	struct ntp_dev *v;
	size_t i;

	*nr = 0;
	v = calloc(dm->n ? dm->n : 1, sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0; i < dm->n; i++) {
		if (!dm->v[i].name || devs_find(dm->tab, dm->ntab, dm->v[i].dev))
			continue;
		v[*nr].dev = dm->v[i].dev;
		snprintf(v[*nr].name, sizeof(v[*nr].name), "%s", dm->v[i].name);
		(*nr)++;
	}
	return v;
}

/*
 * record_stop() - stop the session, with a message when that did not go as
 * asked. It returns 0 or the stop's -errno; *@err takes that value when the
 * module went away with the last records.
 */
static int record_stop(struct recorder *rec, const char *cmd, int *err)
{
	const struct record_opts *o = rec->o;
	int stop_err;

	if (rec->spdk)
		record_spdk_stop(rec->spdk);
	/* Without the module there is no session left to stop. */
	stop_err = !rec->kernel || record_module_gone(rec->drained_on, *err) ?
		   0 : session_stop(rec->sock, o->cfg.role);
	if (record_module_gone(rec->sock, stop_err)) {
		fprintf(stderr,
			"ntprof: %s: the ntprof module went away (rmmod?) with the last records\n",
			cmd);
		/* What it still had is lost: the file ends early. */
		*err = stop_err;
	} else if (stop_err == -ENOENT) {
		fprintf(stderr,
			"ntprof: %s: the %s session was stopped by someone else (was the module reloaded?)\n",
			cmd, ntprof_role_name(o->cfg.role));
	} else if (stop_err) {
		nl_perror(rec->sock, cmd, stop_err);
	}
	return stop_err;
}

/*
 * record_final_drains() - drain the buffers a last few times, because
 * records that finished before the stop are still in them.
 */
static int record_final_drains(struct recorder *rec, const char *cmd)
{
	uint64_t n = 0;
	int i, err = 0;

	rec->busy = true;
	for (i = 0; !err && i < FINAL_DRAINS; i++) {
		err = record_drain(rec, &n);
		if (err) {
			if (rec->write_err)
				fprintf(stderr,
					"ntprof: %s: cannot write %s: %s\n",
					cmd, rec->o->out,
					strerror(-rec->write_err));
			else
				nl_perror(rec->drained_on, cmd, err);
		}
		if (!n)
			break;
	}
	return err;
}

/*
 * record_counters() - sum the session's counters (the kernel's, and what the
 * agents lost) into @st. It returns true if there are any.
 */
bool record_counters(struct recorder *rec, struct session_stats *st)
{
	bool have = false;

	if (rec->kernel && !session_stats_get(rec->sock, rec->o->cfg.role, st))
		have = true;
	if (rec->spdk && rec->spdk->procs.nr_agents) {
		spdk_procs_lost(&rec->spdk->procs, &st->drops, &st->evicted);
		have = true;
	}
	return have;
}

/*
 * record_trailer_tables() - fill the trailer's tables: the devices named
 * after the start, and the sites of the agents found after it, in the same
 * form as the header's. The caller frees *@devs and *@hooks in any case.
 */
void record_trailer_tables(struct recorder *rec, struct ntp_trailer *tr,
			   struct ntp_dev **devs, struct ntp_hook **hooks)
{
	*devs = late_devs(rec, &tr->nr_late_devs);
	tr->late_devs = *devs;
	*hooks = NULL;
	if (rec->spdk &&
	    spdk_procs_hooks(&rec->spdk->prog, &rec->spdk->procs, false,
			     true, hooks, &tr->nr_late_hooks)) {
		free(*hooks);
		*hooks = NULL;
		tr->nr_late_hooks = 0;
	}
	tr->late_hooks = *hooks;
}

int record_finish(struct recorder *rec, const char *cmd, int err)
{
	const struct record_opts *o = rec->o;
	struct ntp_trailer tr = { 0 };
	struct session_stats st = { 0 };
	struct ntp_hook *late_hooks;
	bool have_stats = false;
	struct ntp_dev *late;
	int stop_err, settle_err, close_err, ret;
	uint64_t records;

	tr.end_mono_ns = clock_ns(CLOCK_MONOTONIC);
	tr.end_real_ns = clock_ns(CLOCK_REALTIME);
	stop_err = record_stop(rec, cmd, &err);
	if (!err)
		err = record_final_drains(rec, cmd);
	/*
	 * A part --rotate left, whole, whatever ended the recording, before
	 * the last part's counters: its own come first.
	 */
	settle_err = record_rotation_settle(rec);
	if (!err)
		have_stats = record_counters(rec, &st);
	record_rotation_trailer(rec, &tr, &st, have_stats);
	record_trailer_tables(rec, &tr, &late, &late_hooks);
	/* The last records and counters, whatever ended the recording. */
	if (rec->prom) {
		ret = record_prom_write(rec->prom, have_stats ? &st : NULL);
		if (ret)
			fprintf(stderr, "ntprof: %s: cannot write %s: %s\n", cmd,
				o->prom, strerror(-ret));
	}

	/*
	 * Without a trailer the file says "ended early", which is what an
	 * error made of it; its whole blocks still read back.
	 */
	ret = settle_err;
	/* A rotation that failed left no part open. */
	if (rec->w) {
		records = ntp_writer_records(rec->w);
		record_rotation_last(rec, records);
		close_err = ntp_writer_close(rec->w, err ? NULL : &tr);
		if (!ret)
			ret = close_err;
		/* The last part, whole, in the same line as the others. */
		if (!close_err && !err && rec->rot.size)
			record_part_line(rec, rec->rot.part, o->out, records,
					 &tr, have_stats ? &st : NULL);
	}
	rec->w = NULL;
	free(late);
	free(late_hooks);
	if (ret && !err) {
		fprintf(stderr, "ntprof: %s: cannot write %s: %s\n", cmd,
			o->out, strerror(-ret));
		err = ret;
	}
	if (err) {
		/* The block that failed is not in it: no count to give. */
		fprintf(stderr,
			"ntprof: %s: the session is stopped; %s keeps the records written before the error, and no end\n",
			cmd, o->out);
		print_warnings(rec, &st, have_stats);
		return 1;
	}

	if (rec->all_deferred)
		record_readback(rec, cmd);
	if (rec->all) {
		/* Read back, the summary is the kept parts'. */
		rec->all->opts.duration_ns = tr.end_mono_ns -
			(rec->all_deferred ? record_rotation_start(rec) :
					     rec->start_mono);
		ntprof_analysis_finish(rec->all);
	}
	/*
	 * -r host,target: the other role's summary whole, before or after;
	 * only the printing waits, never the session's stop.
	 */
	if (rec->mid)
		pthread_mutex_lock(&rec->mid->print);
	print_summary(rec);
	print_warnings(rec, &st, have_stats);
	if (rec->mid)
		pthread_mutex_unlock(&rec->mid->print);
	return stop_err ? 1 : 0;
}
