// SPDX-License-Identifier: GPL-2.0
/*
 * The uprobe sites of SPDK's command path, for each role, and the
 * fetches each one makes, built from the binary's DWARF layouts.
 *
 * The target, nvmf_tgt, for every transport (lib/nvmf/ctrlr.c,
 * ctrlr_bdev.c):
 *
 *   spdk_nvmf_request_exec(req)           TARGET_INIT, the first site:
 *       the transport has the whole capsule, the identity is in
 *       req->cmd->nvme_cmd, the queue in req->qpair->qid and the length
 *       in req->length;
 *   nvmf_bdev_ctrlr_read_cmd(bdev, desc, ch, req)
 *   nvmf_bdev_ctrlr_write_cmd(bdev, desc, ch, req)
 *                                         TARGET_EXEC: to the bdev;
 *   _nvmf_request_complete(req)           TARGET_COMPLETE, the last except
 *       over RDMA: the response goes to the transport. It is the one
 *       function every completion runs, on the qpair's thread:
 *       spdk_nvmf_request_complete() calls it (directly or by a message)
 *       and so does request_exec for a command it finishes at once.
 *       Over RDMA the transport posts the data's RDMA WRITE and the
 *       response's SEND right after, on the same thread;
 *   nvmf_rdma_request_free(req)           TARGET_SEND_DONE, the last over
 *       RDMA (lib/nvmf/rdma.c): the SEND's completion was polled (with
 *       the WRITE chained before it) and the request is released. Where
 *       this binary lacks it, _nvmf_request_complete stays the last.
 *   The key is req (the rdma_req starts with it).
 *
 * The host, any program on SPDK's NVMe driver (spdk_nvme_perf, or an
 * application's), per transport (lib/nvme/nvme_rdma.c, nvme_tcp.c):
 *
 *   nvme_rdma_qpair_submit_request(qpair, req)
 *   nvme_tcp_qpair_submit_request(qpair, req)
 *                                         HOST_QUEUE_RQ, the first site:
 *       the transport takes the request. Its command id is not in req
 *       yet: the transport takes the head of the qpair's free list and
 *       copies that request's id into req->cmd.cid. A qpair belongs to
 *       one thread, so the head read at entry is the one taken: the cid
 *       is fetched as free_reqs.tqh_first->id (->cid for TCP), through
 *       the transport's qpair that embeds the generic one. An empty list
 *       (-EAGAIN, resubmitted later) reads a NULL pointer: a fault, no
 *       record, and the resubmission is seen again from the start;
 *   spdk_rdma_provider_qp_queue_send_wrs(qp, wr)
 *       RDMA's HOST_SEND: the capsule's SEND work request is queued; wr
 *       is the rdma_req's send_wr, so req sits at a fixed distance;
 *   nvme_tcp_qpair_write_pdu(tqpair, pdu, cb_fn, cb_arg)
 *       TCP's HOST_SEND: the capsule PDU goes to the socket, cb_arg is
 *       the tcp_req (also for a write's H2C data PDUs, which come later:
 *       the first stamp stays);
 *   nvme_rdma_req_complete(rdma_req, rsp, ...)
 *   nvme_tcp_req_complete(tcp_req, tqpair, rsp, ...)
 *                                         HOST_DRIVER_DONE, the last: the
 *       completion is parsed and the application's callback comes next.
 *   The key is req (nvme_request), the driver's, reached from the
 *   transport's request at the other sites.
 *
 * Three sites per command on either side: each one traps for every
 * command, sampled or not, so the map has the fewest that the stages
 * need (Documentation/spdk.rst). A site is placed at each out-of-line
 * entry of its function; an inlined copy has no argument registers to
 * fetch from, so the commands that go through one are not seen there
 * (probe says so).
 */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "sites/elfsite.h"
#include "sites/spdk.h"


struct site_def;
typedef int (*fetch_builder)(struct spdk_prog *p, const struct site_def *def,
			     struct session_usite *u);

