// SPDX-License-Identifier: GPL-2.0
/*
 * What ntpgen writes: the two .ntp files, through ntp_writer_*() of
 * tools/ntprof/lib/ntp/ntp_write.c (exactly the bytes 'ntprof record'
 * writes) with plausible headers of a 6.12 kernel's host and target,
 * their records in blocks, and the expectation file for the tests.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "common/names.h"
#include "common/util.h"
#include "ntpgen.h"

#ifndef NTPROF_VERSION
#define NTPROF_VERSION "unknown"
#endif

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
#define KP	NTPROF_HOOK_FUNCTION
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
	{ "blk_execute_rq", KP, H, ANY, NTPROF_PT_HOST_BLK_START, 0 },
	{ "blk_execute_rq_nowait", KP, H, ANY, NTPROF_PT_HOST_BLK_START, 0 },
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
	{ "nvmet_rdma_execute_command", KP, T, RDMA, NTPROF_PT_TARGET_R2T, 0 },
	{ "nvmet_rdma_read_data_done", KP, T, RDMA, NTPROF_PT_TARGET_DATA, 0 },
	{ "nvmet_rdma_queue_response", KP, T, RDMA,
	  NTPROF_PT_TARGET_QUEUE_RESP, 1 },
	{ "nvmet_rdma_send_done", KP, T, RDMA, NTPROF_PT_TARGET_SEND_DONE, 0 },
};

_Static_assert(ARRAY_SIZE(hook_defs) <= MAX_HOOKS, "MAX_HOOKS too small");

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

/*
 * --hostile-strings: what a crafted file could hold in each string, for
 * the tests that the tool prints none of it raw. ESC starts a sequence
 * that clears the screen, BEL rings, CR goes back over the line; 0xc2
 * 0x9b is the C1 control CSI in UTF-8, and 0xff and 0xc3 '(' are no UTF-8.
 */
#define HOSTILE	"\x1b[2J\x1b]0;pwned\x07\r\xc2\x9b" "31m\xff\xc3("

/* Appends HOSTILE to the string @dst, within its @size. */
static void hostile(char *dst, size_t size)
{
	size_t len = strlen(dst);

	snprintf(dst + len, size - len, "%s", HOSTILE);
}

/*
 * The first hook of a component (NTPROF_PT_DETAIL_MASK) gets HOSTILE in
 * its name and is left unattached, as record --stages-only leaves it:
 * report names it in a note.
 */
static void hostile_hook(struct ntp_hook *hooks, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (hooks[i].point >= 64 ||
		    !(NTPROF_PT_DETAIL_MASK & (1ULL << hooks[i].point)))
			continue;
		hostile(hooks[i].name, sizeof(hooks[i].name));
		hooks[i].state = NTPROF_HOOK_AVAILABLE;
		return;
	}
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

/* FNV-1a of @s: a host name's own seed. */
static uint64_t name_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (*s)
		h = (h ^ (uint8_t)*s++) * 0x100000001b3ULL;
	return h;
}

/* The header of a recording of @role on the machine @hostname. */
void fill_header(struct ntp_header *hdr, const struct opts *o, uint8_t role,
		 const char *hostname, struct rng *r, struct ntp_hook *hooks)
{
	struct rng boot;

	memset(hdr, 0, sizeof(*hdr));
	hdr->role = role;
	hdr->transport = o->transport;
	hdr->sample = role == NTPROF_ROLE_HOST ? o->sample : o->target_sample;
	hdr->nr_cpus = o->nr_cpus;
	snprintf(hdr->hostname, sizeof(hdr->hostname), "%s", hostname);
	snprintf(hdr->kernel_release, sizeof(hdr->kernel_release),
		 "6.12.12+bpo-amd64");
	/*
	 * One boot per host name, whatever the seed: the runs of one name are
	 * one machine's, as report and compare key groups by machine. The
	 * seed's draw stays, so that the records of a seed do not change.
	 */
	make_uuid(r, hdr->boot_id);
	rng_seed(&boot, name_hash(hdr->hostname));
	make_uuid(&boot, hdr->boot_id);
	snprintf(hdr->tool_version, sizeof(hdr->tool_version),
		 "ntpgen-%s", NTPROF_VERSION);
	if (o->hooks) {
		hdr->nr_hooks = hooks_of(role, o->transport, hooks);
		hdr->hooks = hooks;
	}
	if (o->hostile) {
		hostile(hdr->hostname, sizeof(hdr->hostname));
		/* Twice: its escaped form is too long for the field. */
		hostile(hdr->kernel_release, sizeof(hdr->kernel_release));
		hostile(hdr->kernel_release, sizeof(hdr->kernel_release));
		hostile(hdr->tool_version, sizeof(hdr->tool_version));
		hostile_hook(hooks, hdr->nr_hooks);
	}
}

