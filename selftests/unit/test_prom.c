// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of record --prom's file (tools/ntprof/lib/out/record_prom.c),
 * as Documentation/prometheus.rst describes it: records of known
 * latencies give the histograms' counts, sums and cumulative buckets; a
 * record's path (the controller table) gives its labels, one series per
 * path whatever the namespaces; the groups are capped; the file is
 * replaced whole, never half written, without timestamps; and
 * Prometheus' own promtool accepts it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "out/record_prom.h"
#include "tap.h"

/* new_encode_dev(259, 1) and (259, 2): two namespaces of one controller. */
#define DEV_N1	((259U << 8) | 1)
#define DEV_N2	((259U << 8) | 2)
#define DEV_T	((253U << 8) | 0)

#define SUBNQN	"nqn.2024-01.io.ntprof:sub1"
#define HOSTNQN	"nqn.2014-08.org.nvmexpress:uuid:h1"
#define PATH_L	"transport=\"tcp\",subnqn=\"" SUBNQN "\",traddr=\"10.0.0.1\",trsvcid=\"4420\",hostnqn=\"" HOSTNQN "\""
#define HOST_L	"{role=\"host\",op=\"read\",size_bytes=\"4096\",device=\"nvme0n1\"," PATH_L
#define TGT_L	"{role=\"target\",op=\"read\",size_bytes=\"4096\",device=\"nullb0\"," PATH_L
#define TGT_W_L	"{role=\"target\",op=\"write\",size_bytes=\"131072\",device=\"nullb0\"," PATH_L

/* Lines of @s that start with @prefix. */
static int count_lines(const char *s, const char *prefix)
{
	int n = 0;

	for (; s && *s; s = strchr(s, '\n'), s = s ? s + 1 : NULL)
		n += !strncmp(s, prefix, strlen(prefix));
	return n;
}

/* A sampled 4 KiB read over TCP of @role on @dev, namespace 1. */
static void read_record(struct ntprof_record *r, uint8_t role, uint32_t dev)
{
	memset(r, 0, sizeof(*r));
	r->role = role;
	r->transport = NTPROF_TRANSPORT_TCP;
	r->flags = NTPROF_REC_F_SAMPLED;
	r->opcode = 0x02;
	r->qid = 1;
	r->length = 4096;
	r->dev = dev;
	r->nsid = 1;
}

/* A host record of @e2e_us end to end, @drv_us of it the driver. */
static void host_record(struct ntprof_record *r, uint64_t base, unsigned int e2e_us,
			unsigned int drv_us)
{
	read_record(r, NTPROF_ROLE_HOST, DEV_N1);
	r->ts[NTPROF_PT_HOST_QUEUE_RQ] = base;
	r->ts[NTPROF_PT_HOST_SEND] = base + drv_us * 1000ULL;
	r->ts[NTPROF_PT_HOST_RECV] = base + e2e_us * 1000ULL;
}

/* A target record: 2 us of driver, 5 us of storage, 1 us back. */
static void target_record(struct ntprof_record *r, uint64_t base)
{
	read_record(r, NTPROF_ROLE_TARGET, DEV_T);
	r->ts[NTPROF_PT_TARGET_RECV] = base;
	r->ts[NTPROF_PT_TARGET_EXEC] = base + 2000;
	r->ts[NTPROF_PT_TARGET_COMPLETE] = base + 7000;
	r->ts[NTPROF_PT_TARGET_SEND] = base + 8000;
}

/* promtool check metrics on @path: its verdict, its output as diagnostics. */
static int promtool_check(const char *dir, const char *path)
{
	char cmd[512];
	int rc;

	snprintf(cmd, sizeof(cmd), "promtool check metrics < %s > %s/promtool.out 2>&1",
		 path, dir);
	rc = system(cmd);
	if (rc) {
		snprintf(cmd, sizeof(cmd), "sed 's/^/# /' %s/promtool.out", dir);
		if (system(cmd))
			diag("cannot show promtool's output");
	}
	return rc;
}

/*
 * The check that promtool accepts the file @path, or a skip that says it
 * is not installed.
 */
