/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ntprof record, split into files of its own. record.c starts the session
 * and opens the file. record_loop.c drains the kernel's buffers and the
 * agents' rings into the file, with the live lines and --prom.
 * record_file.c writes the header and, after the loop, the last records,
 * the trailer and the summary. record_print.c prints. record_opts.c reads
 * the command line. record_machine.c reads what the header says of this
 * machine (its block devices, its NVMe-oF controllers). record_spdk.c
 * takes up SPDK processes. lib/sites/chain_md.c finds --chain's offset.
 */
#ifndef NTPROF_RECORD_H
#define NTPROF_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include <pthread.h>
#include <stdbool.h>
#include <sys/types.h>
#include <time.h>

#include "analysis/analysis.h"
#include "common/util.h"
#include "genl/session.h"
#include "ntp/ntp.h"
#include "out/chain_prom.h"
#include "out/record_prom.h"
#include "sites/spdk_agent.h"

/* clock_ns() - return the current time of clock @id, in ns. */
uint64_t clock_ns(clockid_t id);

/* --prom without -i: how often the file is rewritten. */
#define PROM_DEFAULT_S	10

struct record_opts {
	struct session_config cfg;
	const char *out;
	unsigned int interval_s;	/* 0: no live lines */
	uint64_t duration_ns;		/* 0: until a signal */
	char dev_label[64];		/* --dev as given, for messages */
	const char *spdk;	/* --spdk-target or --spdk-host BIN|PID, or NULL */
	const char *prom;	/* --prom FILE, or NULL */
	uint32_t spdk_role;	/* which of the two */
	uint64_t rotate_size;	/* --rotate SIZE in bytes; 0: one file */
	uint32_t keep;		/* --keep N parts; 0: every one */
	bool chain_md;		/* --chain=md: cfg.chain_offset from md */
	/* -r host,target: a chain's middle, both roles (record_middle.c). */
	bool middle;
};

/*
 * record_middle.c: -r host,target. Two recorders, one per role, each in
 * a thread of its own with its own session, sockets and file; what they
 * share is here, under @lock.
 */
struct record_middle {
	pthread_mutex_t lock;
	/* --prom: the chain's series, fed by both (NULL without --prom). */
	struct chain_prom *cp;
	const char *cp_path;
	bool cp_failed;
	/*
	 * Per role (index: role == host): the start of its last drain, on
	 * CLOCK_MONOTONIC, the records' clock: every record that ended
	 * before it has been added.
	 */
	uint64_t drained[2];
	/* The lines each thread prints, whole. */
	pthread_mutex_t print;
};

/*
 * record_middle_window() - rewrite the chain's file once what both
 * recorders took is linked: at a window of the target's --prom, or at the
 * end (@end).
 */
void record_middle_window(struct record_middle *mid, bool end);
/*
 * record_middle_run() - run both recorders of ntprof record -r
 * host,target, and return the exit status.
 */
int record_middle_run(struct record_opts *o);
/*
 * record_role_path() - write into @buf the name of FILE for @role:
 * "middle.ntp" becomes "middle-host.ntp".
 */
int record_role_path(const char *path, uint32_t role, char *buf,
		     size_t size);
/*
 * record_run() - run one recorder from its parsed options (record.c), and
 * return the exit status.
 */
int record_run(struct record_opts *o, struct record_middle *mid);

/* The sysfs of this machine, for chain_md_offset() (sites/chain_md.h). */
#define RECORD_SYSFS	"/sys"

/* --rotate: at least this, so that a part holds a few whole blocks. */
#define ROTATE_MIN	(1ULL << 20)
/* --keep: the part being written and at least one closed. */
#define KEEP_MIN	2
#define KEEP_MAX	1000000

/* record_rotate.c: the recording in parts (--rotate). */
struct record_rotation {
	uint64_t size;		/* 0: one file */
	uint32_t keep;		/* 0: all */
	const char *base;	/* -o as given */
	uint32_t part;		/* the part written, from 1 */
	uint32_t first;		/* the oldest not removed */
	/* The first part's header, which every part repeats, and its hooks. */
	struct ntp_header hdr;
	struct ntp_hook *hooks;
	/*
	 * The part just left, closed once the drain that filled it is over:
	 * its trailer needs the session's counters, which a request in the
	 * middle of the drain's dump cannot get. NULL: none.
	 */
	struct ntp_writer *closing;
	uint64_t closing_end_mono;
	uint64_t closing_end_real;
	/* The session's losses when the part written was opened. */
	uint64_t drops0;
	uint64_t evictions0;
	/*
	 * Per part, from 1: its records, for the read back, and its start,
	 * for the span of the summary of the parts kept.
	 */
	struct rotation_part {
		uint64_t records;
		uint64_t start_mono;
	} *parts;
	size_t cap;
	char path[4096];	/* the part written */
};