/*
 * The device and controller tables: names for the records' dev numbers.
 * With --paths, as native multipath has them: the head, then each path
 * disk named after it, and a controller per path, each on a port of its
 * own (4420 and up).
 */
static void fill_devs(struct ntp_header *hdr, const struct opts *o,
		      uint8_t role)
{
	static struct ntp_dev hdevs[1 + MAX_PATHS];
	static struct ntp_dev tdev = { TARGET_DEV, "nullb0" };
	static struct ntp_ctrl ctrls[MAX_PATHS];
	bool host = role == NTPROF_ROLE_HOST;
	uint32_t i, n = host ? o->paths : 1;

	hdevs[0] = (struct ntp_dev){ .dev = HOST_DEV };
	snprintf(hdevs[0].name, sizeof(hdevs[0].name), "%s", o->host_dev);
	for (i = 0; o->paths > 1 && i < o->paths; i++) {
		hdevs[1 + i] = hdevs[0];
		hdevs[1 + i].dev = HOST_PATH_DEV(i);
	}
	hdr->nr_devs = host ? 1 + (o->paths > 1 ? o->paths : 0) : 1;
	hdr->devs = host ? hdevs : &tdev;

	for (i = 0; i < n; i++) {
		struct ntp_ctrl *ctrl = &ctrls[i];

		memset(ctrl, 0, sizeof(*ctrl));
		ctrl->nsid = NSID;
		ctrl->transport = o->transport;
		snprintf(ctrl->subsysnqn, sizeof(ctrl->subsysnqn),
			 "nqn.2014-08.org.nvmexpress:ntpgen");
		snprintf(ctrl->address, sizeof(ctrl->address),
			 "traddr=10.0.0.2,trsvcid=%u", 4420 + i);
		if (host) {
			ctrl->dev = o->paths > 1 ? HOST_PATH_DEV(i) : HOST_DEV;
			ctrl->cntlid = 1 + i;
			snprintf(ctrl->name, sizeof(ctrl->name), "nvme%u", 1 + i);
		} else {
			ctrl->dev = TARGET_DEV;
			snprintf(ctrl->name, sizeof(ctrl->name), "port 1");
		}
	}
	hdr->nr_ctrls = n;
	hdr->ctrls = ctrls;
	if (o->hostile) {
		hostile(host ? hdevs[0].name : tdev.name, sizeof(tdev.name));
		hostile(ctrls[0].name, sizeof(ctrls[0].name));
		hostile(ctrls[0].subsysnqn, sizeof(ctrls[0].subsysnqn));
		hostile(ctrls[0].address, sizeof(ctrls[0].address));
	}
}