struct site_def {
	const char *func;
	uint32_t role;
	uint32_t transport;	/* NTPROF_TRANSPORT_NONE: any */
	uint32_t point;
	uint32_t flags;
	bool required;
	fetch_builder build;
	uint32_t reg;		/* the argument the key comes from */
};

static int target_first(struct spdk_prog *p, const struct site_def *def,
			struct session_usite *u);
static int key_as_is(struct spdk_prog *p, const struct site_def *def,
		     struct session_usite *u);
static int host_first(struct spdk_prog *p, const struct site_def *def,
		      struct session_usite *u);
static int rdma_send_key(struct spdk_prog *p, const struct site_def *def,
			 struct session_usite *u);
static int xport_req_key(struct spdk_prog *p, const struct site_def *def,
			 struct session_usite *u);

#define TARGET NTPROF_ROLE_TARGET
#define HOST NTPROF_ROLE_HOST
#define ANY NTPROF_TRANSPORT_NONE
#define TCP NTPROF_TRANSPORT_TCP
#define RDMA NTPROF_TRANSPORT_RDMA

static const struct site_def site_map[] = {
	{ "spdk_nvmf_request_exec", TARGET, ANY, NTPROF_PT_TARGET_INIT,
	  NTPROF_USITE_F_FIRST, true, target_first, 0 },
	{ "nvmf_bdev_ctrlr_read_cmd", TARGET, ANY, NTPROF_PT_TARGET_EXEC,
	  0, false, key_as_is, 3 },
	{ "nvmf_bdev_ctrlr_write_cmd", TARGET, ANY, NTPROF_PT_TARGET_EXEC,
	  0, false, key_as_is, 3 },
	{ "_nvmf_request_complete", TARGET, ANY, NTPROF_PT_TARGET_COMPLETE,
	  NTPROF_USITE_F_LAST, true, key_as_is, 0 },
	{ "nvmf_rdma_request_free", TARGET, RDMA, NTPROF_PT_TARGET_SEND_DONE,
	  NTPROF_USITE_F_LAST, false, key_as_is, 0 },

	{ "nvme_rdma_qpair_submit_request", HOST, RDMA, NTPROF_PT_HOST_QUEUE_RQ,
	  NTPROF_USITE_F_FIRST, true, host_first, 1 },
	{ "spdk_rdma_provider_qp_queue_send_wrs", HOST, RDMA,
	  NTPROF_PT_HOST_SEND, 0, false, rdma_send_key, 1 },
	{ "nvme_rdma_req_complete", HOST, RDMA, NTPROF_PT_HOST_DRIVER_DONE,
	  NTPROF_USITE_F_LAST, true, xport_req_key, 0 },

	{ "nvme_tcp_qpair_submit_request", HOST, TCP, NTPROF_PT_HOST_QUEUE_RQ,
	  NTPROF_USITE_F_FIRST, true, host_first, 1 },
	{ "nvme_tcp_qpair_write_pdu", HOST, TCP, NTPROF_PT_HOST_SEND,
	  0, false, xport_req_key, 3 },
	{ "nvme_tcp_req_complete", HOST, TCP, NTPROF_PT_HOST_DRIVER_DONE,
	  NTPROF_USITE_F_LAST, true, xport_req_key, 0 },
};

static const char *const target_structs[] = {
	"spdk_nvmf_request", "spdk_nvmf_qpair", "nvmf_h2c_msg",
	"spdk_nvme_cmd", "spdk_nvmf_transport", "spdk_nvmf_transport_ops",
};

static const char *const host_structs[] = {
	"spdk_nvme_qpair", "nvme_request", "spdk_nvme_cmd",
	"nvme_rdma_qpair", "spdk_nvme_rdma_req",
	"nvme_tcp_qpair", "nvme_tcp_req",
};

/*
 * host_qpair_struct() - return the name of the transport's qpair struct on
 * the host; host_req_struct() returns its request's.
 */
static const char *host_qpair_struct(uint32_t transport)
{
	return transport == RDMA ? "nvme_rdma_qpair" : "nvme_tcp_qpair";
}

