// SPDX-License-Identifier: GPL-2.0
/*
 * The target's hooks: nvmet's tracepoints, the block layer's on the
 * backing device, and function hooks in nvmet, nvmet_tcp and nvmet_rdma.
 *
 * A command is keyed by its struct nvmet_req, which the transport owns
 * and reuses for the queue's next commands. nvmet_bdev_execute_rw() sets
 * the first bio's ->bi_private to the nvmet_req: the block hooks use it
 * as a key (compared, never dereferenced), so that requests of other
 * users of the block layer just miss the lookup.
 *
 * A record ends when the response leaves: at nvmet_setup_response_pdu()
 * for TCP (or at queue_response when that hook is missing, or when no
 * response PDU follows the data), at nvmet_rdma_send_done() for RDMA (or
 * at queue_response when that hook is missing).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bio.h>
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/kdev_t.h>
#include <linux/nvme.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/smp.h>
#include <linux/timekeeping.h>
#include <rdma/ib_verbs.h>

#include "buffer.h"
#include "clock.h"
#include "follow.h"
#include "hooks.h"
#include "inflight.h"
#include "layout.h"
#include "sample.h"
#include "session_types.h"

/*
 * Private structs of drivers/nvme/target/ are read through their
 * layouts (kmod/layout.h): struct nvmet_req's cmd, cqe and sq, struct
 * nvmet_sq's ctrl, qid and sqhd_disabled, struct nvmet_ctrl's cntlid,
 * struct nvmet_fabrics_ops's type, the nvmet_req in struct nvmet_tcp_cmd
 * and in struct nvmet_rdma_rsp, whose send_cqe and read_cqe are the
 * ib_cqe of its work requests. nvmet_req_init() is (req, cq, sq, ops)
 * before 6.16, (req, sq, ops) since (NTPROF_NVMET_REQ_INIT_OPS).
 */
#define NTPROF_REQ_SQ(req)	ntprof_lf_get(req, NTPROF_LF_NVMET_REQ_SQ, void *)
#define NTPROF_REQ_CMD(req) \
	ntprof_lf_get(req, NTPROF_LF_NVMET_REQ_CMD, struct nvme_command *)
#define NTPROF_TCP_CMD_REQ(cmd)	ntprof_lf_at(cmd, NTPROF_LF_NVMET_TCP_CMD_REQ)

/* What the tracepoint reads a command's transport type through. */
#define NTPROF_TARGET_OPS_FIELDS \
	(NTPROF_LF(NTPROF_LF_NVMET_REQ_OPS) | NTPROF_LF(NTPROF_LF_NVMET_OPS_TYPE))

/*
 * What the function hook on nvmet_req_init()'s entry reads. Where the
 * argument that is the ops is unknown (NTPROF_NVMET_REQ_INIT_OPS), the
 * hook needs the very fields that make it unneeded: it never attaches.
 */
#define NTPROF_TARGET_INIT_ARGS_FIELDS					\
	(NTPROF_NVMET_REQ_INIT_OPS ? NTPROF_LF(NTPROF_LF_NVMET_OPS_TYPE) :	\
	 NTPROF_TARGET_OPS_FIELDS)

/* What a command's queue id, and its controller's id, are read through. */
#define NTPROF_TARGET_QID_FIELDS \
	(NTPROF_LF(NTPROF_LF_NVMET_REQ_SQ) | NTPROF_LF(NTPROF_LF_NVMET_SQ_QID))
#define NTPROF_TARGET_CNTLID_FIELDS					\
	(NTPROF_LF(NTPROF_LF_NVMET_REQ_SQ) |				\
	 NTPROF_LF(NTPROF_LF_NVMET_SQ_CTRL) |				\
	 NTPROF_LF(NTPROF_LF_NVMET_CTRL_CNTLID))

/* The nvmet_req of the nvmet_rdma_rsp whose ib_cqe @field is @cqe. */
static void *ntprof_rdma_rsp_req(struct ib_cqe *cqe,
				 enum ntprof_layout_field field)
{
	return ntprof_lf_at(ntprof_lf_base(cqe, field),
			    NTPROF_LF_NVMET_RDMA_RSP_REQ);
}

/* No NVMF_TRTYPE_*: nothing tells the command's transport. */
#define NTPROF_TRTYPE_UNTOLD	UINT_MAX

/* nvmet_req_init()'s entry to its tracepoint: the transport type. */
struct ntprof_target_init_args {
	void *req;
	unsigned int trtype;
};

static DEFINE_PER_CPU(struct ntprof_target_init_args, ntprof_target_init_args);

