// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the outage stage (analysis/attempts.c): a host's attempt
 * that an outage aborted (requeued: failed over to another path) linked
 * to the try that sent its I/O again, as one command with two tries
 * whose outage stage is the aborted try and the wait after it; an
 * unrelated command, one of the same LBA that started before the attempt
 * ended, and a retry without its attempt not linked; an aborted attempt
 * without a retry, and one queue_rq failed before building it (no LBA),
 * counted unlinked. Then report's text and JSON of a .ntp file of those
 * records and a lost connection: the outage stage named with the loss,
 * the stages adding up to the end to end, the counts, the schema; a
 * streamed report's note that it links nothing; compare against a run
 * without the outage, whose outage row is 0.
 * Prints TAP; exits 1 if any test failed.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/attempts.h"
#include "ntp/ntp.h"
#include "events_test.h"
#include "scratch.h"
#include "tap.h"

#define S	1000000000ULL
#define MS	1000000ULL
#define T0	(100 * S)
/* Two path disks of one namespace (nvme0c0n1, nvme0c1n1), by number. */
#define P0	1001
#define P1	1002

static const char *const files[] = { "outage.ntp", "clean.ntp",
				     "report.txt", "report.json" };

enum { A, B, C, D, E, F, G, NR };

/* A host read or write of 4 KiB at @t that took @us, sampled. */
static struct ntprof_record cmd(uint32_t dev, uint8_t opcode, uint64_t slba,
				uint64_t t, uint64_t us)
{
	struct ntprof_record r = { 0 };

	r.role = NTPROF_ROLE_HOST;
	r.transport = NTPROF_TRANSPORT_TCP;
	r.opcode = opcode;
	r.flags = NTPROF_REC_F_SAMPLED;
	r.qid = 1;
	r.nsid = 1;
	r.length = 4096;
	r.slba = slba;
	r.dev = dev;
	r.ts[NTPROF_PT_HOST_BLK_START] = t;
	r.ts[NTPROF_PT_HOST_QUEUE_RQ] = t + 1000;
	r.ts[NTPROF_PT_HOST_SETUP] = t + 2000;
	r.ts[NTPROF_PT_HOST_SEND] = t + 3000;
	r.ts[NTPROF_PT_HOST_RECV] = t + us * 1000 - 3000;
	r.ts[NTPROF_PT_HOST_DRIVER_DONE] = t + us * 1000 - 2000;
	r.ts[NTPROF_PT_HOST_NVME_COMPLETE] = t + us * 1000 - 1000;
	r.ts[NTPROF_PT_HOST_BLK_COMPLETE] = t + us * 1000;
	return r;
}

/* The same, cancelled by the host (no response) and failed over. */
static struct ntprof_record aborted(struct ntprof_record r)
{
	r.ts[NTPROF_PT_HOST_RECV] = 0;
	r.status = 0x371;
	r.flags |= NTPROF_REC_F_FAILED | NTPROF_REC_F_REQUEUED;
	return r;
}

/*
 * The records: A, a read aborted at 1 s after 20 ms (20.002 ms to its
 * last point) on nvme0's path; B, its retry on the other path at 3 s;
 * C, another LBA; D, A's LBA but started before A ended; E, a command
 * whose attempt is not in the recording; F, an aborted write never
 * retried; G, a try failed in queue_rq, without an LBA.
 */
static void records(struct ntprof_record *r)
{
	r[A] = aborted(cmd(P0, 2, 100, T0 + S, 20002));
	r[B] = cmd(P1, 2, 100, T0 + 3 * S, 56);
	r[C] = cmd(P0, 2, 500, T0 + S / 2, 50);
	r[D] = cmd(P0, 2, 100, T0 + S + 5 * MS, 56);
	r[E] = cmd(P1, 2, 900, T0 + 4 * S, 60);
	r[F] = aborted(cmd(P0, 1, 700, T0 + S + MS, 20000));
	r[G] = aborted(cmd(P0, 2, 0, T0 + S + 2 * MS, 10));
	r[G].nsid = 0;
	r[G].status = 0x370;
}

/* nvme0's connection lost at 1.01 s, live again at 2.9 s. */
static size_t raw_events(struct ntp_event *e)
{
	static const uint8_t ch[][2] = {
		{ NTPROF_CTRL_LIVE, NTPROF_CTRL_RESETTING },
		{ NTPROF_CTRL_RESETTING, NTPROF_CTRL_CONNECTING },
		{ NTPROF_CTRL_CONNECTING, NTPROF_CTRL_LIVE },
	};
	static const uint64_t at[] = { T0 + S + 10 * MS, T0 + 2 * S,
				       T0 + 2 * S + 900 * MS };
	size_t i;

	for (i = 0; i < 3; i++)
		e[i] = ev_state(at[i], 0, ch[i][0], ch[i][1]);
	return 3;
}

