/* SPDX-License-Identifier: GPL-2.0 */
/*
 * From records to the numbers of a report: each command's components and
 * stages (Documentation/stages.rst), and per group of commands (op, size,
 * device) their means, percentiles, shares and queue depths. 'ntprof
 * record', 'report' and 'compare' share it; table.h prints the result.
 */
#ifndef NTPROF_ANALYSIS_H
#define NTPROF_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uapi/linux/ntprof.h>

#include "analysis/stats.h"

/* What a command did, from its NVMe opcode. */
enum ntprof_opclass {
	NTPROF_OPC_READ,
	NTPROF_OPC_WRITE,
	NTPROF_OPC_OTHER,

	NTPROF_OPC_COUNT
};

/*
 * The components of Documentation/stages.rst, in path order. Two are
 * sub-rows that show a part of the path on their own and are not in any
 * stage: DATA_XFER and HANDOFF. NET_TARGET stands for WIRE and the whole
 * target when only the host was recorded: the host's wait from sending
 * the command to receiving the response.
 */
enum ntprof_comp {
	NTPROF_COMP_HOST_BLK_SUB,	/* HOST_BLK_START -> HOST_QUEUE_RQ */
	NTPROF_COMP_HOST_DRV_SUB,	/* HOST_QUEUE_RQ -> HOST_SEND */
	NTPROF_COMP_WIRE,		/* computed, see ntprof_breakdown() */
	NTPROF_COMP_DATA_XFER,		/* RDMA: TARGET_QUEUE_RESP -> _SEND_DONE */
	NTPROF_COMP_NET_TARGET,		/* host only: HOST_SEND -> HOST_RECV */
	NTPROF_COMP_TGT_DRV_SUB,	/* TARGET_RECV -> TARGET_EXEC, less: */
	NTPROF_COMP_HOST_DATA,		/* write: TARGET_R2T -> the data came */
	NTPROF_COMP_STORAGE_BLK,	/* EXEC -> BLK_ISSUE, BLK_COMPLETE -> COMPLETE */
	NTPROF_COMP_DRIVE,		/* TARGET_BLK_ISSUE -> TARGET_BLK_COMPLETE */
	NTPROF_COMP_TGT_DRV_COMP,	/* TARGET_COMPLETE -> TARGET_END */
	NTPROF_COMP_HOST_RECV,		/* HOST_RECV -> HOST_DRIVER_DONE */
	NTPROF_COMP_HOST_DRV_COMP,	/* HOST_DRIVER_DONE -> HOST_NVME_COMPLETE */
	NTPROF_COMP_HANDOFF,		/* HOST_DRIVER_DONE -> HOST_NVME_COMPLETE */
	NTPROF_COMP_HOST_BLK_COMP,	/* HOST_NVME_COMPLETE -> HOST_BLK_COMPLETE */
	/*
	 * A command that waited through an outage (analysis/attempts.h):
	 * its aborted tries, each from its first point to its last, and
	 * the waits from each aborted try's end to the next try's start.
	 */
	NTPROF_COMP_ABORTED_TRIES,
	NTPROF_COMP_OUTAGE_WAIT,
	NTPROF_COMP_E2E,		/* the first point to the last */

	NTPROF_COMP_COUNT
};

/* The stages, in path order; each is the sum of its components. */
enum ntprof_stage {
	NTPROF_STAGE_HOST_BLK,
	NTPROF_STAGE_HOST_DRV,
	NTPROF_STAGE_NETWORK,
	NTPROF_STAGE_NET_TARGET,	/* host only: network and target */
	NTPROF_STAGE_TGT_DRV,
	NTPROF_STAGE_STORAGE,
	/* Before the try that completed: the tries an outage aborted. */
	NTPROF_STAGE_OUTAGE,

	NTPROF_STAGE_COUNT
};

/* Which sides of a command a breakdown or a group's tables are made of. */
enum ntprof_kind {
	NTPROF_KIND_HOST,	/* a host record alone */
	NTPROF_KIND_TARGET,	/* a target record alone */
	NTPROF_KIND_JOINED,	/* a host record with its target record */
};

