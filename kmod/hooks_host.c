// SPDX-License-Identifier: GPL-2.0
/*
 * The host's hooks: nvme_core's tracepoints, the block layer's, and
 * function hooks in nvme_tcp and nvme_rdma (and in kernel_sendpage, for the
 * nvme_tcp function that 6.1 inlined, and in blk_execute_rq{,_nowait},
 * for a passthrough request's start where the kernel stamps none).
 *
 * A command is keyed by its struct nvme_command, which the transport
 * owns for the request's lifetime; the block layer's hooks only have the
 * struct request, whose driver data starts with struct nvme_request and
 * so with that pointer. The key is only compared, never dereferenced, so
 * reading it from a request of another driver is harmless: the lookup
 * fails, or finds a slot whose ->obj is another request.
 *
 * The sampling decision is taken in nvme_setup_cmd, where the command is
 * complete (command id included) and the request is still on the CPU
 * that submits it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/kdev_t.h>
#include <linux/mm.h>
#include <linux/nvme-tcp.h>
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
#include "hooks_host_req.h"
#include "hooks_host_slots.h"
#include "inflight.h"
#include "layout.h"
#include "sample.h"
#include "session_types.h"

/* What ntprof_nvme_req() needs, and the hooks that find a request's key. */
#define NTPROF_HOST_NREQ_FIELDS \
	(NTPROF_LF(NTPROF_LF_NVME_REQUEST_CMD) | \
	 NTPROF_LF(NTPROF_LF_NVME_REQUEST_STATUS))

/*
 * nvme_tcp/rdma_queue_rq() to nvme_setup_cmd(), which it calls, and to
 * nvme_complete_rq() when queue_rq fails the request before building
 * its command (a controller that is not live).
 */
struct ntprof_host_queued {
	struct request *rq;
	u64 ts;			/* an early stamp (kmod/clock.h) */
	enum ntprof_transport transport;
	/*
	 * nvme_setup_cmd() ran for the request before: nvme_core sets
	 * RQF_DONTPREP at its first setup, and the block layer clears it
	 * only when the request is freed. So this dispatch is a retry.
	 */
	bool again;
};

static DEFINE_PER_CPU(struct ntprof_host_queued, ntprof_host_queued);

/* The transport's receive path to the completion it parses. */
static DEFINE_PER_CPU(u64, ntprof_host_last_rx);

/* ntprof_hook_enter() for the host's hooks. */
#define ntprof_host_enter(_hook)	ntprof_hook_enter(_hook, NTPROF_ROLE_HOST)

/*
 * Start the record of a sampled command. This is a separate function
 * from the handlers so that their path for commands that are not sampled
 * does not read the command's identity again (it stays in registers).
 * The record is built in its slot, which belongs to the caller until it
 * is published: not on the stack, which kernels built with
 * INIT_STACK_ALL_ZERO would clear, and never copied.
 */