/* Both path disks are one namespace; P0 is nvme0's, P1 nvme1's. */
static uint32_t head(const struct ntprof_record *r, void *arg)
{
	(void)arg;
	return r->dev == P1 ? P0 : r->dev;
}

static const char *ctrl(const struct ntprof_record *r, void *arg)
{
	(void)arg;
	return r->dev == P0 ? "nvme0" : "nvme1";
}

static void test_link(void)
{
	struct ntprof_record r[NR];
	struct ntp_event raw[3];
	struct ntprof_ctl_event *ev = NULL;
	struct ntprof_attempts at;
	size_t nev = 0, cap = 0, i;
	int err, others = 0;

	records(r);
	err = ntprof_ctl_events(raw, raw_events(raw), T0, 0, &ev, &nev, &cap);
	ok(!err && nev == 1 && ev[0].kind == NTPROF_CTL_LOSS,
	   "the lost connection is one loss episode (%d, %zu)", err, nev);
	err = ntprof_attempts_link(r, NR, head, NULL, ctrl, ev, nev, &at);
	ok(!err && at.of, "the records with aborted ones are linked (%d)",
	   err);
	if (err || !at.of) {
		free(ev);
		return;
	}
	ok(at.of[B].tries == 2 && at.of[B].aborted_ns == 20002 * 1000 &&
	   at.of[B].wait_ns == 2 * S - 20002 * 1000,
	   "the retry on the other path: 2 tries, the aborted one's 20.002 ms and the wait to the retry (%u, %llu, %llu)",
	   at.of[B].tries, (unsigned long long)at.of[B].aborted_ns,
	   (unsigned long long)at.of[B].wait_ns);
	ok(!strcmp(at.of[B].episode, "loss nvme0"),
	   "its outage is named with the loss of the aborted try's controller (%s)",
	   at.of[B].episode);
	for (i = 0; i < NR; i++)
		others += i != B && at.of[i].tries;
	ok(!others && !at.of[D].tries,
	   "no other command linked: not another LBA, not the same LBA started before the attempt ended, not a retry without its attempt");
	ok(at.n_commands == 1 && at.n_linked == 1 && at.n_unlinked == 2,
	   "counts: 1 command with tries, 1 aborted try linked, 2 not (a write never retried, a try without an LBA) (%llu, %llu, %llu)",
	   (unsigned long long)at.n_commands,
	   (unsigned long long)at.n_linked,
	   (unsigned long long)at.n_unlinked);
	free(at.of);

	/* Without the attempt, its retry is a command like any other. */
	r[A] = r[C];
	err = ntprof_attempts_link(r, NR, head, NULL, ctrl, ev, nev, &at);
	ok(!err && at.of && !at.of[B].tries && at.n_commands == 0 &&
	   at.n_linked == 0,
	   "a retry whose attempt is not in the recording is not linked");
	free(at.of);
	free(ev);
}

/* The top of the tree, whose tools/ntprof/ntprof this test runs. */
static void tool_dir(char *dir, size_t size)
{
	char self[PATH_MAX];

	test_program_dir(self, sizeof(self));
	snprintf(dir, size, "%s/../..", self);
}

static int run(const char *fmt, const char *top)
{
	char cmdline[2 * PATH_MAX + 512];

	if (snprintf(cmdline, sizeof(cmdline), fmt, top, top) >=
	    (int)sizeof(cmdline))
		scratch_bail("the tool's path is too long");
	return system(cmdline);
}

/*
 * Write the records and the loss to outage.ntp, or, @clean, a run
 * without the outage to clean.ntp: no aborted command, no event.
 */
