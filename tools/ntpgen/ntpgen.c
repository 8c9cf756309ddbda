// SPDX-License-Identifier: GPL-2.0
/*
 * ntpgen: writes a host's and a target's .ntp recordings of the same
 * synthetic NVMe-oF workload, with known stage means, for the tests and
 * benchmarks of 'ntprof report'. A developer's tool, installed nowhere.
 *
 * The workload is a closed loop: Q queues of D slots (tags) each, every
 * slot issuing its next command a short gap after the previous one
 * completed, as fio's iodepth does. Each command's path is drawn on one
 * true time line (the host's clock): every point of the stage model
 * (Documentation/stages.rst) in path order, with the target's window
 * nested inside the host's send -> receive window. Target points are then
 * moved to the target's clock, target = host + theta + drift * (t - t0).
 * Both sides pick the commands they record with the module's own 1-in-N
 * decision (kmod/sample.h), so that they record the same commands.
 *
 * The files go through ntp_writer_*() of tools/ntprof/lib/ntp/ntp_write.c:
 * exactly the bytes 'ntprof record' writes.
 * */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/names.h"
#include "common/util.h"
#include "ntp/ntp.h"

#ifndef NTPROF_VERSION
#define NTPROF_VERSION "unknown"
#endif

#define NSEC_PER_USEC	1000ULL

#define OP_WRITE	0x01
#define OP_READ		0x02

/* The stages of Documentation/stages.rst whose means the options set. */
enum {
	ST_HOST_BLK,
	ST_HOST_DRV,
	ST_NETWORK,
	ST_TGT_DRV,
	ST_STORAGE,
	ST_E2E,

	ST_COUNT
};

struct opts {
	uint64_t commands;
	uint8_t transport;
	uint32_t sample;
	uint32_t target_sample;	/* 0 until parsed: then the host's */
	int64_t theta_ns;
	double drift_ppm;
	int64_t real_skew_ns;
	unsigned int queues;
	unsigned int qdepth;
	bool genctr;
	double read_pct;
	double large_pct;
	uint64_t span;
	uint32_t lba_size;
	uint64_t seed;
	double stage_us[ST_STORAGE + 1];
	double jitter;
	/* --slow-queue Q:US: the drive takes US more on queue Q (0: none). */
	uint64_t slow_qid;
	double slow_us;
	/* --slow-from SECS:US: the drive takes US more from SECS on. */
	double slow_from_s;
	double slow_from_us;
	/* --failed-pct P: of the host's unsampled commands, % that fail. */
	double failed_pct;
	double gap_us;
	double no_target_pct;
	double no_host_pct;
	double stale_recv_pct;
	uint32_t nr_cpus;
	bool hooks;
	bool no_trailer;
	bool quiet;
	const char *expect;
	const char *host_path;
	const char *target_path;
};

/* Random numbers: xoshiro256**, seeded by splitmix64. */
struct rng {
	uint64_t s[4];
};

/* The kernel's new_encode_dev(). */
#define ENCODE_DEV(major, minor) \
	(((minor) & 0xffU) | ((major) << 8) | (((minor) & ~0xffU) << 12))

#define HOST_DEV	ENCODE_DEV(259U, 0U)	/* nvme1n1 */
#define TARGET_DEV	ENCODE_DEV(252U, 0U)	/* nullb0 */
#define NSID		1

/* The workload's slots, in a min-heap by the time each next issues. */
struct slot {
	uint64_t next;		/* true time (host clock) of its next start */
	uint16_t qid;
	uint16_t tag;
	uint8_t gen;		/* Linux's 4-bit generation counter */
};

/* Sums of the stages of one group of commands, from the written records. */
struct acc {
	uint8_t op;
	uint32_t length;
	uint64_t n;
	int64_t sum[ST_COUNT];
};

#define NR_GROUPS	4	/* read/write x 4 KiB/128 KiB */

struct gen {
	const struct opts *o;
	struct rng rng;
	uint64_t t0;		/* host start, CLOCK_MONOTONIC */
	uint64_t real0;		/* the same instant, CLOCK_REALTIME */
	struct ntp_writer *hw;
	struct ntp_writer *tw;
	struct ntprof_record *hbuf;
	struct ntprof_record *tbuf;
	size_t nh, nt;
	uint64_t host_records;
	uint64_t target_records;
	uint64_t last_true;	/* the latest host time of any point */
	struct acc groups[NR_GROUPS];
	struct acc all;
	struct acc host_alone;	/* host records without a target one */
};

#define BUF_RECORDS	NTP_BLOCK_RECORDS

/* What both sides see of a command: what the 1-in-N decision hashes. */
struct cmd_identity {
	bool is_read;
	bool large;
	uint8_t opcode;
	uint32_t length;
	uint32_t nlb;
	uint64_t slba;
	uint16_t qid;
	uint16_t cid;
};

/* The parts of each stage, drawn for one command (ns). */
struct cmd_durations {
	uint64_t blk_sub, blk_comp;	/* host block layer */
	uint64_t drv_sub, drv_comp;	/* host driver */
	uint64_t hop_out, hop_back;	/* network: the wire */
	uint64_t host_recv;		/* network: the host's receive path */
	uint64_t tgt_sub, tgt_comp;	/* target driver */
	uint64_t st_blk1, drive, st_blk2;	/* storage */
};

/* Which sides record a command, and whether it failed. */
struct cmd_sides {
	bool host;
	bool target;
	bool failed;
};

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void rng_seed(struct rng *r, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t res = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return res;
}

/* Uniform in [0, 1). */
static double rng_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

/* A duration of mean @mean_ns, uniform in mean * [1 - jitter, 1 + jitter]. */
static uint64_t draw(struct rng *r, double mean_ns, double jitter)
{
	double v = mean_ns * (1.0 + jitter * (2.0 * rng_unit(r) - 1.0));

	return v < 1.0 ? 1 : (uint64_t)(v + 0.5);
}

/* The module's 1-in-N decision (uapi), on what both sides see. */
static bool sample_pick(uint16_t qid, uint16_t cid, uint8_t opcode,
			uint32_t nsid, uint64_t slba, uint16_t nlb, uint32_t n)
{
	return n <= 1 ||
	       ntprof_sample_hash(qid, cid, opcode, nsid, slba, nlb) % n == 0;
}

/* True time (host clock) to the target's clock. */
static uint64_t to_target(const struct gen *g, uint64_t t)
{
	double drift = g->o->drift_ppm * 1e-6 * (double)(t - g->t0);

	return (uint64_t)((int64_t)t + g->o->theta_ns + (int64_t)llround(drift));
}

static void acc_add(struct acc *a, const int64_t *v)
{
	int s;

	a->n++;
	for (s = 0; s < ST_COUNT; s++)
		a->sum[s] += v[s];
}

/*
 * The stages of a joined command as ntprof_breakdown() computes them,
 * from the points as written: each an interval on one machine's clock,
 * the wire the host's wait minus the target's window.
 */