/* One command's components and stages, in nanoseconds. */
struct ntprof_breakdown {
	enum ntprof_kind kind;
	/* Bit (1 << comp) set: comp[] holds a value for that component. */
	uint32_t has;
	int64_t comp[NTPROF_COMP_COUNT];
	/*
	 * Bits of the components merged into each one because a point
	 * between them was not recorded (or was dropped, see dropped).
	 */
	uint32_t merged[NTPROF_COMP_COUNT];
	/* The sum of each stage's components; all of them sum to E2E. */
	uint32_t stage_has;
	int64_t stage[NTPROF_STAGE_COUNT];
	/* Points dropped as out of order on their own clock. */
	unsigned int dropped;
	/* The computed wire came out negative (and is kept as it is). */
	bool wire_negative;
};

/*
 * ntprof_breakdown() - split one command into components and stages.
 * Either @host or @target may be NULL (for a side that was not recorded
 * or not matched), but not both. It returns 0, or -EINVAL when the record
 * lacks the points for an end to end: two points on the measuring
 * machine and, for a host record, one point before the send and one
 * after the receive.
 *
 * Each component is the difference of two points of one machine. The
 * wire spans both and is computed as the host's wait minus the target's
 * window, (HOST_RECV - HOST_SEND) - (TARGET_END - TARGET_RECV), so no
 * host time is ever subtracted from a target time.
 *
 * A point that is 0 merges the components on either side of it into the
 * earlier one, which keeps every sum equal to the end to end. The wire is
 * the exception: a missing HOST_SEND, TARGET_RECV, TARGET_END or
 * HOST_RECV makes it fall back to the nearest recorded point, so it is
 * the wire that absorbs its neighbour (HOST_SEND missing over TCP on 6.1:
 * "the host driver's submission merges into the wire"). The same holds
 * for NET_TARGET in a host record alone.
 *
 * Negative intervals: a point earlier than the one before it on the same
 * clock (a hook that fired out of the expected order) is dropped, counted
 * in @dropped, and its neighbours merge as if it were missing, so no
 * same-clock component is ever negative and the sums still hold. The
 * first and last points are kept: if they are out of order the record is
 * unusable. The computed wire can legitimately come out slightly negative
 * (two clocks' rates, a target window stamped a little wide); it is kept
 * signed, so that noise averages out instead of biasing the mean upward
 * as clamping would, and flagged in @wire_negative for the report.
 */
int ntprof_breakdown(const struct ntprof_record *host,
		     const struct ntprof_record *target,
		     struct ntprof_breakdown *bd);

/*
 * ntprof_record_aborted() - tell whether @r is a host's attempt that did
 * not complete. Either nvme_core sent its request back for another try
 * (requeued: a retry, a multipath failover), or the host ended it without
 * a response (with a status that the host made up, such as command
 * aborted by host or host path error, after a reset or a lost
 * connection). The record's points stop where the attempt stopped, and
 * the target's part is not inside them, so such a record is counted
 * separately, never in the stages, and is joined to no target record.
 */
static inline bool ntprof_record_aborted(const struct ntprof_record *r)
{
	return r->role == NTPROF_ROLE_HOST &&
	       ((r->flags & NTPROF_REC_F_REQUEUED) ||
		ntprof_status_host_made(r->status));
}

/*
 * ntprof_record_in_sample() - tell whether @r counts in the numbers of
 * @role's recording, which stand for 1 command in N: whether it is of
 * that role, picked by the sampling, and completed. A failed command is
 * recorded even when sampling passed it over; such a record is counted
 * separately (as a failed command), never in the stages, as an aborted
 * one is (ntprof_record_aborted()).
 */
static inline bool ntprof_record_in_sample(const struct ntprof_record *r,
					   uint32_t role)
{
	return r->role == role && (r->flags & NTPROF_REC_F_SAMPLED) &&
	       !ntprof_record_aborted(r);
}

