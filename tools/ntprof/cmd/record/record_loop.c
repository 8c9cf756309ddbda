// SPDX-License-Identifier: GPL-2.0
/*
 * ntprof record's loop: take the records out of the kernel's buffers and
 * the agents' rings as they finish, append them to the file, feed the
 * live lines and --prom, and flush, until -d or a signal.
 *
 * The kernel's per-CPU buffers are finite and drop what does not fit, so
 * the loop drains them often (every DRAIN_MS, less often while they are
 * quiet) and does little else.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/analysis.h"
#include "cmd/record/record.h"
#include "common/names.h"
#include "genl/session.h"
#include "ntp/crec.h"
#include "out/record_prom.h"
#include "out/live.h"
#include "out/table.h"

/*
 * How often the buffers are drained. At a million records a second this
 * takes 100k records (8 MB in compact form) a time, well within what the
 * kernel's buffers hold, and costs an idle system ten dumps a second.
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
 * At 1 in DRAIN_SPARSE_N commands or fewer, quiet drains may wait up to
 * DRAIN_SPARSE_MS: a CPU's buffer still holds a burst of 1.8 million
 * commands after a quiet spell (1.1 million a second from that CPU), and
 * an idle reader wakes 0.6 times a second instead of 2.5, which is most
 * of what a recording left on costs the reader (benchmarks.rst).
 */
#define DRAIN_SPARSE_N	100
#define DRAIN_SPARSE_MS	1600
/*
 * Quiet drains also go through a socket of their own whose datagrams
 * are small (NL_QUIET_SIZE): 32 KiB ones, cleared by the kernel as it
 * allocates them, were half the idle reader's CPU time. Busy drains keep
 * 32 KiB datagrams, a sixth of the receives.
 */
/* Buffered records reach the file at least this often, for kill -9. */
#define FLUSH_MS	1000

/* Set by the handler, read by the loop: nothing else is safe there. */
static volatile sig_atomic_t record_signal;

static void record_on_signal(int sig)
{
	record_signal = sig;
}

int record_signals_set(void)
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

/*
 * ctrl_cntlid() - return the cntlid of a host record. The host's kernel does
 * not know it at the hooks (it lies deep in a private struct), but the
 * record's path disk does, because the disk belongs to one controller. It
 * returns 0 (unknown) once the controller came back with another id.
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
			if (!rec->ctrl_moved || !rec->ctrl_moved[i])
				rec->last_cntlid = rec->ctrls[i].cntlid;
			break;
		}
	return rec->last_cntlid;
}

/*
 * ctrls_recheck() - check whether a controller got another id, after reading
 * the records that the change could concern. A reset or a reconnect makes a
 * new controller on the target, and nvmet gives it the lowest free id, which
 * is the old one only when the old controller went first. A record that the
 * kernel gave us completed before this check; if it went through the new
 * controller, the id had changed before the record was sent, and is seen
 * here. From then on, the controller's records have no cntlid, and the join
 * does without it (join.h), because the host cannot tell which records went
 * through the old controller and which through the new one.
 */
static void ctrls_recheck(struct recorder *rec)
{
	size_t i;

	for (i = 0; rec->ctrl_moved && i < rec->nr_ctrls; i++) {
		if (rec->ctrl_moved[i] ||
		    !ctrl_id_moved(&rec->ctrls[i], &rec->ctrl_id_fd[i]))
			continue;
		rec->ctrl_moved[i] = true;
		rec->last_dev = 0;
		rec->last_cntlid = 0;
	}
}

/*
 * record_append() - append @n records of our role, a host's with their
 * cntlid filled in, 64 at a time, so that with --rotate a part ends at the
 * block boundary after it reached its size, at most 64 records later. Given
 * the kernel's compact bytes @crecs, a file of format 2.0 takes them as they
 * are: no copy of each 232-byte record, and no second encoding.
 */