/*
 * The transport's receive path to the nvmet_req_init() it calls: an
 * early stamp (kmod/clock.h).
 */
static DEFINE_PER_CPU(u64, ntprof_target_last_rx);

/* A failed command no session follows, from its completion to its queue_response. */
struct ntprof_target_failed {
	void *req;
	struct ntprof_record rec;
};

static DEFINE_PER_CPU(struct ntprof_target_failed, ntprof_target_failed);

/* ntprof_hook_enter() for the target's hooks. */
#define ntprof_target_enter(_hook)	ntprof_hook_enter(_hook, NTPROF_ROLE_TARGET)

static struct ntprof_hook *ntprof_th(enum ntprof_target_hook_id id)
{
	return &ntprof_target_hooks[id];
}

/* The transport of an NVMe-oF transport type; NONE for loop, FC and others. */
static enum ntprof_transport ntprof_transport_of(unsigned int trtype)
{
	switch (trtype) {
	case NVMF_TRTYPE_TCP:
		return NTPROF_TRANSPORT_TCP;
	case NVMF_TRTYPE_RDMA:
		return NTPROF_TRANSPORT_RDMA;
	}
	return NTPROF_TRANSPORT_NONE;
}

/*
 * What nvmet transfers, as it computes it: the length of the command's
 * SGL (fabrics always use SGLs). RDMA sends keyed SGLs, whose length is
 * 24 bits; inline data and TCP use plain ones with 32 bits.
 */
static u32 ntprof_sgl_length(const struct nvme_command *cmd)
{
	const struct nvme_keyed_sgl_desc *ksgl = &cmd->common.dptr.ksgl;

	if (READ_ONCE(ksgl->type) >> 4 == NVME_KEY_SGL_FMT_DATA_DESC)
		return ksgl->length[0] | ksgl->length[1] << 8 |
		       ksgl->length[2] << 16;
	return le32_to_cpu(READ_ONCE(cmd->common.dptr.sgl.length));
}

/*
 * The controller's id, unique on the target (nvmet allocates them from
 * one IDA for all subsystems); 0 before the queue's connect set it.
 */
static u16 ntprof_target_cntlid(void *req)
{
	void *sq, *ctrl;

	/* Optional: without its layout, records have none; joins go without. */
	if (ntprof_layout_missing(NTPROF_TARGET_CNTLID_FIELDS))
		return 0;
	sq = NTPROF_REQ_SQ(req);
	ctrl = sq ? ntprof_lf_get(sq, NTPROF_LF_NVMET_SQ_CTRL, void *) :
		    NULL;
	return ctrl ? ntprof_lf_get(ctrl, NTPROF_LF_NVMET_CTRL_CNTLID, u16) :
		      0;
}

/* @length: ntprof_sgl_length() of the command, which the filter needs first. */
static void ntprof_target_rec_init(struct ntprof_record *rec,
				   enum ntprof_transport transport,
				   const struct ntprof_ident *id,
				   void *req, u32 length)
{
	ntprof_follow_rec_init(rec, NTPROF_ROLE_TARGET, transport, id, length);
	rec->cntlid = ntprof_target_cntlid(req);
}

/* The queue id of a request, 0 (admin) when nvmet has not set it. */
static u16 ntprof_target_qid(void *req)
{
	void *sq = NTPROF_REQ_SQ(req);

	return sq ? ntprof_lf_get(sq, NTPROF_LF_NVMET_SQ_QID, u16) : 0;
}

/*
 * Start the record of a sampled command. This is a separate function
 * from the handlers so that their path for commands that are not sampled
 * does not read the command's identity again (it stays in registers).
 * The record is built in its slot, which belongs to the caller until it
 * is published: not on the stack, which kernels built with
 * INIT_STACK_ALL_ZERO would clear, and never copied.
 */
static noinline void ntprof_target_follow(struct ntprof_session *s,
					  void *req,
					  struct nvme_command *cmd, u16 qid,
					  enum ntprof_transport transport,
					  u64 rx)
{
	struct ntprof_inflight_entry *entry;
	struct ntprof_record *rec;
	struct ntprof_ident id;
	u32 length;
	u64 now;

	ntprof_ident_from_cmd(&id, qid, cmd);
	length = ntprof_sgl_length(cmd);
	if (!ntprof_session_filter(s, id.opcode, length))
		return;
	ntprof_stat_inc(NTPROF_ROLE_TARGET, sampled);
	now = ktime_get_ns();

	/*
	 * An nvmet_req is reused: one still in the table is of a command
	 * the session lost track of (a queue torn down, a response sent
	 * without a response PDU), which the claim reports.
	 */
	entry = ntprof_follow_claim(s->inflight, NTPROF_ROLE_TARGET, req);
	if (!entry)
		return;

	rec = &entry->rec;
	ntprof_target_rec_init(rec, transport, &id, req, length);
	rec->flags = NTPROF_REC_F_SAMPLED;
	rec->ts[NTPROF_PT_TARGET_INIT] = now;
	rec->ts[NTPROF_PT_TARGET_RECV] = ntprof_early_to_ns(rx, now);

	ntprof_follow_publish(entry, req, req);
}

