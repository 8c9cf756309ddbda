/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Chains of NVMe-oF hops (Documentation/report.rst, "Chains"): an origin
 * host H sends a command to a middle M (nvmet exporting md raid1), whose
 * own host side sends one command per replica (writes) or one (reads) to
 * the replicas R. Each hop is joined as any host and target are
 * (join.c); on the middle, the upstream target record T is linked to
 * the downstream host records D it caused, on the middle's one clock
 * (chain_link.c), and each origin command is followed down the tree to
 * its leaves (chain.c), its stages taken along the critical path: the
 * leg that completed last.
 *
 * A middle is a machine (hostname and boot id) with both a target and a
 * host recording in the run. Its host records are legs, never origin
 * commands: they form no group of their own.
 */
#ifndef NTPROF_CHAIN_H
#define NTPROF_CHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <uapi/linux/ntprof.h>

#include "analysis/analysis.h"
#include "analysis/stats.h"

struct recording_run;
struct ntprof_chain_detail;

/* No record: an index that links nowhere. */
#define NTPROF_CHAIN_NONE	UINT32_MAX

/* What linking made of one downstream (middle host) record. */
enum ntprof_chain_state {
	NTPROF_CHAIN_LINKED,		/* to exactly one upstream record */
	NTPROF_CHAIN_NO_UPSTREAM,	/* no candidate: resync, metadata */
	NTPROF_CHAIN_AMBIGUOUS,		/* several candidates: not linked */
	/*
	 * Not a candidate for a link at all: not of the sample, aborted,
	 * not a read or a write, or without the points to place it.
	 */
	NTPROF_CHAIN_OUTSIDE,
};

/*
 * One side of a middle for ntprof_chain_link(): a recording's records
 * and the LBAs its chain rule subtracts (ntp_header.chain_offset).
 */
struct ntprof_chain_side {
	const struct ntprof_record *recs;
	size_t n;
	uint64_t chain_offset;
};

/*
 * The links of one middle. Upstream and downstream records are numbered
 * across their sides, in the order the sides were given: the first
 * side's records, then the second's.
 */
struct ntprof_chain_links {
	size_t nr_up;
	size_t nr_down;
	/* Per downstream record: its upstream record, or NTPROF_CHAIN_NONE. */
	uint32_t *up;
	uint8_t *state;		/* enum ntprof_chain_state */
	/*
	 * Per upstream record u: its linked downstream records,
	 * down[first[u]] to down[first[u + 1] - 1], in the order of their
	 * first points.
	 */
	uint32_t *first;	/* nr_up + 1 */
	uint32_t *down;
	uint64_t linked;
	uint64_t split;		/* of the linked, parts of a split */
	uint64_t no_upstream;
	uint64_t ambiguous;
	uint64_t outside;
};

/*
 * ntprof_chain_link() - link each downstream record D to the upstream
 * record T that caused it, both on one machine. T caused D when they have
 * the same op class (read to read; write and write-zeroes to write),
 * D.slba - D's offset == T.slba - T's offset, the same length, and T's
 * execution surrounds D on the one clock: T.ts[TARGET_EXEC] (else
 * TARGET_INIT) <= D's first point, and D's last point <=
 * T.ts[TARGET_COMPLETE] (else T's last point). A D with exactly one such
 * T is linked. A D with no such T has no upstream, and a D with several
 * is ambiguous; both cases are counted, and never linked. A D without
 * such a T is then tried as a part of a split command: it must lie inside
 * exactly one T's range and time, and the other parts that its leg (side
 * and device) got from that T must tile T's range (chain_link.c). The work
 * is sorted, in O(n log n), and takes about 48 bytes per upstream record
 * besides the result. It returns 0, -ENOMEM or -EINVAL (more than
 * NTPROF_CHAIN_NONE - 1 records); the caller frees @l with
 * ntprof_chain_links_free() in any case.
 */
int ntprof_chain_link(const struct ntprof_chain_side *up, size_t nr_up,
		      const struct ntprof_chain_side *down, size_t nr_down,
		      struct ntprof_chain_links *l);
void ntprof_chain_links_free(struct ntprof_chain_links *l);

/* A record of the run: run.files[file].recs[idx]. */
struct ntprof_chain_ref {
	uint32_t file;
	uint32_t idx;		/* NTPROF_CHAIN_NONE: none */
};

/* How deep a chain is followed, and how wide its tree may be. */
#define NTPROF_CHAIN_MAX_HOPS	4
#define NTPROF_CHAIN_MAX_NODES	32

/*
 * One hop of an origin command's tree: a host record and the target
 * record the join gave it. Node 0 is the origin's hop 1; each other
 * node is a downstream record of the middle that its parent's target
 * record is on.
 */
