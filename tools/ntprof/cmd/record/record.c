// SPDX-License-Identifier: GPL-2.0
/*
 * ntprof record: run a session of the kernel's recorder, take its records
 * out of the kernel's buffers as they finish, and write them to a .ntp
 * file (Documentation/ntp-format.rst); every -i seconds a line per group
 * of commands, and at the end a summary.
 *
 * The kernel's per-CPU buffers are finite and drop what does not fit, so
 * the loop drains them often (every DRAIN_MS, less often while they are
 * quiet) and does little else: the numbers it prints come from the
 * analysis library, fed as records come.
 * Whatever ends the recording (-d, a signal, an error), the session is
 * stopped: a session left running keeps its hooks attached and blocks the
 * next recording of its role. Its command line is record_opts.c's, what
 * it reads of the machine for the file's header record_machine.c's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "cmd/record/record.h"
#include "common/names.h"
#include "genl/conn.h"
#include "genl/session.h"
#include "ntp/ntp.h"
#include "out/record_prom.h"
#include "out/table.h"
#include "sites/kbtf.h"
#include "sites/spdk.h"

/*
 * How often the buffers are drained. At a million records a second this
 * takes 100k records (23 MB) a time, well within what the kernel's
 * buffers hold, and costs an idle system ten dumps a second.
 */
#define DRAIN_MS	100
/*
 * A drain costs a dump and a wake-up, records or not: while drains bring
 * fewer than DRAIN_QUIET records, the interval doubles up to
 * DRAIN_QUIET_MS, and a drain that brings more sets it back to DRAIN_MS.
 * A burst that follows a quiet spell then waits at most DRAIN_QUIET_MS,
 * which a CPU's buffer (4 MiB, some 18k records) holds at up to 45k
 * records a second from that CPU; past that the buffer drops, counted and
 * reported, until the next drain.
 */
#define DRAIN_QUIET	256
#define DRAIN_QUIET_MS	400
/*
 * Quiet drains also go through a socket of their own whose datagrams
 * are small (NL_QUIET_SIZE): 32 KiB ones, cleared by the kernel as it
 * allocates them, were half the idle reader's CPU time. Busy drains keep
 * 32 KiB datagrams, a sixth of the receives.
 */
/* Buffered records reach the file at least this often, for kill -9. */
#define FLUSH_MS	1000
/* After the stop: dumps until one comes back empty, at most this many. */
#define FINAL_DRAINS	64

/* Set by the handler, read by the loop: nothing else is safe there. */
static volatile sig_atomic_t record_signal;

static void record_on_signal(int sig)
{
	record_signal = sig;
}

uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

/*
 * The cntlid of a host record: the host's kernel does not know it at the
 * hooks (it lies deep in a private struct), the path disk of the record
 * does (it belongs to one controller).
 */
static uint16_t ctrl_cntlid(struct recorder *rec, uint32_t dev)
{
	size_t i;

	if (dev == rec->last_dev)
		return rec->last_cntlid;
	rec->last_dev = dev;
	rec->last_cntlid = 0;
	for (i = 0; dev && i < rec->nr_ctrls; i++)
		if (rec->ctrls[i].dev == dev) {
			rec->last_cntlid = rec->ctrls[i].cntlid;
			break;
		}
	return rec->last_cntlid;
}

