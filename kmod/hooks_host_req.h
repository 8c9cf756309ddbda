/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the host's hooks read of a block request (hooks_host.c, its one
 * user): its NVMe driver data and so its key, its queue, its disk, and
 * its transport as the session learned it from the tag set.
 */
#ifndef _NTPROF_HOOKS_HOST_REQ_H
#define _NTPROF_HOOKS_HOST_REQ_H

#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/kdev_t.h>
#include <linux/nvme.h>

#include "compat.h"
#include "follow.h"
#include "hooks.h"
#include "hooks_host_slots.h"
#include "inflight.h"
#include "layout.h"
#include "sample.h"
#include "session_types.h"

/*
 * Private structs of drivers/nvme/host/ are read through their layouts
 * (kmod/layout.h): struct nvme_request's cmd and status, struct
 * nvme_rdma_qe's data. struct nvme_tcp_request starts with its struct
 * nvme_request, and struct nvme_rdma_qe with the struct ib_cqe of its
 * work requests, in every release since nvme-tcp came (4.19).
 */
#define NTPROF_NREQ_CMD(nreq) \
	ntprof_lf_get(nreq, NTPROF_LF_NVME_REQUEST_CMD, struct nvme_command *)
#define NTPROF_QE_DATA(qe) \
	ntprof_lf_get(qe, NTPROF_LF_NVME_RDMA_QE_DATA, void *)

/* The low bits of a session's tagsets[] slot (struct ntprof_session). */
#define NTPROF_TAGSET_TRANSPORT	3UL
static_assert(NTPROF_TRANSPORT_RDMA <= NTPROF_TAGSET_TRANSPORT);

static inline struct ntprof_hook *ntprof_hh(enum ntprof_host_hook_id id)
{
	return &ntprof_host_hooks[id];
}

/* The driver data of a request, if it can be an NVMe one. */
static inline void *ntprof_nvme_req(struct request *rq)
{
	struct blk_mq_tag_set *set = rq->q->tag_set;
	unsigned int need;

	need = max(ntprof_layout_off[NTPROF_LF_NVME_REQUEST_CMD] + 8,
		   ntprof_layout_off[NTPROF_LF_NVME_REQUEST_STATUS] + 2);
	if (!set || set->cmd_size < need)
		return NULL;
	return blk_mq_rq_to_pdu(rq);
}

/* The in-flight slot of a request, if the session follows it. */
static inline struct ntprof_inflight_entry *
ntprof_host_lookup(struct ntprof_session *s, struct request *rq,
		   struct nvme_command **keyp)
{
	struct ntprof_inflight_entry *entry;
	struct nvme_command *key;
	void *nreq;

	if (ntprof_inflight_empty(s->inflight))
		return NULL;
	nreq = ntprof_nvme_req(rq);
	if (!nreq)
		return NULL;
	key = NTPROF_NREQ_CMD(nreq);
	if (!key)
		key = ntprof_host_cmd_find(rq);
	if (!key)
		return NULL;
	entry = ntprof_inflight_lookup(s->inflight, key);
	if (!entry || READ_ONCE(entry->obj) != rq)
		return NULL;
	*keyp = key;
	return entry;
}

/* The qid nvme's own trace events give: 0 for the admin queue. */
static inline u16 ntprof_host_qid(struct request *rq)
{
	if (!rq->q->queuedata || !rq->mq_hctx)
		return 0;
	return rq->mq_hctx->queue_num + 1;
}

static inline u32 ntprof_host_dev(struct request *rq)
{
	struct gendisk *disk = ntprof_rq_disk(rq);

	return disk ? new_encode_dev(disk_devt(disk)) : 0;
}

/*
 * The transport of a tag set the session has seen, or NONE. Sessions
 * learn them in nvme_setup_cmd, where queue_rq tells the transport, to
 * give each command its transport and to tell the failures of their
 * transports from those of others at completion. A slot holds the
 * pointer or'ed with the transport (tag sets are word-aligned), so that
 * one cmpxchg publishes both.
 */
static inline enum ntprof_transport
ntprof_host_tagset_transport(struct ntprof_session *s,
			     struct blk_mq_tag_set *set)
{
	unsigned long v;
	unsigned int i;

	for (i = 0; i < NTPROF_SESSION_TAGSETS; i++) {
		v = READ_ONCE(s->tagsets[i]);
		if ((v & ~NTPROF_TAGSET_TRANSPORT) == (unsigned long)set)
			return v & NTPROF_TAGSET_TRANSPORT;
	}
	return NTPROF_TRANSPORT_NONE;
}

static inline void ntprof_host_tagset_learn(struct ntprof_session *s,
					    struct blk_mq_tag_set *set,
					    enum ntprof_transport transport)
{
	unsigned int i;

	if (ntprof_host_tagset_transport(s, set))
		return;
	/* Full: failures of the controllers past the 8th go unrecorded. */
	for (i = 0; i < NTPROF_SESSION_TAGSETS; i++)
		if (!cmpxchg(&s->tagsets[i], 0, (unsigned long)set | transport))
			return;
}

/* Whether the queue_rq hooks tell the transport of every command. */
static inline bool ntprof_host_transport_known(void)
{
	return ntprof_hook_attached(ntprof_hh(NTPROF_HH_TCP_QUEUE_RQ)) ||
	       ntprof_hook_attached(ntprof_hh(NTPROF_HH_RDMA_QUEUE_RQ));
}

/*
 * A command's transport: its tag set's, or without the queue_rq hooks
 * the session's (NONE when it records every transport).
 */
static inline enum ntprof_transport
ntprof_host_transport(struct ntprof_session *s, struct request *rq)
{
	enum ntprof_transport t = ntprof_host_tagset_transport(s, rq->q->tag_set);

	return t ? t : s->cfg.transport;
}

static inline void ntprof_host_rec_init(struct ntprof_record *rec,
					struct ntprof_session *s,
					const struct ntprof_ident *id,
					struct request *rq)
{
	ntprof_follow_rec_init(rec, NTPROF_ROLE_HOST, ntprof_host_transport(s, rq),
			       id, blk_rq_bytes(rq));
	rec->dev = ntprof_host_dev(rq);
	/*
	 * A command that userspace built (an ioctl or io_uring command on
	 * the namespace or its char device), not the block layer from a
	 * bio. It is on the same disk, but the tool groups it separately.
	 */
	if (blk_rq_is_passthrough(rq))
		rec->flags = NTPROF_REC_F_PASSTHRU;
}

/* Whether the session's filters take a command of @opcode in @rq. */
static inline bool ntprof_host_filter(struct ntprof_session *s,
				      struct request *rq, u8 opcode)
{
	if (s->cfg.dev && ntprof_host_dev(rq) != s->cfg.dev)
		return false;
	return ntprof_session_filter(s, opcode, blk_rq_bytes(rq));
}

#endif /* _NTPROF_HOOKS_HOST_REQ_H */