static int record_append(struct recorder *rec,
			 const struct ntprof_record *recs,
			 const void *const *crecs, size_t n)
{
	bool fill = rec->o->cfg.role == NTPROF_ROLE_HOST && rec->nr_ctrls;
	bool raw = crecs && ntp_writer_takes_crec(rec->w);
	struct ntprof_record buf[64];
	uint16_t cntlid;
	size_t i, j, k;
	int err = 0;

	if (fill)
		ctrls_recheck(rec);
	for (i = 0; i < n; i += k) {
		k = n - i < 64 ? n - i : 64;
		if (raw) {
			for (j = i; j < i + k && !err; j++) {
				cntlid = fill && !recs[j].cntlid ?
					 ctrl_cntlid(rec, recs[j].dev) : 0;
				err = ntp_writer_append_crec(rec->w, crecs[j],
							     cntlid);
			}
			if (!err)
				err = record_rotate_maybe(rec);
			if (err)
				return err;
			continue;
		}
		if (fill) {
			memcpy(buf, &recs[i], k * sizeof(*buf));
			for (j = 0; j < k; j++)
				if (!buf[j].cntlid)
					buf[j].cntlid = ctrl_cntlid(rec,
								    buf[j].dev);
		}
		err = ntp_writer_append(rec->w, fill ? buf : &recs[i], k);
		if (!err)
			err = record_rotate_maybe(rec);
		if (err)
			return err;
	}
	return 0;
}

/*
 * devmap_add() - name the devices of the records for the analysis as they
 * first come. A device without a name is kept too (with a NULL name), so
 * that it is looked up only once; the analysis then labels it "dev MAJ:MIN".
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

/*
 * record_analysis_new() - create an analysis for the summary or, with @live,
 * for an interval's line of the live table.
 */
struct ntprof_analysis *record_analysis_new(struct recorder *rec, bool live)
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

int record_analysis_add(struct ntprof_analysis *an, uint32_t role,
			const struct ntprof_record *r)
{
	if (role == NTPROF_ROLE_HOST)
		return ntprof_analysis_add(an, r, NULL);
	return ntprof_analysis_add(an, NULL, r);
}

/* record_dev_name() - name @r's device as the report names it. */
static void record_dev_name(const struct recorder *rec,
			    const struct ntprof_record *r, char *dev,
			    size_t size)
{
	if ((r->flags & NTPROF_REC_F_USER) && !r->dev)
		snprintf(dev, size, "spdk-n%u", r->nsid);
	else if (r->role == NTPROF_ROLE_HOST &&
		 (r->flags & NTPROF_REC_F_PASSTHRU))
		ntprof_passthru_dev_str(r->dev, rec->devs.v, rec->devs.n, dev,
					size);
	else
		ntprof_dev_str(r->dev, rec->devs.v, rec->devs.n, dev, size);
}

/* prom_take() - add @r, with its device named, to --prom's histograms. */
static void prom_take(struct recorder *rec, const struct ntprof_record *r,
		      const char *dev)
{
	if (prom_add(rec->prom, r, dev)) {
		prom_free(rec->prom);
		rec->prom = NULL;
		fprintf(stderr, "ntprof: record: out of memory for --prom: %s is no longer rewritten\n",
			rec->o->prom);
	}
}

/*
 * chain_take() - keep @r for the chain's links (for -r host,target --prom),
 * with its subsystem (for a target record, the volume's). When memory is
 * short, the chain's file is no longer rewritten, and the recording goes on.
 */
static void chain_take(struct recorder *rec, const struct ntprof_record *r,
		       const char *dev)
{
	struct record_middle *mid = rec->mid;
	const char *subnqn = rec->prom ? prom_subnqn(rec->prom, r) : "";

	pthread_mutex_lock(&mid->lock);
	if (mid->cp && chain_prom_add(mid->cp, r, dev, subnqn)) {
		chain_prom_free(mid->cp);
		mid->cp = NULL;
		fprintf(stderr, "ntprof: record: out of memory for the chain's links: %s is no longer rewritten\n",
			mid->cp_path);
	}
	pthread_mutex_unlock(&mid->lock);
}

/*
 * record_prom_write() - rewrite --prom's file, with the session's counters
 * @st (NULL when there are none).
 */
int record_prom_write(struct prom *p, const struct session_stats *st)
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

/*
 * prom_update() - rewrite --prom's file; the recording goes on if it cannot
 * be written.
 */
