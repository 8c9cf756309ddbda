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

uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

/*
 * out_check() - check, before the session starts, that the file can be
 * written at all, so that a missing folder or a read-only file system costs
 * no session. It creates the file if it did not exist, and sets *@created so
 * that the caller removes it if it gives up.
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

/*
 * out_regular() - tell whether @path is a regular file. --rotate's parts are
 * files that are closed, read and removed, so they cannot be a FIFO.
 */
static bool out_regular(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/*
 * record_start_times() - look up the session's start, falling back on our
 * own clocks.
 */
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

/* modules_note() - warn of the modules that a recording of @cfg waits for. */
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

/*
 * btf_layout() - read the layouts of the private structs, as this kernel's
 * BTF has them.
 */
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
				.st_size = l.st_size[i],
			};
	return n;
}

/*
 * record_connect() - open the sockets of the module's session: one for
 * requests and busy drains, and one of small receives for quiet drains; only
 * these two drain the session. Agents alone need no module, because their
 * records come from memory. It returns 0, or 1 after a message.
 */
static int record_connect(struct recorder *rec, struct record_opts *o)
{
	rec->kernel = !rec->spdk || rec->spdk->uprobes;
	if (!rec->kernel)
		return 0;
	if (ntprof_connect(rec->cmd, &rec->sock))
		return 1;
	if (ntprof_connect_sized(rec->cmd, NL_QUIET_SIZE, &rec->quiet_sock)) {
		nl_close(rec->sock);
		rec->sock = NULL;
		return 1;
	}
	rec->drained_on = rec->sock;
	o->cfg.drain_portid = nl_portid(rec->quiet_sock);
	return 0;
}

/*
 * record_analyses() - create the analyses and --prom's state. It returns 0,
 * or 1 after a message.
 */
static int record_analyses(struct recorder *rec)
{
	const struct record_opts *o = rec->o;

	/*
	 * The summary costs the analysis of every record: made while the
	 * workload runs, it competes with it for the CPU. From a file it can
	 * read back (out_check() made sure it is there), it is made at the
	 * end instead.
	 */
	rec->all_deferred = record_readback_possible(rec);
	rec->all = rec->all_deferred ? NULL : record_analysis_new(rec, false);
	rec->iv = o->interval_s ? record_analysis_new(rec, true) : NULL;
	rec->prom = o->prom ? prom_new(o->prom, o->cfg.role) : NULL;
	if ((!rec->all_deferred && !rec->all) || (o->interval_s && !rec->iv) ||
	    (o->prom && !rec->prom)) {
		fprintf(stderr, "ntprof: %s: %s\n", rec->cmd, strerror(ENOMEM));
		return 1;
	}
	return 0;
}

/*
 * record_start() - start the kernel's session and the agents. It returns 0,
 * or 1 after a message.
 */
static int record_start(struct recorder *rec, struct record_opts *o)
{
	struct session_layout_field layout[NTPROF_LF_COUNT];
	int err;

	if (rec->kernel) {
		o->cfg.nr_layout = btf_layout(o->cfg.role, layout);
		o->cfg.layout = layout;
		err = session_start(rec->sock, &o->cfg);
		o->cfg.layout = NULL;
		o->cfg.nr_layout = 0;
		if (err) {
			start_error(rec->sock, rec->cmd, &o->cfg, err);
			return 1;
		}
	}
	if (rec->spdk)
		record_spdk_start(rec->spdk, &o->cfg);
	record_start_times(rec);
	return 0;
}

/*
 * record_open_file() - open the file and write its header once the session
 * runs, because the header holds the session's start and its hooks. It
 * returns 0, or 1 after a message, with the session stopped.
 */