/* nvmet_req_init, once the command parsed: sample it, follow it. */
static void ntprof_target_init(void *data, void *req,
			       struct nvme_command *cmd)
{
	enum ntprof_transport transport;
	struct ntprof_target_init_args *args;
	struct ntprof_session *s;
	unsigned int trtype = 0;
	void *ops;
	u64 rx;
	u16 qid;

	if (!ntprof_target_enter(ntprof_th(NTPROF_TH_INIT)))
		return;
	s = ntprof_hook_session(NTPROF_ROLE_TARGET);

	/*
	 * The command's transport: the type of the ops nvmet_req_init() set
	 * in the nvmet_req, where BTF gives their offsets, else what the
	 * function hook on its entry saw; without either, commands of every
	 * transport are recorded as the session's.
	 */
	if (ntprof_lf_known(NTPROF_LF_NVMET_REQ_OPS) &&
	    ntprof_lf_known(NTPROF_LF_NVMET_OPS_TYPE)) {
		ops = ntprof_lf_get(req, NTPROF_LF_NVMET_REQ_OPS, void *);
		if (ops)
			trtype = ntprof_lf_get(ops, NTPROF_LF_NVMET_OPS_TYPE,
					       unsigned int);
	} else if (ntprof_hook_attached(ntprof_th(NTPROF_TH_INIT_ARGS))) {
		args = this_cpu_ptr(&ntprof_target_init_args);
		if (args->req == req) {
			trtype = args->trtype;
			args->req = NULL;
		}
	} else {
		trtype = NTPROF_TRTYPE_UNTOLD;
	}
	if (trtype == NTPROF_TRTYPE_UNTOLD) {
		transport = s->cfg.transport;
	} else {
		transport = ntprof_transport_of(trtype);
		if (!transport || (s->cfg.transport &&
				   transport != s->cfg.transport))
			return;
	}
	/* Taken even if unused: it belongs to this command only. */
	rx = this_cpu_xchg(ntprof_target_last_rx, 0);

	qid = ntprof_target_qid(req);
	if (!qid || READ_ONCE(cmd->common.opcode) == nvme_fabrics_command)
		return;

	ntprof_stat_inc(NTPROF_ROLE_TARGET, seen);
	if (ntprof_sample_pick_cmd(qid, cmd, s->cfg.sample, s->cfg.chain,
				   s->cfg.chain_offset))
		ntprof_target_follow(s, req, cmd, qid, transport, rx);
}

NTPROF_TP_CALLBACK(ntprof_target_init,
		   ntprof_th(NTPROF_TH_INIT),
		   (void *data, void *req,
		    struct nvme_command *cmd),
		   (data, req, cmd))

/* nvmet_req_init(req, [cq,] sq, ops) entry: which transport calls. */
static void ntprof_target_init_entry(struct ntprof_hook *hook,
				     struct ftrace_regs *fregs)
{
	struct ntprof_target_init_args *args;
	void *ops;

	if (!ntprof_target_enter(hook))
		return;

	ops = (void *)ntprof_fn_arg(fregs, NTPROF_NVMET_REQ_INIT_OPS);
	args = this_cpu_ptr(&ntprof_target_init_args);
	args->req = (void *)ntprof_fn_arg(fregs, 0);
	args->trtype = ops ? ntprof_lf_get(ops, NTPROF_LF_NVMET_OPS_TYPE,
					   unsigned int) : 0;
}

NTPROF_FTRACE_CALLBACK(ntprof_target_init_entry)

/* nvmet_tcp_try_recv_pdu(), nvmet_rdma_recv_done(): a capsule arrives. */
static void ntprof_target_recv(struct ntprof_hook *hook, struct ftrace_regs *fregs)
{
	if (!ntprof_target_enter(hook))
		return;

	__this_cpu_write(ntprof_target_last_rx, ntprof_early_now());
}

NTPROF_FTRACE_CALLBACK(ntprof_target_recv)

static struct ntprof_inflight_entry *
ntprof_target_lookup(struct ntprof_session *s, const void *req)
{
	if (!req || ntprof_inflight_empty(s->inflight))
		return NULL;
	return ntprof_inflight_lookup(s->inflight, req);
}