static void prom_update(struct recorder *rec)
{
	struct session_stats st;
	int err;

	if (!rec->prom)
		return;
	err = record_prom_write(rec->prom,
			       session_stats_get(rec->sock, rec->o->cfg.role,
						 &st) ? NULL : &st);
	if (err && !rec->prom_failed)
		fprintf(stderr, "ntprof: record: cannot write %s: %s (the recording goes on)\n",
			rec->o->prom, strerror(-err));
	rec->prom_failed = err != 0;
	/* The chain's windows go with the target side's. */
	if (rec->mid && rec->o->cfg.role == NTPROF_ROLE_TARGET)
		record_middle_window(rec->mid, false);
}

/* Feeds the analyses; one out of memory goes, the recording stays. */
/*
 * target_dev() - return the device that a target record's command went to,
 * for --prom's labels. nvmet's records name the disk of the first block
 * request they saw, and a bio-based device such as md0 has none (dev 0).
 * Then the controller table tells the device when only one backing device
 * has the command's namespace id, as the report's chain analysis does
 * (chain_stats.c).
 */
static uint32_t target_dev(const struct recorder *rec,
			   const struct ntprof_record *r)
{
	uint32_t dev = 0;
	size_t i;

	if (r->dev || r->role != NTPROF_ROLE_TARGET)
		return r->dev;
	for (i = 0; i < rec->nr_ctrls; i++) {
		if (rec->ctrls[i].nsid != r->nsid || !rec->ctrls[i].dev)
			continue;
		if (dev && dev != rec->ctrls[i].dev)
			return 0;
		dev = rec->ctrls[i].dev;
	}
	return dev;
}

static void record_analyse(struct recorder *rec, const struct ntprof_record *r)
{
	uint32_t role = rec->o->cfg.role;
	struct ntprof_record named;
	char dev[64];

	devmap_add(rec, r->dev);
	if (rec->prom || rec->mid) {
		named = *r;
		named.dev = target_dev(rec, r);
		if (named.dev != r->dev)
			devmap_add(rec, named.dev);
		record_dev_name(rec, &named, dev, sizeof(dev));
		if (rec->prom)
			prom_take(rec, &named, dev);
		if (rec->mid)
			chain_take(rec, &named, dev);
	}
	if (rec->all && record_analysis_add(rec->all, role, r)) {
		ntprof_analysis_free(rec->all);
		rec->all = NULL;
		rec->all_lost = true;
	}
	if (rec->iv && record_analysis_add(rec->iv, role, r)) {
		ntprof_analysis_free(rec->iv);
		rec->iv = NULL;
	}
}

/* Draining */

/*
 * record_ok() - tell whether @r goes into the file: it must be a record of
 * our role (the kernel drains one role's buffers per request, so another
 * role's record would be the kernel's mistake), with times that the file's
 * compact form holds (an agent's record garbled in its process's memory may
 * have times 2^63 ns apart).
 */
static bool record_ok(const struct recorder *rec, const struct ntprof_record *r,
		      bool compact)
{
	return r->role == rec->o->cfg.role && (compact || crec_size(r));
}

/*
 * record_take() - take a batch of the kernel's records. @crecs holds them in
 * compact form, which the file takes as it is.
 */
static int record_take(const struct ntprof_record *recs,
		       const void *const *crecs, size_t n, void *data)
{
	struct recorder *rec = data;
	uint32_t role = rec->o->cfg.role;
	size_t i, end;
	int err;

	/* The runs of records to keep, each appended at once. */
	for (i = 0; i < n; i = end + 1) {
		for (end = i; end < n && record_ok(rec, &recs[end], crecs);
		     end++)
			;
		if (end > i) {
			err = record_append(rec, &recs[i],
					    crecs ? &crecs[i] : NULL, end - i);
			if (err) {
				rec->write_err = err;
				return err;
			}
			rec->written += end - i;
			rec->unflushed += end - i;
		}
		/* Counted, never written. */
		if (end < n && recs[end].role != role)
			rec->other_role++;
		else if (end < n)
			rec->garbled++;
	}
	/* In the file, but only the sample in numbers that stand for 1 in N. */
	for (i = 0; i < n; i++) {
		if (!record_ok(rec, &recs[i], crecs))
			continue;
		if (ntprof_record_in_sample(&recs[i], role))
			record_analyse(rec, &recs[i]);
		else
			rec->unsampled++;
	}
	return 0;
}

