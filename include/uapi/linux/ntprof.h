/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/*
 * ntprof: the generic-netlink family between the ntprof kernel module and
 * the ntprof tool. Documentation/netlink/specs/ntprof.yaml is the reference.
 */
#ifndef _UAPI_LINUX_NTPROF_H
#define _UAPI_LINUX_NTPROF_H

#include <linux/types.h>

#define NTPROF_FAMILY_NAME	"ntprof"
#define NTPROF_FAMILY_VERSION	2

/*
 * Sampling: one command in N, N from 1 to NTPROF_SAMPLE_MAX; a session
 * started without an N records every command.
 */
#define NTPROF_SAMPLE_MAX	1000000
#define NTPROF_SAMPLE_DEFAULT	1

/* What a session is doing. */
enum ntprof_state {
	NTPROF_STATE_IDLE,
	NTPROF_STATE_RECORDING,
};

/* The side of the fabric a hook or a session belongs to. */
enum ntprof_role {
	NTPROF_ROLE_NONE,
	NTPROF_ROLE_HOST,
	NTPROF_ROLE_TARGET,
};

/* The fabric transport of a module, a hook or a session. */
enum ntprof_transport {
	NTPROF_TRANSPORT_NONE,
	NTPROF_TRANSPORT_TCP,
	NTPROF_TRANSPORT_RDMA,
};

/*
 * The points of a command's path that a record stamps. A record holds the
 * points of one role; a point that was not seen stays 0. The stage model
 * (Documentation/stages.rst) says which point closes which component.
 */
enum ntprof_point {
	/* host */
	NTPROF_PT_HOST_BLK_START,	/* the block layer got the request */
	NTPROF_PT_HOST_QUEUE_RQ,	/* the transport's queue_rq entered */
	NTPROF_PT_HOST_SETUP,		/* nvme_setup_cmd: the command is built */
	NTPROF_PT_HOST_BLK_ISSUE,	/* block_rq_issue: the driver started it */
	NTPROF_PT_HOST_SEND,		/* capsule handed to the socket or NIC */
	NTPROF_PT_HOST_SEND_DONE,	/* RDMA: the capsule's SEND completed */
	NTPROF_PT_HOST_R2T,		/* TCP write: R2T arrived, data follows */
	NTPROF_PT_HOST_RECV,		/* the response reached the driver */
	NTPROF_PT_HOST_DRIVER_DONE,	/* the driver parsed the completion */
	NTPROF_PT_HOST_NVME_COMPLETE,	/* nvme_complete_rq */
	NTPROF_PT_HOST_BLK_COMPLETE,	/* block_rq_complete: the end */
	/* target */
	NTPROF_PT_TARGET_RECV,		/* the capsule reached the driver */
	NTPROF_PT_TARGET_INIT,		/* nvmet_req_init: the command parsed */
	NTPROF_PT_TARGET_R2T,		/* write: R2T queued, RDMA READ posted */
	NTPROF_PT_TARGET_DATA,		/* write data arrived (H2C, RDMA READ) */
	NTPROF_PT_TARGET_EXEC,		/* handed to the backing store */
	NTPROF_PT_TARGET_BLK_ISSUE,	/* backing device: block_rq_issue */
	NTPROF_PT_TARGET_BLK_COMPLETE,	/* backing device: block_rq_complete */
	NTPROF_PT_TARGET_COMPLETE,	/* nvmet_req_complete: storage done */
	NTPROF_PT_TARGET_QUEUE_RESP,	/* the transport queued the response */
	NTPROF_PT_TARGET_SEND,		/* TCP: the response PDU is being sent */
	NTPROF_PT_TARGET_SEND_DONE,	/* RDMA: the response's SEND completed */

	NTPROF_PT_COUNT
};

/*
 * The points that split a stage into components without bounding one
 * (Documentation/stages.rst): a session of NTPROF_HOOK_SET_STAGES
 * attaches no hook that stamps one of these, and its records have the
 * five stages but not the components within them.
 */