static const char *host_req_struct(uint32_t transport)
{
	return transport == RDMA ? "spdk_nvme_rdma_req" : "nvme_tcp_req";
}

static bool in_map(const struct spdk_prog *p, const struct site_def *def)
{
	if (def->role != p->role)
		return false;
	/*
	 * A site ends the records of every command, whatever its transport:
	 * with both transports, RDMA's end at their completion, as TCP's.
	 */
	if (p->transport == ANY && def->point == NTPROF_PT_TARGET_SEND_DONE)
		return false;
	return def->transport == ANY || p->transport == ANY ||
	       def->transport == p->transport;
}

const char *spdk_point_name(uint32_t point)
{
	switch (point) {
	case NTPROF_PT_TARGET_INIT:
		return "TARGET_INIT: command parsed";
	case NTPROF_PT_TARGET_EXEC:
		return "TARGET_EXEC: to the bdev";
	case NTPROF_PT_TARGET_COMPLETE:
		return "TARGET_COMPLETE: bdev done";
	case NTPROF_PT_TARGET_SEND_DONE:
		return "TARGET_SEND_DONE: response sent";
	case NTPROF_PT_HOST_QUEUE_RQ:
		return "HOST_QUEUE_RQ: to the transport";
	case NTPROF_PT_HOST_SEND:
		return "HOST_SEND: capsule sent";
	case NTPROF_PT_HOST_DRIVER_DONE:
		return "HOST_DRIVER_DONE: cpl parsed";
	}
	return "?";
}

size_t spdk_sites_funcs(const struct spdk_prog *p, const char **funcs,
			size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < ARRAY_SIZE(site_map) && n < max; i++)
		if (in_map(p, &site_map[i]))
			funcs[n++] = site_map[i].func;
	return n;
}

size_t spdk_sites_structs(const struct spdk_prog *p, const char **structs,
			  size_t max)
{
	const char *const *v = p->role == HOST ? host_structs : target_structs;
	size_t n = p->role == HOST ? ARRAY_SIZE(host_structs) :
				     ARRAY_SIZE(target_structs);
	size_t i;

	for (i = 0; i < n && i < max; i++)
		structs[i] = v[i];
	return i;
}

static int member(struct spdk_prog *p, const char *st, const char *path,
		  struct elfsite_member *m)
{
	char err[256];

	if (elfsite_member(p->es, st, path, m, err, sizeof(err))) {
		snprintf(p->why, sizeof(p->why), "%s", err);
		return -1;
	}
	return 0;
}

/* width() - return a plain member's width, which a fetch can read whole. */
static uint32_t width(const struct elfsite_member *m)
{
	return m->size == 1 || m->size == 2 || m->size == 4 || m->size == 8 ?
	       (uint32_t)m->size : 0;
}

static int unknown_layout(struct spdk_prog *p, const char *what)
{
	snprintf(p->why, sizeof(p->why),
		 "unknown layout: %s is not as SPDK defines it", what);
	return -1;
}

/* fetch_reg() - set @f to fetch the value of argument @reg itself. */
static void fetch_reg(struct session_fetch *f, uint32_t reg)
{
	*f = (struct session_fetch){ .set = true, .reg = reg };
}

/*
 * fetch_at() - set @f to fetch @w bytes at @off from argument @reg, with no
 * load before.
 */
static void fetch_at(struct session_fetch *f, uint32_t reg, int32_t off,
		     uint32_t w)
{
	*f = (struct session_fetch){
		.set = true, .reg = reg, .offset = off, .width = w,
	};
}

/*
 * fetch_via() - do what fetch_at() does, after one pointer load at @deref
 * from @reg.
 */
static void fetch_via(struct session_fetch *f, uint32_t reg, int32_t deref,
		      int32_t off, uint32_t w)
{
	*f = (struct session_fetch){
		.set = true, .reg = reg, .nr_derefs = 1, .derefs = { deref },
		.offset = off, .width = w,
	};
}

/*
 * cmd_fetches() - set the fetches of the command's fields from a struct
 * spdk_nvme_cmd at @base: @reg's value plus @base or, with @deref >= 0, the
 * pointer loaded there plus @base. SLBA is CDW11:CDW10, read as one
 * little-endian u64; NLB is the low two bytes of CDW12.
 */
