// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the control-path events on the tool's side: the
 * pairing of the module's raw events into episodes with durations
 * (analysis/ctl_events.c): a reset, a lost connection, a connect,
 * refused changes left out, a delete during an outage, an outage under
 * way when the recording started; events-get's reply parser
 * (genl/session_events.c), a malformed reply refused; and report's
 * events section and JSON "events" of a .ntp file written with events
 * (out/report_events.c), which must agree; the connect attempts of
 * each episode, with their results, in both.
 * Prints TAP; exits 1 if any test failed.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "analysis/ctl_events.h"
#include "genl/session_events.h"
#include "ntp/ntp.h"
#include "events_test.h"
#include "scratch.h"
#include "tap.h"

#define S	1000000000ULL
#define T0	(100 * S)

static const char *const files[] = {
	"events.ntp", "report.txt", "report.json",
	"attempts.ntp", "attempts.txt", "attempts.json",
	"target.ntp", "target.txt", "target.json",
};

/* The raw events of one recording that started at T0. */
static size_t raw_events(struct ntp_event *e)
{
	size_t n = 0;

	/* nvme0: nvme reset at 2 s, live again 0.25 s after resetting. */
	e[n++] = ev_reset(T0 + 2 * S, 0);
	e[n++] = ev_state(T0 + 2 * S + 10, 0, NTPROF_CTRL_LIVE, NTPROF_CTRL_RESETTING);
	/* Asked again while resetting: refused. */
	e[n++] = ev_state(T0 + 2 * S + 20, 0, NTPROF_CTRL_RESETTING,
		    NTPROF_CTRL_RESETTING);
	e[n++] = ev_state(T0 + 2 * S + 100, 0, NTPROF_CTRL_RESETTING,
		    NTPROF_CTRL_CONNECTING);
	e[n++] = ev_state(T0 + 2 * S + 250000010, 0, NTPROF_CTRL_CONNECTING,
		    NTPROF_CTRL_LIVE);
	/* nvme0: the connection lost at 10 s, back 12.5 s later. */
	e[n++] = ev_state(T0 + 10 * S, 0, NTPROF_CTRL_LIVE, NTPROF_CTRL_RESETTING);
	e[n++] = ev_state(T0 + 10 * S + 5000, 0, NTPROF_CTRL_RESETTING,
		    NTPROF_CTRL_CONNECTING);
	/* Live asked of a deleting controller, say: refused. */
	e[n++] = ev_state(T0 + 11 * S, 0, NTPROF_CTRL_DELETING, NTPROF_CTRL_LIVE);
	e[n++] = ev_state(T0 + 22 * S + S / 2, 0, NTPROF_CTRL_CONNECTING,
		    NTPROF_CTRL_LIVE);
	/* nvme1: connected at 30 s in 1.5 s. */
	e[n++] = ev_state(T0 + 30 * S, 1, NTPROF_CTRL_NEW, NTPROF_CTRL_CONNECTING);
	e[n++] = ev_state(T0 + 31 * S + S / 2, 1, NTPROF_CTRL_CONNECTING,
		    NTPROF_CTRL_LIVE);
	/* nvme1: lost at 40 s, deleted at 50 s, never live again. */
	e[n++] = ev_state(T0 + 40 * S, 1, NTPROF_CTRL_LIVE, NTPROF_CTRL_RESETTING);
	e[n++] = ev_state(T0 + 40 * S + 1, 1, NTPROF_CTRL_RESETTING,
		    NTPROF_CTRL_CONNECTING);
	e[n++] = ev_state(T0 + 50 * S, 1, NTPROF_CTRL_CONNECTING,
		    NTPROF_CTRL_DELETING);
	e[n++] = ev_state(T0 + 50 * S + 7, 1, NTPROF_CTRL_DELETING,
		    NTPROF_CTRL_DEAD);
	/* nvme2: reconnecting when the recording started, live at 3 s. */
	e[n++] = ev_state(T0 + 3 * S, 2, NTPROF_CTRL_CONNECTING, NTPROF_CTRL_LIVE);
	/* nvme3: lost at 60 s, still out when the recording ended. */
	e[n++] = ev_state(T0 + 60 * S, 3, NTPROF_CTRL_LIVE, NTPROF_CTRL_RESETTING);
	return n;
}

static bool ep(const struct ntprof_ctl_event *e, uint8_t kind, uint32_t ctrl,
	       uint64_t start, uint64_t end, uint8_t how)
{
	return e->kind == kind && e->ctrl == ctrl && e->start_ns == start &&
	       e->end_ns == end && e->end == how;
}