#define NTPROF_PT_DETAIL_MASK						\
	((1ULL << NTPROF_PT_HOST_BLK_ISSUE) |				\
	 (1ULL << NTPROF_PT_HOST_SEND_DONE) |				\
	 (1ULL << NTPROF_PT_HOST_R2T) |					\
	 (1ULL << NTPROF_PT_TARGET_BLK_ISSUE) |				\
	 (1ULL << NTPROF_PT_TARGET_BLK_COMPLETE) |			\
	 (1ULL << NTPROF_PT_TARGET_SEND_DONE))

/* Room for points added later without changing the record's size. */
#define NTPROF_RECORD_POINTS	24

/* ntprof_record.flags */
#define NTPROF_REC_F_SAMPLED	(1U << 0)	/* chosen by 1-in-N sampling */
#define NTPROF_REC_F_FAILED	(1U << 1)	/* non-zero NVMe or block status */
#define NTPROF_REC_F_PARTIAL	(1U << 2)	/* evicted or cut by stop */
#define NTPROF_REC_F_USER	(1U << 3)	/* from userspace sites (SPDK) */
#define NTPROF_REC_F_PASSTHRU	(1U << 4)	/* NVMe passthrough: ioctl, io_uring cmd */
/*
 * The host's nvme_core sent the command's request back for another try
 * (a retry on its controller, or a multipath failover of its bios): the
 * record is one attempt, whose status says why; the I/O went on in
 * another command.
 */
#define NTPROF_REC_F_REQUEUED	(1U << 5)

/*
 * Whether an NVMe status (ntprof_record.status) is one a host makes up
 * for a command that got no response: path related, codes 0x70 to 0x7f
 * (Linux's host path error 0x370 and command aborted by host 0x371, on
 * a reset, a lost connection or a path that is not live).
 */
static inline int ntprof_status_host_made(__u16 status)
{
	return (status & 0x7f0) == 0x370;
}

/*
 * One command as one side saw it: its identity, as both sides see it,
 * and CLOCK_MONOTONIC nanoseconds of each point (0: not seen). The module
 * builds it while the command is in flight; what it keeps, sends and what
 * .ntp files store is the compact form below.
 */
struct ntprof_record {
	__u8 role;		/* enum ntprof_role */
	__u8 transport;		/* enum ntprof_transport */
	__u8 opcode;		/* NVMe opcode */
	__u8 flags;		/* NTPROF_REC_F_* */
	__u16 qid;		/* NVMe submission queue id */
	__u16 cid;		/* NVMe command id */
	__u32 nsid;
	__u32 length;		/* bytes of data */
	__u64 slba;
	__u16 status;		/* NVMe status field, 0: success */
	__u16 cntlid;		/* controller id, 0 when unknown */
	__u16 cpu_submit;
	__u16 cpu_complete;
	__u32 dev;		/* host: namespace, target: backing device */
	__u32 pid;		/* userspace sites: the process, else 0 */
	__u64 ts[NTPROF_RECORD_POINTS];
};

/*
 * A record in compact form, as the module's buffers hold it, as records
 * travel in NTPROF_A_RECORDS_DATA (host byte order, packed back to back)
 * and as .ntp 2.0 blocks store them (little-endian): the identity once,
 * then only the points the command has, each as a signed offset from the
 * first. Points are taken in the order of enum ntprof_point, not of time
 * (an RDMA SEND may complete after the response came), hence signed.
 *
 * @points: bit p set: point p was stamped (bits 0 to
 *	NTPROF_RECORD_POINTS - 1); with NTPROF_CREC_WIDE and NTPROF_CREC_PID
 * @t0: the timestamp of the lowest point present; 0 when there is none
 *
 * After the fixed 48 bytes come, for each further point present in
 * increasing order, its timestamp minus @t0 as a __s32 (a __s64 each when
 * NTPROF_CREC_WIDE: an offset beyond +/-2.1 s), then, with NTPROF_CREC_PID,
 * a __u32 pid (userspace sites). Every record is a multiple of 4 bytes:
 * 48 + 4 * (points - 1) for a kernel record, 80 for nine points.
 */