static int cmd_fetches(struct spdk_prog *p, struct session_usite *u,
		       uint32_t reg, int32_t deref, int32_t base)
{
	struct elfsite_member opc, cid, nsid, c10, c11, c12;
	static const uint32_t fields[] = {
		SESSION_F_CID, SESSION_F_OPCODE, SESSION_F_NSID,
		SESSION_F_SLBA, SESSION_F_NLB,
	};
	int32_t off[ARRAY_SIZE(fields)];
	uint32_t w[ARRAY_SIZE(fields)] = { 2, 1, 4, 8, 2 };
	size_t i;

	if (member(p, "spdk_nvme_cmd", "opc", &opc) ||
	    member(p, "spdk_nvme_cmd", "cid", &cid) ||
	    member(p, "spdk_nvme_cmd", "nsid", &nsid) ||
	    member(p, "spdk_nvme_cmd", "cdw10", &c10) ||
	    member(p, "spdk_nvme_cmd", "cdw11", &c11) ||
	    member(p, "spdk_nvme_cmd", "cdw12", &c12))
		return -1;
	/* NVMe fixes these; a binary that differs is not one we know. */
	if (width(&cid) != 2 || width(&nsid) != 4 || width(&c10) != 4 ||
	    c11.offset != c10.offset + 4 || width(&c12) != 4 ||
	    !opc.bitfield || opc.bit_offset % 8 || opc.bit_size != 8)
		return unknown_layout(p, "struct spdk_nvme_cmd");

	off[0] = base + (int32_t)cid.offset;
	off[1] = base + (int32_t)(opc.bit_offset / 8);
	off[2] = base + (int32_t)nsid.offset;
	off[3] = base + (int32_t)c10.offset;
	off[4] = base + (int32_t)c12.offset;
	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		if (deref >= 0)
			fetch_via(&u->f[fields[i]], reg, deref, off[i], w[i]);
		else
			fetch_at(&u->f[fields[i]], reg, off[i], w[i]);
	}
	return 0;
}

/*
 * target_trtype() - set the fetch of the command's transport type,
 * req->qpair->transport->ops->type (enum spdk_nvme_transport_type: RDMA 1
 * and TCP 3, as in NVMe-oF). It tells a target of both transports which one
 * each command came over, and keeps the other transport's commands out of a
 * recording of one. SPDK has had these members for years; a binary without
 * them records as before, with -t.
 */
static int target_trtype(struct spdk_prog *p, const struct site_def *def,
			 int32_t qpair, struct session_usite *u)
{
	struct elfsite_member xport, ops, type;

	if (member(p, "spdk_nvmf_qpair", "transport", &xport) ||
	    member(p, "spdk_nvmf_transport", "ops", &ops) ||
	    member(p, "spdk_nvmf_transport_ops", "type", &type) ||
	    xport.size != 8 || ops.size != 8 || width(&type) != 4) {
		if (p->transport != ANY) {
			p->why[0] = '\0';
			return 0;
		}
		if (!p->why[0])
			unknown_layout(p, "struct spdk_nvmf_transport");
		snprintf(p->why + strlen(p->why), sizeof(p->why) - strlen(p->why),
			 " (the transport of each command, for a recording of both: -t tcp or -t rdma records one)");
		return -1;
	}
	u->trtype = (struct session_fetch){
		.set = true, .reg = def->reg, .nr_derefs = 3,
		.derefs = { qpair, (int32_t)xport.offset, (int32_t)ops.offset },
		.offset = (int32_t)type.offset, .width = 4,
	};
	return 0;
}

/*
 * target_first() - set the fetches of spdk_nvmf_request_exec(req): the qid
 * from req->qpair->qid, the command from req->cmd->nvme_cmd, the length from
 * req->length.
 */
static int target_first(struct spdk_prog *p, const struct site_def *def,
			struct session_usite *u)
{
	struct elfsite_member qpair, qid, cmd, nvme, len;

