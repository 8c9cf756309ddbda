/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ntprof record, in rooms of its own: record.c starts the session and
 * opens the file; record_loop.c drains the kernel's buffers and the
 * agents' rings into it, with the live lines and --prom; record_file.c
 * writes the header, and after the loop the last records, the trailer and
 * the summary; record_print.c prints; record_opts.c reads the command
 * line; record_machine.c reads what the header names of this machine
 * (its block devices, its NVMe-oF controllers); record_spdk.c takes SPDK
 * processes up; lib/sites/chain_md.c finds --chain's offset.
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

/* @id's time now, in ns. */
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
 * The chain's file rewritten once what both recorders took is linked:
 * at a window of the target's --prom, or at the @end.
 */
void record_middle_window(struct record_middle *mid, bool end);
/* ntprof record -r host,target: runs both recorders; the exit status. */
int record_middle_run(struct record_opts *o);
/* FILE's name for @role: "middle.ntp" is "middle-host.ntp". */
int record_role_path(const char *path, uint32_t role, char *buf,
		     size_t size);
/* One recorder from its parsed options (record.c); the exit status. */
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
 * Resolves @o->spdk's sites and sorts its processes into agents and
 * uprobes, setting @o->cfg's sites for the latter. Returns 0, or 1 with
 * the reason printed.
 */
int record_spdk_open(const char *cmd, struct record_opts *o,
		     struct record_spdk *rs);
void record_spdk_close(struct record_spdk *rs);
/* Turns the agents on for @cfg's commands and says who records what. */
void record_spdk_start(struct record_spdk *rs, const struct session_config *cfg);
void record_spdk_stop(struct record_spdk *rs);
/* The agents' heartbeats, then their records to @fn, as a drain. */
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
/* SIGINT, SIGTERM and SIGHUP end the loop; SIGPIPE is ignored. -errno. */
int record_signals_set(void);
/*
 * The recording loop: drain, print, flush, sleep, until -d or a signal.
 * Returns 0, or -errno of what cut it short (already reported).
 */
int record_loop(struct recorder *rec, const char *cmd);
/*
 * The module's control-path events into the file (record_events.c): 0,
 * also for a module that has none, or -errno (a write's is in
 * rec->write_err).
 */
int record_events(struct recorder *rec, struct nl_sock *sock);

/* One drain of the agents and the kernel; *@count: the records taken. */
int record_drain(struct recorder *rec, uint64_t *count);
/* @live: for an interval's line of the live table, not the summary. */
struct ntprof_analysis *record_analysis_new(struct recorder *rec, bool live);
int record_analysis_add(struct ntprof_analysis *an, uint32_t role,
			const struct ntprof_record *r);
/* --prom's file rewritten, with the session's counters @st (NULL: none). */
int record_prom_write(struct prom *p, const struct session_stats *st);
/* Whether @err of a request on @sock says the module went away. */
bool record_module_gone(struct nl_sock *sock, int err);

/* record_file.c */
/*
 * The header; the hooks are the session's as it attached them. Returns
 * the hooks, for free().
 */
struct ntp_hook *record_header(struct recorder *rec, struct ntp_header *hdr);
/*
 * Whether the summary can be made at the end from the file just opened
 * for writing; notes which file that is.
 */
bool record_readback_possible(struct recorder *rec);
/* After the loop: stop, take the rest, close the file, summarize. */
int record_finish(struct recorder *rec, const char *cmd, int err);
/* The session's counters, the kernel's and the agents': true if any. */
bool record_counters(struct recorder *rec, struct session_stats *st);
/*
 * The trailer's tables, devices and hooks found after the start;
 * *@devs and *@hooks are for free(), in any case.
 */
void record_trailer_tables(struct recorder *rec, struct ntp_trailer *tr,
			   struct ntp_dev **devs, struct ntp_hook **hooks);

/* record_rotate.c */
/* FILE.ntp's part @part, FILE.0001.ntp; 0 or -ENAMETOOLONG. */
int rotate_part_path(const char *out, uint32_t part, char *buf, size_t size);
/* With --rotate, @o->out becomes the first part's path. 0 or -errno. */
int record_rotation_init(struct recorder *rec, struct record_opts *o);
void record_rotation_free(struct record_rotation *rot);
/*
 * Once the part reached SIZE, leaves it for the next (between appends:
 * at a block boundary); record_rotation_settle() closes it. 0 or -errno.
 */
int record_rotate_maybe(struct recorder *rec);
/*
 * After a drain: the part left, closed with its trailer, and the oldest
 * beyond --keep removed. 0 or -errno.
 */
int record_rotation_settle(struct recorder *rec);
/* The trailer's losses: the session's, or with --rotate the part's. */
void record_rotation_trailer(struct recorder *rec, struct ntp_trailer *tr,
			     const struct session_stats *st, bool have_stats);
/* The last part's records, as it is closed. */
void record_rotation_last(struct recorder *rec, uint64_t records);
/*
 * The line on stderr that says part @part is closed, whole, at @path:
 * its @records, the losses of its trailer @tr, and the session's
 * counters @st then (NULL: none; before the last part, its losses go to
 * a later part's).
 */
void record_part_line(const struct recorder *rec, uint32_t part,
		      const char *path, uint64_t records,
		      const struct ntp_trailer *tr,
		      const struct session_stats *st);
/* Where the summary's records start: the oldest part kept's start. */
uint64_t record_rotation_start(const struct recorder *rec);

/*
 * record_opts.c: fills @o from the command line. Returns -1 to go on, or
 * the exit status (0 after --help, 2 after a usage error, printed).
 */
int record_parse(int argc, char *argv[], struct record_opts *o);

/* record_print.c: the lines record prints besides the live table. */
void profiling_line(const struct record_opts *o);
void start_error(struct nl_sock *sock, const char *cmd,
		 const struct session_config *cfg, int err);
void print_summary(struct recorder *rec);
void print_warnings(const struct recorder *rec,
		    const struct session_stats *st, bool have_stats);

/* record_machine.c */
/* The kernel's new_encode_dev(), as ntprof_record.dev carries it. */
uint32_t dev_encode(unsigned int maj, unsigned int min);
/* A block device's number by its name, from /proc/diskstats; -errno. */
int diskstats_find(const char *name, unsigned int *maj, unsigned int *min);
/* The header's device table of @role's devices; its length. */
size_t devs_gather(uint32_t role, struct ntp_dev **tab);
/* @dev's name in @tab, or NULL. */
const char *devs_find(const struct ntp_dev *tab, size_t n, uint32_t dev);
/* @dev's name, looked up now: "" if none. */
void dev_lookup(uint32_t role, uint32_t dev, char *buf, size_t size);
/* The header's controller table of @role; its length. */
size_t ctrls_gather(uint32_t role, struct ntp_ctrl **tab);
/* Whether a host's controller has now an id other than @c's. */
bool ctrl_id_moved(const struct ntp_ctrl *c, int *fd);
void ctrl_id_fds_free(int *fds, size_t n);
/*
 * --prom's host NQN of each of the @n entries of @tab: on a host its own
 * (a controller's hostnqn), on a target the host its subsystem allows
 * when it allows one alone; "" unknown. NULL when @n is 0 or no memory.
 */
prom_nqn *ctrls_hostnqns(uint32_t role, const struct ntp_ctrl *tab, size_t n);

#endif /* NTPROF_RECORD_H */