struct ntprof_crec {
	__u8 role;
	__u8 transport;
	__u8 opcode;
	__u8 flags;
	__u16 qid;
	__u16 cid;
	__u32 nsid;
	__u32 length;
	__u64 slba;
	__u16 status;
	__u16 cntlid;
	__u16 cpu_submit;
	__u16 cpu_complete;
	__u32 dev;
	__u32 points;
	__u64 t0;
};

#define NTPROF_CREC_POINTS	((1U << NTPROF_RECORD_POINTS) - 1)
#define NTPROF_CREC_WIDE	(1U << 30)	/* offsets are __s64 */
#define NTPROF_CREC_PID		(1U << 31)	/* a __u32 pid follows */
/* The largest record: every point, wide, and a pid. */
#define NTPROF_CREC_MAX		(sizeof(struct ntprof_crec) + \
				 8 * (NTPROF_RECORD_POINTS - 1) + 4)

/* The size in bytes of the compact record whose fixed part is @c. */
static inline __u32 ntprof_crec_size(const struct ntprof_crec *c)
{
	__u32 n = __builtin_popcount(c->points & NTPROF_CREC_POINTS);

	return sizeof(*c) + (n ? n - 1 : 0) *
		(c->points & NTPROF_CREC_WIDE ? 8 : 4) +
		(c->points & NTPROF_CREC_PID ? 4 : 0);
}

/* A session's filters: NTPROF_A_START_OPS */
#define NTPROF_OP_READ		(1U << 0)
#define NTPROF_OP_WRITE		(1U << 1)
#define NTPROF_OP_OTHER		(1U << 2)

/* How a hook attaches. */
enum ntprof_hook_kind {
	NTPROF_HOOK_TRACEPOINT,	/* a kernel tracepoint, found by name */
	/* an ftrace hook on a kernel function's entry; 1 was named KPROBE */
	NTPROF_HOOK_FUNCTION,
	/* Userspace sites: only .ntp headers name these; the module never does. */
	NTPROF_HOOK_UPROBE,
	NTPROF_HOOK_AGENT,	/* patched by the in-process agent */
};

/* Which of its role's hooks a session attaches: NTPROF_A_START_HOOK_SET. */
enum ntprof_hook_set {
	NTPROF_HOOK_SET_ALL,		/* every one: stages and components */
	NTPROF_HOOK_SET_STAGES,		/* none of NTPROF_PT_DETAIL_MASK's */
};

/* Where a hook stands. */
enum ntprof_hook_state {
	NTPROF_HOOK_MISSING,	/* its function or tracepoint is not there */
	NTPROF_HOOK_AVAILABLE,	/* it could attach now */
	NTPROF_HOOK_ATTACHED,	/* a session has it attached */
};

/* One kernel module of the NVMe-oF stack, nested in a status reply. */
enum {
	NTPROF_A_MODULE_UNSPEC,
	NTPROF_A_MODULE_NAME,		/* string: "nvme_tcp" */
	NTPROF_A_MODULE_ROLE,		/* u32: enum ntprof_role */
	NTPROF_A_MODULE_TRANSPORT,	/* u32: enum ntprof_transport */
	NTPROF_A_MODULE_PRESENT,	/* u32: 1 when loaded */

	__NTPROF_A_MODULE_MAX,
	NTPROF_A_MODULE_MAX = (__NTPROF_A_MODULE_MAX - 1)
};

enum {
	NTPROF_A_STATUS_UNSPEC,
	NTPROF_A_STATUS_VERSION,	/* string: the module's version */
	NTPROF_A_STATUS_STATE,		/* u32: enum ntprof_state */
	NTPROF_A_STATUS_KERNEL_RELEASE,	/* string: uname -r */
	NTPROF_A_STATUS_MODULE,		/* nest, multi-attr: NTPROF_A_MODULE_* */
	NTPROF_A_STATUS_ROLE,		/* u32: the session's role, if any */
	NTPROF_A_STATUS_TRANSPORT,	/* u32: the session's transport */
	NTPROF_A_STATUS_SAMPLE,		/* u32: the session's N */
	NTPROF_A_STATUS_START_MONO,	/* u64: session start, CLOCK_MONOTONIC ns */
	NTPROF_A_STATUS_START_REAL,	/* u64: the same instant, CLOCK_REALTIME ns */
	NTPROF_A_STATUS_PAD,
	/* u64: 1 << enum ntprof_layout_field of the built-in offsets */
	NTPROF_A_STATUS_LAYOUT_BUILTIN,
	/* u32: the process that started the running session, as the asker sees it */
	NTPROF_A_STATUS_OWNER_PID,
	/* u32: 1 when the running session samples by the chain rule */
	NTPROF_A_STATUS_CHAIN,
	/* u64: its LBA offset (NTPROF_A_START_CHAIN_OFFSET) */
	NTPROF_A_STATUS_CHAIN_OFFSET,