static void promtool_ok(const char *dir, const char *path, const char *desc)
{
	if (!tap_have("promtool"))
		tap_skip_missing(desc, "promtool (Debian's prometheus)");
	else
		ok(promtool_check(dir, path) == 0, "%s", desc);
}

/* Every sample line ends with its value: no timestamp after it. */
static bool no_timestamps(const char *s)
{
	const char *line, *brace, *end;

	for (line = s; line && *line; line = end ? end + 1 : NULL) {
		end = strchr(line, '\n');
		if (*line == '#')
			continue;
		brace = memchr(line, '}', end ? (size_t)(end - line) : strlen(line));
		if (!brace || brace[1] != ' ' ||
		    memchr(brace + 2, ' ', end ? (size_t)(end - brace - 2) : strlen(brace + 2)))
			return false;
	}
	return true;
}

static const struct ntp_ctrl host_ctrls[] = {
	{ .dev = DEV_N1, .nsid = 1, .cntlid = 1, .transport = NTPROF_TRANSPORT_TCP,
	  .name = "nvme0", .subsysnqn = SUBNQN,
	  .address = "traddr=10.0.0.1,trsvcid=4420,src_addr=10.0.0.2" },
	{ .dev = DEV_N2, .nsid = 2, .cntlid = 1, .transport = NTPROF_TRANSPORT_TCP,
	  .name = "nvme0", .subsysnqn = SUBNQN,
	  .address = "traddr=10.0.0.1,trsvcid=4420,src_addr=10.0.0.2" },
};
static const prom_nqn host_nqns[] = { HOSTNQN, HOSTNQN };

