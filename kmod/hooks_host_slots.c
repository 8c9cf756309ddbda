// SPDX-License-Identifier: GPL-2.0
/*
 * The host hooks' small tables of lock-free slots, for what a later hook
 * cannot find on its own: RDMA responses by queue and command id, when a
 * passthrough request went to the block layer where the kernel stamps no
 * start, and on kernels before 5.13 the command of a sampled request.
 */
#include <linux/atomic.h>
#include <linux/blk-mq.h>
#include <linux/compiler.h>
#include <linux/hash.h>
#include <linux/nvme.h>

#include "hooks_host_slots.h"

/*
 * nvme_rdma_recv_done() to the completion of the command it received the
 * response of. nvme-rdma completes a command once both its capsule's
 * SEND and its response's RECV completed, from the later of the two
 * (nvme_rdma_end_request()): when the SEND's completion comes last, it
 * may be handled on another CPU than the RECV, whose per-CPU time is then
 * another command's, or older than this one. So each response's arrival
 * is also kept by queue (the QP's context, which is the hctx's driver
 * data) and command id, in slots that nobody waits for: a writer skips a
 * slot that another CPU is writing, and a reader a slot being written,
 * falling back on the per-CPU time.
 */
struct ntprof_host_ts_slot {
	u32 seq;		/* odd while being written */
	u16 cid;
	const void *queue;
	u64 ts;
};

#define NTPROF_HOST_RX_BITS	9

static struct ntprof_host_ts_slot ntprof_host_rx_slots[1 << NTPROF_HOST_RX_BITS];

/*
 * blk_execute_rq{,_nowait}() to nvme_setup_cmd(), for passthrough
 * requests on kernels that stamp them no start (6.12: see
 * blk_mq_need_time_stamp()), by request: the same slots, the request as
 * the queue and no command id. Passthrough commands are few; the table
 * is small.
 */
#define NTPROF_HOST_START_BITS	6

static struct ntprof_host_ts_slot ntprof_host_start_slots[1 << NTPROF_HOST_START_BITS];

/*
 * Before 5.13 (Debian's 5.10) the transports point nvme_req(rq)->cmd at
 * their command for passthrough requests only: there the block layer's
 * hooks find a sampled command's key here, written at its setup. A slot
 * holds the last sampled request that hashed to it. A key read from a
 * slot that another CPU is rewriting may be another command's: the
 * lookup's check of the request (entry->obj) rejects it.
 */
struct ntprof_host_cmd_slot {
	struct request *rq;
	struct nvme_command *cmd;
};

static struct ntprof_host_cmd_slot ntprof_host_cmd_slots[1 << NTPROF_HOST_RX_BITS];

static struct ntprof_host_cmd_slot *ntprof_host_cmd_slot(struct request *rq)
{
	return &ntprof_host_cmd_slots[hash_ptr(rq, NTPROF_HOST_RX_BITS)];
}

/**
 * ntprof_host_cmd_keep() - keep the command of a sampled request
 * @rq: the request
 * @cmd: its NVMe command, which keys the request's in-flight slot
 *
 * Context: Any; the hooks of the host's I/O path.
 */
void ntprof_host_cmd_keep(struct request *rq, struct nvme_command *cmd)
{
	struct ntprof_host_cmd_slot *slot = ntprof_host_cmd_slot(rq);

	WRITE_ONCE(slot->cmd, cmd);
	/* The command is seen before the request that names the slot's. */
	smp_store_release(&slot->rq, rq);
}

/**
 * ntprof_host_cmd_find() - find the command kept for a request
 * @rq: the request
 *
 * Context: Any; the hooks of the host's I/O path.
 * Return: the command that ntprof_host_cmd_keep() kept for @rq, or NULL
 * if another request has taken its slot since.
 */
struct nvme_command *ntprof_host_cmd_find(struct request *rq)
{
	struct ntprof_host_cmd_slot *slot = ntprof_host_cmd_slot(rq);

