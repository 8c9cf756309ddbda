/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ntpgen --chain: the machines of a kernel chain, their recordings and
 * the truth file, shared by ntpgen_chain.c (the commands) and
 * ntpgen_chain_files.c (the machines and what goes into their files).
 *
 * The origin host sends to a middle, which exports a raid1 of its legs
 * (md over NVMe-oF: writes to every leg, reads to one) and records both
 * roles, as two recordings on one clock; each leg is a replica machine
 * recording its target side. With --hops 3, leg 0's replica is itself a
 * middle with --legs legs of its own.
 */
#ifndef NTPGEN_CHAIN_H
#define NTPGEN_CHAIN_H

#include "ntpgen.h"

/* The origin, the middle, its legs, and leg 0's legs (--hops 3). */
#define CHAIN_MAX_MACHINES	(2 + 2 * CHAIN_MAX_LEGS)
#define CHAIN_MAX_RECS		(2 * CHAIN_MAX_MACHINES)
/* The most parts a middle splits a command into (--split-pct). */
#define CHAIN_MAX_PARTS		4

struct chain_machine;

/* One recording: one session of 'ntprof record' on one machine. */
struct chain_rec {
	char name[32];		/* the file's name without ".ntp" */
	char *path;
	uint8_t role;
	/* The chain rule's offset: its LBAs minus the volume's. */
	uint64_t offset;
	struct chain_machine *m;
	struct ntp_writer *w;
	struct ntprof_record *buf;
	size_t n;
	uint64_t records;
};

/*
 * A middle's controller to one leg: its tags per queue (the true time
 * each is busy until, and its generation), and the ends of the commands
 * in flight on it, a min-heap, for --read-policy least-busy.
 */
struct chain_leg {
	uint32_t ntags;
	uint64_t *busy;
	uint8_t *gen;
	uint64_t *inflight;
	size_t nin, cap;
};

struct chain_machine {
	char name[16];		/* "host", "middle", "leg0", "leg0.1" */
	char hostname[NTP_HOSTNAME_MAX + 1];
	unsigned int index;	/* 0: the origin, whose clock is true time */
	int64_t theta_ns;
	double drift_ppm;
	/* Its target's LBAs minus the volume's. */
	uint64_t offset;
	/* A replica's drive takes this more (--slow-leg). */
	double slow_us;
	double slow_from_s;	/* from this long after the first command */
	struct chain_rec *target;	/* NULL on the origin */
	struct chain_rec *host;		/* the origin's and the middles' */
	/*
	 * --one-replica: the leg this replica serves on the machine that
	 * holds every leg's (its subsystem and its drive, nullbN).
	 */
	unsigned int replica_of;
	unsigned int nlegs;		/* 0: a replica, which stores */
	struct chain_machine *legs[CHAIN_MAX_LEGS];
	struct chain_leg leg[CHAIN_MAX_LEGS];
	unsigned int next_read;		/* --read-policy alternate */
	unsigned int unlinked_seq;	/* resync, then superblock, ... */
};

struct chain {
	struct chain_machine machines[CHAIN_MAX_MACHINES];
	unsigned int nmachines;
	struct chain_rec recs[CHAIN_MAX_RECS];
	unsigned int nrecs;
	FILE *truth;
	char *truth_path;
	uint64_t hop_rows, link_rows, unlinked_rows;
};

/* A recorded command's key in the truth file. */
struct chain_key {
	const struct chain_rec *r;	/* NULL: not recorded */
	uint16_t qid, cid;
	uint64_t ts;		/* its first point, on its machine's clock */
	uint64_t idx;		/* its number in its file, from 0 */
};

uint64_t chain_clock(const struct gen *g, const struct chain_machine *m,
		     uint64_t t);
void chain_truth_row(struct gen *g, const char *kind,
		     const struct chain_key *from, const struct chain_key *to,
		     unsigned int leg, unsigned int part, unsigned int parts,
		     bool critical, const char *what);

#endif /* NTPGEN_CHAIN_H */