/* Fills the header of @role's file and opens it: 0, or -1 once said. */
int open_recording(struct gen *g, uint8_t role, uint64_t start_mono_ns,
		   uint64_t start_real_ns, struct ntp_writer **w)
{
	const struct opts *o = g->o;
	const char *path = role == NTPROF_ROLE_HOST ? o->host_path :
						      o->target_path;
	/* Only read while the header is written, at the open. */
	struct ntp_hook hooks[MAX_HOOKS];
	struct ntp_header hdr;
	int ret;

	fill_header(&hdr, o, role,
		    role != NTPROF_ROLE_HOST ? "ntpgen-target" :
		    o->hostname ? o->hostname : "ntpgen-host", &g->rng, hooks);
	hdr.start_mono_ns = start_mono_ns;
	hdr.start_real_ns = start_real_ns;
	fill_devs(&hdr, o, role);
	ret = ntp_writer_open_format(path, &hdr, o->format_major,
				     o->format_minor, w);
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
int emit_record(struct gen *g, bool host, const struct ntprof_record *rec)
{
	if (host) {
		g->hbuf[g->nh++] = *rec;
		g->host_records++;
		g->host_passthru += !!(rec->flags & NTPROF_REC_F_PASSTHRU);
		return g->nh == BUF_RECORDS ? flush_side(g, true) : 0;
	}
	g->tbuf[g->nt++] = *rec;
	g->target_records++;
	return g->nt == BUF_RECORDS ? flush_side(g, false) : 0;
}

/* Writes out what the blocks hold at the end, the host's first. */
int flush_records(struct gen *g)
{
	int ret = 0;

	if (g->nh)
		ret = flush_side(g, true);
	if (!ret && g->nt)
		ret = flush_side(g, false);
	return ret;
}

/*
 * A stage's mean over all commands: passthrough ones have no host block
 * layer submission, half of that stage's time (ntpgen_model.c).
 */
static double nominal_us(const struct opts *o, int stage)
{
	if (stage == ST_HOST_BLK)
		return o->stage_us[stage] * (1.0 - 0.5 * o->passthru_pct / 100.0);
	return o->stage_us[stage];
}

static void print_expect(FILE *f, const struct gen *g)
{
	static const char * const op[] = { "read", "write" };
	const struct opts *o = g->o;
	const struct acc *a;
	double data;
	int i, s;

	fprintf(f, "commands %" PRIu64 "\n", o->commands);
	fprintf(f, "transport %s\n", ntprof_transport_id(o->transport));
	fprintf(f, "sample %u\n", o->sample);
	fprintf(f, "target_sample %u\n", o->target_sample);
	fprintf(f, "theta_ns %" PRId64 "\n", o->theta_ns);
	fprintf(f, "drift_ppm %g\n", o->drift_ppm);
	fprintf(f, "host_records %" PRIu64 "\n", g->host_records);
	fprintf(f, "host_passthru %" PRIu64 "\n", g->host_passthru);
	fprintf(f, "aborted %" PRIu64 "\n", g->aborted);
	fprintf(f, "target_records %" PRIu64 "\n", g->target_records);
	fprintf(f, "matchable %" PRIu64 "\n", g->all.n);
	fprintf(f, "host_alone %" PRIu64 "\n", g->host_alone.n);
	fprintf(f, "target_alone %" PRIu64 "\n",
		g->target_records - g->all.n);
	fprintf(f, "duration_s %.6f\n",
		(double)(g->last_true - g->t0) / 1e9);
	/* The network's mean has the data of the large writes (group 3). */
	data = g->all.n ? o->data_us * (double)g->groups[3].n /
			  (double)g->all.n : 0;
	fputs("nominal", f);
	for (s = 0; s <= ST_STORAGE; s++)
		fprintf(f, " %s %.6f", st_id[s],
			nominal_us(o, s) + (s == ST_NETWORK ? data : 0));
	fprintf(f, " %s %.6f\n", st_id[ST_E2E],
		nominal_us(o, ST_HOST_BLK) + nominal_us(o, ST_HOST_DRV) +
		nominal_us(o, ST_NETWORK) + nominal_us(o, ST_TGT_DRV) +
		nominal_us(o, ST_STORAGE) + data);
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
int write_expect(const struct gen *g)
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