/* Device names looked up for the summary; later ones show as numbers. */
#define DEVS_MAX	64

/*
 * The names of the devices: the table of the file's header, gathered at
 * the start, and for the analyses the devices of the records as they
 * first come (a device that appeared later is looked up then).
 */
struct devmap {
	struct ntp_dev *tab;
	size_t ntab;
	struct ntprof_devname v[DEVS_MAX];
	char names[DEVS_MAX][NTP_DEV_NAME_MAX + 1];
	size_t n;
};

/* record_spdk.c: --spdk-target and --spdk-host. */
struct record_spdk {
	struct spdk_prog prog;
	struct spdk_procs procs;
	bool uprobes;		/* the module's session has the sites */
	bool by_pid;		/* one process, not the program's every one */
	bool stopped;		/* the agents off: no new process taken up */
	struct agent_filter filter;	/* the agents', once started */
	uint64_t next_scan_ns;	/* for processes started since */
	struct ntprof_record *buf;
};

/*
 * record_spdk_open() - resolve @o->spdk's sites and sort its processes
 * into those recorded through agents and those recorded through uprobes,
 * and set @o->cfg's sites for the latter. It returns 0, or 1 after
 * printing the reason.
 */
int record_spdk_open(const char *cmd, struct record_opts *o,
		     struct record_spdk *rs);
/*
 * record_spdk_close() - detach from the agents, close the program and
 * free the buffer.
 */
void record_spdk_close(struct record_spdk *rs);
/*
 * record_spdk_start() - turn the agents on for @cfg's commands, and say
 * which process is recorded in which way.
 */
void record_spdk_start(struct record_spdk *rs, const struct session_config *cfg);
/*
 * record_spdk_stop() - turn the agents off, and take up no new process
 * from then on.
 */
void record_spdk_stop(struct record_spdk *rs);
/*
 * record_spdk_take() - send the agents' heartbeats, then hand their
 * records to @fn, as a drain does.
 */
int record_spdk_take(struct record_spdk *rs, const char *cmd,
		     int (*fn)(const struct ntprof_record *, size_t, void *),
		     void *data, uint64_t *count);

struct recorder {
	const struct record_opts *o;
	/* The module's session: not for agents alone. */
	bool kernel;
	struct record_spdk *spdk;	/* or NULL */
	const char *cmd;
	struct nl_sock *sock;
	/*
	 * Quiet drains (record_loop.c) go through a socket of small receives
	 * (NL_QUIET_SIZE); busy drains use @sock.
	 */
	struct nl_sock *quiet_sock;
	bool busy;
	struct nl_sock *drained_on;	/* the last drain's, for its error */
	/* Control-path events written, the module's drops of them. */
	uint64_t events;
	uint64_t event_drops;
	bool no_events;		/* a module without events-get */
	struct ntp_writer *w;
	uint64_t start_mono;
	uint64_t start_real;
	uint64_t written;	/* records appended to the file */
	uint64_t unflushed;	/* of those, not yet written out */
	uint64_t other_role;	/* records of the other role: a bug */
	uint64_t garbled;	/* times no file can hold: an agent's bug */
	uint64_t unsampled;	/* failed commands outside the sample */
	int write_err;
	/*
	 * NULL once out of memory: the recording goes on without it. The
	 * summary's (all) is made at the end from the file read back when
	 * deferred; live, while recording, when the output cannot be read.
	 */
	struct ntprof_analysis *all;
	struct ntprof_analysis *iv;
	bool all_lost;
	bool all_deferred;
	dev_t out_dev;		/* the file written, to read back that one */
	ino_t out_ino;
	bool live_header;
	uint64_t iv_start;
	struct devmap devs;
	/* The controller table of the header; the last dev looked up. */
	struct ntp_ctrl *ctrls;
	size_t nr_ctrls;
	/*
	 * Per entry of @ctrls: its controller came back with another id
	 * (a reset, a reconnect: nvmet gives a new controller a new id),
	 * so its records' cntlid is unknown from then on.
	 */
	bool *ctrl_moved;
	/*
	 * Per entry of @ctrls: its sysfs cntlid kept open, -1 until read,
	 * so that a check is one pread() (it runs every batch of records).
	 */
	int *ctrl_id_fd;
	prom_nqn *hostnqns;	/* --prom: of each entry, "" unknown */
	uint32_t last_dev;
	uint16_t last_cntlid;
	struct record_rotation rot;
	/* --prom: the histograms so far; a failed write is said once. */
	struct prom *prom;
	bool prom_failed;
	/* -r host,target: what the two recorders share, else NULL. */
	struct record_middle *mid;
};