static noinline void ntprof_host_follow(struct ntprof_session *s,
					struct request *rq,
					struct nvme_command *cmd, u16 qid,
					u64 queued_ts, bool again)
{
	struct ntprof_inflight_entry *entry;
	struct ntprof_record *rec;
	struct ntprof_ident id;
	void *nreq;
	u64 now;

	ntprof_ident_from_cmd(&id, qid, cmd);
	if (!ntprof_host_filter(s, rq, id.opcode))
		return;
	ntprof_stat_inc(NTPROF_ROLE_HOST, sampled);
	now = ktime_get_ns();

	entry = ntprof_follow_claim(s->inflight, NTPROF_ROLE_HOST, cmd);
	if (!entry)
		return;

	rec = &entry->rec;
	ntprof_host_rec_init(rec, s, &id, rq);
	rec->flags |= NTPROF_REC_F_SAMPLED;
	rec->ts[NTPROF_PT_HOST_BLK_START] = rq->start_time_ns;
	/*
	 * The kernel stamps passthrough no start on 6.12 (6.1 does, at
	 * allocation): when it went to the block layer, then.
	 */
	if (!rec->ts[NTPROF_PT_HOST_BLK_START] && blk_rq_is_passthrough(rq))
		rec->ts[NTPROF_PT_HOST_BLK_START] = ntprof_host_start_find(rq);
	rec->ts[NTPROF_PT_HOST_SETUP] = now;
	rec->ts[NTPROF_PT_HOST_QUEUE_RQ] = ntprof_early_to_ns(queued_ts, now);
	/*
	 * Clamp the converted queue_rq time so that it is never earlier
	 * than the block-layer start that precedes it.
	 */
	if (rec->ts[NTPROF_PT_HOST_QUEUE_RQ] &&
	    rec->ts[NTPROF_PT_HOST_QUEUE_RQ] < rec->ts[NTPROF_PT_HOST_BLK_START] &&
	    rec->ts[NTPROF_PT_HOST_BLK_START] <= now)
		rec->ts[NTPROF_PT_HOST_QUEUE_RQ] = rec->ts[NTPROF_PT_HOST_BLK_START];
	/*
	 * A retry's request started with its first attempt, which has a
	 * record of its own when sampled: this one starts at its dispatch.
	 */
	if (again && rec->ts[NTPROF_PT_HOST_QUEUE_RQ])
		rec->ts[NTPROF_PT_HOST_BLK_START] = rec->ts[NTPROF_PT_HOST_QUEUE_RQ];

	nreq = ntprof_nvme_req(rq);
	if (nreq && NTPROF_NREQ_CMD(nreq) != cmd)
		ntprof_host_cmd_keep(rq, cmd);
	ntprof_follow_publish(entry, rq, cmd);
}

/*
 * A request dispatched again: the record of its last attempt, still in
 * its slot when nvme_core requeued it after a failed completion (a
 * retry, not a failover: nvme_retry_req()) or queue_rq gave it back,
 * ends as requeued. The block layer did not end it: no BLK_COMPLETE.
 */
static noinline void ntprof_host_requeued(struct ntprof_session *s,
					  struct request *rq)
{
	struct ntprof_inflight_entry *entry;
	struct nvme_command *key;

	entry = ntprof_host_lookup(s, rq, &key);
	if (!entry || !ntprof_inflight_take(s->inflight, entry, key))
		return;
	entry->rec.flags |= NTPROF_REC_F_REQUEUED;
	ntprof_follow_end(s->inflight, entry);
}

/* nvme_setup_cmd: the command is built; sample it, start following it. */
static void ntprof_host_setup(void *data, struct request *rq,
			      struct nvme_command *cmd)
{
	struct ntprof_host_queued *queued;
	struct ntprof_session *s;
	u64 queued_ts = 0;
	bool again = false;
	u16 qid;

	if (!ntprof_host_enter(ntprof_hh(NTPROF_HH_SETUP)))
		return;
	s = ntprof_hook_session(NTPROF_ROLE_HOST);

	queued = this_cpu_ptr(&ntprof_host_queued);
	if (queued->rq == rq) {
		queued_ts = queued->ts;
		again = queued->again;
		queued->rq = NULL;
		ntprof_host_tagset_learn(s, rq->q->tag_set, queued->transport);
	} else if (ntprof_host_transport_known() &&
		   !ntprof_host_tagset_transport(s, rq->q->tag_set)) {
		/*
		 * Not queued by the session's transport; or the submitter
		 * moved to another CPU after queue_rq (a preemptible kernel),
		 * which a controller already seen still tells.
		 */
		return;
	}

	qid = ntprof_host_qid(rq);
	if (!qid || READ_ONCE(cmd->common.opcode) == nvme_fabrics_command)
		return;

	if (unlikely(again))
		ntprof_host_requeued(s, rq);
	ntprof_stat_inc(NTPROF_ROLE_HOST, seen);
	if (ntprof_sample_pick_cmd(qid, cmd, s->cfg.sample, s->cfg.chain,
				   s->cfg.chain_offset))
		ntprof_host_follow(s, rq, cmd, qid, queued_ts, again);
}

NTPROF_TP_CALLBACK(ntprof_host_setup,
		   ntprof_hh(NTPROF_HH_SETUP),
		   (void *data, struct request *rq, struct nvme_command *cmd),
		   (data, rq, cmd))