/* nvmet_{bdev,file}_execute_rw(req): handed to the backing store. */
static void ntprof_target_exec(struct ntprof_session *s,
			       struct ntprof_hook *hook,
			       struct ftrace_regs *fregs)
{
	ntprof_follow_stamp(s->inflight, (void *)ntprof_fn_arg(fregs, 0),
			    NTPROF_PT_TARGET_EXEC);
}

NTPROF_FTRACE_CALLBACK_FOLLOWED(ntprof_target_exec, NTPROF_ROLE_TARGET)

/*
 * nvmet_tcp_build_pdu_iovec(cmd): write data starts to arrive (inline,
 * or the first H2C data PDU); later PDUs of the command keep the first.
 */
static void ntprof_target_tcp_data(struct ntprof_session *s,
				   struct ntprof_hook *hook,
				   struct ftrace_regs *fregs)
{
	void *cmd = (void *)ntprof_fn_arg(fregs, 0);

	ntprof_follow_stamp(s->inflight, NTPROF_TCP_CMD_REQ(cmd),
			    NTPROF_PT_TARGET_DATA);
}

NTPROF_FTRACE_CALLBACK_FOLLOWED(ntprof_target_tcp_data, NTPROF_ROLE_TARGET)

/*
 * nvmet_rdma_read_data_done(cq, wc): the RDMA READ of a write's data
 * completed. The CQ calls it for a work request whose ib_cqe is an
 * nvmet_rdma_rsp's read_cqe, so wc->wr_cqe gives the rsp and its
 * nvmet_req, as nvmet-rdma finds them; the key is only compared.
 */
static void ntprof_target_rdma_data(struct ntprof_session *s,
				    struct ntprof_hook *hook,
				    struct ftrace_regs *fregs)
{
	struct ib_wc *wc = (void *)ntprof_fn_arg(fregs, 1);
	void *req;

	req = ntprof_rdma_rsp_req(READ_ONCE(wc->wr_cqe),
				  NTPROF_LF_NVMET_RDMA_RSP_READ_CQE);
	ntprof_follow_stamp(s->inflight, req, NTPROF_PT_TARGET_DATA);
}

NTPROF_FTRACE_CALLBACK_FOLLOWED(ntprof_target_rdma_data, NTPROF_ROLE_TARGET)

/*
 * nvmet_rdma_execute_command(rsp): the command goes to its execution,
 * or, for a write whose data is still in the host's memory (a keyed SGL,
 * past the inline data), to the RDMA READ that fetches it, posted here:
 * TARGET_R2T, what TCP's R2T is. The READ's completion is TARGET_DATA. A
 * command that found the send queue full waits on nvmet-rdma's list and
 * comes back here: the last stamp is the one of the post.
 */
static void ntprof_target_rdma_read(struct ntprof_session *s,
				    struct ntprof_hook *hook,
				    struct ftrace_regs *fregs)
{
	void *rsp = (void *)ntprof_fn_arg(fregs, 0);
	struct ntprof_inflight_entry *entry;
	struct nvme_command *cmd;
	void *req;
	u8 type;

	req = ntprof_lf_at(rsp, NTPROF_LF_NVMET_RDMA_RSP_REQ);
	entry = ntprof_target_lookup(s, req);
	/* nvmet_rdma_need_data_in(): a write with data, not inline. */
	if (!entry || !(READ_ONCE(entry->rec.opcode) & 1) ||
	    !READ_ONCE(entry->rec.length))
		return;
	cmd = NTPROF_REQ_CMD(req);
	type = cmd ? ntprof_nofault_get(&cmd->common.dptr.ksgl.type, u8) : 0;
	if (type >> 4 == NVME_KEY_SGL_FMT_DATA_DESC)
		ntprof_entry_stamp(entry, NTPROF_PT_TARGET_R2T, ktime_get_ns());
}

NTPROF_FTRACE_CALLBACK_FOLLOWED(ntprof_target_rdma_read, NTPROF_ROLE_TARGET)

/* The nvmet_req of a backing device request, as a key only. */
static const void *ntprof_target_rq_key(struct request *rq)
{
	struct bio *bio = READ_ONCE(rq->bio);

	return bio ? READ_ONCE(bio->bi_private) : NULL;
}

/* block_rq_issue on the backing device: the first request counts. */
static noinline void ntprof_target_blk_issue(struct ntprof_session *s,
					     struct request *rq)
{
	struct ntprof_inflight_entry *entry;