	__NTPROF_A_STATUS_MAX,
	NTPROF_A_STATUS_MAX = (__NTPROF_A_STATUS_MAX - 1)
};

/* start: what to record. */
enum {
	NTPROF_A_START_UNSPEC,
	NTPROF_A_START_ROLE,		/* u32, required: host or target */
	NTPROF_A_START_TRANSPORT,	/* u32, required: tcp, rdma, or none for both */
	NTPROF_A_START_SAMPLE,		/* u32: one command in N (NTPROF_SAMPLE_DEFAULT) */
	NTPROF_A_START_DEV,		/* u32: only this dev_t (new encoding) */
	NTPROF_A_START_OPS,		/* u32: NTPROF_OP_* mask, default all */
	NTPROF_A_START_MIN_LEN,		/* u32: only commands of >= bytes */
	NTPROF_A_START_MAX_LEN,		/* u32: only commands of <= bytes */
	NTPROF_A_START_USITE,		/* nest, multi-attr: NTPROF_A_USITE_* */
	NTPROF_A_START_LAYOUT,		/* nest, multi-attr: NTPROF_A_LAYOUT_* */
	/*
	 * u32: userspace sites fire for this process only (its pid in the
	 * sender's pid namespace); without it, for every process that runs
	 * the sites' binaries.
	 */
	NTPROF_A_START_PID,
	/*
	 * u32: the port id of a second socket of the sender's that may
	 * drain the session's records too, from a thread of the process
	 * that started the session only; the starting socket always may.
	 */
	NTPROF_A_START_DRAIN_PORTID,
	/* u32: enum ntprof_hook_set, default all; kernel hooks only */
	NTPROF_A_START_HOOK_SET,
	/*
	 * u32: 1 to sample read, write and write-zeroes commands by the
	 * chain rule (ntprof_chain_hash(), below), 0 (the default) for the
	 * hop rule; kernel hooks only: a session with userspace sites
	 * refuses it.
	 */
	NTPROF_A_START_CHAIN,
	/*
	 * u64: the LBAs the chain rule subtracts from a command's SLBA
	 * (md's data_offset, in the device's LBAs), default 0; only with
	 * NTPROF_A_START_CHAIN 1.
	 */
	NTPROF_A_START_CHAIN_OFFSET,

	__NTPROF_A_START_MAX,
	NTPROF_A_START_MAX = (__NTPROF_A_START_MAX - 1)
};

/*
 * Layouts: where the members of the transports' private structs that the
 * hooks read lie, as the running kernel's BTF says (the tool reads it,
 * /sys/kernel/btf/MODULE). A start request may give each of its role's
 * fields; a field it does not give keeps the module's built-in offset,
 * known for the releases checked (Documentation/stages.rst), or has
 * none, and the hooks that read it stay missing. The module checks that
 * each offset is in range and each size the one it reads.
 */