static void stages_of(const struct ntprof_record *h,
		      const struct ntprof_record *t, uint8_t transport,
		      int64_t *v)
{
	const __u64 *hp = h->ts, *tp = t->ts;
	unsigned int tend = transport == NTPROF_TRANSPORT_TCP ?
			    NTPROF_PT_TARGET_SEND : NTPROF_PT_TARGET_QUEUE_RESP;
	/* Without its receive, the target's window starts at EXEC. */
	unsigned int tstart = tp[NTPROF_PT_TARGET_RECV] ?
			      NTPROF_PT_TARGET_RECV : NTPROF_PT_TARGET_EXEC;

	v[ST_HOST_BLK] = (int64_t)(hp[NTPROF_PT_HOST_QUEUE_RQ] -
				   hp[NTPROF_PT_HOST_BLK_START]) +
			 (int64_t)(hp[NTPROF_PT_HOST_BLK_COMPLETE] -
				   hp[NTPROF_PT_HOST_NVME_COMPLETE]);
	v[ST_HOST_DRV] = (int64_t)(hp[NTPROF_PT_HOST_SEND] -
				   hp[NTPROF_PT_HOST_QUEUE_RQ]) +
			 (int64_t)(hp[NTPROF_PT_HOST_NVME_COMPLETE] -
				   hp[NTPROF_PT_HOST_DRIVER_DONE]);
	v[ST_NETWORK] = (int64_t)(hp[NTPROF_PT_HOST_RECV] -
				  hp[NTPROF_PT_HOST_SEND]) -
			(int64_t)(tp[tend] - tp[tstart]) +
			(int64_t)(hp[NTPROF_PT_HOST_DRIVER_DONE] -
				  hp[NTPROF_PT_HOST_RECV]);
	v[ST_TGT_DRV] = (int64_t)(tp[NTPROF_PT_TARGET_EXEC] -
				  tp[tstart]) +
			(int64_t)(tp[tend] - tp[NTPROF_PT_TARGET_COMPLETE]);
	v[ST_STORAGE] = (int64_t)(tp[NTPROF_PT_TARGET_COMPLETE] -
				  tp[NTPROF_PT_TARGET_EXEC]);
	v[ST_E2E] = (int64_t)(hp[NTPROF_PT_HOST_BLK_COMPLETE] -
			      hp[NTPROF_PT_HOST_BLK_START]);
}

/* The ids of ntprof report --json's stages (table.c), and "e2e". */
static const char * const st_id[ST_COUNT] = {
	"host_block_layer", "host_driver", "network", "target_driver",
	"storage", "e2e",
};

/* Plausible hook lists, as 'ntprof probe' shows a 6.12 kernel's. */
struct hook_def {
	const char *name;
	uint8_t kind;
	uint8_t role;
	uint8_t transport;	/* NONE: both */
	uint8_t point;
	uint8_t required;
};

#define TP	NTPROF_HOOK_TRACEPOINT
#define KP	NTPROF_HOOK_KPROBE
#define H	NTPROF_ROLE_HOST
#define T	NTPROF_ROLE_TARGET
#define ANY	NTPROF_TRANSPORT_NONE
#define TCP	NTPROF_TRANSPORT_TCP
#define RDMA	NTPROF_TRANSPORT_RDMA

static const struct hook_def hook_defs[] = {
	{ "nvme_setup_cmd", TP, H, ANY, NTPROF_PT_HOST_SETUP, 1 },
	{ "block_rq_issue", TP, H, ANY, NTPROF_PT_HOST_BLK_ISSUE, 0 },
	{ "nvme_complete_rq", TP, H, ANY, NTPROF_PT_HOST_NVME_COMPLETE, 1 },
	{ "block_rq_complete", TP, H, ANY, NTPROF_PT_HOST_BLK_COMPLETE, 1 },
	{ "blk_mq_complete_request_remote", KP, H, ANY,
	  NTPROF_PT_HOST_DRIVER_DONE, 0 },
	{ "nvme_tcp_queue_rq", KP, H, TCP, NTPROF_PT_HOST_QUEUE_RQ, 0 },
	{ "nvme_tcp_try_send_cmd_pdu", KP, H, TCP, NTPROF_PT_HOST_SEND, 0 },
	{ "kernel_sendpage", KP, H, TCP, NTPROF_PT_HOST_SEND, 0 },
	{ "nvme_tcp_setup_h2c_data_pdu", KP, H, TCP, NTPROF_PT_HOST_R2T, 0 },
	{ "nvme_tcp_recv_skb", KP, H, TCP, NTPROF_PT_HOST_RECV, 0 },
	{ "nvme_rdma_queue_rq", KP, H, RDMA, NTPROF_PT_HOST_QUEUE_RQ, 0 },
	{ "nvme_rdma_post_send", KP, H, RDMA, NTPROF_PT_HOST_SEND, 0 },
	{ "nvme_rdma_send_done", KP, H, RDMA, NTPROF_PT_HOST_SEND_DONE, 0 },
	{ "nvme_rdma_recv_done", KP, H, RDMA, NTPROF_PT_HOST_RECV, 0 },
	{ "nvmet_req_init", TP, T, ANY, NTPROF_PT_TARGET_INIT, 1 },
	{ "nvmet_bdev_execute_rw", KP, T, ANY, NTPROF_PT_TARGET_EXEC, 0 },
	{ "block_rq_issue", TP, T, ANY, NTPROF_PT_TARGET_BLK_ISSUE, 0 },
	{ "block_rq_complete", TP, T, ANY, NTPROF_PT_TARGET_BLK_COMPLETE, 0 },
	{ "nvmet_req_complete", TP, T, ANY, NTPROF_PT_TARGET_COMPLETE, 1 },
	{ "nvmet_tcp_try_recv_pdu", KP, T, TCP, NTPROF_PT_TARGET_RECV, 0 },
	{ "nvmet_tcp_build_pdu_iovec", KP, T, TCP, NTPROF_PT_TARGET_DATA, 0 },
	{ "nvmet_tcp_queue_response", KP, T, TCP,
	  NTPROF_PT_TARGET_QUEUE_RESP, 1 },
	{ "nvmet_setup_response_pdu", KP, T, TCP, NTPROF_PT_TARGET_SEND, 0 },
	{ "nvmet_rdma_recv_done", KP, T, RDMA, NTPROF_PT_TARGET_RECV, 0 },
	{ "nvmet_rdma_read_data_done", KP, T, RDMA, NTPROF_PT_TARGET_DATA, 0 },
	{ "nvmet_rdma_queue_response", KP, T, RDMA,
	  NTPROF_PT_TARGET_QUEUE_RESP, 1 },
	{ "nvmet_rdma_send_done", KP, T, RDMA, NTPROF_PT_TARGET_SEND_DONE, 0 },
};

static size_t hooks_of(uint8_t role, uint8_t transport, struct ntp_hook *out)
{
	const struct hook_def *d;
	size_t i, n = 0;

	for (i = 0; i < ARRAY_SIZE(hook_defs); i++) {
		d = &hook_defs[i];
		if (d->role != role ||
		    (d->transport != ANY && d->transport != transport))
			continue;
		memset(&out[n], 0, sizeof(out[n]));
		snprintf(out[n].name, sizeof(out[n].name), "%s", d->name);
		out[n].kind = d->kind;
		out[n].role = d->role;
		out[n].transport = d->transport;
		out[n].point = d->point;
		out[n].required = d->required;
		out[n].state = NTPROF_HOOK_ATTACHED;
		n++;
	}
	return n;
}