/*
 * ntprof_record_window() - find the part of a record's path that holds
 * the other machine's part. For a host record, it runs from the last point
 * before the send to the first point after the receive (HOST_SEND to
 * HOST_RECV when both are there). For a target record, it runs from
 * TARGET_INIT (else the first point) to the last point (TARGET_END). The
 * join matches records by these windows. It returns 0, or -EINVAL if the
 * record has no window, as for an aborted host record
 * (ntprof_record_aborted(): the target's part, if any, is not inside its
 * points).
 */
int ntprof_record_window(const struct ntprof_record *r, uint64_t *start,
			 uint64_t *end);

/* A name for a device number, e.g. 259:0 -> "nvme0n1". */
struct ntprof_devname {
	uint32_t dev;		/* new_encode_dev(), as in ntprof_record.dev */
	const char *name;
	uint16_t machine;	/* whose: ntprof_analysis_opts.machines */
};

/*
 * A machine of a run (a boot of a host name): device numbers, CPUs,
 * queues and processes are each machine's own.
 */
struct ntprof_machine {
	const char *hostname;
	const char *label;	/* the hostname, with its boot when two share it */
};

/*
 * A host's path to a namespace: the controller a record's dev (its path
 * disk, nvmeXcYnZ, under native multipath) goes through, from the
 * recording's controller table.
 */
struct ntprof_pathname {
	uint32_t dev;		/* as ntprof_record.dev */
	const char *ctrl;	/* "nvme1" */
	const char *address;	/* "traddr=10.0.0.1,trsvcid=4420" */
	uint16_t machine;	/* whose, as in ntprof_devname */
};

/* What groups are made by (ntprof_analysis_opts.by), beside the side. */
#define NTPROF_BY_OP		(1U << 0)	/* read, write, other */
#define NTPROF_BY_SIZE		(1U << 1)	/* the length in bytes */
#define NTPROF_BY_DEV		(1U << 2)	/* the host's namespace, the backing device */
#define NTPROF_BY_QUEUE		(1U << 3)	/* the queue id */
#define NTPROF_BY_CPU		(1U << 4)	/* the submitting CPU */
#define NTPROF_BY_CCPU		(1U << 5)	/* the completing CPU */
#define NTPROF_BY_PID		(1U << 6)	/* the process, of userspace sites */
#define NTPROF_BY_PATH		(1U << 7)	/* host: the controller; target: cntlid */
#define NTPROF_BY_HOST		(1U << 8)	/* the machine (hostname and boot) */
/*
 * The parts that are one machine's own: grouping by any of them keeps the
 * machines apart, as if NTPROF_BY_HOST were given too.
 */
#define NTPROF_BY_MACHINE	(NTPROF_BY_DEV | NTPROF_BY_QUEUE | \
				 NTPROF_BY_CPU | NTPROF_BY_CCPU | \
				 NTPROF_BY_PID | NTPROF_BY_PATH | NTPROF_BY_HOST)
#define NTPROF_BY_DEFAULT	(NTPROF_BY_OP | NTPROF_BY_SIZE | NTPROF_BY_DEV)

struct ntprof_analysis_opts {
	/* One command in @sample was recorded (>= 1; 0 counts as 1). */
	uint32_t sample;
	/* NTPROF_BY_*; 0: NTPROF_BY_DEFAULT. */
	unsigned int by;
	/* The recording's length; 0: the span of the records' points. */
	uint64_t duration_ns;
	/*
	 * Groups' rates (and so their queue depths) over the span in which
	 * the side's commands ran, from the first one's first point to the
	 * last one's last, rather than over @duration_ns: a recording
	 * outlasts its workload (started before, stopped after), and the
	 * commands were not spread over the time around them.
	 */
	bool rates_over_span;
	/* Device labels of each machine; unlisted ones show as "dev M:m". */
	const struct ntprof_devname *host_devs;
	size_t nr_host_devs;
	const struct ntprof_devname *target_devs;
	size_t nr_target_devs;
	/* The host's paths, for NTPROF_BY_PATH's labels. */
	const struct ntprof_pathname *host_paths;
	size_t nr_host_paths;
	/* Recordings of both transports: groups are labelled with theirs. */
	bool transports;
	/*
	 * The machines of the side the groups are made of, by the index the
	 * records are added with (ntprof_analysis_set_machine()); with more
	 * than one, a group keyed by a machine is labelled with it.
	 */
	const struct ntprof_machine *machines;
	size_t nr_machines;
	/*
	 * Keep the end to end's values only, and of the other components
	 * nothing but the stages' sums: all that record's live table
	 * prints, at a fraction of the cost per record.
	 */
	bool e2e_only;
};