static void test_host(const char *dir)
{
	const char *path = tap_path(dir, "host.prom");
	struct prom_counters st = { .seen = 1000, .sampled = 10, .records = 10,
				    .drops = 2, .evicted = 1 };
	struct ntprof_record r;
	struct prom *p = prom_new(path, NTPROF_ROLE_HOST);
	const char *s;
	char tmp[512];
	int i;

	if (!ok(p && !prom_paths(p, host_ctrls, host_nqns, 2), "prom_new, prom_paths"))
		return;
	/* 9 commands of 3 us end to end, 1 of 100 us; the driver 1 us. */
	for (i = 0; i < 10; i++) {
		host_record(&r, 1000000ULL * (i + 1), i < 9 ? 3 : 100, 1);
		if (i == 9)
			r.dev = DEV_N2;
		prom_add(p, &r, i < 9 ? "nvme0n1" : "a \"q\\");
	}
	/* Failed outside the sample: not in the numbers. */
	host_record(&r, 20000000, 5000, 1);
	r.flags = NTPROF_REC_F_FAILED;
	prom_add(p, &r, "nvme0n1");
	/* A device of no controller: its path's labels are empty. */
	host_record(&r, 30000000, 3, 1);
	r.dev = 7;
	prom_add(p, &r, "sda");

	ok(!prom_write(p, &st), "prom_write");
	s = tap_slurp(path);
	if (!ok(s != NULL, "the file is there"))
		return;
	ok(strstr(s, "# TYPE ntprof_stage_latency_seconds histogram\n") &&
	   strstr(s, "# TYPE ntprof_group_commands_total counter\n"),
	   "the families and their types");
	ok(strstr(s, "ntprof_stage_latency_seconds_count" HOST_L ",stage=\"end_to_end\"} 9\n") &&
	   strstr(s, "ntprof_stage_latency_seconds_sum" HOST_L ",stage=\"end_to_end\"} 0.000027000\n"),
	   "separate labels op, size_bytes, device, transport, subnqn, traddr, trsvcid, hostnqn; 9 commands, 27 us (the failed one left out)");
	ok(strstr(s, "ntprof_stage_latency_seconds_bucket" HOST_L ",stage=\"end_to_end\",le=\"0.000002\"} 0\n") &&
	   strstr(s, "ntprof_stage_latency_seconds_bucket" HOST_L ",stage=\"end_to_end\",le=\"0.000004\"} 9\n") &&
	   strstr(s, "ntprof_stage_latency_seconds_bucket" HOST_L ",stage=\"end_to_end\",le=\"8.388608\"} 9\n") &&
	   strstr(s, "ntprof_stage_latency_seconds_bucket" HOST_L ",stage=\"end_to_end\",le=\"+Inf\"} 9\n"),
	   "the buckets: cumulative, powers of 2 from 1 us to 8.388608 s, 3 us in le=4e-6");
	ok(count_lines(s, "ntprof_stage_latency_seconds_bucket" HOST_L ",stage=\"end_to_end\",") == 25,
	   "24 buckets and +Inf");
	ok(strstr(s, "ntprof_stage_latency_seconds_sum" HOST_L ",stage=\"host_driver\"} 0.000009000\n") &&
	   strstr(s, "ntprof_stage_latency_seconds_sum" HOST_L ",stage=\"remote_wait\"} 0.000018000\n"),
	   "the host driver's and the remote wait's sums (HOST_SEND to HOST_RECV)");
	ok(strstr(s, "device=\"a \\\"q\\\\\"") != NULL,
	   "a label's quote and backslash escaped");
	ok(count_lines(s, "ntprof_group_commands_total{role=\"host\",op=\"read\",size_bytes=\"4096\",device=\"a \\\"q\\\\\"," PATH_L "}") == 1,
	   "two namespaces of one controller: its labels once, one series");
	ok(strstr(s, "ntprof_group_commands_total{role=\"host\",op=\"read\",size_bytes=\"4096\",device=\"sda\",transport=\"tcp\",subnqn=\"\",traddr=\"\",trsvcid=\"\",hostnqn=\"\"} 1\n") != NULL,
	   "a device of no controller: empty path labels");
	ok(strstr(s, "ntprof_group_commands_total" HOST_L "} 9\n") &&
	   strstr(s, "ntprof_records_dropped_total{role=\"host\"} 2\n") &&
	   strstr(s, "ntprof_commands_seen_total{role=\"host\"} 1000\n") &&
	   strstr(s, "ntprof_overflow_commands_total{role=\"host\"} 0\n"),
	   "the counters");
	ok(no_timestamps(s), "no sample has a timestamp");
	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid());
	ok(access(tmp, F_OK) && errno == ENOENT,
	   "no temporary file left beside it");
	promtool_ok(dir, path, "promtool check metrics accepts the host's file");
	prom_free(p);
}

static const struct ntp_ctrl target_ctrls[] = {
	{ .dev = DEV_T, .nsid = 1, .transport = NTPROF_TRANSPORT_TCP,
	  .name = "port 1", .subsysnqn = SUBNQN,
	  .address = "traddr=10.0.0.1,trsvcid=4420" },
};
static const prom_nqn target_nqns[] = { HOSTNQN };