/* block_rq_issue: the request is handed to the driver (started). */
static noinline void ntprof_host_blk_issue(struct ntprof_session *s,
					   struct request *rq)
{
	struct ntprof_inflight_entry *entry;
	struct nvme_command *key;

	entry = ntprof_host_lookup(s, rq, &key);
	if (entry)
		ntprof_entry_stamp_first(entry, NTPROF_PT_HOST_BLK_ISSUE,
					 ktime_get_ns());
}

NTPROF_TP_CALLBACK_FOLLOWED(ntprof_host_blk_issue,
			    ntprof_hh(NTPROF_HH_BLK_ISSUE), NTPROF_ROLE_HOST,
			    (void *data, struct request *rq), rq)

/*
 * The time the response of a command reached the driver: by queue and
 * command id where the transport keeps it (RDMA), else the last receive
 * on this CPU.
 */
static u64 ntprof_host_rx(struct request *rq,
			  struct ntprof_inflight_entry *entry)
{
	struct blk_mq_hw_ctx *hctx = READ_ONCE(rq->mq_hctx);
	u64 rx = 0;

	if (hctx)
		rx = ntprof_host_rx_find(READ_ONCE(hctx->driver_data),
					 READ_ONCE(entry->rec.cid));
	return rx ? rx : __this_cpu_read(ntprof_host_last_rx);
}

/*
 * blk_mq_complete_request_remote(): the driver parsed the completion.
 * Over TCP it runs on the CPU of the receive path, which stamped the
 * last receive just before; over RDMA the response's arrival is found
 * by queue and command id (ntprof_host_rx_slots).
 */
static void ntprof_host_driver_done(struct ntprof_session *s,
				    struct ntprof_hook *hook,
				    struct ftrace_regs *fregs)
{
	struct request *rq = (void *)ntprof_fn_arg(fregs, 0);
	struct ntprof_inflight_entry *entry;
	struct nvme_command *key;
	u64 now, rx;

	entry = ntprof_host_lookup(s, rq, &key);
	if (!entry)
		return;

	now = ktime_get_ns();
	ntprof_entry_stamp(entry, NTPROF_PT_HOST_DRIVER_DONE, now);
	/*
	 * Cancelled by the host (a reset, a lost connection: the status is
	 * set before the completion): no response came, and the last
	 * receive is another command's.
	 */
	if (ntprof_status_host_made(ntprof_lf_get(ntprof_nvme_req(rq),
						  NTPROF_LF_NVME_REQUEST_STATUS,
						  u16)))
		return;
	/* A receive before the command was built is another's. */
	rx = ntprof_host_rx(rq, entry);
	if (rx && rx <= now &&
	    rx >= ntprof_entry_ts(entry, NTPROF_PT_HOST_SETUP))
		ntprof_entry_stamp(entry, NTPROF_PT_HOST_RECV, rx);
}

NTPROF_FTRACE_CALLBACK_FOLLOWED(ntprof_host_driver_done, NTPROF_ROLE_HOST)

/*
 * The identity of a request that queue_rq failed before building its
 * command (nvme_fail_nonready_command(): its controller is not live, and
 * multipath sends it to another path): the request's op and queue. What
 * its command buffer holds is an earlier command's.
 */
static bool ntprof_host_unbuilt_ident(struct ntprof_ident *id,
				      struct request *rq)
{
	memset(id, 0, sizeof(*id));
	id->qid = ntprof_host_qid(rq);
	switch (req_op(rq)) {
	case REQ_OP_READ:
		id->opcode = nvme_cmd_read;
		return true;
	case REQ_OP_WRITE:
		id->opcode = nvme_cmd_write;
		return true;
	case REQ_OP_FLUSH:
		id->opcode = nvme_cmd_flush;
		return true;
	default:
		return false;
	}
}

/*
 * A failed command that the session does not follow: followed from here
 * to its end, when the block layer ends it (failed, or failed over to
 * another path) or dispatches it again (retried), so that its record
 * says which; recorded at once when no slot is free.
 */