enum ntprof_layout_field {
	/* Host: nvme_core, nvme_rdma. */
	NTPROF_LF_NVME_REQUEST_CMD,	/* struct nvme_request.cmd, 8 bytes */
	NTPROF_LF_NVME_REQUEST_STATUS,	/* .status, 2 */
	NTPROF_LF_NVME_RDMA_QE_DATA,	/* struct nvme_rdma_qe.data, 8 */
	/* Target: nvmet, nvmet_tcp, nvmet_rdma. */
	NTPROF_LF_NVMET_REQ_CMD,	/* struct nvmet_req.cmd, 8 */
	NTPROF_LF_NVMET_REQ_CQE,	/* .cqe, 8 */
	NTPROF_LF_NVMET_REQ_SQ,		/* .sq, 8 */
	NTPROF_LF_NVMET_SQ_CTRL,	/* struct nvmet_sq.ctrl, 8 */
	NTPROF_LF_NVMET_SQ_QID,		/* .qid, 2 */
	NTPROF_LF_NVMET_SQ_SQHD_DISABLED, /* .sqhd_disabled, 1 */
	NTPROF_LF_NVMET_CTRL_CNTLID,	/* struct nvmet_ctrl.cntlid, 2 */
	NTPROF_LF_NVMET_OPS_TYPE,	/* struct nvmet_fabrics_ops.type, 4 */
	NTPROF_LF_NVMET_TCP_CMD_REQ,	/* struct nvmet_tcp_cmd.req, any */
	NTPROF_LF_NVMET_RDMA_RSP_SEND_CQE, /* struct nvmet_rdma_rsp.send_cqe, 8 */
	NTPROF_LF_NVMET_RDMA_RSP_READ_CQE, /* .read_cqe, 8 */
	NTPROF_LF_NVMET_RDMA_RSP_REQ,	/* .req, any */
	NTPROF_LF_NVMET_REQ_OPS,	/* struct nvmet_req.ops, 8 */

	NTPROF_LF_COUNT
};

/* The host's fields come first. */
#define NTPROF_LF_FIRST_TARGET	NTPROF_LF_NVMET_REQ_CMD

/* One field of a layout, nested in a start request. */
enum {
	NTPROF_A_LAYOUT_UNSPEC,
	NTPROF_A_LAYOUT_FIELD,		/* u32, required: enum ntprof_layout_field */
	NTPROF_A_LAYOUT_OFFSET,		/* u32, required: bytes from the struct's start */
	NTPROF_A_LAYOUT_SIZE,		/* u32, required: the member's bytes */
	NTPROF_A_LAYOUT_STRUCT_SIZE,	/* u32, required: its struct's bytes */

	__NTPROF_A_LAYOUT_MAX,
	NTPROF_A_LAYOUT_MAX = (__NTPROF_A_LAYOUT_MAX - 1)
};

/*
 * Userspace sites: uprobes that a session attaches beside its kernel
 * hooks, for a target or host that runs in a process (SPDK). A site is
 * a file offset in an ELF binary, the point it stamps (one of its
 * session's role) and how it finds its command: fetches, each a chain
 * from a function argument register through up to NTPROF_FETCH_DEREFS_MAX
 * pointer loads (8 bytes each, at a signed offset) to a final read of 1,
 * 2, 4 or 8 bytes at a signed offset, or to the address itself when the
 * fetch has no width. The first site of a command (NTPROF_USITE_F_FIRST,
 * at least one per session: one per out-of-line copy of the function, or
 * per transport of a program that has two) fetches its identity and
 * decides sampling as the kernel hooks do; every site fetches the
 * command's key, a value that names the command while it runs (a pointer
 * to the program's request); a last site (NTPROF_USITE_F_LAST) finishes
 * the record.
 */
#define NTPROF_USITES_MAX	16
#define NTPROF_FETCH_REGS	6	/* x86-64 SysV: di si dx cx r8 r9 */
#define NTPROF_FETCH_DEREFS_MAX	4

/* NTPROF_A_USITE_FLAGS */
#define NTPROF_USITE_F_FIRST	(1U << 0)
#define NTPROF_USITE_F_LAST	(1U << 1)

/* A fetch: where a site reads a value of the program's. */
enum {
	NTPROF_A_FETCH_UNSPEC,
	NTPROF_A_FETCH_REG,		/* u32, required: argument 0 to 5 */
	NTPROF_A_FETCH_DEREF,		/* s32, multi-attr, in order: load a pointer */
	NTPROF_A_FETCH_OFFSET,		/* s32: added after the loads, default 0 */
	NTPROF_A_FETCH_WIDTH,		/* u32: 1, 2, 4 or 8; none: the address */

	__NTPROF_A_FETCH_MAX,
	NTPROF_A_FETCH_MAX = (__NTPROF_A_FETCH_MAX - 1)
};