/* A random UUID, as /proc/sys/kernel/random/boot_id shows one. */
static void make_uuid(struct rng *r, char *buf)
{
	uint64_t a = rng_next(r), b = rng_next(r);

	snprintf(buf, NTP_BOOT_ID_MAX + 1,
		 "%08" PRIx64 "-%04" PRIx64 "-4%03" PRIx64 "-%04" PRIx64
		 "-%012" PRIx64,
		 a >> 32, (a >> 16) & 0xffff, a & 0xfff,
		 (uint64_t)(0x8000 | ((b >> 48) & 0x3fff)),
		 (uint64_t)(b & 0xffffffffffffULL));
}

static void fill_header(struct ntp_header *hdr, const struct opts *o,
			uint8_t role, struct rng *r, struct ntp_hook *hooks)
{
	memset(hdr, 0, sizeof(*hdr));
	hdr->role = role;
	hdr->transport = o->transport;
	hdr->sample = role == NTPROF_ROLE_HOST ? o->sample : o->target_sample;
	hdr->nr_cpus = o->nr_cpus;
	snprintf(hdr->hostname, sizeof(hdr->hostname), "%s",
		 role == NTPROF_ROLE_HOST ? "ntpgen-host" : "ntpgen-target");
	snprintf(hdr->kernel_release, sizeof(hdr->kernel_release),
		 "6.12.12+bpo-amd64");
	make_uuid(r, hdr->boot_id);
	snprintf(hdr->tool_version, sizeof(hdr->tool_version),
		 "ntpgen-%s", NTPROF_VERSION);
	if (o->hooks) {
		hdr->nr_hooks = hooks_of(role, o->transport, hooks);
		hdr->hooks = hooks;
	}
}

/* The device and controller tables: names for the records' dev numbers. */
static void fill_devs(struct ntp_header *hdr, const struct opts *o,
		      uint8_t role)
{
	static struct ntp_dev hdev = { HOST_DEV, "nvme1n1" };
	static struct ntp_dev tdev = { TARGET_DEV, "nullb0" };
	static struct ntp_ctrl ctrl;

	hdr->nr_devs = 1;
	hdr->devs = role == NTPROF_ROLE_HOST ? &hdev : &tdev;

	memset(&ctrl, 0, sizeof(ctrl));
	ctrl.nsid = NSID;
	ctrl.transport = o->transport;
	snprintf(ctrl.subsysnqn, sizeof(ctrl.subsysnqn),
		 "nqn.2014-08.org.nvmexpress:ntpgen");
	snprintf(ctrl.address, sizeof(ctrl.address),
		 "traddr=10.0.0.2,trsvcid=4420");
	if (role == NTPROF_ROLE_HOST) {
		ctrl.dev = HOST_DEV;
		ctrl.cntlid = 1;
		snprintf(ctrl.name, sizeof(ctrl.name), "nvme1");
	} else {
		ctrl.dev = TARGET_DEV;
		snprintf(ctrl.name, sizeof(ctrl.name), "port 1");
	}
	hdr->nr_ctrls = 1;
	hdr->ctrls = &ctrl;
}

/* Fills the header of @role's file and opens it: 0, or -1 once said. */
static int open_recording(struct gen *g, uint8_t role,
			  uint64_t start_mono_ns, uint64_t start_real_ns,
			  struct ntp_writer **w)
{
	const struct opts *o = g->o;
	const char *path = role == NTPROF_ROLE_HOST ? o->host_path :
						      o->target_path;
	/* Only read while the header is written, at the open. */
	struct ntp_hook hooks[ARRAY_SIZE(hook_defs)];
	struct ntp_header hdr;
	int ret;

	fill_header(&hdr, o, role, &g->rng, hooks);
	hdr.start_mono_ns = start_mono_ns;
	hdr.start_real_ns = start_real_ns;
	fill_devs(&hdr, o, role);
	ret = ntp_writer_open(path, &hdr, w);
	if (ret) {
		fprintf(stderr, "ntpgen: %s: %s\n", path, strerror(-ret));
		return -1;
	}
	return 0;
}

static int flush_side(struct gen *g, bool host)
{
	int ret;

	if (host) {
		ret = ntp_writer_append(g->hw, g->hbuf, g->nh);
		g->nh = 0;
	} else {
		ret = ntp_writer_append(g->tw, g->tbuf, g->nt);
		g->nt = 0;
	}
	if (ret)
		fprintf(stderr, "ntpgen: %s: %s\n",
			ntp_writer_path(host ? g->hw : g->tw), strerror(-ret));
	return ret;
}

/* Appends @rec to its side's block, written out when full. */
static int emit_record(struct gen *g, bool host,
		       const struct ntprof_record *rec)
{
	if (host) {
		g->hbuf[g->nh++] = *rec;
		g->host_records++;
		return g->nh == BUF_RECORDS ? flush_side(g, true) : 0;
	}
	g->tbuf[g->nt++] = *rec;
	g->target_records++;
	return g->nt == BUF_RECORDS ? flush_side(g, false) : 0;
}

/* Writes out what the blocks hold at the end, the host's first. */
static int flush_records(struct gen *g)
{
	int ret = 0;

	if (g->nh)
		ret = flush_side(g, true);
	if (!ret && g->nt)
		ret = flush_side(g, false);
	return ret;
}

static void print_expect(FILE *f, const struct gen *g)
{
	static const char * const op[] = { "read", "write" };
	const struct opts *o = g->o;
	const struct acc *a;
	int i, s;

	fprintf(f, "commands %" PRIu64 "\n", o->commands);
	fprintf(f, "transport %s\n", ntprof_transport_id(o->transport));
	fprintf(f, "sample %u\n", o->sample);
	fprintf(f, "target_sample %u\n", o->target_sample);
	fprintf(f, "theta_ns %" PRId64 "\n", o->theta_ns);
	fprintf(f, "drift_ppm %g\n", o->drift_ppm);
	fprintf(f, "host_records %" PRIu64 "\n", g->host_records);
	fprintf(f, "target_records %" PRIu64 "\n", g->target_records);
	fprintf(f, "matchable %" PRIu64 "\n", g->all.n);
	fprintf(f, "host_alone %" PRIu64 "\n", g->host_alone.n);
	fprintf(f, "target_alone %" PRIu64 "\n",
		g->target_records - g->all.n);
	fprintf(f, "duration_s %.6f\n",
		(double)(g->last_true - g->t0) / 1e9);
	fputs("nominal", f);
	for (s = 0; s <= ST_STORAGE; s++)
		fprintf(f, " %s %.6f", st_id[s], o->stage_us[s]);
	fprintf(f, " %s %.6f\n", st_id[ST_E2E],
		o->stage_us[ST_HOST_BLK] + o->stage_us[ST_HOST_DRV] +
		o->stage_us[ST_NETWORK] + o->stage_us[ST_TGT_DRV] +
		o->stage_us[ST_STORAGE]);
	/* Realized means of the commands recorded on both sides, in us. */
	for (i = -1; i < NR_GROUPS; i++) {
		a = i < 0 ? &g->all : &g->groups[i];
		if (!a->n)
			continue;
		if (i < 0)
			fprintf(f, "all all all n %" PRIu64, a->n);
		else
			fprintf(f, "group %s %u n %" PRIu64, op[i / 2],
				i % 2 ? 128 * 1024 : 4096, a->n);
		for (s = 0; s < ST_COUNT; s++)
			fprintf(f, " %s %.6f", st_id[s],
				(double)a->sum[s] / (double)a->n / 1e3);
		fputc('\n', f);
	}
}