	entry = ntprof_target_lookup(s, ntprof_target_rq_key(rq));
	if (!entry)
		return;
	ntprof_entry_stamp_first(entry, NTPROF_PT_TARGET_BLK_ISSUE,
				 ktime_get_ns());
	if (!READ_ONCE(entry->rec.dev) && ntprof_rq_disk(rq))
		WRITE_ONCE(entry->rec.dev,
			   new_encode_dev(disk_devt(ntprof_rq_disk(rq))));
}

NTPROF_TP_CALLBACK_FOLLOWED(ntprof_target_blk_issue,
			    ntprof_th(NTPROF_TH_BLK_ISSUE), NTPROF_ROLE_TARGET,
			    (void *data, struct request *rq), rq)

/* block_rq_complete on the backing device: the last request counts. */
static noinline void ntprof_target_blk_complete(struct ntprof_session *s,
						struct request *rq)
{
	struct ntprof_inflight_entry *entry;

	entry = ntprof_target_lookup(s, ntprof_target_rq_key(rq));
	if (entry)
		ntprof_entry_stamp(entry, NTPROF_PT_TARGET_BLK_COMPLETE,
				   ktime_get_ns());
}

NTPROF_TP_CALLBACK_FOLLOWED(ntprof_target_blk_complete,
			    ntprof_th(NTPROF_TH_BLK_COMPLETE), NTPROF_ROLE_TARGET,
			    (void *data, struct request *rq, blk_status_t error,
			     unsigned int nr_bytes),
			    rq)

/*
 * A failed command that the session does not follow: kept on this CPU
 * for the queue_response that tells its transport.
 */
static noinline void
ntprof_target_keep_failed(struct ntprof_session *s,
			  void *req, u16 status)
{
	struct ntprof_target_failed *failed = this_cpu_ptr(&ntprof_target_failed);
	struct nvme_command *cmd, copy;
	struct ntprof_ident id;
	u64 now = ktime_get_ns();

	/* Read through an offset: a copy, or nothing if it cannot be read. */
	cmd = NTPROF_REQ_CMD(req);
	if (!cmd || copy_from_kernel_nofault(&copy, cmd, sizeof(copy)))
		return;
	ntprof_ident_from_cmd(&id, ntprof_target_qid(req), &copy);
	if (!id.qid || id.opcode == nvme_fabrics_command)
		return;

	/* The queue_response that emits it tells the transport. */
	ntprof_target_rec_init(&failed->rec, s->cfg.transport, &id, req,
			       ntprof_sgl_length(&copy));
	if (!ntprof_session_filter(s, failed->rec.opcode, failed->rec.length))
		return;
	failed->rec.flags = NTPROF_REC_F_FAILED;
	failed->rec.status = status;
	failed->rec.ts[NTPROF_PT_TARGET_COMPLETE] = now;
	failed->req = req;
}

/* nvmet_req_complete of a command followed, or of one that failed. */
static noinline void ntprof_target_done(struct ntprof_session *s, void *req,
					u16 status)
{
	struct ntprof_inflight_entry *entry;

	entry = ntprof_target_lookup(s, req);
	if (entry) {
		ntprof_entry_stamp(entry, NTPROF_PT_TARGET_COMPLETE,
				   ktime_get_ns());
		ntprof_entry_status(entry, status);
		return;
	}

	if (status)
		ntprof_target_keep_failed(s, req, status);
}

/*
 * nvmet_req_complete: the command is done, its status in the completion
 * entry. A failed command that the session does not follow waits on this
 * CPU for the queue_response that nvmet calls next, which tells whether
 * it is of the session's transport.
 */
static void ntprof_target_complete(void *data, void *req)
{
	struct nvme_completion *cqe;
	struct ntprof_session *s;
	u16 status;

	if (!ntprof_target_enter(ntprof_th(NTPROF_TH_COMPLETE)))
		return;
	s = ntprof_hook_session(NTPROF_ROLE_TARGET);

	/* A failure whose queue_response never came is not this one. */
	__this_cpu_write(ntprof_target_failed.req, NULL);

	cqe = ntprof_lf_get(req, NTPROF_LF_NVMET_REQ_CQE,
			    struct nvme_completion *);
	if (!cqe)
		return;
	status = le16_to_cpu(ntprof_nofault_get(&cqe->status, __le16)) >> 1;
	if (status || !ntprof_inflight_empty(s->inflight))
		ntprof_target_done(s, req, status);
}

NTPROF_TP_CALLBACK(ntprof_target_complete,
		   ntprof_th(NTPROF_TH_COMPLETE),
		   (void *data, void *req),
		   (data, req))

/*
 * Finish a command: emit its record from its slot, with @now at @point
 * (%NTPROF_PT_NONE: no point), and free the slot.
 */