/* One userspace site, nested in a start request. */
enum {
	NTPROF_A_USITE_UNSPEC,
	NTPROF_A_USITE_PATH,		/* string, required: the ELF binary */
	NTPROF_A_USITE_OFFSET,		/* u64, required: file offset of the probe */
	NTPROF_A_USITE_POINT,		/* u32, required: enum ntprof_point */
	NTPROF_A_USITE_FLAGS,		/* u32: NTPROF_USITE_F_* */
	NTPROF_A_USITE_KEY,		/* nest, required: NTPROF_A_FETCH_* */
	/* The first site only, each optional (0 without it): */
	NTPROF_A_USITE_QID,		/* nest: NTPROF_A_FETCH_*, low 16 bits */
	NTPROF_A_USITE_CID,		/* nest: low 16 bits */
	NTPROF_A_USITE_OPCODE,		/* nest: low 8 bits */
	NTPROF_A_USITE_NSID,		/* nest: low 32 bits */
	NTPROF_A_USITE_SLBA,		/* nest: CDW11:CDW10, 64 bits */
	NTPROF_A_USITE_NLB,		/* nest: CDW12 bits 15:0 */
	NTPROF_A_USITE_LENGTH,		/* nest: bytes of data, low 32 bits */
	/*
	 * The transport of the site's commands, for a session of every
	 * transport (optional, the session's without either): a constant,
	 * or, on a first site of commands of any transport, a fetch of the
	 * command's NVMe-oF transport type (NVMF_TRTYPE_RDMA 1, _TCP 3, low
	 * 8 bits), read for the commands sampled.
	 */
	NTPROF_A_USITE_TRANSPORT,	/* u32: enum ntprof_transport */
	NTPROF_A_USITE_TRTYPE,		/* nest: NTPROF_A_FETCH_* */
	/*
	 * u32, required: a file descriptor, in the sender, open for reading
	 * on the binary (the file whose offsets the sender computed): the
	 * probe goes on that file, whatever NTPROF_A_USITE_PATH names now.
	 */
	NTPROF_A_USITE_FD,

	__NTPROF_A_USITE_MAX,
	NTPROF_A_USITE_MAX = (__NTPROF_A_USITE_MAX - 1)
};

/* One hook, in a probe-get dump. */
enum {
	NTPROF_A_HOOK_UNSPEC,
	NTPROF_A_HOOK_NAME,		/* string: function or tracepoint */
	NTPROF_A_HOOK_KIND,		/* u32: enum ntprof_hook_kind */
	NTPROF_A_HOOK_ROLE,		/* u32: enum ntprof_role */
	NTPROF_A_HOOK_TRANSPORT,	/* u32: NONE for both transports */
	NTPROF_A_HOOK_POINT,		/* u32: enum ntprof_point it stamps */
	NTPROF_A_HOOK_REQUIRED,		/* u32: 1 if recording needs it */
	NTPROF_A_HOOK_STATE,		/* u32: enum ntprof_hook_state */
	NTPROF_A_HOOK_HITS,		/* u64: times it fired this session */
	NTPROF_A_HOOK_PAD,
	/* u64: 1 << enum ntprof_layout_field of each field it reads */
	NTPROF_A_HOOK_FIELDS,
	/* u64: those of them that have no offset now: its state is missing */
	NTPROF_A_HOOK_FIELDS_MISSING,
	/* u32: 1 if it stamps only a point of NTPROF_PT_DETAIL_MASK */
	NTPROF_A_HOOK_DETAIL,

	__NTPROF_A_HOOK_MAX,
	NTPROF_A_HOOK_MAX = (__NTPROF_A_HOOK_MAX - 1)
};

/*
 * Counters of a role's running (or last) session, per CPU in stats-get.
 * The request carries NTPROF_A_STATS_ROLE; each reply echoes it.
 */