static noinline void ntprof_host_failed(struct ntprof_session *s,
					struct request *rq,
					struct nvme_command *key,
					const struct nvme_command *cmd,
					u16 status)
{
	struct ntprof_host_queued *queued = this_cpu_ptr(&ntprof_host_queued);
	struct ntprof_inflight_entry *entry;
	struct ntprof_record *rec, one;
	struct ntprof_ident id;
	bool reused;

	if (ntprof_host_transport_known() &&
	    !ntprof_host_tagset_transport(s, rq->q->tag_set))
		return;

	if (queued->rq == rq) {
		/* Failed inside queue_rq, before nvme_setup_cmd(). */
		queued->rq = NULL;
		if (!ntprof_host_unbuilt_ident(&id, rq))
			return;
	} else {
		ntprof_ident_from_cmd(&id, ntprof_host_qid(rq), cmd);
	}
	if (!id.qid || id.opcode == nvme_fabrics_command)
		return;
	if (!ntprof_host_filter(s, rq, id.opcode))
		return;

	entry = ntprof_inflight_claim(s->inflight, key, &reused);
	rec = entry ? &entry->rec : &one;
	if (entry && reused) {
		rec->flags |= NTPROF_REC_F_PARTIAL;
		rec->cpu_complete = raw_smp_processor_id();
		ntprof_buffer_emit(rec);
	}
	ntprof_host_rec_init(rec, s, &id, rq);
	rec->flags |= NTPROF_REC_F_FAILED;
	rec->status = status;
	rec->cpu_submit = 0;
	rec->ts[NTPROF_PT_HOST_BLK_START] = rq->start_time_ns;
	rec->ts[NTPROF_PT_HOST_NVME_COMPLETE] = ktime_get_ns();
	if (entry) {
		ntprof_follow_publish(entry, rq, key);
		return;
	}
	rec->cpu_complete = raw_smp_processor_id();
	ntprof_buffer_emit(rec);
}

/* nvme_complete_rq of a command followed, or of one that failed. */
static noinline void ntprof_host_nvme_done(struct ntprof_session *s,
					   struct request *rq, void *nreq,
					   u16 status)
{
	struct ntprof_host_queued *queued = this_cpu_ptr(&ntprof_host_queued);
	struct ntprof_inflight_entry *entry;
	struct nvme_command *key, *cmd, copy;

	/* Failed in queue_rq when dispatched again: the last try ended. */
	if (queued->rq == rq && queued->again)
		ntprof_host_requeued(s, rq);
	entry = ntprof_host_lookup(s, rq, &key);
	if (entry) {
		ntprof_entry_stamp(entry, NTPROF_PT_HOST_NVME_COMPLETE,
				   ktime_get_ns());
		ntprof_entry_status(entry, status);
		return;
	}

	/* Read through an offset: a copy, or nothing if it cannot be read. */
	cmd = status ? NTPROF_NREQ_CMD(nreq) : NULL;
	if (cmd && !copy_from_kernel_nofault(&copy, cmd, sizeof(copy)))
		ntprof_host_failed(s, rq, cmd, &copy, status);
}

/*
 * nvme_complete_rq: nvme_core completes the request, with the NVMe
 * status in nvme_req(rq)->status. A failed command that the session does
 * not follow is recorded here, from what the request still holds.
 */
static void ntprof_host_nvme_complete(void *data, struct request *rq)
{
	struct ntprof_session *s;
	void *nreq;
	u16 status;

	if (!ntprof_host_enter(ntprof_hh(NTPROF_HH_NVME_COMPLETE)))
		return;
	s = ntprof_hook_session(NTPROF_ROLE_HOST);

	nreq = ntprof_nvme_req(rq);
	if (!nreq)
		return;
	status = ntprof_lf_get(nreq, NTPROF_LF_NVME_REQUEST_STATUS, u16);
	if (status || !ntprof_inflight_empty(s->inflight))
		ntprof_host_nvme_done(s, rq, nreq, status);
}

NTPROF_TP_CALLBACK(ntprof_host_nvme_complete,
		   ntprof_hh(NTPROF_HH_NVME_COMPLETE),
		   (void *data, struct request *rq),
		   (data, rq))