static int record_open_file(struct recorder *rec)
{
	const struct record_opts *o = rec->o;
	struct ntp_hook *hooks;
	struct ntp_header hdr;
	int err;

	rec->devs.ntab = devs_gather(o->cfg.role, &rec->devs.tab);
	ctrl_id_fds_free(rec->ctrl_id_fd, rec->nr_ctrls);
	rec->ctrl_id_fd = NULL;
	rec->nr_ctrls = ctrls_gather(o->cfg.role, &rec->ctrls);
	free(rec->ctrl_moved);
	rec->ctrl_moved = rec->nr_ctrls ? calloc(rec->nr_ctrls, sizeof(bool)) :
					  NULL;
	if (rec->ctrl_moved) {
		/* All bits set: -1, no file open yet. */
		rec->ctrl_id_fd = malloc(rec->nr_ctrls * sizeof(int));
		if (rec->ctrl_id_fd) {
			memset(rec->ctrl_id_fd, 0xff,
			       rec->nr_ctrls * sizeof(int));
		} else {
			free(rec->ctrl_moved);
			rec->ctrl_moved = NULL;
		}
	}
	if (rec->prom && rec->nr_ctrls) {
		rec->hostnqns = ctrls_hostnqns(o->cfg.role, rec->ctrls,
					       rec->nr_ctrls);
		/* Short of memory, the series go without their path. */
		if (rec->hostnqns)
			prom_paths(rec->prom, rec->ctrls,
				   (const prom_nqn *)rec->hostnqns,
				   rec->nr_ctrls);
	}
	hooks = record_header(rec, &hdr);
	if (rec->rot.size) {
		hdr.part = 1;
		hdr.part_start_mono_ns = rec->start_mono;
		rec->rot.parts[0].start_mono = rec->start_mono;
	}
	err = ntp_writer_open(o->out, &hdr, &rec->w);
	if (err == -EINVAL && (hdr.nr_ctrls || hdr.nr_devs)) {
		/* Tables too big for a header: the records matter more. */
		fprintf(stderr,
			"ntprof: %s: %u devices and %u controller entries do not fit in the header; recording without them\n",
			rec->cmd, hdr.nr_devs, hdr.nr_ctrls);
		hdr.nr_ctrls = 0;
		hdr.nr_devs = 0;
		err = ntp_writer_open(o->out, &hdr, &rec->w);
	}
	/* Every part has the first one's header: its hooks stay. */
	if (!err && rec->rot.size) {
		rec->rot.hdr = hdr;
		rec->rot.hooks = hooks;
		return 0;
	}
	free(hooks);
	if (!err)
		return 0;
	if (err == -EINVAL)
		fprintf(stderr,
			"ntprof: %s: cannot write %s: a header field is too long\n",
			rec->cmd, o->out);
	else
		fprintf(stderr, "ntprof: %s: cannot write %s: %s\n",
			rec->cmd, o->out, strerror(-err));
	if (rec->spdk)
		record_spdk_stop(rec->spdk);
	if (rec->kernel)
		session_stop(rec->sock, o->cfg.role);
	fprintf(stderr, "ntprof: %s: the session is stopped\n", rec->cmd);
	return 1;
}

/*
 * recorder_free() - free what the recorder holds, whatever became of the
 * recording.
 */
static void recorder_free(struct recorder *rec)
{
	ntprof_analysis_free(rec->all);
	ntprof_analysis_free(rec->iv);
	prom_free(rec->prom);
	free(rec->devs.tab);
	if (rec->spdk)
		record_spdk_close(rec->spdk);
	ctrl_id_fds_free(rec->ctrl_id_fd, rec->nr_ctrls);
	free(rec->ctrls);
	free(rec->ctrl_moved);
	free(rec->hostnqns);
	record_rotation_free(&rec->rot);
	nl_close(rec->quiet_sock);
	nl_close(rec->sock);
}

int record_run(struct record_opts *o, struct record_middle *mid)
{
	static struct record_spdk spdk;
	struct recorder rec = { .cmd = "record", .mid = mid };
	bool created = false;
	int err;

	rec.o = o;
	if (o->spdk) {
		if (record_spdk_open(rec.cmd, o, &spdk))
			return 1;
		rec.spdk = &spdk;
	}
	if (record_connect(&rec, o))
		goto fail;
	err = record_rotation_init(&rec, o);
	if (err) {
		fprintf(stderr, "ntprof: %s: %s: %s\n", rec.cmd, o->out,
			strerror(-err));
		goto fail;
	}
	err = out_check(o->out, &created);
	if (!err && o->rotate_size && !out_regular(o->out))
		err = -EINVAL;
	if (err == -EINVAL) {
		fprintf(stderr,
			"ntprof: %s: --rotate writes parts, regular files: %s is not one\n",
			rec.cmd, o->out);
		goto fail;
	}
	if (err) {
		fprintf(stderr, "ntprof: %s: cannot write %s: %s\n", rec.cmd,
			o->out, strerror(-err));
		goto fail;
	}
	err = record_signals_set();
	if (err) {
		fprintf(stderr, "ntprof: %s: cannot handle signals: %s\n",
			rec.cmd, strerror(-err));
		goto fail;
	}
	if (record_analyses(&rec) || record_start(&rec, o) ||
	    record_open_file(&rec))
		goto fail;

	profiling_line(o);
	if (rec.kernel)
		modules_note(rec.sock, &o->cfg);
	err = record_loop(&rec, rec.cmd);
	err = record_finish(&rec, rec.cmd, err);
	recorder_free(&rec);
	return err;

fail:
	if (created)
		unlink(o->out);
	recorder_free(&rec);
	return 1;
}

int cmd_record(int argc, char *argv[])
{
	struct record_opts o;
	int err;

	err = record_parse(argc, argv, &o);
	if (err >= 0)
		return err;
	if (o.middle)
		return record_middle_run(&o);
	return record_run(&o, NULL);
}
