// SPDX-License-Identifier: GPL-2.0
/*
 * record -r host,target --prom's chain (tools/ntprof/lib/out/chain_prom.h):
 * a middle's records of both roles, built here with known times, added
 * window by window as the recorder adds them; the file's middle stage,
 * its legs' stages, counts and critical legs against those times; the
 * carry-over of a record whose link partner comes a window later; and
 * promtool's verdict on the file.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chain_test.h"
#include "out/chain_prom.h"
#include "tap.h"

/* The legs' LBAs are the volume's plus md's data offset. */
#define OFFSET	2048
#define US	1000ULL

static void up_rec(struct ntprof_record *r, uint8_t opcode, uint64_t slba,
		   uint64_t exec, uint64_t complete)
{
	chain_test_rec(r, NTPROF_ROLE_TARGET, opcode, slba, 4096);
	r->ts[NTPROF_PT_TARGET_RECV] = exec - 10 * US;
	r->ts[NTPROF_PT_TARGET_EXEC] = exec;
	r->ts[NTPROF_PT_TARGET_COMPLETE] = complete;
	r->ts[NTPROF_PT_TARGET_SEND] = complete + 10 * US;
}

/* A leg's command: block layer, driver, the wait, from @first to @last. */
static void down_rec(struct ntprof_record *r, uint8_t opcode, uint64_t slba,
		     uint64_t first, uint64_t last)
{
	chain_test_rec(r, NTPROF_ROLE_HOST, opcode, slba, 4096);
	r->ts[NTPROF_PT_HOST_BLK_START] = first;
	r->ts[NTPROF_PT_HOST_QUEUE_RQ] = first + 2 * US;
	r->ts[NTPROF_PT_HOST_SEND] = first + 5 * US;
	r->ts[NTPROF_PT_HOST_RECV] = last;
	r->ts[NTPROF_PT_HOST_BLK_COMPLETE] = last;
}

/*
 * The value of the sample of @name whose labels hold every one of the
 * NULL-ended strings after it; -1 when there is none.
 */
static double value(const char *file, const char *name, ...)
{
	const char *line, *end, *s;
	char l[1024];
	va_list ap;
	size_t len;
	bool all;

	for (line = file; line && *line; line = end ? end + 1 : NULL) {
		end = strchr(line, '\n');
		len = end ? (size_t)(end - line) : strlen(line);
		if (len >= sizeof(l))
			continue;
		memcpy(l, line, len);
		l[len] = '\0';
		if (strncmp(l, name, strlen(name)) || l[strlen(name)] != '{')
			continue;
		all = true;
		va_start(ap, name);
		while ((s = va_arg(ap, const char *)))
			if (!strstr(l, s))
				all = false;
		va_end(ap);
		if (all)
			return strtod(strrchr(l, ' ') + 1, NULL);
	}
	return -1;
}

static int promtool_check(const char *path)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "promtool check metrics < %s > /dev/null 2>&1",
		 path);
	return system(cmd);
}