/* The last point: the record leaves its slot for the reader. */
static noinline void ntprof_host_finish(struct ntprof_session *s,
					struct ntprof_inflight_entry *entry,
					struct nvme_command *key,
					blk_status_t error)
{
	struct ntprof_record *rec = &entry->rec;
	u64 now = ktime_get_ns();

	if (!ntprof_inflight_take(s->inflight, entry, key))
		return;

	/* The slot is ours: no lookup finds it, no other stamp lands. */
	rec->ts[NTPROF_PT_HOST_BLK_COMPLETE] = now;
	if (error)
		rec->flags |= NTPROF_REC_F_FAILED;
	else if (rec->status)
		/*
		 * A failed completion that the block layer ends without an
		 * error: nvme_failover_req() moved its bios to the
		 * multipath head, to go on in another request.
		 */
		rec->flags |= NTPROF_REC_F_REQUEUED;
	ntprof_follow_end(s->inflight, entry);
}

/* block_rq_complete: the block layer ends the request; the record too. */
static noinline void ntprof_host_blk_complete(struct ntprof_session *s,
					      struct request *rq,
					      blk_status_t error)
{
	struct ntprof_inflight_entry *entry;
	struct nvme_command *key;

	entry = ntprof_host_lookup(s, rq, &key);
	if (entry)
		ntprof_host_finish(s, entry, key, error);
}

NTPROF_TP_CALLBACK_FOLLOWED(ntprof_host_blk_complete,
			    ntprof_hh(NTPROF_HH_BLK_COMPLETE), NTPROF_ROLE_HOST,
			    (void *data, struct request *rq, blk_status_t error,
			     unsigned int nr_bytes),
			    rq, error)

/* nvme_{tcp,rdma}_queue_rq(hctx, bd): remember bd->rq for setup_cmd. */
static void ntprof_host_queue_rq(struct ntprof_hook *hook, struct ftrace_regs *fregs)
{
	const struct blk_mq_queue_data *bd;
	struct ntprof_host_queued *queued;

	if (!ntprof_host_enter(hook))
		return;

	bd = (void *)ntprof_fn_arg(fregs, 1);
	queued = this_cpu_ptr(&ntprof_host_queued);
	queued->rq = bd->rq;
	queued->ts = ntprof_early_now();
	queued->transport = hook->transport;
	/*
	 * A passthrough request has RQF_DONTPREP from its allocation
	 * (nvme_clear_nvme_request()): its first dispatch is no retry.
	 */
	queued->again = (READ_ONCE(bd->rq->rq_flags) & RQF_DONTPREP) &&
			!blk_rq_is_passthrough(bd->rq);
}

NTPROF_FTRACE_CALLBACK(ntprof_host_queue_rq)

/*
 * blk_execute_rq{,_nowait}(rq, ...): a passthrough request goes to the
 * block layer, mapped. Kept for nvme_setup_cmd(), where the kernel
 * stamped the request no start: the sampling decision comes later.
 */
static void ntprof_host_execute(struct ntprof_hook *hook,
				struct ftrace_regs *fregs)
{
	struct request *rq;

	if (!ntprof_host_enter(hook))
		return;

	rq = (void *)ntprof_fn_arg(fregs, NTPROF_EXECUTE_RQ_ARG);
	if (!READ_ONCE(rq->start_time_ns))
		ntprof_host_start_keep(rq, ktime_get_ns());
}

NTPROF_FTRACE_CALLBACK(ntprof_host_execute)

/*
 * nvme_tcp_recv_skb(): data from the target. Only while the session
 * follows a command can a receive be the response of one: a sampled
 * command is in flight from its nvme_setup_cmd, long before its response
 * can come back.
 */
static void ntprof_host_recv(struct ntprof_session *s, struct ntprof_hook *hook,
			     struct ftrace_regs *fregs)
{
	__this_cpu_write(ntprof_host_last_rx, ktime_get_ns());
}

NTPROF_FTRACE_CALLBACK_FOLLOWED(ntprof_host_recv, NTPROF_ROLE_HOST)

/*
 * nvme_rdma_recv_done(cq, wc): a response arrived. The CQ calls it for a
 * receive whose ib_cqe is the cqe of a struct nvme_rdma_qe, whose data is
 * the response buffer; wc->qp is the queue's QP. nvme_rdma_recv_done()
 * follows the same pointers first thing; the buffer holds a response
 * only when the receive succeeded with enough bytes.
 */