/* Appends @n records of our role, a host's with their cntlid filled in. */
static int record_append(struct recorder *rec,
			 const struct ntprof_record *recs, size_t n)
{
	struct ntprof_record buf[64];
	size_t i, k;
	int err;

	if (rec->o->cfg.role != NTPROF_ROLE_HOST || !rec->nr_ctrls)
		return ntp_writer_append(rec->w, recs, n);
	for (i = 0; i < n; i += k) {
		for (k = 0; k < 64 && i + k < n; k++) {
			buf[k] = recs[i + k];
			if (!buf[k].cntlid)
				buf[k].cntlid = ctrl_cntlid(rec, buf[k].dev);
		}
		err = ntp_writer_append(rec->w, buf, k);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Names the devices of the records for the analysis as they first come.
 * A device without a name is kept too (name NULL), so it is looked up
 * once; the analysis then labels it "dev MAJ:MIN".
 */
static void devmap_add(struct recorder *rec, uint32_t dev)
{
	struct devmap *dm = &rec->devs;
	struct ntprof_analysis *an[2] = { rec->all, rec->iv };
	const char *name;
	size_t i;

	for (i = 0; i < dm->n; i++)
		if (dm->v[i].dev == dev)
			return;
	if (dm->n == DEVS_MAX)
		return;
	name = devs_find(dm->tab, dm->ntab, dev);
	if (name)
		memcpy(dm->names[dm->n], name, strlen(name) + 1);
	else
		dev_lookup(rec->o->cfg.role, dev, dm->names[dm->n],
			   sizeof(dm->names[dm->n]));
	dm->v[dm->n].dev = dev;
	dm->v[dm->n].name = dm->names[dm->n][0] ? dm->names[dm->n] : NULL;
	dm->n++;
	/* The analyses copied the count when they were made. */
	for (i = 0; i < 2; i++) {
		if (!an[i])
			continue;
		an[i]->opts.host_devs = dm->v;
		an[i]->opts.nr_host_devs = dm->n;
		an[i]->opts.target_devs = dm->v;
		an[i]->opts.nr_target_devs = dm->n;
	}
}

/* Analyses */

/* @live: for an interval's line of the live table, not the summary. */
static struct ntprof_analysis *analysis_new(struct recorder *rec, bool live)
{
	struct ntprof_analysis_opts opts = {
		.sample = rec->o->cfg.sample,
		.host_devs = rec->devs.v,
		.nr_host_devs = rec->devs.n,
		.target_devs = rec->devs.v,
		.nr_target_devs = rec->devs.n,
		.transports = rec->o->cfg.transport == NTPROF_TRANSPORT_NONE,
		.e2e_only = live,
	};

	return ntprof_analysis_new(&opts);
}

static int analysis_add(struct ntprof_analysis *an, uint32_t role,
			const struct ntprof_record *r)
{
	if (role == NTPROF_ROLE_HOST)
		return ntprof_analysis_add(an, r, NULL);
	return ntprof_analysis_add(an, NULL, r);
}

/* Feeds the analyses; one out of memory goes, the recording stays. */
/* --prom: @r's group, labelled as the report labels it. */
static void prom_take(struct recorder *rec, const struct ntprof_record *r)
{
	char label[96], size[16], dev[64];

	if ((r->flags & NTPROF_REC_F_USER) && !r->dev)
		snprintf(dev, sizeof(dev), "spdk-n%u", r->nsid);
	else
		ntprof_dev_str(r->dev, rec->devs.v, rec->devs.n, dev,
			       sizeof(dev));
	snprintf(label, sizeof(label), "%s %s %s",
		 ntprof_opclass_name(ntprof_opclass_of(r->qid, r->opcode)),
		 ntprof_size_str(r->length, size, sizeof(size)), dev);
	if (prom_add(rec->prom, label, r)) {
		prom_free(rec->prom);
		rec->prom = NULL;
		fprintf(stderr, "ntprof: record: out of memory for --prom: %s is no longer rewritten\n",
			rec->o->prom);
	}
}

/* --prom's file rewritten, with the session's counters @st (NULL: none). */
static int prom_write_stats(struct prom *p, const struct session_stats *st)
{
	struct prom_counters c;

	if (!st)
		return prom_write(p, NULL);
	c = (struct prom_counters) {
		.seen = st->seen,
		.sampled = st->sampled,
		.records = st->records,
		.drops = st->drops,
		.evicted = st->evicted,
	};
	return prom_write(p, &c);
}

/* --prom: the file rewritten; the recording goes on if it cannot be. */
static void prom_update(struct recorder *rec)
{
	struct session_stats st;
	int err;

	if (!rec->prom)
		return;
	err = prom_write_stats(rec->prom,
			       session_stats_get(rec->sock, rec->o->cfg.role,
						 &st) ? NULL : &st);
	if (err && !rec->prom_failed)
		fprintf(stderr, "ntprof: record: cannot write %s: %s (the recording goes on)\n",
			rec->o->prom, strerror(-err));
	rec->prom_failed = err != 0;
}

static void record_analyse(struct recorder *rec, const struct ntprof_record *r)
{
	uint32_t role = rec->o->cfg.role;

	devmap_add(rec, r->dev);
	if (rec->prom)
		prom_take(rec, r);
	if (rec->all && analysis_add(rec->all, role, r)) {
		ntprof_analysis_free(rec->all);
		rec->all = NULL;
		rec->all_lost = true;
	}
	if (rec->iv && analysis_add(rec->iv, role, r)) {
		ntprof_analysis_free(rec->iv);
		rec->iv = NULL;
	}
}

/* Draining */

static int record_take(const struct ntprof_record *recs, size_t n, void *data)
{
	struct recorder *rec = data;
	uint32_t role = rec->o->cfg.role;
	size_t i, run;
	int err;

	/*
	 * The kernel drains one role's buffers per request: a record of the
	 * other role would be the kernel's mistake, counted, never written.
	 */
	for (i = 0; i < n; i += run) {
		if (recs[i].role != role) {
			rec->other_role++;
			run = 1;
			continue;
		}
		for (run = 1; i + run < n && recs[i + run].role == role; run++)
			;
		err = record_append(rec, &recs[i], run);
		if (err) {
			rec->write_err = err;
			return err;
		}
		rec->written += run;
		rec->unflushed += run;
	}
	/* In the file, but only the sample in numbers that stand for 1 in N. */
	for (i = 0; i < n; i++) {
		if (ntprof_record_in_sample(&recs[i], role))
			record_analyse(rec, &recs[i]);
		else if (recs[i].role == role)
			rec->unsampled++;
	}
	return 0;
}

/*
 * Whether the summary can be made at the end from the file just opened
 * for writing: a regular file that can be read (not a FIFO, /dev/null or
 * a file without read permission). Else it is made live, as records come.
 */
static bool readback_possible(struct recorder *rec)
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
 * The summary's analysis, made after the file was closed: its records
 * read back block by block, the sampled ones fed in the order they were
 * written, as record_take() would have. The devices were named while
 * recording (devmap_add()), so the analysis sees the same names. Returns
 * 0, or -1 after a one-line note when the file does not read back as it
 * was written: then there is no summary, only the count.
 */
static int record_readback(struct recorder *rec, const char *cmd)
{
	const struct record_opts *o = rec->o;
	const struct ntprof_record *recs;
	struct ntp_file *f = NULL;
	char why[512] = "";
	uint64_t got = 0;
	struct stat st;
	size_t i, n;
	int ret;

	rec->all = analysis_new(rec, false);
	if (!rec->all) {
		rec->all_lost = true;
		return 0;
	}
	if (stat(o->out, &st) || st.st_dev != rec->out_dev ||
	    st.st_ino != rec->out_ino) {
		snprintf(why, sizeof(why), "%s: not the file written any more",
			 o->out);
		goto fail;
	}
	ret = ntp_open(o->out, &f, why, sizeof(why));
	if (ret)
		goto fail;
	while ((ret = ntp_next_block(f, &recs, &n)) > 0) {
		got += n;
		for (i = 0; rec->all && i < n; i++) {
			if (!ntprof_record_in_sample(&recs[i], o->cfg.role))
				continue;
			if (analysis_add(rec->all, o->cfg.role, &recs[i])) {
				ntprof_analysis_free(rec->all);
				rec->all = NULL;
				rec->all_lost = true;
			}
		}
	}
	if (ret < 0) {
		snprintf(why, sizeof(why), "%s", ntp_error(f));
		goto fail;
	}
	if (got != rec->written) {
		snprintf(why, sizeof(why),
			 "%s: %" PRIu64 " records read back, %" PRIu64 " written",
			 o->out, got, rec->written);
		goto fail;
	}
	ntp_close(f);
	return 0;

fail:
	fprintf(stderr,
		"ntprof: %s: no summary: cannot read the recording back (%s); it stays as written: see 'ntprof report %s'\n",
		cmd, why, o->out);
	ntp_close(f);
	ntprof_analysis_free(rec->all);
	rec->all = NULL;
	return -1;
}

static int record_drain(struct recorder *rec, uint64_t *count)
{
	struct nl_sock *sock = rec->busy ? rec->sock : rec->quiet_sock;
	uint64_t n = 0;
	int err = 0;

	*count = 0;
	if (rec->spdk) {
		err = record_spdk_take(rec->spdk, rec->cmd, record_take, rec,
				       count);
		if (err)
			return err;
	}
	if (rec->kernel) {
		rec->drained_on = sock;
		err = session_records_get(sock, rec->o->cfg.role, record_take,
					  rec, &n);
		*count += n;
	}
	if (!err)
		rec->busy = *count >= DRAIN_QUIET;
	return err;
}

/* Live lines */

static void record_live(struct recorder *rec, uint64_t now, uint64_t tick)
{
	struct ntprof_analysis *an = rec->iv;
	bool rows = false;
	size_t i;

	rec->iv = analysis_new(rec, true);
	if (!an)
		goto out;
	an->opts.duration_ns = now - rec->iv_start;
	ntprof_analysis_finish(an);
	for (i = 0; i < an->nr_groups; i++)
		if (an->groups[i].n_table)
			rows = true;
	if (rows && !rec->live_header) {
		ntprof_print_live_header(stdout, rec->o->interval_s);
		rec->live_header = true;
	}
	ntprof_print_live(stdout, an, (double)(tick - rec->start_mono) / 1e9);
	fflush(stdout);
	ntprof_analysis_free(an);
out:
	rec->iv_start = now;
}

/* The header */

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
 * The header. The hooks are the session's as it attached them; without
 * them (a failed dump, no memory) the file is still a recording, so that
 * costs the list, not the recording; the same goes for the devices,
 * gathered by the caller. Returns the hooks, for free().
 */
static struct ntp_hook *record_header(struct recorder *rec,
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
 * Before the session starts: can the file be written at all? A missing
 * folder or a read-only file system then costs no session. Creates the
 * file if it did not exist (*created: remove it if we give up).
 */
static int out_check(const char *path, bool *created)
{
	int fd;

	*created = false;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd >= 0) {
		*created = true;
		close(fd);
		return 0;
	}
	if (errno != EEXIST)
		return -errno;
	/* Not truncated yet: a start that fails leaves it as it was. */
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int signals_set(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = record_on_signal;
	sigemptyset(&sa.sa_mask);
	/*
	 * Restart the netlink receives: one cut short mid-dump would lose
	 * the records of that dump. The sleeps come back early anyway.
	 */
	sa.sa_flags = SA_RESTART;
	if (sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL) ||
	    sigaction(SIGHUP, &sa, NULL))
		return -errno;
	/* A closed stdout must not kill us with the session running. */
	sa.sa_handler = SIG_IGN;
	if (sigaction(SIGPIPE, &sa, NULL))
		return -errno;
	return 0;
}

/* The module is unloading or unloaded: /sys/module says so. */
static bool module_unloading(void)
{
	char state[16] = "";
	FILE *f = fopen("/sys/module/ntprof/initstate", "r");

	if (!f)
		return true;
	if (!fgets(state, sizeof(state), f))
		state[0] = '\0';
	fclose(f);
	return !strncmp(state, "going", 5);
}

/*
 * A request to a family that is no longer registered fails with ENOENT
 * and no explanation: the module was unloaded, taking the session along.
 * A request that meets the family on its way out can fail otherwise
 * (EPROTONOSUPPORT was seen on 6.12): then /sys/module tells.
 */
static bool module_gone(struct nl_sock *sock, int err)
{
	if (!err)
		return false;
	return (err == -ENOENT && !*nl_extack(sock)) || module_unloading();
}

/*
 * The recording loop: drain, print, flush, sleep, until -d or a signal.
 * Returns 0, or -errno of what cut it short (already reported).
 */
static int record_loop(struct recorder *rec, const char *cmd)
{
	const struct record_opts *o = rec->o;
	uint64_t interval_ns = (uint64_t)o->interval_s * NSEC_PER_SEC;
	uint64_t now, wake, next_tick = UINT64_MAX, end = UINT64_MAX;
	uint64_t next_flush, next_prom = UINT64_MAX;
	uint64_t drained, drain_ms = DRAIN_MS;
	/* --prom without -i: every PROM_DEFAULT_S. */
	uint64_t prom_ns = interval_ns ? interval_ns :
				       PROM_DEFAULT_S * NSEC_PER_SEC;
	struct timespec ts;
	int err;

	now = clock_ns(CLOCK_MONOTONIC);
	rec->iv_start = now;
	next_flush = now + FLUSH_MS * NSEC_PER_MSEC;
	if (interval_ns)
		next_tick = rec->start_mono + interval_ns;
	if (o->duration_ns)
		end = rec->start_mono + o->duration_ns;
	if (rec->prom) {
		prom_update(rec);
		next_prom = rec->start_mono + prom_ns;
	}

	while (!record_signal) {
		err = record_drain(rec, &drained);
		if (err)
			goto fail;
		if (rec->busy)
			drain_ms = DRAIN_MS;
		else if (drain_ms < DRAIN_QUIET_MS)
			drain_ms *= 2;
		now = clock_ns(CLOCK_MONOTONIC);
		/* The end's own interval is in the summary, not a line. */
		if (now >= end)
			break;
		if (now >= next_tick) {
			record_live(rec, now, next_tick);
			while (next_tick <= now)
				next_tick += interval_ns;
		}
		if (now >= next_prom) {
			prom_update(rec);
			while (next_prom <= now)
				next_prom += prom_ns;
		}
		if (now >= next_flush && rec->unflushed) {
			err = ntp_writer_flush(rec->w);
			if (err) {
				rec->write_err = err;
				goto fail;
			}
			rec->unflushed = 0;
			next_flush = now + FLUSH_MS * NSEC_PER_MSEC;
		}
		wake = now + drain_ms * NSEC_PER_MSEC;
		if (wake > next_tick)
			wake = next_tick;
		if (wake > next_prom)
			wake = next_prom;
		if (wake > end)
			wake = end;
		ts.tv_sec = wake / NSEC_PER_SEC;
		ts.tv_nsec = wake % NSEC_PER_SEC;
		/* A signal ends the sleep early: EINTR, then the flag. */
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
	return 0;

fail:
	if (rec->write_err)
		fprintf(stderr, "ntprof: %s: cannot write %s: %s; stopping\n",
			cmd, o->out, strerror(-rec->write_err));
	else if (module_gone(rec->drained_on, err))
		fprintf(stderr,
			"ntprof: %s: the ntprof module went away (rmmod?): the recording ends here\n",
			cmd);
	else
		nl_perror(rec->drained_on, cmd, err);
	return err;
}

/* After the loop: stop, take the rest, close the file, summarize. */
/*
 * The devices named after the start (the records' devices the header's
 * table lacks, looked up as their first records came), for the trailer:
 * a namespace created mid-recording gets its name in the report too.
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

static int record_finish(struct recorder *rec, const char *cmd, int err)
{
	const struct record_opts *o = rec->o;
	struct ntp_trailer tr = { 0 };
	struct session_stats st = { 0 };
	bool have_stats = false;
	struct ntp_hook *late_hooks = NULL;
	struct ntp_dev *late;
	uint64_t n = 0;
	int stop_err, i, ret, err2;

	tr.end_mono_ns = clock_ns(CLOCK_MONOTONIC);
	tr.end_real_ns = clock_ns(CLOCK_REALTIME);
	if (rec->spdk)
		record_spdk_stop(rec->spdk);
	/* Without the module there is no session left to stop. */
	stop_err = !rec->kernel || module_gone(rec->drained_on, err) ? 0 :
		   session_stop(rec->sock, o->cfg.role);
	if (module_gone(rec->sock, stop_err)) {
		fprintf(stderr,
			"ntprof: %s: the ntprof module went away (rmmod?) with the last records\n",
			cmd);
		/* What it still had is lost: the file ends early. */
		err = stop_err;
	} else if (stop_err == -ENOENT) {
		fprintf(stderr,
			"ntprof: %s: the %s session was stopped by someone else (was the module reloaded?)\n",
			cmd, ntprof_role_name(o->cfg.role));
	} else if (stop_err) {
		nl_perror(rec->sock, cmd, stop_err);
	}

	/* Records finished before the stop are still in the buffers. */
	rec->busy = true;
	for (i = 0; !err && i < FINAL_DRAINS; i++) {
		err = record_drain(rec, &n);
		if (err) {
			if (rec->write_err)
				fprintf(stderr,
					"ntprof: %s: cannot write %s: %s\n",
					cmd, o->out, strerror(-rec->write_err));
			else
				nl_perror(rec->drained_on, cmd, err);
		}
		if (!n)
			break;
	}
	if (!err && rec->kernel &&
	    !session_stats_get(rec->sock, o->cfg.role, &st))
		have_stats = true;
	if (!err && rec->spdk && rec->spdk->procs.nr_agents) {
		spdk_procs_lost(&rec->spdk->procs, &st.drops, &st.evicted);
		have_stats = true;
	}
	tr.drops = st.drops;
	tr.evictions = st.evicted;
	late = late_devs(rec, &tr.nr_late_devs);
	tr.late_devs = late;
	/* The agents found after the start: their sites, as the header's. */
	if (rec->spdk &&
	    spdk_procs_hooks(&rec->spdk->prog, &rec->spdk->procs, false,
			     true, &late_hooks, &tr.nr_late_hooks)) {
		free(late_hooks);
		late_hooks = NULL;
		tr.nr_late_hooks = 0;
	}
	tr.late_hooks = late_hooks;
	/* The last records and counters, whatever ended the recording. */
	if (rec->prom) {
		err2 = prom_write_stats(rec->prom, have_stats ? &st : NULL);
		if (err2)
			fprintf(stderr, "ntprof: %s: cannot write %s: %s\n", cmd,
				o->prom, strerror(-err2));
	}

	/*
	 * Without a trailer the file says "ended early", which is what an
	 * error made of it; its whole blocks still read back.
	 */
	ret = ntp_writer_close(rec->w, err ? NULL : &tr);
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
		rec->all->opts.duration_ns = tr.end_mono_ns - rec->start_mono;
		ntprof_analysis_finish(rec->all);
	}
	print_summary(rec);
	print_warnings(rec, &st, have_stats);
	return stop_err ? 1 : 0;
}

/* Looks up the session's start; falls back on our own clocks. */
static void record_start_times(struct recorder *rec)
{
	struct session_status st;

	/*
	 * status-get describes the host's session when both run: ours only
	 * if it is the one. Then our clocks, read just after the start,
	 * miss the kernel's by microseconds.
	 */
	rec->start_mono = clock_ns(CLOCK_MONOTONIC);
	rec->start_real = clock_ns(CLOCK_REALTIME);
	if (rec->kernel && !session_status_get(rec->sock, &st) &&
	    st.have_session &&
	    st.state == NTPROF_STATE_RECORDING &&
	    st.role == rec->o->cfg.role && st.start_mono) {
		rec->start_mono = st.start_mono;
		rec->start_real = st.start_real;
	}
}

/* Warns of the modules a recording of @cfg waits for. */
static void modules_note(struct nl_sock *sock, const struct session_config *cfg)
{
	uint32_t t[SESSION_TRANSPORTS];
	int i, n = session_transports(cfg->transport, t);
	const struct session_module *mod;
	struct session_status st;

	if (session_status_get(sock, &st))
		return;
	for (i = 0; i < n; i++) {
		mod = session_module_find(&st, cfg->role, t[i]);
		if (mod && !mod->present)
			fprintf(stderr,
				"ntprof: %s is not loaded: its hooks attach when it loads\n",
				mod->name);
	}
}

/* The private structs' layouts, as this kernel's BTF has them. */
static size_t btf_layout(uint32_t role,
			 struct session_layout_field v[NTPROF_LF_COUNT])
{
	struct kbtf_layout l;
	unsigned int i;
	size_t n = 0;

	kbtf_layout_read(kbtf_sys_dir(), role, &l);
	for (i = 0; i < NTPROF_LF_COUNT; i++)
		if (l.found[i])
			v[n++] = (struct session_layout_field) {
				.field = i,
				.offset = l.offset[i],
				.size = l.size[i],
			};
	return n;
}

int cmd_record(int argc, char *argv[])
{
	const char *cmd = argv[0];
	struct recorder rec = { 0 };
	struct ntp_hook *hooks = NULL;
	struct record_opts o;
	struct session_layout_field layout[NTPROF_LF_COUNT];
	static struct record_spdk spdk;
	struct ntp_header hdr;
	bool created;
	int err;

	err = record_parse(argc, argv, &o);
	if (err >= 0)
		return err;
	if (o.spdk) {
		if (record_spdk_open(cmd, &o, &spdk))
			return 1;
		rec.spdk = &spdk;
	}
	rec.o = &o;
	rec.cmd = cmd;
	/* Agents alone need no module: their records come from memory. */
	rec.kernel = !rec.spdk || spdk.uprobes;

	if (rec.kernel && ntprof_connect(cmd, &rec.sock))
		goto fail_spdk;
	if (rec.kernel &&
	    ntprof_connect_sized(cmd, NL_QUIET_SIZE, &rec.quiet_sock)) {
		nl_close(rec.sock);
		goto fail_spdk;
	}
	rec.drained_on = rec.sock;
	/* Only the session's own sockets drain it: this one and the quiet. */
	if (rec.kernel)
		o.cfg.drain_portid = nl_portid(rec.quiet_sock);
	err = out_check(o.out, &created);
	if (err) {
		fprintf(stderr, "ntprof: %s: cannot write %s: %s\n", cmd, o.out,
			strerror(-err));
		nl_close(rec.quiet_sock);
		nl_close(rec.sock);
		goto fail_spdk;
	}
	err = signals_set();
	if (err) {
		fprintf(stderr, "ntprof: %s: cannot handle signals: %s\n", cmd,
			strerror(-err));
		goto fail_unlink;
	}
	/*
	 * The summary costs the analysis of every record: made while the
	 * workload runs, it competes with it for the CPU. From a file it can
	 * read back (out_check() made sure it is there), it is made at the
	 * end instead.
	 */
	rec.all_deferred = readback_possible(&rec);
	rec.all = rec.all_deferred ? NULL : analysis_new(&rec, false);
	rec.iv = o.interval_s ? analysis_new(&rec, true) : NULL;
	rec.prom = o.prom ? prom_new(o.prom, o.cfg.role) : NULL;
	if ((!rec.all_deferred && !rec.all) || (o.interval_s && !rec.iv) ||
	    (o.prom && !rec.prom)) {
		fprintf(stderr, "ntprof: %s: %s\n", cmd, strerror(ENOMEM));
		goto fail_unlink;
	}

	if (rec.kernel) {
		o.cfg.nr_layout = btf_layout(o.cfg.role, layout);
		o.cfg.layout = layout;
		err = session_start(rec.sock, &o.cfg);
		if (err) {
			start_error(rec.sock, cmd, &o.cfg, err);
			goto fail_unlink;
		}
	}
	if (rec.spdk)
		record_spdk_start(&spdk, &o.cfg);
	record_start_times(&rec);

	rec.devs.ntab = devs_gather(o.cfg.role, &rec.devs.tab);
	rec.nr_ctrls = ctrls_gather(o.cfg.role, &rec.ctrls);
	hooks = record_header(&rec, &hdr);
	err = ntp_writer_open(o.out, &hdr, &rec.w);
	if (err == -EINVAL && (hdr.nr_ctrls || hdr.nr_devs)) {
		/* Tables too big for a header: the records matter more. */
		fprintf(stderr,
			"ntprof: %s: %u devices and %u controller entries do not fit in the header; recording without them\n",
			cmd, hdr.nr_devs, hdr.nr_ctrls);
		hdr.nr_ctrls = 0;
		hdr.nr_devs = 0;
		err = ntp_writer_open(o.out, &hdr, &rec.w);
	}
	free(hooks);
	if (err) {
		if (err == -EINVAL)
			fprintf(stderr,
				"ntprof: %s: cannot write %s: a header field is too long\n",
				cmd, o.out);
		else
			fprintf(stderr, "ntprof: %s: cannot write %s: %s\n",
				cmd, o.out, strerror(-err));
		if (rec.spdk)
			record_spdk_stop(&spdk);
		if (rec.kernel)
			session_stop(rec.sock, o.cfg.role);
		fprintf(stderr, "ntprof: %s: the session is stopped\n", cmd);
		goto fail_unlink;
	}

	profiling_line(&o);
	if (rec.kernel)
		modules_note(rec.sock, &o.cfg);
	err = record_loop(&rec, cmd);
	err = record_finish(&rec, cmd, err);

	ntprof_analysis_free(rec.all);
	ntprof_analysis_free(rec.iv);
	prom_free(rec.prom);
	free(rec.devs.tab);
	if (rec.spdk)
		record_spdk_close(&spdk);
	free(rec.ctrls);
	nl_close(rec.quiet_sock);
	nl_close(rec.sock);
	return err;

fail_spdk:
	if (rec.spdk)
		record_spdk_close(&spdk);
	return 1;

fail_unlink:
	if (created)
		unlink(o.out);
	if (rec.spdk)
		record_spdk_close(&spdk);
	free(rec.devs.tab);
	free(rec.ctrls);
	ntprof_analysis_free(rec.all);
	ntprof_analysis_free(rec.iv);
	prom_free(rec.prom);
	nl_close(rec.quiet_sock);
	nl_close(rec.sock);
	return 1;
}
