// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of record --prom's file (tools/ntprof/lib/out/record_prom.c): the
 * records of known latencies give the histograms' counts, sums and
 * cumulative buckets, the labels are escaped, the file is replaced whole,
 * and Prometheus' own promtool accepts it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "out/record_prom.h"
#include "tap.h"

static char *slurp(const char *path)
{
	static char buf[1 << 16];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* A host record over TCP of @e2e_us end to end, @drv_us of it the driver. */
static void host_record(struct ntprof_record *r, uint64_t base, unsigned int e2e_us,
			unsigned int drv_us)
{
	memset(r, 0, sizeof(*r));
	r->role = NTPROF_ROLE_HOST;
	r->transport = NTPROF_TRANSPORT_TCP;
	r->flags = NTPROF_REC_F_SAMPLED;
	r->opcode = 0x02;
	r->qid = 1;
	r->length = 4096;
	r->ts[NTPROF_PT_HOST_QUEUE_RQ] = base;
	r->ts[NTPROF_PT_HOST_SEND] = base + drv_us * 1000ULL;
	r->ts[NTPROF_PT_HOST_RECV] = base + e2e_us * 1000ULL;
}

int main(void)
{
	char dir[] = "/tmp/ntprof-prom.XXXXXX", path[64], cmd[160];
	struct prom_counters st = { .seen = 1000, .sampled = 10, .records = 10,
				    .drops = 2, .evicted = 1 };
	struct ntprof_record r;
	struct prom *p;
	const char *s;
	int i, rc;

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/ntprof.prom", dir);
	p = prom_new(path, NTPROF_ROLE_HOST);
	ok(p != NULL, "prom_new");
	if (!p)
		return tap_done("test_prom");

	/* 9 commands of 3 us end to end, 1 of 100 us; the driver 1 us. */
	for (i = 0; i < 10; i++) {
		host_record(&r, 1000000ULL * (i + 1), i < 9 ? 3 : 100, 1);
		ok(!prom_add(p, i < 9 ? "read 4KiB nvme0n1" : "read 4KiB \"q\\", &r),
		   "prom_add %d", i);
	}
	/* Failed outside the sample: not in the numbers. */
	host_record(&r, 20000000, 5000, 1);
	r.flags = NTPROF_REC_F_FAILED;
	prom_add(p, "read 4KiB nvme0n1", &r);

	ok(!prom_write(p, &st), "prom_write");
	s = slurp(path);
	ok(s != NULL, "the file is there");
	if (!s)
		return tap_done("test_prom");
	ok(strstr(s, "# TYPE ntprof_stage_latency_seconds histogram\n") &&
	   strstr(s, "# TYPE ntprof_group_commands_total counter\n"),
	   "the families and their types");
	ok(strstr(s, "ntprof_stage_latency_seconds_count{role=\"host\",group=\"read 4KiB nvme0n1\",stage=\"end_to_end\"} 9\n") &&
	   strstr(s, "ntprof_stage_latency_seconds_sum{role=\"host\",group=\"read 4KiB nvme0n1\",stage=\"end_to_end\"} 0.000027000\n"),
	   "end to end: 9 commands, 27 us (the failed one left out)");
	ok(strstr(s, "ntprof_stage_latency_seconds_bucket{role=\"host\",group=\"read 4KiB nvme0n1\",stage=\"end_to_end\",le=\"0.000002\"} 0\n") &&
	   strstr(s, "ntprof_stage_latency_seconds_bucket{role=\"host\",group=\"read 4KiB nvme0n1\",stage=\"end_to_end\",le=\"0.000004\"} 9\n") &&
	   strstr(s, "ntprof_stage_latency_seconds_bucket{role=\"host\",group=\"read 4KiB nvme0n1\",stage=\"end_to_end\",le=\"+Inf\"} 9\n"),
	   "the buckets are cumulative, 3 us in le=4e-6");
	ok(strstr(s, "ntprof_stage_latency_seconds_count{role=\"host\",group=\"read 4KiB nvme0n1\",stage=\"host_driver\"} 9\n") != NULL,
	   "a stage of its own");
	ok(strstr(s, "group=\"read 4KiB \\\"q\\\\\"") != NULL,
	   "a label's quote and backslash escaped");
	ok(strstr(s, "ntprof_group_commands_total{role=\"host\",group=\"read 4KiB nvme0n1\"} 9\n") &&
	   strstr(s, "ntprof_records_dropped_total{role=\"host\"} 2\n") &&
	   strstr(s, "ntprof_commands_seen_total{role=\"host\"} 1000\n"),
	   "the counters");
	snprintf(cmd, sizeof(cmd), "%s.tmp.%d", path, (int)getpid());
	ok(access(cmd, F_OK) && errno == ENOENT,
	   "no temporary file left beside it");

	snprintf(cmd, sizeof(cmd), "promtool check metrics < %s > %s/promtool.out 2>&1",
		 path, dir);
	rc = system(cmd);
	ok(rc == 0, "promtool check metrics accepts it (rc %d)", rc);
	if (rc) {
		snprintf(cmd, sizeof(cmd), "sed 's/^/# /' %s/promtool.out", dir);
		if (system(cmd))
			ok(false, "show promtool's output");
	}
	prom_free(p);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		return 1;
	return tap_done("test_prom");
}