static void ntprof_host_rdma_recv(struct ntprof_session *s,
				  struct ntprof_hook *hook,
				  struct ftrace_regs *fregs)
{
	struct ib_wc *wc = (void *)ntprof_fn_arg(fregs, 1);
	struct nvme_completion *cqe;
	struct ib_qp *qp;
	u64 now;

	now = ktime_get_ns();
	__this_cpu_write(ntprof_host_last_rx, now);

	if (READ_ONCE(wc->status) != IB_WC_SUCCESS ||
	    READ_ONCE(wc->byte_len) < sizeof(*cqe))
		return;
	qp = READ_ONCE(wc->qp);
	cqe = NTPROF_QE_DATA(READ_ONCE(wc->wr_cqe));
	if (cqe)
		ntprof_host_rx_keep(READ_ONCE(qp->qp_context),
				    ntprof_nofault_get(&cqe->command_id, u16),
				    now);
}

NTPROF_FTRACE_CALLBACK_FOLLOWED(ntprof_host_rdma_recv, NTPROF_ROLE_HOST)

/* nvme_tcp_try_send_cmd_pdu(req): the command PDU goes to the socket. */
static void ntprof_host_tcp_send(struct ntprof_session *s,
				 struct ntprof_hook *hook,
				 struct ftrace_regs *fregs)
{
	/* A struct nvme_tcp_request, which starts with its nvme_request. */
	void *nreq = (void *)ntprof_fn_arg(fregs, 0);

	ntprof_follow_stamp(s->inflight, NTPROF_NREQ_CMD(nreq),
			    NTPROF_PT_HOST_SEND);
}

NTPROF_FTRACE_CALLBACK_FOLLOWED(ntprof_host_tcp_send, NTPROF_ROLE_HOST)

/*
 * kernel_sendpage(sock, page, offset, size, flags), where nvme-tcp sends
 * the command PDU from nvme_tcp_try_send_cmd_pdu() when the compiler
 * inlined that (Debian's 6.1): kernel_sendpage(queue->sock,
 * virt_to_page(pdu), offset_in_page(pdu) + req->offset, ...). One call
 * sends (part of) one PDU, so at most one command. The PDU starts at the
 * page's address plus the offset, and the command follows its header:
 * where a command PDU starts to be sent, that is the key of its command
 * (nvme_tcp_init_request() points nvme_req(rq)->cmd at &pdu->cmd). The
 * key is computed, never dereferenced: other senders' pages, the rest of
 * a partly sent PDU (req->offset > 0, less than the PDU's size away from
 * its start, where no other PDU starts) and H2C data PDUs (built at the
 * back of the same buffer) miss the lookup. Kernels since 6.5 have no
 * kernel_sendpage: there, nvme_tcp_try_send_cmd_pdu is hooked.
 */
static void ntprof_host_tcp_sendpage(struct ntprof_session *s,
				     struct ntprof_hook *hook,
				     struct ftrace_regs *fregs)
{
	struct page *page;
	unsigned long offset;

	page = (struct page *)ntprof_fn_arg(fregs, 1);
	offset = ntprof_fn_arg(fregs, 2);
	if (!page)
		return;
	/* Arithmetic only, where page_address() might take a lock. */
	ntprof_follow_stamp(s->inflight, lowmem_page_address(page) + offset +
			    offsetof(struct nvme_tcp_cmd_pdu, cmd),
			    NTPROF_PT_HOST_SEND);
}

NTPROF_FTRACE_CALLBACK_FOLLOWED(ntprof_host_tcp_sendpage, NTPROF_ROLE_HOST)

/* nvme_tcp_setup_h2c_data_pdu(req): an R2T asks for the write data. */
static void ntprof_host_tcp_r2t(struct ntprof_session *s,
				struct ntprof_hook *hook,
				struct ftrace_regs *fregs)
{
	void *nreq = (void *)ntprof_fn_arg(fregs, 0);

	ntprof_follow_stamp(s->inflight, NTPROF_NREQ_CMD(nreq),
			    NTPROF_PT_HOST_R2T);
}

NTPROF_FTRACE_CALLBACK_FOLLOWED(ntprof_host_tcp_r2t, NTPROF_ROLE_HOST)