static int write_run(bool clean)
{
	static const struct ntp_dev devs[] = {
		{ .dev = P0, .name = "nvme0n1" }, { .dev = P1, .name = "nvme0n1" },
	};
	static const struct ntp_ctrl ctrls[] = {
		{ .dev = P0, .nsid = 1, .cntlid = 1,
		  .transport = NTPROF_TRANSPORT_TCP, .name = "nvme0" },
		{ .dev = P1, .nsid = 1, .cntlid = 2,
		  .transport = NTPROF_TRANSPORT_TCP, .name = "nvme1" },
	};
	struct ntprof_record r[NR];
	struct ntp_event raw[3];
	struct ntp_trailer tr = { 0 };
	struct ntp_header h = { 0 };
	struct ntp_writer *w;
	int err;

	records(r);
	if (clean)
		r[A] = r[F] = r[G] = r[C];
	events_host_header(&h, T0);
	h.devs = devs;
	h.nr_devs = 2;
	h.ctrls = ctrls;
	h.nr_ctrls = 2;
	err = ntp_writer_open(clean ? "clean.ntp" : "outage.ntp", &h, &w);
	if (!err)
		err = ntp_writer_append(w, r, NR);
	if (!err && !clean)
		err = ntp_writer_events(w, raw, raw_events(raw), 0);
	tr.end_mono_ns = T0 + 5 * S;
	tr.end_real_ns = h.start_real_ns + 5 * S;
	if (!err)
		err = ntp_writer_close(w, &tr);
	return err;
}

static void test_report(void)
{
	char top[PATH_MAX + 8], *text;
	int err;

	err = write_run(false);
	ok(!err, "a recording of the records and the loss written (%d)", err);
	err = write_run(true);
	ok(!err, "a recording without the outage written (%d)", err);

	tool_dir(top, sizeof(top));
	err = run("%s/tools/ntprof/ntprof report --detail outage.ntp > report.txt",
		  top);
	text = tap_slurp("report.txt");
	/* Of the 4 reads, one waited 2 s: 0.5 s of outage on average. */
	ok(!err && text &&
	   strstr(text, "== read 4KiB nvme0n1: 4 commands sampled") &&
	   strstr(text, "\n  outage                                500000.00   100%") &&
	   strstr(text, "\n  largest: outage, 100 % of the latency\n") &&
	   strstr(text, "  outage: 1 commands waited through an outage, 2 tries; aborted tries mean 20002.00 us, wait mean 1979998.00 us, max 1979998.00 us (loss nvme0)\n") &&
	   strstr(text, "outage: 1 commands waited through an outage, in its stage: 1 of the aborted linked"),
	   "report: the outage stage, the group's command with 2 tries and its loss, the run's count");
	if (text && !strstr(text, "  outage: 1 commands"))
		diag("%s", text);

	/* Streamed, the run is read in one pass: nothing is linked. */
	err = run("%s/tools/ntprof/ntprof report --stream outage.ntp > report.txt",
		  top);
	text = tap_slurp("report.txt");
	ok(!err && text && !strstr(text, "  outage  ") &&
	   strstr(text, "\noutage: a streamed run links no aborted try to its retry"),
	   "report --stream: no outage stage, and a note that says so");
	if (text && !strstr(text, "streamed run"))
		diag("%s", text);

	err = run("%s/tools/ntprof/ntprof report --json outage.ntp > report.json",
		  top);
	ok(!err && !run("jq -e '.groups | length == 1 and (.[0] |"
			" .outage == {\"commands\": 1, \"tries\": 2,"
			" \"aborted_mean_s\": 0.020002, \"wait_mean_s\": 1.979998,"
			" \"wait_max_s\": 1.979998, \"events\": [\"loss nvme0\"]}"
			" and .stages[0].id == \"outage\""
			" and .stages[0].mean_us == 500000"
			" and ((.stages | map(.mean_us) | add) - .latency_us.mean"
			" | fabs) < 0.01)' report.json > /dev/null #%s%s", top),
	   "report --json: the outage stage first, the group's outage, the stages adding up to the end to end");
	ok(!run("jq -e '.aborted | .n == 3 and .linked == 1 and"
		" .outage_commands == 1' report.json > /dev/null #%s%s", top),
	   "report --json: 3 aborted, 1 linked, 1 command with its outage");
	ok(!run("python3 %s/selftests/json-check.py %s/Documentation/schemas/ntprof-report-1.json report.json",
		top),
	   "report --json with an outage matches ntprof-report-1.json");

	/* Against a run without one: the outage is a row, 0 in that run. */
	err = run("%s/tools/ntprof/ntprof compare clean.ntp outage.ntp > report.txt #%s",
		  top);
	text = tap_slurp("report.txt");
	ok(!err && text &&
	   strstr(text, "\n  outage                                      0.00 500000.00"),
	   "compare: the outage stage a row, 0 in the run without an outage");
	if (text && !strstr(text, "  outage  "))
		diag("%s", text);
}

static const struct tap_case cases[] = {
	{ "link", test_link },
	{ "report", test_report },
};

int main(int argc, char *argv[])
{
	return scratch_main(argc, argv, "test_attempts", cases,
			    TAP_NR_CASES(cases), files,
			    sizeof(files) / sizeof(files[0]));
}