static noinline void ntprof_target_finish(struct ntprof_session *s,
					  struct ntprof_inflight_entry *entry,
					  const void *req, int point, u64 now)
{
	struct ntprof_record *rec = &entry->rec;

	if (!ntprof_inflight_take(s->inflight, entry, req))
		return;
	if (point != NTPROF_PT_NONE)
		rec->ts[point] = now;
	ntprof_follow_end(s->inflight, entry);
}

/*
 * Whether nvmet_tcp sends the data of a read without a response PDU
 * after it: with SQ flow control disabled, the last C2H data PDU carries
 * the success (nvmet_tcp's nvmet_try_send_data()).
 */
static bool ntprof_target_tcp_no_resp_pdu(void *req,
					  struct ntprof_inflight_entry *entry)
{
	struct nvme_command *cmd = NTPROF_REQ_CMD(req);
	void *sq = NTPROF_REQ_SQ(req);

	/* nvme_is_write(), through an offset; a bool member read as a u8. */
	return cmd && !(ntprof_nofault_get(&cmd->common.opcode, u8) & 1) &&
	       READ_ONCE(entry->rec.length) &&
	       !READ_ONCE(entry->rec.status) && sq &&
	       ntprof_lf_get(sq, NTPROF_LF_NVMET_SQ_SQHD_DISABLED, u8);
}

/* queue_response of a command followed, or of a failure kept. */
static noinline void ntprof_target_resp(struct ntprof_session *s,
					struct ntprof_hook *hook, void *req)
{
	struct ntprof_inflight_entry *entry;
	struct ntprof_target_failed *failed;
	u64 now;

	failed = this_cpu_ptr(&ntprof_target_failed);
	if (failed->req == req) {
		failed->req = NULL;
		failed->rec.transport = hook->transport;
		failed->rec.ts[NTPROF_PT_TARGET_QUEUE_RESP] = ktime_get_ns();
		failed->rec.cpu_complete = raw_smp_processor_id();
		ntprof_buffer_emit(&failed->rec);
		return;
	}

	entry = ntprof_target_lookup(s, req);
	if (!entry)
		return;
	now = ktime_get_ns();

	/* With its SEND completion hooked, an RDMA record ends there. */
	if (hook->transport == NTPROF_TRANSPORT_RDMA) {
		if (ntprof_hook_attached(ntprof_th(NTPROF_TH_RDMA_SEND_DONE)))
			ntprof_entry_stamp(entry, NTPROF_PT_TARGET_QUEUE_RESP,
					   now);
		else
			ntprof_target_finish(s, entry, req,
					     NTPROF_PT_TARGET_QUEUE_RESP, now);
		return;
	}

	/* Before completion, nvmet_tcp queues an R2T, not a response. */
	if (!ntprof_entry_ts(entry, NTPROF_PT_TARGET_COMPLETE)) {
		ntprof_entry_stamp_first(entry, NTPROF_PT_TARGET_R2T, now);
		return;
	}

	if (!ntprof_hook_attached(ntprof_th(NTPROF_TH_TCP_SEND)) ||
	    ntprof_target_tcp_no_resp_pdu(req, entry))
		ntprof_target_finish(s, entry, req, NTPROF_PT_TARGET_QUEUE_RESP,
				     now);
	else
		ntprof_entry_stamp(entry, NTPROF_PT_TARGET_QUEUE_RESP, now);
}

/*
 * nvmet_{tcp,rdma}_queue_response(req): the response is queued, or for
 * a TCP write that needs its data, the R2T. Only a command followed, or
 * a failure kept by nvmet_req_complete, has anything to do here.
 */
static void ntprof_target_queue_resp(struct ntprof_hook *hook,
				     struct ftrace_regs *fregs)
{
	void *req = (void *)ntprof_fn_arg(fregs, 0);
	struct ntprof_session *s;

	if (!ntprof_target_enter(hook))
		return;
	s = ntprof_hook_session(NTPROF_ROLE_TARGET);
	if (__this_cpu_read(ntprof_target_failed.req) == req ||
	    !ntprof_inflight_empty(s->inflight))
		ntprof_target_resp(s, hook, req);
}

NTPROF_FTRACE_CALLBACK(ntprof_target_queue_resp)

/* nvmet_setup_response_pdu(cmd): the response PDU is being sent. */
static void ntprof_target_tcp_send(struct ntprof_session *s,
				   struct ntprof_hook *hook,
				   struct ftrace_regs *fregs)
{
	void *cmd = (void *)ntprof_fn_arg(fregs, 0);
	struct ntprof_inflight_entry *entry;
	void *req;