/* nvme_rdma_post_send(queue, qe, ...): the capsule's SEND is posted. */
static void ntprof_host_rdma_send(struct ntprof_session *s,
				  struct ntprof_hook *hook,
				  struct ftrace_regs *fregs)
{
	void *qe = (void *)ntprof_fn_arg(fregs, 1);

	ntprof_follow_stamp(s->inflight, NTPROF_QE_DATA(qe), NTPROF_PT_HOST_SEND);
}

NTPROF_FTRACE_CALLBACK_FOLLOWED(ntprof_host_rdma_send, NTPROF_ROLE_HOST)

/* nvme_rdma_send_done(cq, wc): the capsule's SEND completed. */
static void ntprof_host_rdma_send_done(struct ntprof_session *s,
				       struct ntprof_hook *hook,
				       struct ftrace_regs *fregs)
{
	struct ib_wc *wc = (void *)ntprof_fn_arg(fregs, 1);

	ntprof_follow_stamp(s->inflight, NTPROF_QE_DATA(READ_ONCE(wc->wr_cqe)),
			    NTPROF_PT_HOST_SEND_DONE);
}

NTPROF_FTRACE_CALLBACK_FOLLOWED(ntprof_host_rdma_send_done, NTPROF_ROLE_HOST)

/*
 * The host's hooks; see Documentation/netlink/specs/ntprof.yaml for the
 * points. All exist in Debian's 6.1 and 6.12 builds except
 * nvme_tcp_try_send_cmd_pdu, inlined in 6.1, and kernel_sendpage, gone
 * since 6.5: each gives HOST_SEND over TCP where the other is missing.
 */