/* What accumulates for one kind of breakdown of a group. */
struct ntprof_acc {
	uint64_t n;
	struct ntprof_vec val[NTPROF_COMP_COUNT];
	int64_t stage_sum[NTPROF_STAGE_COUNT];
	uint32_t stage_has;
	uint32_t merged[NTPROF_COMP_COUNT];
	uint64_t merged_n[NTPROF_COMP_COUNT];
	uint64_t dropped;
	uint64_t wire_negative;
};

/*
 * Commands of one op, size and device, from one side: host records
 * (alone or joined) or, when no host was recorded, target records.
 */
struct ntprof_group {
	bool target_side;
	enum ntprof_opclass op;
	uint32_t length;
	uint32_t dev;		/* new_encode_dev(); with @spdk_ns, the nsid */
	bool spdk_ns;		/* SPDK's namespace, of userspace sites */
	bool passthru;		/* with NTPROF_BY_DEV: passthrough commands */
	unsigned int by;	/* NTPROF_BY_*: the parts it is made by */
	uint16_t qid;		/* with NTPROF_BY_QUEUE, else 0 */
	uint16_t cpu;		/* with NTPROF_BY_CPU, else 0 */
	uint16_t ccpu;		/* with NTPROF_BY_CCPU, else 0 */
	uint32_t pid;		/* with NTPROF_BY_PID, else 0 */
	/* With NTPROF_BY_PATH: host, the path disk's dev; target, cntlid. */
	uint32_t path;
	const char *path_ctrl;	/* host: its controller, or NULL: unknown */
	const char *path_address;
	uint8_t transport;	/* enum ntprof_transport; NONE when unknown */
	uint8_t stacks;		/* NTPROF_STACK_*, of any of its commands */
	/* Keyed by a machine's part (NTPROF_BY_MACHINE): which, else 0. */
	uint16_t machine;
	const char *host;	/* its machine's label, NULL: not keyed */
	char devname[64];
	char label[160];	/* "read 4KiB nvme0n1" */

	uint64_t n;		/* sampled commands of the group */
	uint64_t n_joined;	/* of those, with the target's side */
	uint64_t n_unusable;	/* without the points for an end to end */

	/* Set by ntprof_analysis_finish(). */
	enum ntprof_kind kind;	/* JOINED if any command has both sides */
	uint64_t n_table;	/* the commands the tables are made of */
	double rate;		/* commands/s: n * sample / duration (or span); NAN */
	struct ntprof_stats comp[NTPROF_COMP_COUNT];	/* ns */
	double comp_qd[NTPROF_COMP_COUNT];	/* L, by Little's law */
	uint32_t merged[NTPROF_COMP_COUNT];
	uint64_t merged_n[NTPROF_COMP_COUNT];
	uint32_t stage_has;
	double stage_mean[NTPROF_STAGE_COUNT];	/* ns, over n_table */
	double stage_share[NTPROF_STAGE_COUNT];	/* % of the E2E mean */
	double stage_qd[NTPROF_STAGE_COUNT];	/* average queue depth */
	int largest;		/* enum ntprof_stage, -1: none */
	uint64_t dropped;	/* commands with points dropped */
	uint64_t wire_negative;	/* commands with a negative wire */
	/*
	 * Commands that waited through an outage (more than one try), their
	 * tries, and the control-path episodes that overlapped them
	 * ("loss nvme0", comma-separated; analysis/attempts.c).
	 */
	uint64_t n_outage;
	uint64_t outage_tries;
	char outage_events[96];