	req = NTPROF_TCP_CMD_REQ(cmd);
	entry = ntprof_target_lookup(s, req);
	if (entry)
		ntprof_target_finish(s, entry, req, NTPROF_PT_TARGET_SEND,
				     ktime_get_ns());
}

NTPROF_FTRACE_CALLBACK_FOLLOWED(ntprof_target_tcp_send, NTPROF_ROLE_TARGET)

/*
 * nvmet_rdma_send_done(cq, wc): the response's SEND completed, and for a
 * read the RDMA WRITE of its data chained before it; the record ends. As
 * for the RDMA READ, wc->wr_cqe is the rsp's send_cqe. The entry runs
 * before nvmet-rdma releases the rsp, whose nvmet_req the next command
 * may then use.
 */
static void ntprof_target_rdma_send_done(struct ntprof_session *s,
					 struct ntprof_hook *hook,
					 struct ftrace_regs *fregs)
{
	struct ib_wc *wc = (void *)ntprof_fn_arg(fregs, 1);
	struct ntprof_inflight_entry *entry;
	void *req;

	req = ntprof_rdma_rsp_req(READ_ONCE(wc->wr_cqe),
				  NTPROF_LF_NVMET_RDMA_RSP_SEND_CQE);
	entry = ntprof_target_lookup(s, req);
	if (!entry)
		return;
	/* A SEND that failed or was flushed leaves no point. */
	ntprof_target_finish(s, entry, req,
			     READ_ONCE(wc->status) == IB_WC_SUCCESS ?
			     NTPROF_PT_TARGET_SEND_DONE : NTPROF_PT_NONE,
			     ktime_get_ns());
}

NTPROF_FTRACE_CALLBACK_FOLLOWED(ntprof_target_rdma_send_done, NTPROF_ROLE_TARGET)