static void test_target(const char *dir)
{
	const char *path = tap_path(dir, "target.prom");
	struct prom *p = prom_new(path, NTPROF_ROLE_TARGET);
	struct ntprof_record r;
	const char *s;
	int i;

	if (!ok(p && !prom_paths(p, target_ctrls, target_nqns, 1), "target: prom_new, prom_paths"))
		return;
	for (i = 0; i < 4; i++) {
		target_record(&r, 1000000ULL * (i + 1));
		prom_add(p, &r, "nullb0");
	}
	/* A large write: its data, from its R2T to EXEC, is a part apart. */
	target_record(&r, 8000000);
	r.opcode = 0x01;
	r.length = 131072;
	r.ts[NTPROF_PT_TARGET_R2T] = 8000500;
	prom_add(p, &r, "nullb0");
	/* Another transport's: not the port's entry. */
	target_record(&r, 9000000);
	r.transport = NTPROF_TRANSPORT_RDMA;
	prom_add(p, &r, "nullb0");
	ok(!prom_write(p, NULL), "target: prom_write");
	s = tap_slurp(path);
	if (!ok(s != NULL, "target: the file is there"))
		return;
	ok(strstr(s, "ntprof_stage_latency_seconds_sum" TGT_L ",stage=\"target_driver\"} 0.000012000\n") &&
	   strstr(s, "ntprof_stage_latency_seconds_sum" TGT_L ",stage=\"storage\"} 0.000020000\n") &&
	   strstr(s, "ntprof_stage_latency_seconds_sum" TGT_L ",stage=\"target_window\"} 0.000032000\n") &&
	   strstr(s, "ntprof_stage_latency_seconds_count" TGT_L ",stage=\"target_window\"} 4\n"),
	   "target: its stages and its window (RECV to SEND), with the host's NQN");
	ok(strstr(s, "ntprof_stage_latency_seconds_sum" TGT_W_L ",stage=\"host_data_transfer\"} 0.000001500\n") &&
	   strstr(s, "ntprof_stage_latency_seconds_sum" TGT_W_L ",stage=\"target_driver\"} 0.000001500\n") &&
	   strstr(s, "ntprof_stage_latency_seconds_sum" TGT_W_L ",stage=\"target_window\"} 0.000008000\n") &&
	   !strstr(s, "stage=\"host_receive_path\""),
	   "target: a large write's data transfer, out of its target driver, in a part of its own");
	ok(strstr(s, "ntprof_group_commands_total{role=\"target\",op=\"read\",size_bytes=\"4096\",device=\"nullb0\",transport=\"rdma\",subnqn=\"\",traddr=\"\",trsvcid=\"\",hostnqn=\"\"} 1\n") != NULL,
	   "target: a record of no entry (another transport): empty path labels");
	ok(!strstr(s, "stage=\"end_to_end\"") && !strstr(s, "remote_wait"),
	   "target: no host part");
	promtool_ok(dir, path, "promtool check metrics accepts the target's file");
	prom_free(p);
}

/* More groups than the cap: the rest in overflow series, counted. */
static void test_cap(const char *dir)
{
	const char *path = tap_path(dir, "cap.prom");
	struct prom *p = prom_new(path, NTPROF_ROLE_HOST);
	enum { PATHS = PROM_OVERFLOW_MAX + 4 };
	static struct ntp_ctrl ctrls[PATHS];
	static prom_nqn nqns[PATHS];
	struct ntprof_record r;
	const char *s;
	int i;

	/* Path 0 is host_ctrls[0]'s; each other one a subsystem of its own. */
	for (i = 0; i < PATHS; i++) {
		ctrls[i] = host_ctrls[0];
		ctrls[i].dev = DEV_N1 + 16 * i;
		if (i)
			snprintf(ctrls[i].subsysnqn, sizeof(ctrls[i].subsysnqn),
				 "nqn.2024-01.io.ntprof:s%d", i);
		snprintf(nqns[i], sizeof(nqns[i]), "%s", HOSTNQN);
	}
	if (!ok(p && !prom_paths(p, ctrls, nqns, PATHS), "cap: prom_new"))
		return;
	/* PROM_GROUPS_MAX + 10 sizes on path 0. */
	for (i = 0; i < PROM_GROUPS_MAX + 10; i++) {
		host_record(&r, 1000000ULL * (i + 1), 3, 1);
		r.length = 512 * (i + 1);
		prom_add(p, &r, "nvme0n1");
	}
	/* A command on each other path: 15 overflow series more, then none. */
	for (i = 1; i < PATHS; i++) {
		host_record(&r, 1000000ULL * (i + 1), 3, 1);
		r.dev = ctrls[i].dev;
		prom_add(p, &r, "nvme1n1");
	}
	ok(!prom_write(p, NULL), "cap: prom_write");
	s = tap_slurp(path);
	if (!ok(s != NULL, "cap: the file is there"))
		return;
	ok(count_lines(s, "ntprof_group_commands_total{role=\"host\",op=\"read\"") == PROM_GROUPS_MAX &&
	   count_lines(s, "ntprof_group_commands_total{role=\"host\",op=\"overflow\"") == PROM_OVERFLOW_MAX + 1,
	   "cap: %d groups of their own, %d overflow series by path and one without",
	   PROM_GROUPS_MAX, PROM_OVERFLOW_MAX);
	ok(strstr(s, "ntprof_group_commands_total{role=\"host\",op=\"overflow\",size_bytes=\"\",device=\"\"," PATH_L "} 10\n") != NULL,
	   "cap: the path's overflow series has its 10 commands, its path labels kept");
	ok(strstr(s, "ntprof_group_commands_total{role=\"host\",op=\"overflow\",size_bytes=\"\",device=\"\",transport=\"\",subnqn=\"\",traddr=\"\",trsvcid=\"\",hostnqn=\"\"} 4\n") != NULL,
	   "cap: past the overflow series, one without transport or path (4 commands)");
	ok(strstr(s, "ntprof_overflow_commands_total{role=\"host\"} 29\n") != NULL,
	   "cap: ntprof_overflow_commands_total counts the 29 commands beyond");
	promtool_ok(dir, path, "promtool check metrics accepts the capped file");
	prom_free(p);
}