	if (member(p, "spdk_nvmf_request", "qpair", &qpair) ||
	    member(p, "spdk_nvmf_qpair", "qid", &qid) ||
	    member(p, "spdk_nvmf_request", "cmd", &cmd) ||
	    member(p, "nvmf_h2c_msg", "nvme_cmd", &nvme) ||
	    member(p, "spdk_nvmf_request", "length", &len))
		return -1;
	if (qpair.size != 8 || cmd.size != 8 || width(&qid) != 2 ||
	    width(&len) != 4)
		return unknown_layout(p, "struct spdk_nvmf_request or spdk_nvmf_qpair");

	fetch_reg(&u->f[SESSION_F_KEY], def->reg);
	fetch_via(&u->f[SESSION_F_QID], def->reg, (int32_t)qpair.offset,
		  (int32_t)qid.offset, 2);
	fetch_at(&u->f[SESSION_F_LENGTH], def->reg, (int32_t)len.offset, 4);
	if (target_trtype(p, def, (int32_t)qpair.offset, u))
		return -1;
	return cmd_fetches(p, u, def->reg, (int32_t)cmd.offset,
			   (int32_t)nvme.offset);
}

static int key_as_is(struct spdk_prog *p, const struct site_def *def,
		     struct session_usite *u)
{
	(void)p;
	fetch_reg(&u->f[SESSION_F_KEY], def->reg);
	return 0;
}

/*
 * host_first() - set the fetches of
 * nvme_<transport>_qpair_submit_request(qpair, req): the qid from qpair->id,
 * the command embedded in req, the length from req->payload.size, and the
 * cid from the head of the transport qpair's free list (see the top of this
 * file).
 */
static int host_first(struct spdk_prog *p, const struct site_def *def,
		      struct session_usite *u)
{
	const char *xq = host_qpair_struct(def->transport);
	const char *xr = host_req_struct(def->transport);
	struct elfsite_member qid, cmd, size, embed, head, id;

	if (member(p, "spdk_nvme_qpair", "id", &qid) ||
	    member(p, "nvme_request", "cmd", &cmd) ||
	    member(p, "nvme_request", "payload.size", &size) ||
	    member(p, xq, "qpair", &embed) ||
	    member(p, xq, "free_reqs.tqh_first", &head) ||
	    member(p, xr, def->transport == RDMA ? "id" : "cid", &id))
		return -1;
	if (width(&qid) != 2 || width(&size) != 4 || head.size != 8 ||
	    width(&id) != 2)
		return unknown_layout(p, def->transport == RDMA ?
				      "struct nvme_rdma_qpair or spdk_nvme_rdma_req" :
				      "struct nvme_tcp_qpair or nvme_tcp_req");

	fetch_reg(&u->f[SESSION_F_KEY], def->reg);
	fetch_at(&u->f[SESSION_F_QID], 0, (int32_t)qid.offset, 2);
	fetch_at(&u->f[SESSION_F_LENGTH], def->reg, (int32_t)size.offset, 4);
	if (cmd_fetches(p, u, def->reg, -1, (int32_t)cmd.offset))
		return -1;
	/* After cmd_fetches(): the cid is not req's own yet. */
	fetch_via(&u->f[SESSION_F_CID], 0,
		  (int32_t)head.offset - (int32_t)embed.offset,
		  (int32_t)id.offset, 2);
	return 0;
}

/*
 * rdma_send_key() - set the key of spdk_rdma_provider_qp_queue_send_wrs(qp,
 * wr), where wr is &rdma_req->send_wr.
 */
static int rdma_send_key(struct spdk_prog *p, const struct site_def *def,
			 struct session_usite *u)
{
	struct elfsite_member wr, req;

	if (member(p, "spdk_nvme_rdma_req", "send_wr", &wr) ||
	    member(p, "spdk_nvme_rdma_req", "req", &req))
		return -1;
	if (req.size != 8)
		return unknown_layout(p, "struct spdk_nvme_rdma_req");
	fetch_at(&u->f[SESSION_F_KEY], def->reg,
		 (int32_t)req.offset - (int32_t)wr.offset, 8);
	return 0;
}