/* record_loop.c */
/*
 * record_signals_set() - make SIGINT, SIGTERM and SIGHUP end the loop, and
 * ignore SIGPIPE. It returns 0 or -errno.
 */
int record_signals_set(void);
/*
 * record_loop() - run the recording loop (drain, print, flush, sleep)
 * until -d's time is up or a signal comes. It returns 0, or the -errno of
 * what cut it short, which it has already reported.
 */
int record_loop(struct recorder *rec, const char *cmd);
/*
 * record_events() - write the module's control-path events into the file
 * (record_events.c). It returns 0, also for a module that has no events,
 * or -errno (a write's error is in rec->write_err).
 */
int record_events(struct recorder *rec, struct nl_sock *sock);

/*
 * record_drain() - drain the agents and the kernel once, and put the
 * number of records taken in *@count.
 */
int record_drain(struct recorder *rec, uint64_t *count);
/*
 * record_analysis_new() - create an analysis for the summary or, with
 * @live, for an interval's line of the live table.
 */
struct ntprof_analysis *record_analysis_new(struct recorder *rec, bool live);
/* record_analysis_add() - add record @r of @role to analysis @an. */
int record_analysis_add(struct ntprof_analysis *an, uint32_t role,
			const struct ntprof_record *r);
/*
 * record_prom_write() - rewrite --prom's file, with the session's
 * counters @st (NULL when there are none).
 */
int record_prom_write(struct prom *p, const struct session_stats *st);
/*
 * record_module_gone() - tell whether @err of a request on @sock means
 * that the module went away.
 */
bool record_module_gone(struct nl_sock *sock, int err);

/* record_file.c */
/*
 * record_header() - fill the header @hdr, with the session's hooks as it
 * attached them. It returns the hooks, which the caller frees.
 */
struct ntp_hook *record_header(struct recorder *rec, struct ntp_header *hdr);
/*
 * record_readback_possible() - tell whether the summary can be made at
 * the end from the file just opened for writing, and note which file
 * that is.
 */
bool record_readback_possible(struct recorder *rec);
/*
 * record_finish() - after the loop, stop the session, take the remaining
 * records, close the file and print the summary.
 */
int record_finish(struct recorder *rec, const char *cmd, int err);
/*
 * record_counters() - sum the session's counters, the kernel's and the
 * agents', into @st. It returns true if there are any.
 */
bool record_counters(struct recorder *rec, struct session_stats *st);
/*
 * record_trailer_tables() - fill the trailer's tables with the devices
 * and hooks found after the start. The caller frees *@devs and *@hooks
 * in any case.
 */
void record_trailer_tables(struct recorder *rec, struct ntp_trailer *tr,
			   struct ntp_dev **devs, struct ntp_hook **hooks);

/* record_rotate.c */
/*
 * rotate_part_path() - write into @buf the path of part @part of
 * FILE.ntp, such as FILE.0001.ntp. It returns 0 or -ENAMETOOLONG.
 */
int rotate_part_path(const char *out, uint32_t part, char *buf, size_t size);
/*
 * record_rotation_init() - set up the rotation; with --rotate, @o->out
 * becomes the first part's path. It returns 0 or -errno.
 */
int record_rotation_init(struct recorder *rec, struct record_opts *o);
/* record_rotation_free() - free what the rotation holds. */
void record_rotation_free(struct record_rotation *rot);
/*
 * record_rotate_maybe() - once the part has reached SIZE, leave it for the
 * next part. It is called between appends, so a part ends at a block
 * boundary; record_rotation_settle() closes it. It returns 0 or -errno.
 */