/* A write that fails leaves the last whole file and no temporary one. */
static void test_atomic(const char *dir)
{
	const char *path = tap_path(dir, "atomic.prom");
	struct prom *p = prom_new(path, NTPROF_ROLE_HOST);
	struct ntprof_record r;
	char tmp[512];
	static char before[8 << 20];
	const char *s;
	int err;

	if (!ok(p != NULL, "atomic: prom_new"))
		return;
	host_record(&r, 1000000, 3, 1);
	prom_add(p, &r, "nvme0n1");
	ok(!prom_write(p, NULL), "atomic: first write");
	s = tap_slurp(path);
	snprintf(before, sizeof(before), "%s", s ? s : "");
	/* The temporary file's name taken by a directory: fopen() fails. */
	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid());
	if (mkdir(tmp, 0700))
		diag("mkdir %s: %s", tmp, strerror(errno));
	prom_add(p, &r, "nvme0n1");
	err = prom_write(p, NULL);
	s = tap_slurp(path);
	ok(err == -EISDIR && s && !strcmp(s, before),
	   "atomic: a failed write returns its error (%d) and leaves the last file whole", err);
	rmdir(tmp);
	ok(!prom_write(p, NULL) && (s = tap_slurp(path)) &&
	   strstr(s, "ntprof_group_commands_total{role=\"host\",op=\"read\"") &&
	   strstr(s, "\"} 2\n") && access(tmp, F_OK),
	   "atomic: the next write replaces it, and leaves no temporary file");
	prom_free(p);
}

/* The scratch directory of the cases. */
static char dir[] = "/tmp/ntprof-prom.XXXXXX";

static void t_address(void)
{
	char addr[64];

	prom_address_part("traddr=10.0.0.1,trsvcid=4420,src_addr=10.0.0.2",
			  "trsvcid", addr, sizeof(addr));
	ok(!strcmp(addr, "4420"), "an address's trsvcid");
	prom_address_part("traddr=10.0.0.1", "trsvcid", addr, sizeof(addr));
	ok(!strcmp(addr, ""), "an address without trsvcid: empty");
}

static void t_host(void)
{
	test_host(dir);
}

static void t_target(void)
{
	test_target(dir);
}

static void t_cap(void)
{
	test_cap(dir);
}

static void t_atomic(void)
{
	test_atomic(dir);
}

static const struct tap_case cases[] = {
	{ "address", t_address },
	{ "host", t_host },
	{ "target", t_target },
	{ "cap", t_cap },
	{ "atomic", t_atomic },
};

int main(int argc, char *argv[])
{
	char addr[64];

	if (tap_args(argc, argv, cases, TAP_NR_CASES(cases)) != argc)
		tap_usage("test_prom");
	if (!mkdtemp(dir))
		return 1;
	tap_run(cases, TAP_NR_CASES(cases));
	if (!getenv("KEEP_TMP")) {
		snprintf(addr, sizeof(addr), "rm -rf %s", dir);
		if (system(addr))
			return 1;
	}
	return tap_done("test_prom");
}