static void test_pairing(void)
{
	struct ntp_event raw[32];
	struct ntprof_ctl_event *e = NULL;
	size_t n = 0, cap = 0, nraw = raw_events(raw);
	int err;

	err = ntprof_ctl_events(raw, nraw, T0, 0, &e, &n, &cap);
	ok(!err && n == 7, "17 raw events make 7 episodes (%d, %zu)", err, n);
	if (n != 7) {
		free(e);
		return;
	}
	ok(ep(&e[0], NTPROF_CTL_RESET, 0, T0 + 2 * S + 10,
	      T0 + 2 * S + 250000010, NTPROF_CTL_END_LIVE) &&
	   e[0].connecting_ns == T0 + 2 * S + 100,
	   "a reset asked: resetting to live, 0.25 s, the refused second ask left out");
	ok(ep(&e[1], NTPROF_CTL_LOSS, 0, T0 + 10 * S, T0 + 22 * S + S / 2,
	      NTPROF_CTL_END_LIVE),
	   "resetting without a reset asked is a loss: to live 12.5 s later, the refused live left out");
	ok(ep(&e[2], NTPROF_CTL_CONNECT, 1, T0 + 30 * S, T0 + 31 * S + S / 2,
	      NTPROF_CTL_END_LIVE), "a connect: new to live, 1.5 s");
	ok(ep(&e[3], NTPROF_CTL_LOSS, 1, T0 + 40 * S, T0 + 50 * S,
	      NTPROF_CTL_END_DELETED),
	   "a loss that ends in a delete: ended deleted, 10 s");
	ok(ep(&e[4], NTPROF_CTL_DELETE, 1, T0 + 50 * S, 0, NTPROF_CTL_END_NONE),
	   "the delete itself, an instant");
	ok(ep(&e[5], NTPROF_CTL_RECOVERY, 2, T0, T0 + 3 * S,
	      NTPROF_CTL_END_LIVE),
	   "live from connecting with nothing before: a recovery from the recording's start");
	ok(ep(&e[6], NTPROF_CTL_LOSS, 3, T0 + 60 * S, 0, NTPROF_CTL_END_NONE),
	   "a loss not over when the recording ended has no end");
	free(e);
}

static void test_state_machine(void)
{
	int made = 0, old, new_state;

	for (old = 0; old <= NTPROF_CTRL_DEAD; old++)
		for (new_state = 0; new_state <= NTPROF_CTRL_DEAD + 1;
		     new_state++)
			made += ntprof_ctl_change_made(old, new_state);
	ok(made == 13 && !ntprof_ctl_change_made(NTPROF_CTRL_LIVE,
						 NTPROF_CTRL_CONNECTING) &&
	   ntprof_ctl_change_made(NTPROF_CTRL_DEAD,
				  NTPROF_CTRL_DELETING_NOIO),
	   "the kernel's state machine: 13 changes made (%d)", made);
}

/* An events-get reply message: the summary, or an event. */
static struct nlmsghdr *reply(char *buf, bool summary, uint32_t type,
			      uint64_t t)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));

	g->cmd = NTPROF_CMD_EVENTS_GET;
	mnl_attr_put_u32(nlh, NTPROF_A_EVENTS_ROLE, NTPROF_ROLE_HOST);
	if (summary) {
		mnl_attr_put_u64(nlh, NTPROF_A_EVENTS_RECORDED, 9);
		mnl_attr_put_u64(nlh, NTPROF_A_EVENTS_DROPS, 2);
		return nlh;
	}
	mnl_attr_put_u32(nlh, NTPROF_A_EVENTS_TYPE, type);
	mnl_attr_put_u64(nlh, NTPROF_A_EVENTS_TIME, t);
	mnl_attr_put_u32(nlh, NTPROF_A_EVENTS_CTRL, 4);
	mnl_attr_put_u32(nlh, NTPROF_A_EVENTS_OLD_STATE, NTPROF_CTRL_LIVE);
	mnl_attr_put_u32(nlh, NTPROF_A_EVENTS_NEW_STATE, NTPROF_CTRL_RESETTING);
	return nlh;
}