	/* Pairs with the release in ntprof_host_cmd_keep(). */
	if (smp_load_acquire(&slot->rq) != rq)
		return NULL;
	return READ_ONCE(slot->cmd);
}

/* Keep @ts in @slot for @queue's command @cid, unless another CPU writes it. */
static void ntprof_host_ts_keep(struct ntprof_host_ts_slot *slot,
				const void *queue, u16 cid, u64 ts)
{
	u32 seq = READ_ONCE(slot->seq);

	/* A full barrier: the odd count is seen before the members. */
	if (seq & 1 || cmpxchg(&slot->seq, seq, seq + 1) != seq)
		return;
	WRITE_ONCE(slot->queue, queue);
	WRITE_ONCE(slot->cid, cid);
	WRITE_ONCE(slot->ts, ts);
	/* The members are seen before the even count that ends the write. */
	smp_store_release(&slot->seq, seq + 2);
}

/* The time @slot keeps for @queue's command @cid, or 0. */
static u64 ntprof_host_ts_find(struct ntprof_host_ts_slot *slot,
			       const void *queue, u16 cid)
{
	bool match;
	u32 seq;
	u64 ts;

	/* The count before the members: pairs with the writer's release. */
	seq = smp_load_acquire(&slot->seq);
	if (seq & 1)
		return 0;
	match = READ_ONCE(slot->queue) == queue &&
		READ_ONCE(slot->cid) == cid;
	ts = READ_ONCE(slot->ts);
	smp_rmb();	/* the members before the count again */
	if (!match || READ_ONCE(slot->seq) != seq)
		return 0;
	return ts;
}

static struct ntprof_host_ts_slot *ntprof_host_rx_slot(const void *queue,
						       u16 cid)
{
	u32 h = hash_ptr(queue, 32) ^ cid;

	return &ntprof_host_rx_slots[hash_32(h, NTPROF_HOST_RX_BITS)];
}

/**
 * ntprof_host_rx_keep() - keep the time a command's response arrived
 * @queue: the transport's queue
 * @cid: the command's id on @queue
 * @ts: when its response arrived
 *
 * The time is lost if another CPU is writing the same slot.
 *
 * Context: Any; the hooks of the host's I/O path.
 */
void ntprof_host_rx_keep(const void *queue, u16 cid, u64 ts)
{
	ntprof_host_ts_keep(ntprof_host_rx_slot(queue, cid), queue, cid, ts);
}

/**
 * ntprof_host_rx_find() - find the time a command's response arrived
 * @queue: the transport's queue
 * @cid: the command's id on @queue
 *
 * Context: Any; the hooks of the host's I/O path.
 * Return: the time that ntprof_host_rx_keep() kept, or 0 if none is
 * kept for that command.
 */
u64 ntprof_host_rx_find(const void *queue, u16 cid)
{
	return ntprof_host_ts_find(ntprof_host_rx_slot(queue, cid), queue, cid);
}

static struct ntprof_host_ts_slot *ntprof_host_start_slot(struct request *rq)
{
	return &ntprof_host_start_slots[hash_ptr(rq, NTPROF_HOST_START_BITS)];
}

/**
 * ntprof_host_start_keep() - keep the time a passthrough request started
 * @rq: the passthrough request
 * @ts: when it went to the block layer
 *
 * A request's slot is written at each of its executions, so the time
 * found is that of its last one, unless a write was skipped because
 * another request had taken the slot.
 *
 * Context: Any; the hooks of the host's I/O path.
 */
void ntprof_host_start_keep(struct request *rq, u64 ts)
{
	ntprof_host_ts_keep(ntprof_host_start_slot(rq), rq, 0, ts);
}

/**
 * ntprof_host_start_find() - find the time a passthrough request started
 * @rq: the passthrough request
 *
 * Context: Any; the hooks of the host's I/O path.
 * Return: the time that ntprof_host_start_keep() kept for @rq, or 0 if
 * none is kept.
 */
u64 ntprof_host_start_find(struct request *rq)
{
	return ntprof_host_ts_find(ntprof_host_start_slot(rq), rq, 0);
}