int record_rotate_maybe(struct recorder *rec);
/*
 * record_rotation_settle() - after a drain, close the part just left with
 * its trailer, and remove the oldest parts beyond --keep. It returns 0 or
 * -errno.
 */
int record_rotation_settle(struct recorder *rec);
/*
 * record_rotation_trailer() - fill the trailer's losses: the session's,
 * or with --rotate the part's.
 */
void record_rotation_trailer(struct recorder *rec, struct ntp_trailer *tr,
			     const struct session_stats *st, bool have_stats);
/*
 * record_rotation_last() - note the last part's @records as it is
 * closed.
 */
void record_rotation_last(struct recorder *rec, uint64_t records);
/*
 * record_part_line() - print the line on stderr that says that part @part
 * is closed, whole, at @path, with its @records, the losses of its
 * trailer @tr, and the session's counters @st at that time (NULL when
 * there are none; before the last part, its losses go to a later part).
 */
void record_part_line(const struct recorder *rec, uint32_t part,
		      const char *path, uint64_t records,
		      const struct ntp_trailer *tr,
		      const struct session_stats *st);
/*
 * record_rotation_start() - return where the summary's records start: the
 * start of the oldest part kept.
 */
uint64_t record_rotation_start(const struct recorder *rec);

/*
 * record_parse() - fill @o from the command line (record_opts.c). It
 * returns -1 to go on, or the exit status: 0 after --help, 2 after a
 * usage error, which it has printed.
 */
int record_parse(int argc, char *argv[], struct record_opts *o);

/* record_print.c: the lines record prints besides the live table. */
/*
 * profiling_line() - print, in one piece, the line that says what is
 * recorded: the role, the sampling and the filters.
 */
void profiling_line(const struct record_opts *o);
/* start_error() - say what a failed start means, in the user's terms. */
void start_error(struct nl_sock *sock, const char *cmd,
		 const struct session_config *cfg, int err);
/* print_summary() - print the summary of the recording at its end. */
void print_summary(struct recorder *rec);
/*
 * print_warnings() - print on stderr a line for each loss or oddity of the
 * recording: drops, evictions, lost events, records left out, failed
 * commands outside the sample, and a summary lost for want of memory.
 */
void print_warnings(const struct recorder *rec,
		    const struct session_stats *st, bool have_stats);

/* record_machine.c */
/*
 * dev_encode() - encode a device number as the kernel's new_encode_dev()
 * does, which is how ntprof_record.dev carries it.
 */
uint32_t dev_encode(unsigned int maj, unsigned int min);
/*
 * diskstats_find() - find a block device's number by its name in
 * /proc/diskstats. It returns 0 or -errno.
 */
int diskstats_find(const char *name, unsigned int *maj, unsigned int *min);
/*
 * devs_gather() - build the header's table of @role's devices in *@tab,
 * and return its length.
 */
size_t devs_gather(uint32_t role, struct ntp_dev **tab);
/* devs_find() - return @dev's name in @tab, or NULL. */
const char *devs_find(const struct ntp_dev *tab, size_t n, uint32_t dev);
/* dev_lookup() - look up @dev's name now; "" if it has none. */
void dev_lookup(uint32_t role, uint32_t dev, char *buf, size_t size);
/*
 * ctrls_gather() - build the header's controller table of @role in *@tab,
 * and return its length.
 */
size_t ctrls_gather(uint32_t role, struct ntp_ctrl **tab);
/*
 * ctrl_id_moved() - tell whether a host's controller now has an id other
 * than @c's.
 */
bool ctrl_id_moved(const struct ntp_ctrl *c, int *fd);
/* ctrl_id_fds_free() - close the @n descriptors of @fds and free them. */
void ctrl_id_fds_free(int *fds, size_t n);
/*
 * ctrls_hostnqns() - return --prom's host NQN for each of the @n entries
 * of @tab: on a host, its own (a controller's hostnqn); on a target, the
 * host that its subsystem allows, when it allows only one; "" when
 * unknown. It returns NULL when @n is 0 or memory is short.
 */
prom_nqn *ctrls_hostnqns(uint32_t role, const struct ntp_ctrl *tab, size_t n);

#endif /* NTPROF_RECORD_H */