static void test_reply(void)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct session_events out = { 0 };
	int r1, r2, r3;

	r1 = session_events_reply(reply(buf, true, 0, 0), &out);
	r2 = session_events_reply(reply(buf, false, NTPROF_EVENT_CTRL_STATE,
					T0), &out);
	ok(r1 == MNL_CB_OK && r2 == MNL_CB_OK && out.recorded == 9 &&
	   out.drops == 2 && out.n == 1 && out.ev[0].time_mono_ns == T0 &&
	   out.ev[0].ctrl == 4 && out.ev[0].old_state == NTPROF_CTRL_LIVE &&
	   out.ev[0].new_state == NTPROF_CTRL_RESETTING,
	   "events-get: the summary's counts, an event's fields");
	r3 = session_events_reply(reply(buf, false, NTPROF_EVENT_CTRL_STATE, 0),
				  &out);
	ok(r3 == MNL_CB_ERROR && errno == EPROTO && out.n == 1 &&
	   strstr(out.why, "at time 0"),
	   "an event at time 0 is a malformed reply: \"%s\"", out.why);
	free(out.ev);
}

/*
 * report_text() - the output of "ntprof report @opts @ntp", with the
 * ntprof next to this test (../../tools/ntprof/ntprof), kept in file
 * @out; NULL when report failed.
 */
static char *report_text(const char *opts, const char *ntp, const char *out)
{
	char self[PATH_MAX], cmd[2 * PATH_MAX + 160];

	test_program_dir(self, sizeof(self));
	if (snprintf(cmd, sizeof(cmd),
		     "%s/../../tools/ntprof/ntprof report %s %s > %s", self,
		     opts, ntp, out) >= (int)sizeof(cmd))
		scratch_bail("the test's path is too long");
	return system(cmd) ? NULL : tap_slurp(out);
}

/*
 * write_events() - write a recording of one record and @n raw events in
 * @path: the first @split events in a unit, the others, with @drops
 * events lost, in a second one (none when @split is @n).
 */
static int write_events(const char *path, const struct ntp_event *raw,
			size_t n, size_t split, uint64_t drops)
{
	struct ntprof_record rec = { 0 };
	struct ntp_trailer tr = { 0 };
	struct ntp_header h = { 0 };
	struct ntp_writer *w;
	int err;

	events_host_header(&h, T0);
	rec.role = NTPROF_ROLE_HOST;
	rec.transport = NTPROF_TRANSPORT_TCP;
	rec.opcode = 2;
	rec.flags = NTPROF_REC_F_SAMPLED;
	rec.length = 4096;
	rec.ts[NTPROF_PT_HOST_BLK_START] = T0 + S;
	rec.ts[NTPROF_PT_HOST_BLK_COMPLETE] = T0 + S + 50000;
	err = ntp_writer_open(path, &h, &w);
	if (!err)
		err = ntp_writer_append(w, &rec, 1);
	if (!err)
		err = ntp_writer_events(w, raw, split, split < n ? 0 : drops);
	if (!err && split < n)
		err = ntp_writer_events(w, raw + split, n - split, drops);
	tr.end_mono_ns = T0 + 70 * S;
	tr.end_real_ns = h.start_real_ns + 70 * S;
	if (!err)
		err = ntp_writer_close(w, &tr);
	return err;
}

static void test_report(void)
{
	struct ntp_event raw[32];
	size_t nraw = raw_events(raw);
	char *text;
	int err;

	err = write_events("events.ntp", raw, nraw, 9, 3);
	ok(!err, "a recording with events in two units written (%d)", err);

	text = report_text("", "events.ntp", "report.txt");
	ok(!err && text &&
	   strstr(text, "\nevents (control path, seconds from the recording's start)\n") &&
	   strstr(text, "      2.000000  nvme0         reset           0.250000  live\n") &&
	   strstr(text, "     10.000000  nvme0         loss           12.500000  live\n") &&
	   strstr(text, "     30.000000  nvme1         connect         1.500000  live\n") &&
	   strstr(text, "     40.000000  nvme1         loss           10.000000  deleted\n") &&
	   strstr(text, "     50.000000  nvme1         delete                 -  \n") &&
	   strstr(text, "      0.000000  nvme2         recovery        3.000000  live  under way when the recording started\n") &&
	   strstr(text, "     60.000000  nvme3         loss                   -  not within the recording\n") &&
	   strstr(text, "  3 events lost: the module's buffer of them was full\n"),
	   "report: the events section, each episode with its duration");
	if (text && !strstr(text, "nvme3"))
		diag("%s", text);

	text = json_squeeze(report_text("--json", "events.ntp", "report.json"));
	ok(!err && text &&
	   strstr(text, "\"events\":[{\"type\":\"reset\",\"controller\":\"nvme0\",\"machine\":\"host1\",\"start_s\":2.000000,\"duration_s\":0.250000,\"end\":\"live\",\"before_start\":false}") &&
	   strstr(text, "{\"type\":\"loss\",\"controller\":\"nvme0\",\"machine\":\"host1\",\"start_s\":10.000000,\"duration_s\":12.500000,\"end\":\"live\"") &&
	   strstr(text, "{\"type\":\"delete\",\"controller\":\"nvme1\",\"machine\":\"host1\",\"start_s\":50.000000,\"duration_s\":null,\"end\":null") &&
	   strstr(text, "{\"type\":\"loss\",\"controller\":\"nvme3\",\"machine\":\"host1\",\"start_s\":60.000000,\"duration_s\":null,\"end\":\"none\"") &&
	   strstr(text, "\"events_lost\":3"),
	   "report --json: the same episodes in \"events\", the events lost");
	/* And the schema, whose events this test checks against. */
	ok(events_schema_ok("ntprof-report-1.json", "report.json"),
	   "report --json with events matches ntprof-report-1.json");
	if (text && !strstr(text, "\"events_lost\":3"))
		diag("%s", text);
}

