/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ntpgen's rooms share this: the options, the generator's state and what
 * each room offers the others. ntpgen.c tells what the tool does.
 *
 *   ntpgen.c           main: options -> generate -> write
 *   ntpgen_opts.c      usage and the command line
 *   ntpgen_parse.c     numbers, durations and sizes of the command line
 *   ntpgen_rng.c       the random numbers, the same for the same seed
 *   ntpgen_workload.c  the closed loop: slots issuing command after command
 *   ntpgen_model.c     one command: its path, who records it, its stages
 *   ntpgen_files.c     what goes into the files: headers, records, expect
 *   ntpgen_chain.c     --chain: a command through a middle to its legs
 *   ntpgen_chain_files.c  --chain: the machines, their files, the truth
 */
#ifndef NTPGEN_H
#define NTPGEN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ntp/ntp.h"

#define NSEC_PER_USEC	1000ULL

#define OP_WRITE	0x01
#define OP_READ		0x02

/* The stages of Documentation/stages.rst whose means the options set. */
enum {
	ST_HOST_BLK,
	ST_HOST_DRV,
	ST_NETWORK,
	ST_TGT_DRV,
	ST_STORAGE,
	ST_E2E,

	ST_COUNT
};

struct opts {
	uint64_t commands;
	uint8_t transport;
	uint32_t sample;
	uint32_t target_sample;	/* 0 until parsed: then the host's */
	int64_t theta_ns;
	double drift_ppm;
	int64_t real_skew_ns;
	/* --linger: the recordings go on after the last command. */
	int64_t linger_ns;
	uint32_t queues;
	uint32_t qdepth;
	bool genctr;
	double read_pct;
	double large_pct;
	uint64_t span;
	uint32_t lba_size;
	uint64_t seed;
	double stage_us[ST_STORAGE + 1];
	/* A large write's data transfer, in the network stage. */
	double data_us;
	/* --target-blk-us: storage's target block layer; < 0: a fifth of it. */
	double target_blk_us;
	double jitter;
	/* --slow-queue Q:US: the drive takes US more on queue Q (0: none). */
	uint64_t slow_qid;
	double slow_us;
	/* --slow-from SECS:US: the drive takes US more from SECS on. */
	double slow_from_s;
	double slow_from_us;
	/* --failed-pct P: of the host's unsampled commands, % that fail. */
	double failed_pct;
	/* --aborted-pct P: of the host's sampled commands, % tried twice. */
	double aborted_pct;
	/* --paths N: controllers the host reaches the namespace through. */
	uint32_t paths;
	double gap_us;
	double no_target_pct;
	double no_host_pct;
	double stale_recv_pct;
	/* --passthru-pct P: % of commands that are NVMe passthrough. */
	double passthru_pct;
	uint32_t nr_cpus;
	bool hooks;
	bool no_trailer;
	/* --hostile-strings: control bytes and non-UTF-8 in the strings */
	bool hostile;
	/* --format: the .ntp version written */
	unsigned int format_major;
	unsigned int format_minor;
	bool quiet;
	const char *expect;
	/* --host-dev: the name of the host's namespace in its device table. */
	const char *host_dev;
	const char *hostname;	/* the host's header's; NULL: ntpgen-host */
	const char *host_path;
	const char *target_path;
	/* --chain DIR: a chain's recordings (ntpgen_chain.c) into chain_dir. */
	bool chain;
	const char *chain_dir;
	bool chain_rule;	/* false: --no-chain-rule */
	uint32_t hops;
	uint32_t legs;
	uint64_t leg_offset;	/* md's data_offset, in LBAs */
	int32_t slow_leg;	/* -1: none */
	double slow_leg_us;
	/* --slow-leg L:US:SECS: from SECS after the first command on. */
	double slow_leg_from_s;
	double split_pct;
	double unlinked_pct;
	double middle_us;
	bool read_alternate;	/* else least-busy */
	bool one_replica;	/* every leg's replica on one machine */
	int64_t theta_step_ns;
};

/* Random numbers: xoshiro256**, seeded by splitmix64. */
struct rng {
	uint64_t s[4];
};

/* The kernel's new_encode_dev(). */
#define ENCODE_DEV(major, minor) \
	(((minor) & 0xffU) | ((major) << 8) | (((minor) & ~0xffU) << 12))

#define HOST_DEV	ENCODE_DEV(259U, 0U)	/* nvme1n1 */
/* With --paths: path disk nvme1cIn1, through controller nvme(I + 1). */
#define HOST_PATH_DEV(i)	ENCODE_DEV(259U, 1U + (i))
#define MAX_PATHS	8
#define TARGET_DEV	ENCODE_DEV(252U, 0U)	/* nullb0 */
#define NSID		1

/* The workload's slots, in a min-heap by the time each next issues. */
struct chain;
struct chain_rec;

struct slot {
	uint64_t next;		/* true time (host clock) of its next start */
	uint16_t qid;
	uint16_t tag;
	uint8_t gen;		/* Linux's 4-bit generation counter */
};