/* The --expect file: 0, or -1 once said why not. */
static int write_expect(const struct gen *g)
{
	const char *path = g->o->expect;
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, "ntpgen: %s: %s\n", path, strerror(errno));
		return -1;
	}
	print_expect(f, g);
	if (fclose(f)) {
		fprintf(stderr, "ntpgen: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

static void draw_identity(struct gen *g, const struct slot *s,
			  struct cmd_identity *c)
{
	const struct opts *o = g->o;
	struct rng *r = &g->rng;
	uint64_t slots;

	c->is_read = rng_unit(r) * 100.0 < o->read_pct;
	c->large = rng_unit(r) * 100.0 < o->large_pct;
	c->opcode = c->is_read ? OP_READ : OP_WRITE;
	c->length = c->large ? 128 * 1024 : 4096;
	slots = o->span / c->length;
	c->slba = (rng_next(r) % (slots ? slots : 1)) *
		  (c->length / o->lba_size);
	c->nlb = c->length / o->lba_size - 1;
	c->qid = s->qid;
	c->cid = o->genctr ? (uint16_t)((s->gen & 0xf) << 12 | s->tag) :
			     s->tag;
}

/* Each stage's mean, split among its parts; the drive's slow spells. */
static void draw_durations(struct gen *g, const struct slot *s,
			   uint64_t start, struct cmd_durations *d)
{
	const struct opts *o = g->o;
	const double *m = o->stage_us;
	double j = o->jitter;
	struct rng *r = &g->rng;

	d->blk_sub = draw(r, 0.5 * m[ST_HOST_BLK] * 1e3, j);
	d->blk_comp = draw(r, 0.5 * m[ST_HOST_BLK] * 1e3, j);
	d->drv_sub = draw(r, 0.5 * m[ST_HOST_DRV] * 1e3, j);
	d->drv_comp = draw(r, 0.5 * m[ST_HOST_DRV] * 1e3, j);
	d->hop_out = draw(r, 0.4 * m[ST_NETWORK] * 1e3, j);
	d->hop_back = draw(r, 0.4 * m[ST_NETWORK] * 1e3, j);
	d->host_recv = draw(r, 0.2 * m[ST_NETWORK] * 1e3, j);
	d->tgt_sub = draw(r, 0.5 * m[ST_TGT_DRV] * 1e3, j);
	d->tgt_comp = draw(r, 0.5 * m[ST_TGT_DRV] * 1e3, j);
	d->st_blk1 = draw(r, 0.1 * m[ST_STORAGE] * 1e3, j);
	d->drive = draw(r, 0.8 * m[ST_STORAGE] * 1e3, j);
	if (s->qid == o->slow_qid)
		d->drive += (uint64_t)(o->slow_us * 1e3);
	if (o->slow_from_us > 0 &&
	    (double)(start - g->t0) >= o->slow_from_s * 1e9)
		d->drive += (uint64_t)(o->slow_from_us * 1e3);
	d->st_blk2 = draw(r, 0.1 * m[ST_STORAGE] * 1e3, j);
}

/*
 * The points of a command issued at true time @start, in path order, the
 * target's window nested in the host's send -> receive window: all in
 * true time, the target's too for now. Returns the command's end.
 */
static uint64_t place_points(const struct cmd_identity *c,
			     const struct cmd_durations *d, bool tcp,
			     uint64_t start, uint64_t *hp, uint64_t *tp)
{
	bool large_write = !c->is_read && c->large;
	uint64_t x = start;

	/* The host's submission. */
	hp[NTPROF_PT_HOST_BLK_START] = x;
	hp[NTPROF_PT_HOST_QUEUE_RQ] = x += d->blk_sub;
	hp[NTPROF_PT_HOST_SETUP] = x + d->drv_sub * 2 / 5;
	hp[NTPROF_PT_HOST_BLK_ISSUE] = x + d->drv_sub * 3 / 5;
	hp[NTPROF_PT_HOST_SEND] = x += d->drv_sub;
	/* The target's window. */
	tp[NTPROF_PT_TARGET_RECV] = x += d->hop_out;
	tp[NTPROF_PT_TARGET_INIT] = x + d->tgt_sub / 5;
	if (tcp && large_write) {
		/* R2T: a round trip for the data, inside the submission. */
		tp[NTPROF_PT_TARGET_R2T] = x + d->tgt_sub * 2 / 5;
		hp[NTPROF_PT_HOST_R2T] = x + d->tgt_sub * 3 / 5;
		tp[NTPROF_PT_TARGET_DATA] = x + d->tgt_sub * 4 / 5;
	} else if (large_write) {
		/* RDMA READ of the data. */
		tp[NTPROF_PT_TARGET_DATA] = x + d->tgt_sub * 4 / 5;
	}
	if (!tcp)
		/* The capsule's SEND completes about when it arrived. */
		hp[NTPROF_PT_HOST_SEND_DONE] = x + d->tgt_sub / 10;
	tp[NTPROF_PT_TARGET_EXEC] = x += d->tgt_sub;
	tp[NTPROF_PT_TARGET_BLK_ISSUE] = x += d->st_blk1;
	tp[NTPROF_PT_TARGET_BLK_COMPLETE] = x += d->drive;
	tp[NTPROF_PT_TARGET_COMPLETE] = x += d->st_blk2;
	if (tcp) {
		tp[NTPROF_PT_TARGET_QUEUE_RESP] = x + d->tgt_comp * 3 / 5;
		tp[NTPROF_PT_TARGET_SEND] = x += d->tgt_comp;
	} else {
		tp[NTPROF_PT_TARGET_QUEUE_RESP] = x += d->tgt_comp;
		/* Acknowledged by the host's NIC: inside the host's window. */
		tp[NTPROF_PT_TARGET_SEND_DONE] = x + d->hop_back * 9 / 10;
	}
	/* The host's completion. */
	hp[NTPROF_PT_HOST_RECV] = x += d->hop_back;
	hp[NTPROF_PT_HOST_DRIVER_DONE] = x += d->host_recv;
	hp[NTPROF_PT_HOST_NVME_COMPLETE] = x += d->drv_comp;
	hp[NTPROF_PT_HOST_BLK_COMPLETE] = x += d->blk_comp;
	return x;
}

/* Each side's own sampling, then failures and losses on one side. */
static void choose_sides(struct gen *g, const struct cmd_identity *c,
			 struct cmd_sides *w)
{
	const struct opts *o = g->o;
	struct rng *r = &g->rng;
	bool hs, ts;

	hs = sample_pick(c->qid, c->cid, c->opcode, NSID, c->slba, c->nlb,
			 o->sample);
	ts = sample_pick(c->qid, c->cid, c->opcode, NSID, c->slba, c->nlb,
			 o->target_sample);
	/*
	 * A failed command outside the sample: the host's recorder keeps
	 * it (flagged failed, not sampled), and its target sees nothing.
	 */
	w->failed = !hs && o->failed_pct > 0 &&
		    rng_unit(r) * 100.0 < o->failed_pct;
	w->host = hs || w->failed;
	w->target = ts && !w->failed;
	/* Lost on one side: buffer drops, filters, a side not sampling. */
	if (hs && ts && o->no_target_pct > 0 &&
	    rng_unit(r) * 100.0 < o->no_target_pct)
		w->target = false;
	else if (hs && ts && o->no_host_pct > 0 &&
		 rng_unit(r) * 100.0 < o->no_host_pct)
		w->host = false;
}

/* Both sides' records of a command, each point on its side's clock. */
static void build_records(const struct gen *g, const struct cmd_identity *c,
			  bool failed, const uint64_t *hp, const uint64_t *tp,
			  struct ntprof_record *h, struct ntprof_record *t)
{
	const struct opts *o = g->o;
	int i;

	memset(h, 0, sizeof(*h));
	h->role = NTPROF_ROLE_HOST;
	h->transport = o->transport;
	h->opcode = c->opcode;
	h->flags = failed ? NTPROF_REC_F_FAILED : NTPROF_REC_F_SAMPLED;
	/* LBA Out of Range (generic status 0x80), as NVMe's status field. */
	h->status = failed ? 0x80 << 1 : 0;
	h->qid = c->qid;
	h->cid = c->cid;
	h->nsid = NSID;
	h->length = c->length;
	h->slba = c->slba;
	h->cntlid = 1;
	h->cpu_submit = (c->qid - 1) % o->nr_cpus;
	h->cpu_complete = h->cpu_submit;
	h->dev = HOST_DEV;
	*t = *h;
	t->role = NTPROF_ROLE_TARGET;
	t->cpu_submit = (c->qid - 1) % o->nr_cpus;
	t->cpu_complete = t->cpu_submit;
	t->dev = TARGET_DEV;
	for (i = 0; i < NTPROF_PT_COUNT; i++) {
		h->ts[i] = hp[i];
		t->ts[i] = tp[i] ? to_target(g, tp[i]) : 0;
	}
}

/*
 * A command both sides record: its stages into its group and all. With
 * --stale-recv-pct, first spoils the target's receive stamp.
 */
static void account_joined(struct gen *g, const struct cmd_identity *c,
			   const struct ntprof_record *h,
			   struct ntprof_record *t)
{
	const struct opts *o = g->o;
	struct ntprof_record expected = *t;
	int gi = (c->is_read ? 0 : 2) + (c->large ? 1 : 0);
	int64_t v[ST_COUNT];

	/*
	 * A stale receive: stamped by an earlier read of the receive
	 * path, before the host sent. report drops it: the expected
	 * stages are those without it.
	 */
	if (o->stale_recv_pct > 0 &&
	    rng_unit(&g->rng) * 100.0 < o->stale_recv_pct) {
		expected.ts[NTPROF_PT_TARGET_RECV] = 0;
		t->ts[NTPROF_PT_TARGET_RECV] =
			to_target(g, h->ts[NTPROF_PT_HOST_BLK_START]) -
			(h->ts[NTPROF_PT_HOST_RECV] -
			 h->ts[NTPROF_PT_HOST_SEND]);
	}
	stages_of(h, &expected, o->transport, v);
	acc_add(&g->groups[gi], v);
	acc_add(&g->all, v);
}

/* A host record without a target one: only its end to end counts. */
static void account_host_alone(struct gen *g, const struct ntprof_record *h)
{
	g->host_alone.n++;
	g->host_alone.sum[ST_E2E] +=
		(int64_t)(h->ts[NTPROF_PT_HOST_BLK_COMPLETE] -
			  h->ts[NTPROF_PT_HOST_BLK_START]);
}

/*
 * One command, issued at true time @start from slot @s: draws its path,
 * writes the records each side samples, and returns its completion time.
 */
static int command(struct gen *g, const struct slot *s, uint64_t start,
		   uint64_t *end)
{
	uint64_t hp[NTPROF_PT_COUNT] = { 0 }, tp[NTPROF_PT_COUNT] = { 0 };
	struct ntprof_record h, t;
	struct cmd_identity c;
	struct cmd_durations d;
	struct cmd_sides w;

	draw_identity(g, s, &c);
	draw_durations(g, s, start, &d);
	*end = place_points(&c, &d, g->o->transport == NTPROF_TRANSPORT_TCP,
			    start, hp, tp);
	if (*end > g->last_true)
		g->last_true = *end;

	choose_sides(g, &c, &w);
	if (!w.host && !w.target)
		return 0;
	build_records(g, &c, w.failed, hp, tp, &h, &t);
	if (w.host && w.target)
		account_joined(g, &c, &h, &t);
	else if (w.host && !w.failed)
		account_host_alone(g, &h);
	if (w.host && emit_record(g, true, &h))
		return -1;
	if (w.target && emit_record(g, false, &t))
		return -1;
	return 0;
}

static void heap_down(struct slot *h, size_t n, size_t i)
{
	struct slot x = h[i];
	size_t c;

	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n && h[c + 1].next < h[c].next)
			c++;
		if (h[c].next >= x.next)
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = x;
}

/* Every slot starts within the first few microseconds. */
static void start_slots(struct gen *g, struct slot *heap, uint64_t nslots)
{
	const struct opts *o = g->o;
	uint64_t i;

	for (i = 0; i < nslots; i++) {
		heap[i].qid = 1 + i / o->qdepth;
		heap[i].tag = i % o->qdepth;
		heap[i].gen = rng_next(&g->rng) & 0xf;
		heap[i].next = g->t0 + NSEC_PER_SEC / 1000 +
			       rng_next(&g->rng) % (10 * NSEC_PER_USEC);
	}
	for (i = nslots / 2; i-- > 0;)
		heap_down(heap, nslots, i);
}

/*
 * Issues --commands commands from @nslots slots at @heap, the earliest
 * slot's each time, and writes out the last records: 0, or not 0 once
 * said why not.
 */
static int run_workload(struct gen *g, struct slot *heap, uint64_t nslots)
{
	const struct opts *o = g->o;
	uint64_t i, end, gap;
	int ret = 0;

	start_slots(g, heap, nslots);
	for (i = 0; i < o->commands && !ret; i++) {
		ret = command(g, &heap[0], heap[0].next, &end);
		gap = o->gap_us > 0 ? (uint64_t)(2.0 * o->gap_us * 1e3 *
						 rng_unit(&g->rng)) : 0;
		heap[0].next = end + 1 + gap;
		heap[0].gen++;
		heap_down(heap, nslots, 0);
	}
	if (!ret)
		ret = flush_records(g);
	return ret;
}

static int parse_u64(const char *s, const char *what, uint64_t min,
		     uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-' || v < min || v > max) {
		fprintf(stderr, "ntpgen: %s: '%s' is not a number from %" PRIu64
			" to %" PRIu64 "\n", what, s, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

static int parse_double(const char *s, const char *what, double min,
			double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= min && v <= max)) {
		fprintf(stderr, "ntpgen: %s: '%s' is not a number from %g to %g\n",
			what, s, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

/* A signed duration: a number with ns (default), us, ms or s. */
static int parse_dur(const char *s, const char *what, int64_t *out)
{
	static const struct {
		const char *sfx;
		double mul;
	} units[] = {
		{ "", 1 }, { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 },
		{ "s", 1e9 },
	};
	char *end;
	double v;
	size_t i;

	errno = 0;
	v = strtod(s, &end);
	if (!errno && end != s) {
		for (i = 0; i < ARRAY_SIZE(units); i++) {
			if (strcmp(end, units[i].sfx))
				continue;
			v *= units[i].mul;
			if (fabs(v) > 1e6 * 1e9)
				break;
			*out = llround(v);
			return 0;
		}
	}
	fprintf(stderr, "ntpgen: %s: '%s' is not a duration (e.g. 3s, -250ms, 15us, 1000)\n",
		what, s);
	return -1;
}

/* Bytes with an optional k, M, G or T suffix (powers of 1024). */
static int parse_size(const char *s, const char *what, uint64_t *out)
{
	unsigned long long v;
	int shift = 0;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (!errno && end != s && *s != '-') {
		switch (*end) {
		case 'k': case 'K':
			shift = 10;
			break;
		case 'm': case 'M':
			shift = 20;
			break;
		case 'g': case 'G':
			shift = 30;
			break;
		case 't': case 'T':
			shift = 40;
			break;
		case '\0':
			break;
		default:
			shift = -1;
		}
		if (shift >= 0 && (!*end || !end[1]) && v &&
		    v <= (UINT64_MAX >> 1) >> shift) {
			*out = (uint64_t)v << shift;
			return 0;
		}
	}
	fprintf(stderr, "ntpgen: %s: '%s' is not a size (e.g. 1G, 64M)\n",
		what, s);
	return -1;
}

static void usage(FILE *f)
{
	fputs(
"usage: ntpgen [options] HOST.ntp TARGET.ntp\n"
"\n"
"Writes a host's and a target's .ntp recordings of one synthetic NVMe-oF\n"
"workload, with known stage means, for testing and benchmarking 'ntprof\n"
"report'. Q queues of D tags each issue commands in a closed loop; each\n"
"command's points follow the stage model (Documentation/stages.rst) with\n"
"the target's window nested in the host's send -> receive window, and the\n"
"target's points on its own clock: target = host + theta + drift * (t - t0).\n"
"Both sides sample with the module's 1-in-N decision (kmod/sample.h).\n"
"\n"
"workload:\n"
"  -n, --commands N        commands the workload issues (default 10000); each\n"
"                          side records those its 1-in-N picks\n"
"  -t, --transport T       tcp or rdma (default tcp)\n"
"  -s, --sample N          1-in-N sampling, written in both headers (default 1)\n"
"      --target-sample N   the target's N, if different (to test a refusal)\n"
"  -q, --queues Q          I/O queues, qid 1..Q (default 4)\n"
"  -d, --qdepth D          tags per queue, at most 4096 (default 32)\n"
"      --no-genctr         cid = tag, without Linux's 4-bit generation counter\n"
"                          in bits 15:12 (more reuse of command identities)\n"
"      --read-pct P        reads, in % of commands (default 70)\n"
"      --large-pct P       128 KiB commands, in % (default 20; else 4 KiB)\n"
"      --span BYTES        the LBA range, with k/M/G suffixes (default 1G):\n"
"                          smaller repeats identities (slba) more often\n"
"      --lba-size B        bytes per LBA, 512 or 4096 (default 512)\n"
"      --gap-us US         mean time between a completion and its slot's next\n"
"                          command (default 2)\n"
"      --seed S            random seed (default 1)\n"
"\n"
"stage means, in microseconds (each drawn uniform in mean * (1 +- jitter)):\n"
"      --host-blk-us US    host block layer (default 4)\n"
"      --host-drv-us US    host driver (default 6)\n"
"      --network-us US     network: both hops and the host's receive path\n"
"                          (default 20)\n"
"      --target-drv-us US  target driver (default 10)\n"
"      --storage-us US     storage: target block layer and drive (default 80)\n"
"      --jitter F          relative spread, 0 to 0.9 (default 0.25)\n"
"      --slow-queue Q:US   the drive takes US more for the commands of queue Q\n"
"      --slow-from S:US    the drive takes US more for the commands that start\n"
"                          S seconds or more after the first\n"
"\n"
"clocks:\n"
"      --theta DUR         target clock minus host clock, e.g. 3s, -3s, 250ms,\n"
"                          15us, 1000 (ns; default 1.5s)\n"
"      --drift PPM         the target's clock runs PPM parts per million fast\n"
"                          (negative: slow) (default 0)\n"
"      --real-skew DUR     error of the target's CLOCK_REALTIME against the\n"
"                          host's, which spoils the headers' theta hint\n"
"                          (default 0)\n"
"\n"
"losses:\n"
"      --no-target-pct P   of the commands both sample, % without a target\n"
"                          record (default 0)\n"
"      --no-host-pct P     of the commands both sample, % without a host\n"
"                          record (default 0)\n"
"      --failed-pct P      of the commands the host does not sample, % that\n"
"                          fail (status 0x100) and are recorded anyway, as the\n"
"                          host's recorder keeps every failed command\n"
"      --stale-recv-pct P  of the commands both record, % whose target\n"
"                          receive stamp is an earlier read's, before the\n"
"                          host even sent (default 0): report must drop it\n"
"\n"
"files:\n"
"      --cpus N            nr_cpus in the headers, and CPUs of the records\n"
"                          (default 8)\n"
"      --no-hooks          write no hook list in the headers\n"
"      --no-trailer        end both files without a trailer (cut short)\n"
"  -e, --expect FILE       write what 'ntprof report' should find: record\n"
"                          counts, the nominal means and, per group (op and\n"
"                          size) and for all, the means of the commands both\n"
"                          sides recorded, from the written points (us)\n"
"      --quiet             no summary on stderr\n"
"  -h, --help              this help\n"
"\n"
"examples:\n"
"  ntpgen -n 100000 -t rdma --theta -3s --drift 50 host.ntp target.ntp\n"
"  ntpgen -n 10000000 --storage-us 120 --seed 7 /tmp/h.ntp /tmp/t.ntp\n", f);
}

enum {
	OPT_TARGET_SAMPLE = 256,
	OPT_NO_GENCTR,
	OPT_READ_PCT,
	OPT_LARGE_PCT,
	OPT_SPAN,
	OPT_LBA_SIZE,
	OPT_GAP,
	OPT_SEED,
	OPT_HOST_BLK,
	OPT_HOST_DRV,
	OPT_NETWORK,
	OPT_TGT_DRV,
	OPT_STORAGE,
	OPT_JITTER,
	OPT_SLOW_QUEUE,
	OPT_FAILED_PCT,
	OPT_SLOW_FROM,
	OPT_THETA,
	OPT_DRIFT,
	OPT_REAL_SKEW,
	OPT_NO_TARGET,
	OPT_STALE_RECV,
	OPT_NO_HOST,
	OPT_CPUS,
	OPT_NO_HOOKS,
	OPT_NO_TRAILER,
	OPT_QUIET,
};

static const struct option long_opts[] = {
	{ "commands", required_argument, NULL, 'n' },
	{ "transport", required_argument, NULL, 't' },
	{ "sample", required_argument, NULL, 's' },
	{ "target-sample", required_argument, NULL, OPT_TARGET_SAMPLE },
	{ "queues", required_argument, NULL, 'q' },
	{ "qdepth", required_argument, NULL, 'd' },
	{ "no-genctr", no_argument, NULL, OPT_NO_GENCTR },
	{ "read-pct", required_argument, NULL, OPT_READ_PCT },
	{ "large-pct", required_argument, NULL, OPT_LARGE_PCT },
	{ "span", required_argument, NULL, OPT_SPAN },
	{ "lba-size", required_argument, NULL, OPT_LBA_SIZE },
	{ "gap-us", required_argument, NULL, OPT_GAP },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "host-blk-us", required_argument, NULL, OPT_HOST_BLK },
	{ "host-drv-us", required_argument, NULL, OPT_HOST_DRV },
	{ "network-us", required_argument, NULL, OPT_NETWORK },
	{ "target-drv-us", required_argument, NULL, OPT_TGT_DRV },
	{ "storage-us", required_argument, NULL, OPT_STORAGE },
	{ "jitter", required_argument, NULL, OPT_JITTER },
	{ "slow-queue", required_argument, NULL, OPT_SLOW_QUEUE },
	{ "failed-pct", required_argument, NULL, OPT_FAILED_PCT },
	{ "slow-from", required_argument, NULL, OPT_SLOW_FROM },
	{ "theta", required_argument, NULL, OPT_THETA },
	{ "drift", required_argument, NULL, OPT_DRIFT },
	{ "real-skew", required_argument, NULL, OPT_REAL_SKEW },
	{ "no-target-pct", required_argument, NULL, OPT_NO_TARGET },
	{ "no-host-pct", required_argument, NULL, OPT_NO_HOST },
	{ "stale-recv-pct", required_argument, NULL, OPT_STALE_RECV },
	{ "cpus", required_argument, NULL, OPT_CPUS },
	{ "no-hooks", no_argument, NULL, OPT_NO_HOOKS },
	{ "no-trailer", no_argument, NULL, OPT_NO_TRAILER },
	{ "expect", required_argument, NULL, 'e' },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* In the order of OPT_HOST_BLK to OPT_STORAGE and of stage_us[]. */
static const char * const stage_opt[] = {
	"--host-blk-us", "--host-drv-us", "--network-us", "--target-drv-us",
	"--storage-us",
};

/* What a group's parser returns for an option of another group. */
#define OPT_OTHER_GROUP	1

/* The workload's loop: its size, transport, sampling and identities. */
static int parse_loop_opt(int c, char *arg, struct opts *o)
{
	uint32_t transport;
	uint64_t u;
	int err;

	switch (c) {
	case 'n':
		return parse_u64(arg, "--commands", 1, UINT32_MAX - 1,
				 &o->commands);
	case 't':
		/* One transport: tcp,rdma is not a generator's. */
		if (ntprof_transport_parse(arg, &transport) ||
		    !ntprof_transport_id(transport)) {
			fprintf(stderr, "ntpgen: --transport: '%s' is not tcp or rdma\n",
				arg);
			return -1;
		}
		o->transport = transport;
		return 0;
	case 's':
		err = parse_u64(arg, "--sample", 1, NTPROF_SAMPLE_MAX, &u);
		o->sample = u;
		return err;
	case OPT_TARGET_SAMPLE:
		/* At least 1: parse_args() tells a 0 left here as unset. */
		err = parse_u64(arg, "--target-sample", 1, NTPROF_SAMPLE_MAX,
				&u);
		o->target_sample = u;
		return err;
	case 'q':
		err = parse_u64(arg, "--queues", 1, 1024, &u);
		o->queues = u;
		return err;
	case 'd':
		err = parse_u64(arg, "--qdepth", 1, 4096, &u);
		o->qdepth = u;
		return err;
	case OPT_NO_GENCTR:
		o->genctr = false;
		return 0;
	}
	return OPT_OTHER_GROUP;
}

/* The commands' mix: reads, sizes, addresses, pace and seed. */
static int parse_mix_opt(int c, char *arg, struct opts *o)
{
	uint64_t u;
	int err;

	switch (c) {
	case OPT_READ_PCT:
		return parse_double(arg, "--read-pct", 0, 100, &o->read_pct);
	case OPT_LARGE_PCT:
		return parse_double(arg, "--large-pct", 0, 100, &o->large_pct);
	case OPT_SPAN:
		return parse_size(arg, "--span", &o->span);
	case OPT_LBA_SIZE:
		err = parse_u64(arg, "--lba-size", 512, 4096, &u);
		if (!err && u != 512 && u != 4096) {
			fprintf(stderr, "ntpgen: --lba-size: 512 or 4096\n");
			err = -1;
		}
		o->lba_size = u;
		return err;
	case OPT_GAP:
		return parse_double(arg, "--gap-us", 0, 1e9, &o->gap_us);
	case OPT_SEED:
		return parse_u64(arg, "--seed", 0, UINT64_MAX, &o->seed);
	}
	return OPT_OTHER_GROUP;
}

/*
 * Cuts @arg, @opt's "A:B" (@form), at its colon: returns B, with @arg
 * left as A, or NULL when there is no colon.
 */
static char *split_pair(char *arg, const char *opt, const char *form)
{
	char *colon = strchr(arg, ':');

	if (!colon) {
		fprintf(stderr, "ntpgen: %s takes %s, not '%s'\n", opt, form,
			arg);
		return NULL;
	}
	*colon = '\0';
	return colon + 1;
}

/* The stages' means, their spread, and the drive's slow spells. */
static int parse_stage_opt(int c, char *arg, struct opts *o)
{
	char *us;

	switch (c) {
	case OPT_HOST_BLK:
	case OPT_HOST_DRV:
	case OPT_NETWORK:
	case OPT_TGT_DRV:
	case OPT_STORAGE:
		return parse_double(arg, stage_opt[c - OPT_HOST_BLK], 0.01, 1e7,
				    &o->stage_us[c - OPT_HOST_BLK]);
	case OPT_JITTER:
		return parse_double(arg, "--jitter", 0, 0.9, &o->jitter);
	case OPT_SLOW_QUEUE:
		us = split_pair(arg, "--slow-queue", "Q:US");
		if (!us)
			return -EINVAL;
		if (parse_u64(arg, "--slow-queue", 1, 65535, &o->slow_qid))
			return -1;
		return parse_double(us, "--slow-queue", 0, 1e7, &o->slow_us);
	case OPT_SLOW_FROM:
		us = split_pair(arg, "--slow-from", "SECS:US");
		if (!us)
			return -EINVAL;
		if (parse_double(arg, "--slow-from", 0, 1e6, &o->slow_from_s))
			return -1;
		return parse_double(us, "--slow-from", 0, 1e7,
				    &o->slow_from_us);
	}
	return OPT_OTHER_GROUP;
}

/* The target's clock against the host's. */
static int parse_clock_opt(int c, char *arg, struct opts *o)
{
	switch (c) {
	case OPT_THETA:
		return parse_dur(arg, "--theta", &o->theta_ns);
	case OPT_DRIFT:
		return parse_double(arg, "--drift", -1000, 1000,
				    &o->drift_ppm);
	case OPT_REAL_SKEW:
		return parse_dur(arg, "--real-skew", &o->real_skew_ns);
	}
	return OPT_OTHER_GROUP;
}

/* Records lost on one side, failed commands, stale stamps. */
static int parse_loss_opt(int c, char *arg, struct opts *o)
{
	switch (c) {
	case OPT_NO_TARGET:
		return parse_double(arg, "--no-target-pct", 0, 100,
				    &o->no_target_pct);
	case OPT_NO_HOST:
		return parse_double(arg, "--no-host-pct", 0, 100,
				    &o->no_host_pct);
	case OPT_FAILED_PCT:
		return parse_double(arg, "--failed-pct", 0, 100,
				    &o->failed_pct);
	case OPT_STALE_RECV:
		return parse_double(arg, "--stale-recv-pct", 0, 100,
				    &o->stale_recv_pct);
	}
	return OPT_OTHER_GROUP;
}

/* What the files hold besides the records, and what ntpgen prints. */
static int parse_file_opt(int c, char *arg, struct opts *o)
{
	uint64_t u;
	int err;

	switch (c) {
	case OPT_CPUS:
		err = parse_u64(arg, "--cpus", 1, 65535, &u);
		o->nr_cpus = u;
		return err;
	case OPT_NO_HOOKS:
		o->hooks = false;
		return 0;
	case OPT_NO_TRAILER:
		o->no_trailer = true;
		return 0;
	case 'e':
		o->expect = arg;
		return 0;
	case OPT_QUIET:
		o->quiet = true;
		return 0;
	}
	return OPT_OTHER_GROUP;
}

/* Each group's parser, tried in turn on an option. */
static int (*const group_parsers[])(int c, char *arg, struct opts *o) = {
	parse_loop_opt, parse_mix_opt, parse_stage_opt, parse_clock_opt,
	parse_loss_opt, parse_file_opt,
};

/* One option of getopt_long(): 0, or not 0 once its error is said. */
static int parse_option(int c, char *arg, struct opts *o)
{
	size_t i;
	int ret;

	if (c == 'h') {
		usage(stdout);
		exit(0);
	}
	for (i = 0; i < ARRAY_SIZE(group_parsers); i++) {
		ret = group_parsers[i](c, arg, o);
		if (ret != OPT_OTHER_GROUP)
			return ret;
	}
	/* Not an option of ours: getopt_long() has said so. */
	return -1;
}

static const struct opts default_opts = {
	.commands = 10000,
	.transport = NTPROF_TRANSPORT_TCP,
	.sample = NTPROF_SAMPLE_DEFAULT,
	.theta_ns = 1500000000LL,
	.queues = 4,
	.qdepth = 32,
	.genctr = true,
	.read_pct = 70,
	.large_pct = 20,
	.span = 1ULL << 30,
	.lba_size = 512,
	.seed = 1,
	.stage_us = { 4, 6, 20, 10, 80 },
	.jitter = 0.25,
	.gap_us = 2,
	.nr_cpus = 8,
	.hooks = true,
};

/* The options into @o, then the two files: 0, or -1 once said why not. */
static int parse_args(int argc, char *argv[], struct opts *o)
{
	int c, err = 0;

	*o = default_opts;
	while (!err && (c = getopt_long(argc, argv, "n:t:s:q:d:e:h", long_opts,
					NULL)) != -1)
		err = parse_option(c, optarg, o);
	if (err) {
		fputs("ntpgen: see 'ntpgen --help'\n", stderr);
		return -1;
	}
	if (argc - optind != 2) {
		fputs("ntpgen: two files expected: HOST.ntp TARGET.ntp\n"
		      "ntpgen: see 'ntpgen --help'\n", stderr);
		return -1;
	}
	if (!o->target_sample)
		o->target_sample = o->sample;
	if (o->span < 128 * 1024) {
		fputs("ntpgen: --span: at least 128k\n", stderr);
		return -1;
	}
	o->host_path = argv[optind];
	o->target_path = argv[optind + 1];
	return 0;
}

/*
 * The clocks' origins, drawn first from the seed: a day of uptime, so
 * that a negative theta leaves the target's clock > 0, on 2025-11-30.
 */
static void start_clocks(struct gen *g, const struct opts *o)
{
	memset(g, 0, sizeof(*g));
	g->o = o;
	rng_seed(&g->rng, o->seed);
	g->t0 = 86400 * NSEC_PER_SEC + (rng_next(&g->rng) % NSEC_PER_SEC);
	g->real0 = 1764460800ULL * NSEC_PER_SEC +
		   (rng_next(&g->rng) % (86400 * NSEC_PER_SEC));
}

/* Both files, the host's first: 0, or -1 once said why not. */
static int open_recordings(struct gen *g)
{
	const struct opts *o = g->o;
	/* The target started recording half a second before the host. */
	uint64_t tstart = g->t0 - NSEC_PER_SEC / 2;

	if (open_recording(g, NTPROF_ROLE_HOST, g->t0, g->real0, &g->hw))
		return -1;
	if (open_recording(g, NTPROF_ROLE_TARGET, to_target(g, tstart),
			   g->real0 - NSEC_PER_SEC / 2 + o->real_skew_ns,
			   &g->tw)) {
		ntp_writer_close(g->hw, NULL);
		return -1;
	}
	return 0;
}

/*
 * Closes @w with trailer @tr, none if an error @ret came before: @ret,
 * or the close's error, said.
 */
static int close_recording(struct ntp_writer *w, const struct ntp_trailer *tr,
			   const char *path, int ret)
{
	int err = ntp_writer_close(w, ret ? NULL : tr);

	if (err && !ret) {
		fprintf(stderr, "ntpgen: %s: %s\n", path, strerror(-err));
		return err;
	}
	return ret;
}

/*
 * Both files end a millisecond after the last point, with trailers
 * unless --no-trailer cuts them short: @ret, or the first close's error.
 */
static int close_recordings(struct gen *g, int ret)
{
	const struct opts *o = g->o;
	struct ntp_trailer tr;

	memset(&tr, 0, sizeof(tr));
	tr.end_mono_ns = g->last_true + NSEC_PER_SEC / 1000;
	tr.end_real_ns = g->real0 + (tr.end_mono_ns - g->t0);
	ret = close_recording(g->hw, o->no_trailer ? NULL : &tr, o->host_path,
			      ret);
	tr.end_real_ns += o->real_skew_ns;
	tr.end_mono_ns = to_target(g, tr.end_mono_ns);
	return close_recording(g->tw, o->no_trailer ? NULL : &tr,
			       o->target_path, ret);
}

int main(int argc, char *argv[])
{
	struct slot *heap;
	struct opts o;
	struct gen g;
	uint64_t nslots;
	int ret;

	if (parse_args(argc, argv, &o))
		return 2;

	start_clocks(&g, &o);
	if (o.theta_ns < -86000LL * (int64_t)NSEC_PER_SEC) {
		fputs("ntpgen: --theta: at least -86000s, so that the target's clock stays positive\n",
		      stderr);
		return 2;
	}

	g.hbuf = malloc(BUF_RECORDS * sizeof(*g.hbuf));
	g.tbuf = malloc(BUF_RECORDS * sizeof(*g.tbuf));
	nslots = (uint64_t)o.queues * o.qdepth;
	heap = calloc(nslots, sizeof(*heap));
	if (!g.hbuf || !g.tbuf || !heap) {
		fputs("ntpgen: out of memory\n", stderr);
		return 1;
	}

	if (open_recordings(&g))
		return 1;
	ret = run_workload(&g, heap, nslots);
	if (close_recordings(&g, ret))
		return 1;
	if (o.expect && write_expect(&g))
		return 1;

	if (!o.quiet)
		fprintf(stderr, "ntpgen: %" PRIu64 " commands over %.3f s: %"
			PRIu64 " host records (%s), %" PRIu64
			" target records (%s), %" PRIu64 " on both sides\n",
			o.commands, (double)(g.last_true - g.t0) / 1e9,
			g.host_records, o.host_path, g.target_records,
			o.target_path, g.all.n);
	free(heap);
	free(g.hbuf);
	free(g.tbuf);
	return 0;
}