/*
 * Connect attempts, as the module records them at nvme_tcp_setup_ctrl()
 * and nvme_rdma_setup_ctrl(): a loss with two failed reconnect attempts
 * and a third that made it live, a connect of one attempt, a loss whose
 * attempts kept failing until its delete, an attempt with nothing
 * before it (connecting when the recording started), and a loss of 40
 * attempts, more than an episode keeps the times of.
 */
static size_t attempt_events(struct ntp_event *e)
{
	size_t n = 0, i;

	e[n++] = ev_state(T0 + 10 * S, 5, NTPROF_CTRL_LIVE, NTPROF_CTRL_RESETTING);
	e[n++] = ev_state(T0 + 10 * S + 100, 5, NTPROF_CTRL_RESETTING,
		    NTPROF_CTRL_CONNECTING);
	e[n++] = ev_attempt(T0 + 11 * S, 5);
	e[n++] = ev_attempt(T0 + 12 * S, 5);
	e[n++] = ev_attempt(T0 + 13 * S, 5);
	e[n++] = ev_state(T0 + 13 * S + S / 4, 5, NTPROF_CTRL_CONNECTING,
		    NTPROF_CTRL_LIVE);
	e[n++] = ev_state(T0 + 20 * S, 6, NTPROF_CTRL_NEW, NTPROF_CTRL_CONNECTING);
	e[n++] = ev_attempt(T0 + 20 * S + 10, 6);
	e[n++] = ev_state(T0 + 20 * S + S / 2, 6, NTPROF_CTRL_CONNECTING,
		    NTPROF_CTRL_LIVE);
	e[n++] = ev_state(T0 + 30 * S, 7, NTPROF_CTRL_LIVE, NTPROF_CTRL_RESETTING);
	e[n++] = ev_state(T0 + 30 * S + 1, 7, NTPROF_CTRL_RESETTING,
		    NTPROF_CTRL_CONNECTING);
	e[n++] = ev_attempt(T0 + 31 * S, 7);
	e[n++] = ev_attempt(T0 + 32 * S, 7);
	e[n++] = ev_state(T0 + 33 * S, 7, NTPROF_CTRL_CONNECTING,
		    NTPROF_CTRL_DELETING);
	e[n++] = ev_attempt(T0 + 2 * S, 8);
	e[n++] = ev_state(T0 + 3 * S, 8, NTPROF_CTRL_CONNECTING, NTPROF_CTRL_LIVE);
	e[n++] = ev_state(T0 + 40 * S, 9, NTPROF_CTRL_LIVE, NTPROF_CTRL_RESETTING);
	e[n++] = ev_state(T0 + 40 * S + 1, 9, NTPROF_CTRL_RESETTING,
		    NTPROF_CTRL_CONNECTING);
	for (i = 0; i < 40; i++)
		e[n++] = ev_attempt(T0 + 41 * S + i * S / 10, 9);
	return n;
}