struct ntprof_chain_node {
	struct ntprof_chain_ref host;
	struct ntprof_chain_ref target;	/* idx NTPROF_CHAIN_NONE: unmatched */
	int16_t parent;		/* -1: the origin's */
	uint8_t hop;		/* 1: the origin's hop, 2: the middle's, ... */
	bool critical;		/* on the critical path */
};

/* The stages of a chain past those of enum ntprof_stage. */
#define NTPROF_CHAIN_STAGE_MIDDLE	NTPROF_STAGE_COUNT
#define NTPROF_CHAIN_STAGES		(NTPROF_STAGE_COUNT + 1)

/* A stage on the critical path: of which hop, which stage, how long. */
struct ntprof_chain_stage {
	uint8_t hop;		/* 1, 2, ... */
	uint8_t stage;		/* enum ntprof_stage, or _CHAIN_STAGE_MIDDLE */
	int64_t ns;
};

#define NTPROF_CHAIN_MAX_STAGES	(NTPROF_CHAIN_MAX_HOPS * NTPROF_CHAIN_STAGES)

/* An origin command followed: its tree, and its stages in path order. */
struct ntprof_chain_cmd {
	size_t nr;
	struct ntprof_chain_node node[NTPROF_CHAIN_MAX_NODES];
	bool truncated;		/* more nodes than fit: the rest left out */
	/*
	 * Followed to a leaf along its critical path (every middle on it
	 * linked), with the points for every stage: @stages hold them, and
	 * they sum to @e2e_ns, the origin host record's end to end.
	 */
	bool followed;
	uint8_t hops;		/* hops on the critical path */
	int critical_leaf;	/* the node of the critical path's last hop */
	size_t nr_stages;
	struct ntprof_chain_stage stages[NTPROF_CHAIN_MAX_STAGES];
	int64_t e2e_ns;
};

/*
 * ntprof_chain_present() - tell whether @run holds a chain, that is, a
 * machine recorded both as a target and as a host. If it does, the run's
 * middle host files are legs (recording.leg).
 */
bool ntprof_chain_present(const struct recording_run *run);

/*
 * ntprof_chain_cmd_get() - build the tree and the stages of the origin
 * command run.files[file].recs[idx] (a host record of a host file that is
 * not a leg). It returns 0, or -EINVAL for a record that is not an origin
 * command.
 */
int ntprof_chain_cmd_get(const struct recording_run *run, uint32_t file,
			 uint32_t idx, struct ntprof_chain_cmd *c);

/*
 * ntprof_chain_each() - call @fn with each origin command's tree, file by
 * file in the run's order and record by record. It stops at the first
 * non-zero return of @fn and returns it.
 */
int ntprof_chain_each(const struct recording_run *run,
		      int (*fn)(const struct ntprof_chain_cmd *c, void *arg),
		      void *arg);

/*
 * ntprof_chain_cmd_print() - print one line for an origin command's tree,
 * which a test compares with a generator's truth: each node in tree order
 * (preorder), separated by one space, as "HOP:HOSTPATH#I>TARGETPATH#J",
 * with "-" for an unmatched target and a "*" after a node on the critical
 * path, e.g.
 *   1:h.ntp#7>m-t.ntp#7* 2:m-h.ntp#14>r-t.ntp#14* 2:m-h.ntp#15>r-t.ntp#15
 * Record numbers count from 0 in the order the file holds them.
 */
void ntprof_chain_cmd_print(FILE *f, const struct recording_run *run,
			    const struct ntprof_chain_cmd *c);

/* A middle of a run: a machine with target and host recordings. */
struct ntprof_chain_middle {
	const char *label;		/* its hostname */
	uint32_t *up_files;		/* its target files, of run.files */
	size_t nr_up_files;
	uint32_t *down_files;		/* its host files (legs) */
	size_t nr_down_files;
	/*
	 * false: its files were not recorded with one -s and the chain rule
	 * (a note says which), and nothing of it is linked.
	 */
	bool linked;
	struct ntprof_chain_links links;
};

/* A leg: a replica's device (its target's machine and device). */
struct ntprof_chain_leg_id {
	uint32_t file;			/* the target file, else the host file */
	uint32_t dev;
	char label[160];		/* "r1 nullb0", "m1 nvme2n1 (no target)" */
};

/* What a run's chains are, beside its hops' joins. */
struct ntprof_chain {
	/*
	 * A file recorded with the chain rule: middles are looked for,
	 * links and notes made. false: a run of hops as ever, left as it
	 * was (both roles on one machine are then a hop over loopback).
	 */
	bool active;
	struct ntprof_chain_middle *mid;
	size_t nr_mid;
	/* Per file of the run: its middle, or -1, and its first number. */
	int32_t *file_mid;
	uint32_t *file_base;
	/* The legs met, each once. */
	struct ntprof_chain_leg_id *legs;
	size_t nr_legs;
	/* One-line notes: files not linked, pieces missing. */
	char **notes;
	size_t nr_notes;
	/* The middles' downstream records, summed over the middles. */
	uint64_t down;
	uint64_t linked;
	uint64_t no_upstream;
	uint64_t ambiguous;
	uint64_t outside;
	/* The per-group numbers (chain_stats.c); NULL before. */
	struct ntprof_chain_stats *stats;
	/* --detail: their components (chain_detail.c); NULL without. */
	struct ntprof_chain_detail *detail;
};