enum {
	NTPROF_A_STATS_UNSPEC,
	NTPROF_A_STATS_CPU,		/* u32 */
	NTPROF_A_STATS_RECORDS,		/* u64: records written to the buffer */
	NTPROF_A_STATS_DROPS,		/* u64: records lost, buffer full */
	NTPROF_A_STATS_FILL,		/* u64: records waiting in the buffer */
	NTPROF_A_STATS_SAMPLED,		/* u64: commands sampled */
	NTPROF_A_STATS_SEEN,		/* u64: commands seen */
	NTPROF_A_STATS_EVICTED,		/* u64: in-flight slots lost (table full) */
	NTPROF_A_STATS_PAD,
	NTPROF_A_STATS_ROLE,		/* u32: whose counters; see below */

	__NTPROF_A_STATS_MAX,
	NTPROF_A_STATS_MAX = (__NTPROF_A_STATS_MAX - 1)
};

/*
 * records-get: a dump of the finished records of one role's session.
 *
 * Each role's session has its own buffers and counters. A records-get
 * or stats-get request names the role with NTPROF_A_RECORDS_ROLE or
 * NTPROF_A_STATS_ROLE. Without it, the module picks the only role that
 * has had a session since it was loaded (the host's if none has), and
 * rejects the request with EINVAL if both have: it never mixes them.
 */
enum {
	NTPROF_A_RECORDS_UNSPEC,
	NTPROF_A_RECORDS_DATA,		/* binary: compact records, packed */
	NTPROF_A_RECORDS_ROLE,		/* u32: whose records; see above */

	__NTPROF_A_RECORDS_MAX,
	NTPROF_A_RECORDS_MAX = (__NTPROF_A_RECORDS_MAX - 1)
};

/*
 * Control-path events (events-get): what happened to the controllers
 * while a session recorded, whatever its sampling. Their rate is tiny,
 * and their hooks are off the I/O path.
 */
enum ntprof_event_type {
	NTPROF_EVENT_NONE,
	/*
	 * Host: nvme_change_ctrl_state() was asked to move controller nvmeN
	 * from OLD_STATE (as it was on entry) to NEW_STATE. The kernel
	 * refuses a change its state machine does not allow; the reader
	 * tells which were made (Documentation/stages.rst).
	 */
	NTPROF_EVENT_CTRL_STATE,
	/*
	 * Host: a reset of nvmeN was asked for (nvme reset, sysfs
	 * reset_controller, a driver's reset), as opposed to an error
	 * recovery, which moves the controller to resetting by itself.
	 */
	NTPROF_EVENT_CTRL_RESET,
	/*
	 * Host: an attempt to connect nvmeN began, at the entry of the
	 * transport's setup (nvme_tcp_setup_ctrl(), nvme_rdma_setup_ctrl()):
	 * the first connect, the connect of a reset, or one reconnect
	 * attempt after a lost connection. Its result is what follows: the
	 * controller live, another attempt, or its deletion.
	 */
	NTPROF_EVENT_CTRL_ATTEMPT,
	/*
	 * Target: a controller was created, its admin queue connected
	 * (nvmet_install_queue() for queue 0); CTRL is its controller id.
	 */
	NTPROF_EVENT_TARGET_CTRL_CREATED,
	/* Target: controller CTRL was freed (nvmet_ctrl_free()). */
	NTPROF_EVENT_TARGET_CTRL_FREED,
};

/* The states of a host controller: Linux's enum nvme_ctrl_state. */
enum ntprof_ctrl_state {
	NTPROF_CTRL_NEW,
	NTPROF_CTRL_LIVE,
	NTPROF_CTRL_RESETTING,
	NTPROF_CTRL_CONNECTING,
	NTPROF_CTRL_DELETING,
	NTPROF_CTRL_DELETING_NOIO,
	NTPROF_CTRL_DEAD,
};

/*
 * events-get: a dump that names the role (NTPROF_A_EVENTS_ROLE,
 * required). Its first message counts the events of the role's last
 * session (RECORDED, DROPS: lost to a full buffer); one message per
 * event follows, with TYPE, TIME, CTRL and the states. The events are
 * consumed: a second dump gets only those recorded since.
 */