static void test_attempts(void)
{
	struct ntp_event raw[96];
	struct ntprof_ctl_event *e = NULL;
	size_t n = 0, cap = 0, nraw = attempt_events(raw);
	int err;

	err = ntprof_ctl_events(raw, nraw, T0, 0, &e, &n, &cap);
	ok(!err && n == 6, "connect attempts add no episode of their own but a recovery's (%d, %zu)",
	   err, n);
	if (n != 6) {
		free(e);
		return;
	}
	ok(ep(&e[0], NTPROF_CTL_LOSS, 5, T0 + 10 * S, T0 + 13 * S + S / 4,
	      NTPROF_CTL_END_LIVE) && e[0].attempts == 3 &&
	   e[0].attempt_ns[0] == T0 + 11 * S &&
	   e[0].attempt_ns[2] == T0 + 13 * S &&
	   !strcmp(ntprof_ctl_attempt_result(&e[0], 0), "failed") &&
	   !strcmp(ntprof_ctl_attempt_result(&e[0], 1), "failed") &&
	   !strcmp(ntprof_ctl_attempt_result(&e[0], 2), "live"),
	   "a loss's three attempts: two failed, the last live");
	ok(ep(&e[1], NTPROF_CTL_CONNECT, 6, T0 + 20 * S, T0 + 20 * S + S / 2,
	      NTPROF_CTL_END_LIVE) && e[1].attempts == 1,
	   "a connect of one attempt");
	ok(e[2].kind == NTPROF_CTL_LOSS && e[2].ctrl == 7 &&
	   e[2].attempts == 2 && e[2].end == NTPROF_CTL_END_DELETED &&
	   !strcmp(ntprof_ctl_attempt_result(&e[2], 1), "deleted") &&
	   e[3].kind == NTPROF_CTL_DELETE && e[3].attempts == 0,
	   "a loss deleted after two attempts; its delete has none");
	ok(ep(&e[4], NTPROF_CTL_RECOVERY, 8, T0, T0 + 3 * S,
	      NTPROF_CTL_END_LIVE) && e[4].attempts == 1,
	   "an attempt with nothing before it: a recovery under way");
	ok(e[5].kind == NTPROF_CTL_LOSS && e[5].attempts == 40 &&
	   e[5].attempt_ns[NTPROF_CTL_ATTEMPTS_MAX - 1] ==
	   T0 + 41 * S + (NTPROF_CTL_ATTEMPTS_MAX - 1) * S / 10 &&
	   !strcmp(ntprof_ctl_attempt_result(&e[5], 39), "unknown"),
	   "40 attempts counted, the first 32 timed, the last one's result unknown");
	free(e);
}

static void test_attempts_report(void)
{
	struct ntp_event raw[96];
	size_t nraw = attempt_events(raw);
	char *text;
	int err;

	err = write_events("attempts.ntp", raw, nraw, nraw, 0);
	ok(!err, "a recording with connect attempts written (%d)", err);
	text = report_text("", "attempts.ntp", "attempts.txt");
	ok(!err && text &&
	   strstr(text, "     10.000000  nvme5         loss            3.250000  live\n"
			"                3 attempts: 11.000000 failed, 12.000000 failed, 13.000000 live\n") &&
	   strstr(text, "  nvme6         connect         0.500000  live\n"
			"                1 attempt: 20.000000 live\n") &&
	   strstr(text, "                2 attempts: 31.000000 failed, 32.000000 deleted\n") &&
	   strstr(text, "                40 attempts: 41.000000 failed,") &&
	   strstr(text, ", 44.100000 failed, and 8 more\n"),
	   "report: each episode's attempts, their times and results");
	if (text && !strstr(text, "3 attempts"))
		diag("%s", text);

	text = json_squeeze(report_text("--json", "attempts.ntp", "attempts.json"));
	ok(!err && text &&
	   strstr(text, "\"start_s\":10.000000,\"duration_s\":3.250000,\"end\":\"live\",\"before_start\":false,"
			"\"attempt_count\":3,\"attempts\":[{\"start_s\":11.000000,\"result\":\"failed\"},"
			"{\"start_s\":12.000000,\"result\":\"failed\"},{\"start_s\":13.000000,\"result\":\"live\"}]}") &&
	   strstr(text, "\"attempt_count\":40,") &&
	   strstr(text, "{\"type\":\"delete\",\"controller\":\"nvme7\",\"machine\":\"host1\",\"start_s\":33.000000,\"duration_s\":null,\"end\":null,\"before_start\":false}"),
	   "report --json: attempt_count and attempts with the text's times and results");
	ok(events_schema_ok("ntprof-report-1.json", "attempts.json"),
	   "report --json with attempts matches ntprof-report-1.json");
}

static struct ntp_event tgt(uint64_t t, uint32_t cntlid, uint8_t type)
{
	return (struct ntp_event) {
		.time_mono_ns = t, .ctrl = cntlid, .type = type,
	};
}