/*
 * record_take_spdk() - take a batch of the agents' records. They have no
 * compact form, so each one is checked and encoded.
 */
static int record_take_spdk(const struct ntprof_record *recs, size_t n,
			    void *data)
{
	return record_take(recs, NULL, n, data);
}

int record_drain(struct recorder *rec, uint64_t *count)
{
	struct nl_sock *sock = rec->busy ? rec->sock : rec->quiet_sock;
	uint64_t n = 0, start = clock_ns(CLOCK_MONOTONIC);
	int err = 0;

	*count = 0;
	if (rec->spdk) {
		err = record_spdk_take(rec->spdk, rec->cmd, record_take_spdk,
				       rec, count);
		if (err)
			return err;
	}
	if (rec->kernel) {
		rec->drained_on = sock;
		err = session_records_get(sock, rec->o->cfg.role, record_take,
					  rec, &n);
		*count += n;
		if (!err)
			err = record_events(rec, sock);
	}
	/* Out of the dump: the part --rotate left can get its counters. */
	if (!err) {
		err = record_rotation_settle(rec);
		if (err)
			rec->write_err = err;
	}
	if (!err)
		rec->busy = *count >= DRAIN_QUIET;
	/* Every record of ours that ended before @start is now taken. */
	if (!err && rec->mid) {
		pthread_mutex_lock(&rec->mid->lock);
		rec->mid->drained[rec->o->cfg.role == NTPROF_ROLE_HOST] = start;
		pthread_mutex_unlock(&rec->mid->lock);
	}
	return err;
}

/* Live lines */

static void record_live(struct recorder *rec, uint64_t now, uint64_t tick)
{
	struct ntprof_analysis *an = rec->iv;
	bool rows = false;
	size_t i;

	rec->iv = record_analysis_new(rec, true);
	if (!an)
		goto out;
	if (rec->mid)
		pthread_mutex_lock(&rec->mid->print);
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
	if (rec->mid)
		pthread_mutex_unlock(&rec->mid->print);
	ntprof_analysis_free(an);
out:
	rec->iv_start = now;
}

/*
 * module_unloading() - tell whether the module is unloading or unloaded, as
 * /sys/module says.
 */
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
 * record_module_gone() - tell whether @err of a request on @sock means that
 * the module went away. A request to a family that is no longer registered
 * fails with ENOENT and no explanation: the module was unloaded, and took
 * the session along. A request that meets the family on its way out can fail
 * otherwise (EPROTONOSUPPORT was seen on 6.12); then /sys/module tells.
 */
bool record_module_gone(struct nl_sock *sock, int err)
{
	if (!err)
		return false;
	return (err == -ENOENT && !*nl_extack(sock)) || module_unloading();
}

/*
 * record_loop() - run the recording loop (drain, print, flush, sleep) until
 * -d's time is up or a signal comes. It returns 0, or the -errno of what cut
 * it short, which it has already reported.
 */
int record_loop(struct recorder *rec, const char *cmd)
{
	const struct record_opts *o = rec->o;
	uint64_t interval_ns = (uint64_t)o->interval_s * NSEC_PER_SEC;
	uint64_t now, wake, next_tick = UINT64_MAX, end = UINT64_MAX;
	uint64_t next_flush, next_prom = UINT64_MAX;
	uint64_t drained, drain_ms = DRAIN_MS;
	uint64_t quiet_ms = o->cfg.sample >= DRAIN_SPARSE_N ? DRAIN_SPARSE_MS :
							     DRAIN_QUIET_MS;
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
		else if (drain_ms < quiet_ms)
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
	else if (record_module_gone(rec->drained_on, err))
		fprintf(stderr,
			"ntprof: %s: the ntprof module went away (rmmod?): the recording ends here\n",
			cmd);
	else
		nl_perror(rec->drained_on, cmd, err);
	return err;
}