enum {
	NTPROF_A_EVENTS_UNSPEC,
	NTPROF_A_EVENTS_ROLE,		/* u32, required in the request */
	NTPROF_A_EVENTS_RECORDED,	/* u64: events recorded this session */
	NTPROF_A_EVENTS_DROPS,		/* u64: events lost, buffer full */
	NTPROF_A_EVENTS_TYPE,		/* u32: enum ntprof_event_type */
	NTPROF_A_EVENTS_TIME,		/* u64: CLOCK_MONOTONIC ns */
	NTPROF_A_EVENTS_CTRL,		/* u32: host: N of nvmeN; target: cntlid */
	NTPROF_A_EVENTS_OLD_STATE,	/* u32: enum ntprof_ctrl_state */
	NTPROF_A_EVENTS_NEW_STATE,	/* u32: enum ntprof_ctrl_state */
	NTPROF_A_EVENTS_PAD,

	__NTPROF_A_EVENTS_MAX,
	NTPROF_A_EVENTS_MAX = (__NTPROF_A_EVENTS_MAX - 1)
};

enum {
	NTPROF_CMD_UNSPEC,
	NTPROF_CMD_STATUS_GET,
	NTPROF_CMD_START,		/* do: NTPROF_A_START_* */
	NTPROF_CMD_STOP,		/* do */
	NTPROF_CMD_PROBE_GET,		/* dump: NTPROF_A_HOOK_* per hook */
	NTPROF_CMD_STATS_GET,		/* dump: NTPROF_A_STATS_* per CPU */
	NTPROF_CMD_RECORDS_GET,		/* dump: consumes finished records */
	NTPROF_CMD_EVENTS_GET,		/* dump: consumes control-path events */

	__NTPROF_CMD_MAX,
	NTPROF_CMD_MAX = (__NTPROF_CMD_MAX - 1)
};

/*
 * The 1-in-N sampling decision, part of the interface: a command is
 * recorded when ntprof_sample_hash() % N == 0, on the host and on the
 * target alike, from what both see of it: the queue id and the command
 * as sent (cid with Linux's generation bits; nlb is CDW12 bits 15:0,
 * the 0-based count of LBAs; slba is CDW11:CDW10). Tools that model the
 * module's sampling use the same function. The mix is MurmurHash3's
 * 64-bit finalizer.
 */
static inline __u64 ntprof_fmix64(__u64 x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static inline __u64 ntprof_sample_hash(__u16 qid, __u16 cid, __u8 opcode,
				       __u32 nsid, __u64 slba, __u16 nlb)
{
	__u64 h;

	h = ntprof_fmix64((__u64)qid << 48 | (__u64)cid << 32 |
			  (__u64)opcode << 16 | nlb);
	h = ntprof_fmix64(h ^ slba);
	return ntprof_fmix64(h ^ nsid);
}

/*
 * The chain rule: along a chain of NVMe-oF hops (a host, a middle
 * machine whose target exports md raid1 over its own NVMe-oF legs,
 * replicas), the middle's downstream commands have their own queue,
 * command and namespace ids, and the replicas' LBAs are shifted by md's
 * data offset. What stays the same is the opcode, the NLB and the LBA
 * in the volume's coordinates: the device's SLBA minus a per-device
 * offset. A session of the chain rule records a read, write or
 * write-zeroes command (ntprof_chain_opcode()) when
 * ntprof_chain_hash(opcode, slba - offset, nlb) % N == 0, the
 * subtraction wrapping modulo 2^64 for an LBA below the offset (md's
 * superblock); other opcodes by ntprof_sample_hash(). The mix is the
 * same finalizer.
 */
#define NTPROF_CHAIN_OP_WRITE		0x01
#define NTPROF_CHAIN_OP_READ		0x02
#define NTPROF_CHAIN_OP_WRITE_ZEROES	0x08

static inline int ntprof_chain_opcode(__u8 opcode)
{
	return opcode == NTPROF_CHAIN_OP_WRITE ||
	       opcode == NTPROF_CHAIN_OP_READ ||
	       opcode == NTPROF_CHAIN_OP_WRITE_ZEROES;
}

static inline __u64 ntprof_chain_hash(__u8 opcode, __u64 slba, __u16 nlb)
{
	return ntprof_fmix64(ntprof_fmix64((__u64)opcode << 16 | nlb) ^ slba);
}

#endif /* _UAPI_LINUX_NTPROF_H */
