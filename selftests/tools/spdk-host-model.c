// SPDX-License-Identifier: GPL-2.0
/*
 * A model of an SPDK host program (spdk_nvme_perf) for ntprof run's
 * tests, where no SPDK build is: the functions of ntprof's host site map
 * for both transports, under their SPDK names, taking structs that have
 * the members the map reads (ntprof finds them in this program's DWARF,
 * as in SPDK's). Nothing of SPDK's code is here. It takes any arguments,
 * as spdk_nvme_perf's "-r 'trtype:RDMA ...'", submits COUNT commands
 * over the transport they name (TCP without one) and prints their sum.
 *
 *   spdk-host-model [-n COUNT] [ARG]...
 *
 * Built with -g -O2; the functions are noipa, as in spdk-model.c.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spdk-model-cmd.h"


struct spdk_nvme_qpair {
	uint32_t state;
	uint16_t id;
};

struct nvme_payload {
	void *buf;
	uint32_t size;
};

struct nvme_request {
	struct spdk_nvme_cmd cmd;
	struct nvme_payload payload;
	uint64_t result;
};

struct ibv_send_wr {
	uint64_t wr_id;
	struct ibv_send_wr *next;
};

struct spdk_nvme_rdma_req {
	uint16_t id;
	struct ibv_send_wr send_wr;
	struct nvme_request *req;
	struct spdk_nvme_rdma_req *next;
};

struct nvme_tcp_req {
	uint16_t cid;
	struct nvme_request *req;
	struct nvme_tcp_req *next;
};

struct nvme_rdma_qpair {
	struct spdk_nvme_qpair qpair;
	struct {
		struct spdk_nvme_rdma_req *tqh_first;
	} free_reqs;
};

struct nvme_tcp_qpair {
	struct spdk_nvme_qpair qpair;
	struct {
		struct nvme_tcp_req *tqh_first;
	} free_reqs;
};

static volatile uint64_t sink;

__attribute__((noipa)) int
spdk_rdma_provider_qp_queue_send_wrs(void *qp, struct ibv_send_wr *wr)
{
	sink += wr->wr_id + !!qp;
	return 0;
}

__attribute__((noipa)) void
nvme_rdma_req_complete(struct spdk_nvme_rdma_req *rdma_req, void *cpl)
{
	rdma_req->req->result += rdma_req->id + !!cpl;
}

__attribute__((noipa)) int
nvme_rdma_qpair_submit_request(struct spdk_nvme_qpair *qpair,
			       struct nvme_request *req)
{
	struct nvme_rdma_qpair *rq = (struct nvme_rdma_qpair *)qpair;
	struct spdk_nvme_rdma_req *r = rq->free_reqs.tqh_first;

	r->req = req;
	r->send_wr.wr_id = req->cmd.cid;
	spdk_rdma_provider_qp_queue_send_wrs(NULL, &r->send_wr);
	nvme_rdma_req_complete(r, NULL);
	return 0;
}

__attribute__((noipa)) int
nvme_tcp_qpair_write_pdu(struct nvme_tcp_req *tcp_req)
{
	sink += tcp_req->req->payload.size;
	return 0;
}

__attribute__((noipa)) void
nvme_tcp_req_complete(struct nvme_tcp_req *tcp_req, void *cpl)
{
	tcp_req->req->result += tcp_req->cid + !!cpl;
}

__attribute__((noipa)) int
nvme_tcp_qpair_submit_request(struct spdk_nvme_qpair *qpair,
			      struct nvme_request *req)
{
	struct nvme_tcp_qpair *tq = (struct nvme_tcp_qpair *)qpair;
	struct nvme_tcp_req *t = tq->free_reqs.tqh_first;

	t->req = req;
	nvme_tcp_qpair_write_pdu(t);
	nvme_tcp_req_complete(t, NULL);
	return 0;
}

int main(int argc, char *argv[])
{
	static struct spdk_nvme_rdma_req rreq = { .id = 1 };
	static struct nvme_tcp_req treq = { .cid = 1 };
	struct nvme_rdma_qpair rq = { { 0, 1 }, { &rreq } };
	struct nvme_tcp_qpair tq = { { 0, 1 }, { &treq } };
	struct nvme_request req;
	unsigned long n = 10, i;
	uint64_t sum = 0;
	int rdma = 0, a;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "-n") && a + 1 < argc)
			n = strtoul(argv[++a], NULL, 10);
		else if (strstr(argv[a], "trtype:RDMA") ||
			 strstr(argv[a], "trtype=rdma"))
			rdma = 1;
	}
	for (i = 0; i < n; i++) {
		memset(&req, 0, sizeof(req));
		req.cmd.opc = 0x02;
		req.cmd.cid = (uint16_t)i;
		req.cmd.nsid = 1;
		req.cmd.cdw10 = (uint32_t)i;
		req.payload.size = 4096;
		if (rdma)
			nvme_rdma_qpair_submit_request(&rq.qpair, &req);
		else
			nvme_tcp_qpair_submit_request(&tq.qpair, &req);
		sum += req.result;
	}
	printf("done %lu %llu\n", n, (unsigned long long)sum);
	return 0;
}
