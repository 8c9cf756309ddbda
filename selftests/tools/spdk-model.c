// SPDX-License-Identifier: GPL-2.0
/*
 * A model of nvmf_tgt's command path for the agent's tests, where no
 * SPDK build is: the functions of ntprof's target site map, under their
 * SPDK names, taking structs that have the members the map reads, at
 * offsets of this program's own (ntprof finds them in its DWARF, as in
 * SPDK's). Nothing of SPDK's code is here: each "command" goes from
 * spdk_nvmf_request_exec() to nvmf_bdev_ctrlr_read_cmd() or _write_cmd()
 * to _nvmf_request_complete(), which is what ntprof stamps.
 *
 *   spdk-model run COUNT INTERVAL_US   COUNT commands (0: until SIGTERM or
 *                                      SIGINT), one every INTERVAL_US, then
 *                                      "done N SUM" (the results' sum)
 *   spdk-model list COUNT              each command's identity, one a line:
 *                                      qid cid opcode nsid slba length
 *   spdk-model bench COUNT             "ready"; after a line on stdin COUNT
 *                                      commands back to back to warm up,
 *                                      "warm"; after another line COUNT
 *                                      more, timed: "done N SUM NS", NS
 *                                      the loop's CLOCK_MONOTONIC time
 *                                      (instructions under icount:
 *                                      tools/bench/agent-icount.sh)
 *
 * Built with -g -O2; the functions are noipa (no inlining, and no
 * caller that knows what they read: GCC's mod/ref analysis would drop
 * the stores of members they do not use) and read what ntprof reads at
 * their entries, as SPDK's do. The sum that "run"
 * prints depends on the commands only: the same with the agent, on or
 * off, as without it.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "spdk-model-cmd.h"

/* The names and members ntprof's site map reads; the rest is padding. */
union nvmf_h2c_msg {
	struct spdk_nvme_cmd nvme_cmd;
	uint8_t raw[64];
};

struct spdk_nvmf_transport_ops {
	const char *name;
	int type;		/* 3: TCP, as enum spdk_nvme_transport_type */
};

struct spdk_nvmf_transport {
	const struct spdk_nvmf_transport_ops *ops;
};

struct spdk_nvmf_qpair {
	uint32_t state;
	struct spdk_nvmf_transport *transport;
	uint16_t qid;
};

struct spdk_nvmf_request {
	struct spdk_nvmf_qpair *qpair;
	uint32_t length;
	union nvmf_h2c_msg *cmd;
	uint64_t result;
};

static const struct spdk_nvmf_transport_ops tcp_ops = { "TCP", 3 };
static struct spdk_nvmf_transport tcp = { &tcp_ops };
static struct spdk_nvmf_qpair qpairs[4];
static volatile sig_atomic_t stop;
/* Keeps the compiler from folding the calls away. */
static volatile uint64_t sink;

/* Command @i's identity: it depends on its number only. */
static void make(struct spdk_nvmf_request *req, union nvmf_h2c_msg *msg,
		 uint32_t i)
{
	struct spdk_nvme_cmd *c = &msg->nvme_cmd;
	uint32_t nlb = i % 8;

	memset(msg, 0, sizeof(*msg));
	c->opc = i % 3 ? 0x02 : 0x01;	/* two reads, a write */
	c->cid = i & 0xffff;
	c->nsid = 1 + i % 2;
	c->cdw10 = 1000 * i;
	c->cdw11 = 0;
	c->cdw12 = nlb;
	req->qpair = &qpairs[i % 4];
	req->length = 512 * (nlb + 1);
	req->cmd = msg;
	req->result = 0;
}

__attribute__((noipa)) int
nvmf_bdev_ctrlr_read_cmd(void *bdev, void *desc, void *ch,
			 struct spdk_nvmf_request *req)
{
	req->result += req->length + !!bdev + !!desc + !!ch;
	return 1;
}

__attribute__((noipa)) int
nvmf_bdev_ctrlr_write_cmd(void *bdev, void *desc, void *ch,
			  struct spdk_nvmf_request *req)
{
	req->result += 2 * req->length + !!bdev + !!desc + !!ch;
	return 1;
}

__attribute__((noipa)) int _nvmf_request_complete(void *arg)
{
	struct spdk_nvmf_request *req = arg;

	sink += req->result;
	return 0;
}

__attribute__((noipa)) void spdk_nvmf_request_exec(struct spdk_nvmf_request *req)
{
	static char bdev, desc, ch;
	const struct spdk_nvme_cmd *c = &req->cmd->nvme_cmd;

	/* What SPDK's reads too: the queue, the transport, the command. */
	if (!req->qpair->qid || req->qpair->transport->ops->type != 3 ||
	    !c->nsid || req->length != 512 * ((c->cdw12 & 0xffff) + 1))
		abort();
	if (c->opc == 0x02)
		nvmf_bdev_ctrlr_read_cmd(&bdev, &desc, &ch, req);
	else
		nvmf_bdev_ctrlr_write_cmd(&bdev, &desc, &ch, req);
	_nvmf_request_complete(req);
}

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void sleep_us(unsigned long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	if (us)
		nanosleep(&ts, NULL);
}

static int run(unsigned long count, unsigned long interval_us)
{
	struct spdk_nvmf_request req;
	union nvmf_h2c_msg msg;
	unsigned long i;
	uint64_t sum = 0;

	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	for (i = 0; !stop && (!count || i < count); i++) {
		make(&req, &msg, i);
		spdk_nvmf_request_exec(&req);
		sum += req.result;
		sleep_us(interval_us);
	}
	printf("done %lu %llu\n", i, (unsigned long long)sum);
	return 0;
}

/* The commands alone, back to back: what the bench times. */
__attribute__((noipa)) uint64_t bench_loop(unsigned long count)
{
	struct spdk_nvmf_request req;
	union nvmf_h2c_msg msg;
	unsigned long i;
	uint64_t sum = 0;

	for (i = 0; i < count; i++) {
		make(&req, &msg, i);
		spdk_nvmf_request_exec(&req);
		sum += req.result;
	}
	return sum;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int bench(unsigned long count)
{
	uint64_t t0, sum;
	char line[16];

	puts("ready");
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	bench_loop(count);
	puts("warm");
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	t0 = mono_ns();
	sum = bench_loop(count);
	printf("done %lu %llu %llu\n", count, (unsigned long long)sum,
	       (unsigned long long)(mono_ns() - t0));
	return 0;
}

static int list(unsigned long count)
{
	struct spdk_nvmf_request req;
	union nvmf_h2c_msg msg;
	unsigned long i;

	for (i = 0; i < count; i++) {
		make(&req, &msg, i);
		printf("%u %u %u %u %u %u\n", req.qpair->qid,
		       msg.nvme_cmd.cid, msg.nvme_cmd.opc, msg.nvme_cmd.nsid,
		       msg.nvme_cmd.cdw10, req.length);
	}
	return 0;
}

int main(int argc, char *argv[])
{
	unsigned int q;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (q = 0; q < 4; q++) {
		qpairs[q].qid = q + 1;
		qpairs[q].transport = &tcp;
	}
	if (argc == 4 && !strcmp(argv[1], "run"))
		return run(strtoul(argv[2], NULL, 0), strtoul(argv[3], NULL, 0));
	if (argc == 3 && !strcmp(argv[1], "list"))
		return list(strtoul(argv[2], NULL, 0));
	if (argc == 3 && !strcmp(argv[1], "bench"))
		return bench(strtoul(argv[2], NULL, 0));
	fprintf(stderr, "usage: spdk-model run COUNT INTERVAL_US | list COUNT | bench COUNT\n");
	return 2;
}