/* Sums of the stages of one group of commands, from the written records. */
struct acc {
	uint8_t op;
	uint32_t length;
	uint64_t n;
	int64_t sum[ST_COUNT];
};

#define NR_GROUPS	4	/* read/write x 4 KiB/128 KiB */

struct gen {
	const struct opts *o;
	struct rng rng;
	uint64_t t0;		/* host start, CLOCK_MONOTONIC */
	uint64_t real0;		/* the same instant, CLOCK_REALTIME */
	struct ntp_writer *hw;
	struct ntp_writer *tw;
	struct ntprof_record *hbuf;
	struct ntprof_record *tbuf;
	size_t nh, nt;
	uint64_t host_records;
	uint64_t host_passthru;	/* of those, passthrough commands */
	uint64_t target_records;
	uint64_t aborted;	/* --aborted-pct's first attempts */
	uint64_t last_true;	/* the latest host time of any point */
	struct acc groups[NR_GROUPS];
	struct acc all;
	struct acc host_alone;	/* host records without a target one */
	struct chain *chain;	/* --chain's machines and files; else NULL */
};

#define BUF_RECORDS	NTP_BLOCK_RECORDS
/* The most legs of a chain's middle (--legs). */
#define CHAIN_MAX_LEGS	4
/* The most hooks a header gets (ntpgen_files.c's list). */
#define MAX_HOOKS	40

/* ntpgen_opts.c */
int parse_args(int argc, char *argv[], struct opts *o);

/* ntpgen_parse.c: each prints its error, naming the option @what. */
int parse_u64(const char *s, const char *what, uint64_t min, uint64_t max,
	      uint64_t *out);
int parse_u32(const char *s, const char *what, uint32_t min, uint32_t max,
	      uint32_t *out);
int parse_double(const char *s, const char *what, double min, double max,
		 double *out);
int parse_dur(const char *s, const char *what, int64_t *out);
int parse_size(const char *s, const char *what, uint64_t *out);

/* ntpgen_rng.c */
void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
double rng_unit(struct rng *r);

/* ntpgen_workload.c */
int run_workload(struct gen *g, struct slot *heap, uint64_t nslots);

/* What both sides see of a command: what the 1-in-N decision hashes. */
struct cmd_identity {
	bool is_read;
	bool large;
	uint8_t opcode;
	uint32_t length;
	uint32_t nlb;
	uint64_t slba;
	uint16_t qid;
	uint16_t cid;
	bool passthru;		/* built by userspace: no block layer start */
};

/* The parts of each stage, drawn for one command (ns). */
struct cmd_durations {
	uint64_t blk_sub, blk_comp;	/* host block layer */
	uint64_t drv_sub, drv_comp;	/* host driver */
	uint64_t hop_out, hop_back;	/* network: the wire */
	uint64_t host_recv;		/* network: the host's receive path */
	uint64_t tgt_sub, tgt_comp;	/* target driver */
	uint64_t st_blk1, drive, st_blk2;	/* storage */
	uint64_t data;		/* network: a large write's data, else 0 */
};

/* ntpgen_model.c */
uint64_t draw(struct rng *r, double mean_ns, double jitter);
uint64_t host_start(const __u64 *hp);
void draw_identity(struct gen *g, const struct slot *s,
		   struct cmd_identity *c);
void draw_durations(struct gen *g, uint16_t qid,
		    const struct cmd_identity *c, uint64_t start,
		    struct cmd_durations *d);
uint64_t place_submit(const struct cmd_identity *c,
		      const struct cmd_durations *d, bool tcp, uint64_t start,
		      uint64_t *hp, uint64_t *tp);
uint64_t place_storage(const struct cmd_durations *d, uint64_t x,
		       uint64_t *tp);
uint64_t place_complete(const struct cmd_durations *d, bool tcp, uint64_t x,
			uint64_t *hp, uint64_t *tp);
uint64_t to_target(const struct gen *g, uint64_t t);
int command(struct gen *g, const struct slot *s, uint64_t start,
	    uint64_t *end);

/* ntpgen_files.c */
int open_recording(struct gen *g, uint8_t role, uint64_t start_mono_ns,
		   uint64_t start_real_ns, struct ntp_writer **w);
int emit_record(struct gen *g, bool host, const struct ntprof_record *rec);
int flush_records(struct gen *g);
int write_expect(const struct gen *g);
void fill_header(struct ntp_header *hdr, const struct opts *o, uint8_t role,
		 const char *hostname, struct rng *r, struct ntp_hook *hooks);

/* ntpgen_chain.c */
int chain_command(struct gen *g, const struct slot *s, uint64_t start,
		  uint64_t *end);

/* ntpgen_chain_files.c */
int chain_open(struct gen *g);
int chain_emit(struct gen *g, struct chain_rec *r,
	       const struct ntprof_record *rec);
int chain_close(struct gen *g, int ret);

#endif /* NTPGEN_H */