/* recording.c's steps. 0, or 1 after a one-line message for @cmd. */
/*
 * ntprof_chain_setup() - once the headers are read, find the middles and
 * mark their host files as legs.
 */
int ntprof_chain_setup(struct recording_run *run, const char *cmd);
/*
 * ntprof_chain_link_run() - once the joins are made, link each middle's
 * records and make the notes.
 */
int ntprof_chain_link_run(struct recording_run *run, const char *cmd);
void ntprof_chain_free(struct recording_run *run);

/*
 * ntprof_chain_leg_of() - return the leg that a downstream record serves,
 * as an index of chain.legs, or -1.
 */
int ntprof_chain_leg_of(const struct recording_run *run,
			const struct ntprof_chain_node *n);
/*
 * ntprof_chain_middle_name() - return a middle's name for its stage:
 * "middle (md0)".
 */
const char *ntprof_chain_middle_name(const struct recording_run *run,
				     const struct ntprof_chain_node *n,
				     char *buf, size_t size);

/* chain_stats.c: per group of origin commands. */
#define NTPROF_CHAIN_MAX_LEGS	16

/* A hop of a group, along its commands' critical paths. */
struct ntprof_chain_hop_stats {
	uint64_t n;		/* commands it followed (a target record) */
	const char *host;	/* the machines (the first command's) */
	const char *target;
	bool several_hosts;
	bool several_targets;
	uint8_t transport;	/* enum ntprof_transport (the first's) */
	bool transports_differ;
	/* Over the group's followed commands; bits of NTPROF_CHAIN_STAGES. */
	uint32_t stage_has;
	double stage_sum[NTPROF_CHAIN_STAGES];	/* ns */
};

/* A leg of a group: one replica device's downstream commands. */
struct ntprof_chain_leg_stats {
	int leg;		/* of ntprof_chain.legs */
	uint8_t hop;		/* the hop it is: 2 for a first middle's */
	uint64_t n;		/* its downstream commands */
	uint64_t critical;	/* on their origin's critical path */
	uint64_t n_stages;	/* with the points for their stages */
	uint8_t transport;
	enum ntprof_kind kind;	/* JOINED: with the replica's side */
	uint32_t stage_has;
	double stage_sum[NTPROF_STAGE_COUNT];	/* ns, its own */
	double e2e_sum;
	/* Critical with other legs: how long past their last completion. */
	uint64_t held_n;
	double held_sum;	/* ns */
};

struct ntprof_chain_group {
	const struct ntprof_group *group;	/* of run.an */
	int leg;		/* --by leg: the critical leg, else -1 */
	uint64_t n;		/* its origin commands, of the sample */
	uint64_t followed;	/* followed to a leaf: the hops' numbers */
	double e2e_sum;		/* ns, of those */
	double e2e_mean;
	uint8_t hops;		/* the most hops a critical path had */
	struct ntprof_chain_hop_stats hop[NTPROF_CHAIN_MAX_HOPS];
	/* The middle at the end of hop i + 1: "middle (md0)". */
	char middle[NTPROF_CHAIN_MAX_HOPS][80];
	size_t nr_legs;
	struct ntprof_chain_leg_stats legs[NTPROF_CHAIN_MAX_LEGS];
	uint64_t legs_dropped;	/* downstream commands of legs past the max */
	struct ntprof_vec e2e;	/* the followed commands' end to end */
};

struct ntprof_chain_stats {
	bool by_leg;
	struct ntprof_chain_group *g;
	size_t nr;
	uint64_t origin;	/* origin commands in the groups */
	uint64_t followed;
};

/*
 * ntprof_chain_stats_make() - compute the groups' chain numbers into
 * run.chain->stats, once: per group of the analysis and, with @by_leg,
 * also per critical leg of its commands. It returns 0 (also when the run
 * holds no chain), or -ENOMEM.
 */
int ntprof_chain_stats_make(struct recording_run *run, bool by_leg);
void ntprof_chain_stats_free(struct ntprof_chain *ch);
/*
 * ntprof_chain_group_find() - return the chain group of an origin
 * command, or NULL when it is in none.
 */
struct ntprof_chain_group *
ntprof_chain_group_find(const struct recording_run *run,
			const struct ntprof_chain_cmd *c);
/*
 * ntprof_chain_stage_mean() - return the mean, in ns, of hop @hop's
 * (0-based) stage @stage over the commands followed.
 */
double ntprof_chain_stage_mean(const struct ntprof_chain_group *cg, int hop,
			       int stage);

#endif /* NTPROF_CHAIN_H */