/* The target's hooks. All exist in Debian's 6.1 and 6.12 builds. */
struct ntprof_hook ntprof_target_hooks[NTPROF_NR_TARGET_HOOKS] = {
	[NTPROF_TH_INIT] =
		NTPROF_TRACEPOINT(nvmet_req_init, NTPROF_ROLE_TARGET,
				  NTPROF_TRANSPORT_NONE,
				  NTPROF_PT_TARGET_INIT, true,
				  NTPROF_MOD_NVMET, ntprof_target_init,
				  NTPROF_TARGET_QID_FIELDS),
	[NTPROF_TH_INIT_ARGS] =
		NTPROF_FUNCTION(nvmet_req_init, NTPROF_ROLE_TARGET,
				NTPROF_TRANSPORT_NONE, NTPROF_PT_NONE, false,
				NTPROF_MOD_NVMET, ntprof_target_init_entry,
				NTPROF_TARGET_INIT_ARGS_FIELDS,
				.unneeded = NTPROF_TARGET_OPS_FIELDS),
	[NTPROF_TH_TCP_RECV] =
		NTPROF_FUNCTION(nvmet_tcp_try_recv_pdu, NTPROF_ROLE_TARGET,
				NTPROF_TRANSPORT_TCP, NTPROF_PT_TARGET_RECV,
				false, NTPROF_MOD_NVMET_TCP, ntprof_target_recv,
				0),
	[NTPROF_TH_RDMA_RECV] =
		NTPROF_FUNCTION(nvmet_rdma_recv_done, NTPROF_ROLE_TARGET,
				NTPROF_TRANSPORT_RDMA, NTPROF_PT_TARGET_RECV,
				false, NTPROF_MOD_NVMET_RDMA,
				ntprof_target_recv,
				0),
	[NTPROF_TH_TCP_DATA] =
		NTPROF_FUNCTION(nvmet_tcp_build_pdu_iovec, NTPROF_ROLE_TARGET,
				NTPROF_TRANSPORT_TCP, NTPROF_PT_TARGET_DATA,
				false, NTPROF_MOD_NVMET_TCP,
				ntprof_target_tcp_data,
				NTPROF_LF(NTPROF_LF_NVMET_TCP_CMD_REQ)),
	[NTPROF_TH_BDEV_EXEC] =
		NTPROF_FUNCTION(nvmet_bdev_execute_rw, NTPROF_ROLE_TARGET,
				NTPROF_TRANSPORT_NONE, NTPROF_PT_TARGET_EXEC,
				false, NTPROF_MOD_NVMET, ntprof_target_exec,
				0),
	[NTPROF_TH_FILE_EXEC] =
		NTPROF_FUNCTION(nvmet_file_execute_rw, NTPROF_ROLE_TARGET,
				NTPROF_TRANSPORT_NONE, NTPROF_PT_TARGET_EXEC,
				false, NTPROF_MOD_NVMET, ntprof_target_exec,
				0),
	[NTPROF_TH_BLK_ISSUE] =
		NTPROF_TRACEPOINT(block_rq_issue, NTPROF_ROLE_TARGET,
				  NTPROF_TRANSPORT_NONE,
				  NTPROF_PT_TARGET_BLK_ISSUE, false,
				  NTPROF_MOD_VMLINUX, ntprof_target_blk_issue,
				  0),
	[NTPROF_TH_BLK_COMPLETE] =
		NTPROF_TRACEPOINT(block_rq_complete, NTPROF_ROLE_TARGET,
				  NTPROF_TRANSPORT_NONE,
				  NTPROF_PT_TARGET_BLK_COMPLETE, false,
				  NTPROF_MOD_VMLINUX,
				  ntprof_target_blk_complete,
				  0),
	[NTPROF_TH_COMPLETE] =
		NTPROF_TRACEPOINT(nvmet_req_complete, NTPROF_ROLE_TARGET,
				  NTPROF_TRANSPORT_NONE,
				  NTPROF_PT_TARGET_COMPLETE, true,
				  NTPROF_MOD_NVMET, ntprof_target_complete,
				  NTPROF_TARGET_QID_FIELDS |
				  NTPROF_LF(NTPROF_LF_NVMET_REQ_CQE) |
				  NTPROF_LF(NTPROF_LF_NVMET_REQ_CMD)),
	[NTPROF_TH_TCP_QUEUE_RESP] =
		NTPROF_FUNCTION(nvmet_tcp_queue_response, NTPROF_ROLE_TARGET,
				NTPROF_TRANSPORT_TCP, NTPROF_PT_TARGET_QUEUE_RESP,
				true, NTPROF_MOD_NVMET_TCP,
				ntprof_target_queue_resp,
				NTPROF_LF(NTPROF_LF_NVMET_REQ_SQ) |
				NTPROF_LF(NTPROF_LF_NVMET_REQ_CMD) |
				NTPROF_LF(NTPROF_LF_NVMET_SQ_SQHD_DISABLED)),
	[NTPROF_TH_RDMA_QUEUE_RESP] =
		NTPROF_FUNCTION(nvmet_rdma_queue_response, NTPROF_ROLE_TARGET,
				NTPROF_TRANSPORT_RDMA, NTPROF_PT_TARGET_QUEUE_RESP,
				true, NTPROF_MOD_NVMET_RDMA,
				ntprof_target_queue_resp,
				0),
	[NTPROF_TH_TCP_SEND] =
		NTPROF_FUNCTION(nvmet_setup_response_pdu, NTPROF_ROLE_TARGET,
				NTPROF_TRANSPORT_TCP, NTPROF_PT_TARGET_SEND, false,
				NTPROF_MOD_NVMET_TCP, ntprof_target_tcp_send,
				NTPROF_LF(NTPROF_LF_NVMET_TCP_CMD_REQ)),
	[NTPROF_TH_RDMA_READ] =
		NTPROF_FUNCTION(nvmet_rdma_execute_command, NTPROF_ROLE_TARGET,
				NTPROF_TRANSPORT_RDMA, NTPROF_PT_TARGET_R2T,
				false, NTPROF_MOD_NVMET_RDMA,
				ntprof_target_rdma_read,
				NTPROF_LF(NTPROF_LF_NVMET_RDMA_RSP_REQ) |
				NTPROF_LF(NTPROF_LF_NVMET_REQ_CMD)),
	[NTPROF_TH_RDMA_DATA] =
		NTPROF_FUNCTION(nvmet_rdma_read_data_done, NTPROF_ROLE_TARGET,
				NTPROF_TRANSPORT_RDMA, NTPROF_PT_TARGET_DATA,
				false, NTPROF_MOD_NVMET_RDMA,
				ntprof_target_rdma_data,
				NTPROF_LF(NTPROF_LF_NVMET_RDMA_RSP_READ_CQE) |
				NTPROF_LF(NTPROF_LF_NVMET_RDMA_RSP_REQ)),
	[NTPROF_TH_RDMA_SEND_DONE] =
		NTPROF_FUNCTION(nvmet_rdma_send_done, NTPROF_ROLE_TARGET,
				NTPROF_TRANSPORT_RDMA, NTPROF_PT_TARGET_SEND_DONE,
				false, NTPROF_MOD_NVMET_RDMA,
				ntprof_target_rdma_send_done,
				NTPROF_LF(NTPROF_LF_NVMET_RDMA_RSP_SEND_CQE) |
				NTPROF_LF(NTPROF_LF_NVMET_RDMA_RSP_REQ)),
};