/*
 * A target's controllers: cntlid 1 created at 5 s and freed at 9 s,
 * cntlid 2 freed at 3 s (created before the recording), cntlid 3 created
 * at 12 s and not freed; and a host's nvme1 lost at 4 s, still out, whose
 * instance the target's cntlid 1 must not be taken for.
 */
static size_t target_events(struct ntp_event *e)
{
	size_t n = 0;

	e[n++] = tgt(T0 + 3 * S, 2, NTPROF_EVENT_TARGET_CTRL_FREED);
	e[n++] = ev_state(T0 + 4 * S, 1, NTPROF_CTRL_LIVE, NTPROF_CTRL_RESETTING);
	e[n++] = tgt(T0 + 5 * S, 1, NTPROF_EVENT_TARGET_CTRL_CREATED);
	e[n++] = tgt(T0 + 9 * S, 1, NTPROF_EVENT_TARGET_CTRL_FREED);
	e[n++] = tgt(T0 + 12 * S, 3, NTPROF_EVENT_TARGET_CTRL_CREATED);
	return n;
}

static void test_target(void)
{
	struct ntp_event raw[8];
	struct ntprof_ctl_event *e = NULL;
	size_t n = 0, cap = 0, nraw = target_events(raw);
	char *text;
	int err;

	err = ntprof_ctl_events(raw, nraw, T0, 0, &e, &n, &cap);
	ok(!err && n == 4 &&
	   ep(&e[0], NTPROF_CTL_NVMET_CTRL, 2, T0, T0 + 3 * S,
	      NTPROF_CTL_END_FREED) && e[0].before_start &&
	   ep(&e[1], NTPROF_CTL_LOSS, 1, T0 + 4 * S, 0, NTPROF_CTL_END_NONE) &&
	   ep(&e[2], NTPROF_CTL_NVMET_CTRL, 1, T0 + 5 * S, T0 + 9 * S,
	      NTPROF_CTL_END_FREED) && !e[2].before_start &&
	   ep(&e[3], NTPROF_CTL_NVMET_CTRL, 3, T0 + 12 * S, 0,
	      NTPROF_CTL_END_NONE),
	   "a target's controllers: created to freed, freed only, created only; a host's nvme1 apart");
	free(e);

	err = write_events("target.ntp", raw, nraw, nraw, 0);
	text = report_text("", "target.ntp", "target.txt");
	ok(!err && text &&
	   strstr(text, "      0.000000  cntlid=2      nvmet-ctrl      3.000000  freed  created before the recording started\n") &&
	   strstr(text, "      5.000000  cntlid=1      nvmet-ctrl      4.000000  freed\n") &&
	   strstr(text, "     12.000000  cntlid=3      nvmet-ctrl             -  not within the recording\n") &&
	   strstr(text, "      4.000000  nvme1         loss                   -  not within the recording\n"),
	   "report: a target's controllers by their id, with their lives");
	if (text && !strstr(text, "cntlid=1"))
		diag("%s", text);
	text = json_squeeze(report_text("--json", "target.ntp", "target.json"));
	ok(!err && text &&
	   strstr(text, "{\"type\":\"nvmet-ctrl\",\"controller\":\"cntlid=2\",\"machine\":\"host1\",\"start_s\":0.000000,\"duration_s\":3.000000,\"end\":\"freed\",\"before_start\":true}") &&
	   strstr(text, "{\"type\":\"nvmet-ctrl\",\"controller\":\"cntlid=1\",\"machine\":\"host1\",\"start_s\":5.000000,\"duration_s\":4.000000,\"end\":\"freed\",\"before_start\":false}"),
	   "report --json: the same, type nvmet-ctrl, ended freed");
	ok(events_schema_ok("ntprof-report-1.json", "target.json"),
	   "report --json with a target's controllers matches ntprof-report-1.json");
}

static const struct tap_case cases[] = {
	{ "target", test_target },
	{ "attempts", test_attempts },
	{ "attempts_report", test_attempts_report },
	{ "state_machine", test_state_machine },
	{ "pairing", test_pairing },
	{ "reply", test_reply },
	{ "report", test_report },
};

int main(int argc, char *argv[])
{
	if (tap_args(argc, argv, cases, TAP_NR_CASES(cases)) != argc)
		tap_usage("test_events");
	scratch_enter("test_events", files, sizeof(files) / sizeof(files[0]));
	tap_run(cases, TAP_NR_CASES(cases));
	scratch_cleanup();
	return tap_done("test_events");
}