	/* Accumulating: [0] joined breakdowns, [1] one side's alone. */
	struct ntprof_acc acc[2];
};

/* The last host device a group was keyed by (analysis_groups.c). */
struct ntprof_host_dev_cache {
	const struct ntprof_devname *map;
	size_t nr;
	uint16_t machine;
	uint32_t dev;
	uint32_t head;
	bool valid;
};

struct ntprof_analysis {
	struct ntprof_analysis_opts opts;
	/* The machine of the records being added (an index of opts.machines). */
	uint16_t machine;
	struct ntprof_host_dev_cache host_dev_cache;
	struct ntprof_group *groups;
	size_t nr_groups;
	size_t cap_groups;
	uint32_t *slots;	/* hash of the groups' keys: index + 1 */
	size_t nr_slots;

	uint64_t nr_host;	/* host records added */
	uint64_t nr_target;	/* target records added without a host one */
	uint64_t nr_joined;	/* host records added with a target one */
	uint64_t nr_unusable;
	/* Per side (0 host, 1 target alone): for throughput and spans. */
	uint64_t ops[2][NTPROF_OPC_COUNT];
	uint64_t bytes[2][NTPROF_OPC_COUNT];
	uint64_t first_ns[2];
	uint64_t last_ns[2];

	/* Set by ntprof_analysis_finish(). */
	bool finished;
	double duration_s;	/* NAN when unknown */
};

/*
 * ntprof_analysis_new() - create an empty analysis, or return NULL when
 * out of memory. The analysis refers to the device maps instead of
 * copying them, so they must outlive it.
 */
struct ntprof_analysis *
ntprof_analysis_new(const struct ntprof_analysis_opts *opts);
void ntprof_analysis_free(struct ntprof_analysis *an);

/*
 * ntprof_analysis_add() - add one command: a host record with its matched
 * target record, a host record alone (@target NULL) or a target record
 * alone (@host NULL). It returns 0 (an unusable record is counted, and is
 * not an error) or -ENOMEM.
 */
int ntprof_analysis_add(struct ntprof_analysis *an,
			const struct ntprof_record *host,
			const struct ntprof_record *target);

struct ntprof_tries;
/*
 * ntprof_analysis_add_tries() - the same for a command whose @host record
 * is its last try, after the aborted ones that @tries sums up
 * (analysis/attempts.h): their time is its outage stage, and its end to
 * end runs from its first try's start. @tries NULL: ntprof_analysis_add().
 */
int ntprof_analysis_add_tries(struct ntprof_analysis *an,
			      const struct ntprof_record *host,
			      const struct ntprof_record *target,
			      const struct ntprof_tries *tries);

/*
 * ntprof_analysis_set_machine() - mark the records added from now on as
 * machine @machine's.
 */
static inline void ntprof_analysis_set_machine(struct ntprof_analysis *an,
					       uint16_t machine)
{
	an->machine = machine;
}

/*
 * ntprof_analysis_add_all() - add a whole recording: every host record,
 * with the target record that @match gives it (ntprof_join(); NULL means
 * none), or, when there are no host records, every target record alone.
 * Target records that no host record matched are not added, because they
 * are commands that the host did not record.
 */
int ntprof_analysis_add_all(struct ntprof_analysis *an,
			    const struct ntprof_record *host, size_t nr_host,
			    const struct ntprof_record *target,
			    size_t nr_target, const uint32_t *match);

/*
 * ntprof_analysis_relabel() - name the groups' devices again, from the
 * maps now in @an->opts. A run streamed through its files learns the
 * devices that its trailers name only at the end. Call it before
 * ntprof_analysis_finish().
 */
void ntprof_analysis_relabel(struct ntprof_analysis *an);