struct ntprof_hook ntprof_host_hooks[NTPROF_NR_HOST_HOOKS] = {
	[NTPROF_HH_SETUP] =
		NTPROF_TRACEPOINT(nvme_setup_cmd, NTPROF_ROLE_HOST,
				  NTPROF_TRANSPORT_NONE, NTPROF_PT_HOST_SETUP,
				  true, NTPROF_MOD_NVME_CORE,
				  ntprof_host_setup,
				  NTPROF_HOST_NREQ_FIELDS),
	[NTPROF_HH_BLK_ISSUE] =
		NTPROF_TRACEPOINT(block_rq_issue, NTPROF_ROLE_HOST,
				  NTPROF_TRANSPORT_NONE,
				  NTPROF_PT_HOST_BLK_ISSUE, false,
				  NTPROF_MOD_VMLINUX, ntprof_host_blk_issue,
				  NTPROF_HOST_NREQ_FIELDS),
	[NTPROF_HH_DRIVER_DONE] =
		NTPROF_FUNCTION(blk_mq_complete_request_remote, NTPROF_ROLE_HOST,
				NTPROF_TRANSPORT_NONE,
				NTPROF_PT_HOST_DRIVER_DONE, false,
				NTPROF_MOD_VMLINUX, ntprof_host_driver_done,
				NTPROF_HOST_NREQ_FIELDS),
	[NTPROF_HH_NVME_COMPLETE] =
		NTPROF_TRACEPOINT(nvme_complete_rq, NTPROF_ROLE_HOST,
				  NTPROF_TRANSPORT_NONE,
				  NTPROF_PT_HOST_NVME_COMPLETE, false,
				  NTPROF_MOD_NVME_CORE,
				  ntprof_host_nvme_complete,
				  NTPROF_HOST_NREQ_FIELDS),
	[NTPROF_HH_BLK_COMPLETE] =
		NTPROF_TRACEPOINT(block_rq_complete, NTPROF_ROLE_HOST,
				  NTPROF_TRANSPORT_NONE,
				  NTPROF_PT_HOST_BLK_COMPLETE, true,
				  NTPROF_MOD_VMLINUX, ntprof_host_blk_complete,
				  NTPROF_HOST_NREQ_FIELDS),
	[NTPROF_HH_TCP_QUEUE_RQ] =
		NTPROF_FUNCTION(nvme_tcp_queue_rq, NTPROF_ROLE_HOST,
				NTPROF_TRANSPORT_TCP, NTPROF_PT_HOST_QUEUE_RQ,
				false, NTPROF_MOD_NVME_TCP, ntprof_host_queue_rq,
				0),
	[NTPROF_HH_RDMA_QUEUE_RQ] =
		NTPROF_FUNCTION(nvme_rdma_queue_rq, NTPROF_ROLE_HOST,
				NTPROF_TRANSPORT_RDMA, NTPROF_PT_HOST_QUEUE_RQ,
				false, NTPROF_MOD_NVME_RDMA,
				ntprof_host_queue_rq,
				0),
	[NTPROF_HH_TCP_SEND] =
		NTPROF_FUNCTION(nvme_tcp_try_send_cmd_pdu, NTPROF_ROLE_HOST,
				NTPROF_TRANSPORT_TCP, NTPROF_PT_HOST_SEND, false,
				NTPROF_MOD_NVME_TCP, ntprof_host_tcp_send,
				NTPROF_LF(NTPROF_LF_NVME_REQUEST_CMD)),
	[NTPROF_HH_TCP_SENDPAGE] =
		NTPROF_FUNCTION(kernel_sendpage, NTPROF_ROLE_HOST,
				NTPROF_TRANSPORT_TCP, NTPROF_PT_HOST_SEND, false,
				NTPROF_MOD_VMLINUX, ntprof_host_tcp_sendpage,
				0),
	[NTPROF_HH_RDMA_SEND] =
		NTPROF_FUNCTION(nvme_rdma_post_send, NTPROF_ROLE_HOST,
				NTPROF_TRANSPORT_RDMA, NTPROF_PT_HOST_SEND, false,
				NTPROF_MOD_NVME_RDMA, ntprof_host_rdma_send,
				NTPROF_LF(NTPROF_LF_NVME_RDMA_QE_DATA)),
	[NTPROF_HH_RDMA_SEND_DONE] =
		NTPROF_FUNCTION(nvme_rdma_send_done, NTPROF_ROLE_HOST,
				NTPROF_TRANSPORT_RDMA, NTPROF_PT_HOST_SEND_DONE,
				false, NTPROF_MOD_NVME_RDMA,
				ntprof_host_rdma_send_done,
				NTPROF_LF(NTPROF_LF_NVME_RDMA_QE_DATA)),
	[NTPROF_HH_TCP_R2T] =
		NTPROF_FUNCTION(nvme_tcp_setup_h2c_data_pdu, NTPROF_ROLE_HOST,
				NTPROF_TRANSPORT_TCP, NTPROF_PT_HOST_R2T, false,
				NTPROF_MOD_NVME_TCP, ntprof_host_tcp_r2t,
				NTPROF_LF(NTPROF_LF_NVME_REQUEST_CMD)),
	[NTPROF_HH_TCP_RECV] =
		NTPROF_FUNCTION(nvme_tcp_recv_skb, NTPROF_ROLE_HOST,
				NTPROF_TRANSPORT_TCP, NTPROF_PT_HOST_RECV, false,
				NTPROF_MOD_NVME_TCP, ntprof_host_recv,
				0),
	[NTPROF_HH_RDMA_RECV] =
		NTPROF_FUNCTION(nvme_rdma_recv_done, NTPROF_ROLE_HOST,
				NTPROF_TRANSPORT_RDMA, NTPROF_PT_HOST_RECV, false,
				NTPROF_MOD_NVME_RDMA, ntprof_host_rdma_recv,
				NTPROF_LF(NTPROF_LF_NVME_RDMA_QE_DATA)),
	/* Passthrough only: none of a bio's I/O comes by them. */
	[NTPROF_HH_EXECUTE_RQ] =
		NTPROF_FUNCTION(blk_execute_rq, NTPROF_ROLE_HOST,
				NTPROF_TRANSPORT_NONE, NTPROF_PT_HOST_BLK_START,
				false, NTPROF_MOD_VMLINUX, ntprof_host_execute,
				0),
	[NTPROF_HH_EXECUTE_RQ_NOWAIT] =
		NTPROF_FUNCTION(blk_execute_rq_nowait, NTPROF_ROLE_HOST,
				NTPROF_TRANSPORT_NONE, NTPROF_PT_HOST_BLK_START,
				false, NTPROF_MOD_VMLINUX, ntprof_host_execute,
				0),
};