/*
 * xport_req_key() - set the key for a transport's request in argument @reg:
 * its ->req.
 */
static int xport_req_key(struct spdk_prog *p, const struct site_def *def,
			 struct session_usite *u)
{
	const char *xr = host_req_struct(def->transport);
	struct elfsite_member req;

	if (member(p, xr, "req", &req))
		return -1;
	if (req.size != 8)
		return unknown_layout(p, def->transport == RDMA ?
				      "struct spdk_nvme_rdma_req" :
				      "struct nvme_tcp_req");
	fetch_at(&u->f[SESSION_F_KEY], def->reg, (int32_t)req.offset, 8);
	return 0;
}

/*
 * add_sites() - append one function's sites to @p->usites. It returns -1
 * when they do not fit.
 */
static int add_sites(struct spdk_prog *p, const struct site_def *def,
		     const struct elfsite_func *ef)
{
	struct session_usite *u;
	size_t i;

	for (i = 0; i < ef->nr_entries; i++) {
		if (p->nr_usites == NTPROF_USITES_MAX) {
			snprintf(p->why, sizeof(p->why),
				 "more than %d sites: the module takes no more",
				 NTPROF_USITES_MAX);
			return -1;
		}
		u = &p->usites[p->nr_usites++];
		*u = (struct session_usite){
			.func = def->func, .path = p->path, .fd = p->fd,
			.offset = ef->entries[i].offset,
			.vaddr = ef->entries[i].vaddr,
			.size = ef->entries[i].size,
			.point = def->point, .flags = def->flags,
			.transport = def->transport,
		};
		if (def->build(p, def, u))
			return -1;
	}
	return 0;
}

/*
 * end_after_send() - over RDMA, where the SEND's completion has its sites,
 * make a record end at the SEND's completion: the request's completion
 * (TARGET_COMPLETE) becomes a point on the way, no longer the last.
 */
static void end_after_send(struct spdk_prog *p)
{
	bool send_done = false;
	size_t i;

	for (i = 0; i < p->nr_usites; i++)
		if (p->usites[i].point == NTPROF_PT_TARGET_SEND_DONE)
			send_done = true;
	for (i = 0; send_done && i < p->nr_usites; i++)
		if (p->usites[i].point == NTPROF_PT_TARGET_COMPLETE)
			p->usites[i].flags &= ~NTPROF_USITE_F_LAST;
}

void spdk_sites_resolve(struct spdk_prog *p)
{
	const struct elfsite_func *ef;
	struct spdk_func *fn;
	size_t i;

	p->ok = true;
	for (i = 0; i < ARRAY_SIZE(site_map); i++) {
		const struct site_def *def = &site_map[i];

		if (!in_map(p, def) || p->nr_funcs == SPDK_FUNCS_MAX)
			continue;
		fn = &p->funcs[p->nr_funcs++];
		*fn = (struct spdk_func){
			.name = def->func, .point = def->point,
			.required = def->required, .state = "missing",
		};
		ef = elfsite_func(p->es, def->func);
		if (ef) {
			fn->state = elfsite_state_name(ef->state);
			fn->nr_inlined = ef->nr_inlined;
		}
		/*
		 * A GCC clone may have dropped or moved the arguments the
		 * fetches read: no site rather than a wrong one.
		 */
		if (ef && ef->state == ELFSITE_OK && ef->clone)
			fn->state = "clone";
		else if (ef && ef->state == ELFSITE_OK)
			fn->nr_sites = ef->nr_entries;
		if (!fn->nr_sites) {
			if (def->required && p->ok) {
				p->ok = false;
				snprintf(p->why, sizeof(p->why),
					 "the required site %s is %s in this binary%s",
					 def->func, fn->state,
					 p->transport == ANY && def->transport != ANY ?
					 " (-t tcp or -t rdma records one transport)" : "");
			}
			continue;
		}
		if (p->ok && add_sites(p, def, ef))
			p->ok = false;
	}
	end_after_send(p);
}