/*
 * ntprof_analysis_finish() - compute every group's numbers, free the
 * samples, and sort the groups (by side, op, size, device). Nothing can
 * be added afterwards. It returns 0 or -ENOMEM.
 */
int ntprof_analysis_finish(struct ntprof_analysis *an);

/*
 * ntprof_group_merged_into() - return the component that took @comp's time
 * in @g's records, where @comp merged into another one (because its points
 * coincided), or -1 when @comp is not on this path.
 */
int ntprof_group_merged_into(const struct ntprof_group *g, int comp);

/*
 * ntprof_analysis_group_of() - return the group that a command of machine
 * @machine went to: the group of @host's record, or of @target's record
 * when there is no host record; NULL if there is none. The group's tables
 * include the command only if the group's kind is the command's kind
 * (JOINED when the command has both sides).
 */
const struct ntprof_group *
ntprof_analysis_group_of(const struct ntprof_analysis *an, uint16_t machine,
			 const struct ntprof_record *host,
			 const struct ntprof_record *target);

/* Labels. */
/*
 * ntprof_opclass_of() - return a command's class; every admin command
 * (queue 0) is "other".
 */
enum ntprof_opclass ntprof_opclass_of(uint16_t qid, uint8_t opcode);
const char *ntprof_opclass_name(enum ntprof_opclass op);
/*
 * ntprof_size_str() - format @bytes exactly, in the largest unit that
 * divides it: "512B", "4KiB", "1MiB".
 */
const char *ntprof_size_str(uint32_t bytes, char *buf, size_t size);
/*
 * ntprof_dev_str() - return the device's name from @map, or else
 * "dev MAJ:MIN".
 */
const char *ntprof_dev_str(uint32_t dev, const struct ntprof_devname *map,
			   size_t nr, char *buf, size_t size);
/*
 * ntprof_passthru_dev_str() - return the name of a namespace's
 * passthrough commands (NTPROF_REC_F_PASSTHRU): its char device, "ng1n1"
 * for nvme1n1, or else "NAME passthrough".
 */
const char *ntprof_passthru_dev_str(uint32_t dev,
				    const struct ntprof_devname *map,
				    size_t nr, char *buf, size_t size);
/*
 * ntprof_comp_name() - return the --detail name of a component, such as
 * "host driver, submission", for a transport (enum ntprof_transport) and
 * a NTPROF_STACK_* set.
 */
const char *ntprof_comp_name(enum ntprof_comp comp, uint8_t transport,
			     unsigned int stacks);
/*
 * The sides that SPDK ran, in place of the kernel's drivers: their
 * records came from userspace sites (NTPROF_REC_F_USER).
 */
#define NTPROF_STACK_HOST_SPDK		(1U << 0)
#define NTPROF_STACK_TARGET_SPDK	(1U << 1)

/*
 * ntprof_stage_name() - return a stage's name for a transport, kind and
 * NTPROF_STACK_* set: "host driver (nvme-rdma)", "host driver (SPDK)".
 * The network stage of a host record alone is named "host receive path".
 */
const char *ntprof_stage_name(enum ntprof_stage stage, uint8_t transport,
			      enum ntprof_kind kind, unsigned int stacks);
/*
 * ntprof_comp_stage() - return the stage that a component belongs to, or
 * -1 for sub-rows and E2E.
 */
int ntprof_comp_stage(enum ntprof_comp comp);

/*
 * The stages in path order, as tables show them; NET_TARGET, the host's
 * unknown rest, comes last.
 */
extern const enum ntprof_stage ntprof_stage_order[NTPROF_STAGE_COUNT];
/*
 * ntprof_stage_id() - return a stage's key in JSON, CSV and Prometheus:
 * "host_driver", "storage".
 */
const char *ntprof_stage_id(enum ntprof_stage stage);
/*
 * ntprof_comp_id() - return a component's id in JSON and CSV:
 * "host_driver_submission".
 */
const char *ntprof_comp_id(enum ntprof_comp comp);

#endif /* NTPROF_ANALYSIS_H */