/* The chain's file over four windows, the links carried between them. */
static void test_windows(void)
{
	char dir[] = "/tmp/ntprof-chain-prom-XXXXXX", path[256];
	struct ntprof_record r;
	struct chain_prom *cp;
	const char *f;
	int err = 0;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		exit(1);
	}
	snprintf(path, sizeof(path), "%s/chain.prom", dir);
	cp = chain_prom_new(path, 0, OFFSET);
	if (!cp) {
		perror("chain_prom_new");
		exit(1);
	}

	/*
	 * Window 1 (records that ended by 1000 us): a write to both legs,
	 * the slow leg (nvme1n1) last; a read's leg command, whose
	 * upstream read ends in window 2; a write of md's superblock,
	 * below the offset; a flush.
	 */
	up_rec(&r, 0x01, 100, 100 * US, 400 * US);
	err |= chain_prom_add(cp, &r, "md0", "nqn.volume");
	down_rec(&r, 0x01, 100 + OFFSET, 110 * US, 150 * US);
	err |= chain_prom_add(cp, &r, "nvme0n1", "");
	down_rec(&r, 0x01, 100 + OFFSET, 120 * US, 370 * US);
	err |= chain_prom_add(cp, &r, "nvme1n1", "");
	down_rec(&r, 0x02, 200 + OFFSET, 920 * US, 990 * US);
	err |= chain_prom_add(cp, &r, "nvme0n1", "");
	down_rec(&r, 0x01, 8, 500 * US, 600 * US);
	err |= chain_prom_add(cp, &r, "nvme0n1", "");
	down_rec(&r, 0x00, 0, 500 * US, 510 * US);
	err |= chain_prom_add(cp, &r, "nvme0n1", "");
	/*
	 * Two writes of one range, both around one leg command: the first
	 * ends in window 1, the second in window 2. Linked window by
	 * window without the carry-over, the leg command would go to the
	 * first; with it, it is ambiguous, as in a report.
	 */
	up_rec(&r, 0x01, 300, 700 * US, 950 * US);
	err |= chain_prom_add(cp, &r, "md0", "nqn.volume");
	down_rec(&r, 0x01, 300 + OFFSET, 720 * US, 900 * US);
	err |= chain_prom_add(cp, &r, "nvme0n1", "");
	ok(!err, "records of window 1 added");
	ok(!chain_prom_settle(cp, 1000 * US), "window 1 settled");
	ok(!chain_prom_write(cp), "the file written");
	f = tap_slurp(path);
	ok(f && value(f, "ntprof_chain_commands_total", NULL) == -1,
	   "after the first window, nothing is taken: a partner may still come");
	ok(f && value(f, "ntprof_chain_downstream_commands_total",
		      "state=\"outside\"", NULL) == 1,
	   "the flush is outside the links at once");

	/* Window 2: the read's upstream command, the second write. */
	up_rec(&r, 0x02, 200, 900 * US, 1100 * US);
	err |= chain_prom_add(cp, &r, "md0", "nqn.volume");
	up_rec(&r, 0x01, 300, 710 * US, 1500 * US);
	err |= chain_prom_add(cp, &r, "md0", "nqn.volume");
	ok(!err, "records of window 2 added");
	ok(!chain_prom_settle(cp, 2000 * US), "window 2 settled");
	ok(!chain_prom_write(cp), "the file written");
	f = tap_slurp(path);
	ok(f && value(f, "ntprof_chain_commands_total", "op=\"write\"",
		      NULL) == 1,
	   "the write that ended in window 1 is taken (%g)",
	   f ? value(f, "ntprof_chain_commands_total", "op=\"write\"", NULL) :
	       -1);
	ok(f && value(f, "ntprof_chain_leg_commands_total", "op=\"write\"",
		      "leg=\"nvme1n1\"", "hop=\"2\"", NULL) == 1 &&
	   value(f, "ntprof_chain_leg_critical_total", "op=\"write\"",
		 "leg=\"nvme1n1\"", NULL) == 1 &&
	   value(f, "ntprof_chain_leg_critical_total", "op=\"write\"",
		 "leg=\"nvme0n1\"", NULL) == 0,
	   "its slow leg completed last: critical");
	/* Storage 300 us less the slow leg's end to end, 250 us. */
	ok(f && value(f, "ntprof_chain_stage_latency_seconds_sum",
		      "op=\"write\"", "stage=\"middle\"", "hop=\"1\"",
		      "leg=\"\"", "device=\"md0\"",
		      "subnqn=\"nqn.volume\"", NULL) == 0.00005,
	   "the middle: the write's storage less its critical leg's end to end, 50 us");
	ok(f && value(f, "ntprof_chain_stage_latency_seconds_bucket",
		      "stage=\"middle\"", "le=\"0.000064\"", NULL) == 1 &&
	   value(f, "ntprof_chain_stage_latency_seconds_bucket",
		 "stage=\"middle\"", "le=\"0.000032\"", NULL) == 0,
	   "in the 64 us bucket");
	ok(f && value(f, "ntprof_chain_stage_latency_seconds_sum",
		      "op=\"write\"", "leg=\"nvme1n1\"",
		      "stage=\"end_to_end\"", NULL) == 0.00025 &&
	   value(f, "ntprof_chain_stage_latency_seconds_sum", "op=\"write\"",
		 "leg=\"nvme0n1\"", "stage=\"end_to_end\"", NULL) == 0.00004 &&
	   value(f, "ntprof_chain_stage_latency_seconds_sum", "op=\"write\"",
		 "leg=\"nvme1n1\"", "stage=\"remote_wait\"", NULL) == 0.000245,
	   "each leg's own stages: the slow one's end to end 250 us, its wait 245 us; the fast one's 40 us");
	ok(f && value(f, "ntprof_chain_leg_commands_total", "op=\"read\"",
		      NULL) == -1 &&
	   value(f, "ntprof_chain_downstream_commands_total",
		 "state=\"no_upstream\"", NULL) == 1,
	   "the read's leg command, whose read has not been taken, waits: only md's superblock write is without an upstream");

	/* Window 3: nothing new; what ended in window 2 is taken. */
	ok(!chain_prom_settle(cp, 3000 * US), "window 3 settled");
	ok(!chain_prom_write(cp), "the file written");
	f = tap_slurp(path);
	ok(f && value(f, "ntprof_chain_leg_commands_total", "op=\"read\"",
		      "leg=\"nvme0n1\"", NULL) == 1 &&
	   value(f, "ntprof_chain_leg_critical_total", "op=\"read\"",
		 "leg=\"nvme0n1\"", NULL) == 1,
	   "carried over: the read's leg command linked to the read that ended a window later");
	ok(f && value(f, "ntprof_chain_downstream_commands_total",
		      "state=\"ambiguous\"", NULL) == 1 &&
	   value(f, "ntprof_chain_commands_total", "op=\"write\"", NULL) == 1,
	   "carried over: the leg command inside two writes of its range is ambiguous, neither write linked");
	ok(f && value(f, "ntprof_chain_downstream_commands_total",
		      "state=\"no_upstream\"", NULL) == 1 &&
	   value(f, "ntprof_chain_downstream_commands_total",
		 "state=\"linked\"", NULL) == 3,
	   "still 1 without an upstream; 3 linked");
	if (!tap_have("promtool"))
		tap_skip_missing("promtool check metrics accepts the file",
				 "promtool (Debian's prometheus)");
	else
		ok(f && !promtool_check(path),
		   "promtool check metrics accepts the file");

	/* The end takes what is left, whatever its time. */
	up_rec(&r, 0x02, 500, 3100 * US, 3300 * US);
	err |= chain_prom_add(cp, &r, "md0", "nqn.volume");
	down_rec(&r, 0x02, 500 + OFFSET, 3120 * US, 3200 * US);
	err |= chain_prom_add(cp, &r, "nvme1n1", "");
	ok(!err && !chain_prom_settle(cp, UINT64_MAX) &&
	   !chain_prom_write(cp), "the end settled and written");
	f = tap_slurp(path);
	ok(f && value(f, "ntprof_chain_leg_commands_total", "op=\"read\"",
		      "leg=\"nvme1n1\"", NULL) == 1 &&
	   value(f, "ntprof_chain_commands_total", "op=\"read\"", NULL) == 2,
	   "at the end every link is made");
	chain_prom_free(cp);
	unlink(path);
	rmdir(dir);
}

static const struct tap_case cases[] = {
	{ "windows", test_windows },
};

int main(int argc, char *argv[])
{
	return tap_main(argc, argv, "test_chain_prom", cases,
			TAP_NR_CASES(cases));
}
