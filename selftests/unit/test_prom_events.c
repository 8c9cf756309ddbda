// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of record --prom's control-path series
 * (out/record_prom_events.c), driven as record drives them: the events
 * of five drains, the file rewritten after each. Each write's counts,
 * durations and "out" gauge per controller; the labels from the
 * controller table, from a sysfs tree the test builds once a controller
 * is live, none for one deleted before it was read, and a new series
 * for an instance number used again; and, for the issue's check, a .ntp
 * file of the same events whose ntprof report --json lists the episodes
 * that the last file counts (selftests/prom-events-check.sh, which must
 * also catch a file that does not), and promtool check metrics.
 * Prints TAP; exits 1 if any test failed.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ntp/ntp.h"
#include "out/record_prom.h"
#include "events_test.h"
#include "scratch.h"
#include "tap.h"

#define S	1000000000ULL
#define T0	(100 * S)

static const char *const attrs[] = {
	"subsysnqn", "address", "hostnqn", "transport",
};

static const char *const files[] = {
	"events.ntp", "ev.prom", "report.json", "check.out", "bad.prom",
	"promtool.out",
};

/* The drains: DRAINS batches of events, in the module's order. */
#define DRAINS	5
static struct ntp_event ev[DRAINS][16];
static size_t nev[DRAINS];

static void add(int d, struct ntp_event e)
{
	ev[d][nev[d]++] = e;
}

static void events_make(void)
{
	/* 1: nvme0 reset, 0.25 s; nvme2 reconnecting since before, live at 3 s. */
	add(0, ev_reset(T0 + 2 * S, 0));
	add(0, ev_state(T0 + 2 * S + 10, 0, NTPROF_CTRL_LIVE, NTPROF_CTRL_RESETTING));
	add(0, ev_state(T0 + 2 * S + 20, 0, NTPROF_CTRL_RESETTING,
		  NTPROF_CTRL_RESETTING));
	add(0, ev_state(T0 + 2 * S + 100, 0, NTPROF_CTRL_RESETTING,
		  NTPROF_CTRL_CONNECTING));
	add(0, ev_state(T0 + 2 * S + 250000010, 0, NTPROF_CTRL_CONNECTING,
		  NTPROF_CTRL_LIVE));
	add(0, ev_state(T0 + 3 * S, 2, NTPROF_CTRL_CONNECTING, NTPROF_CTRL_LIVE));
	/*
	 * A target's controller created, cntlid 0 as nvme0's instance: it
	 * is not nvme0, and leaves nvme0 neither out nor with an episode.
	 */
	add(0, (struct ntp_event) { .time_mono_ns = T0 + 3 * S + 1, .ctrl = 0,
				    .type = NTPROF_EVENT_TARGET_CTRL_CREATED });
	/* 2: nvme0's connection lost at 10 s: out. */
	add(1, ev_state(T0 + 10 * S, 0, NTPROF_CTRL_LIVE, NTPROF_CTRL_RESETTING));
	add(1, ev_state(T0 + 10 * S + 5000, 0, NTPROF_CTRL_RESETTING,
		  NTPROF_CTRL_CONNECTING));
	/* 3: a refused change, nvme0 live at 22.5 s; nvme1 connecting. */
	add(2, ev_state(T0 + 11 * S, 0, NTPROF_CTRL_DELETING, NTPROF_CTRL_LIVE));
	add(2, ev_state(T0 + 22 * S + S / 2, 0, NTPROF_CTRL_CONNECTING,
		  NTPROF_CTRL_LIVE));
	add(2, ev_state(T0 + 30 * S, 1, NTPROF_CTRL_NEW, NTPROF_CTRL_CONNECTING));
	/* 4: nvme1 live at 31.5 s; nvme4 connected, deleted, never live. */
	add(3, ev_state(T0 + 31 * S + S / 2, 1, NTPROF_CTRL_CONNECTING,
		  NTPROF_CTRL_LIVE));
	add(3, ev_state(T0 + 33 * S, 4, NTPROF_CTRL_NEW, NTPROF_CTRL_CONNECTING));
	add(3, ev_state(T0 + 34 * S, 4, NTPROF_CTRL_CONNECTING,
		  NTPROF_CTRL_DELETING));
	add(3, ev_state(T0 + 34 * S + 9, 4, NTPROF_CTRL_DELETING, NTPROF_CTRL_DEAD));
	/*
	 * 5: nvme1 lost at 40 s, deleted at 50 s; nvme1 again, another
	 * subsystem's, connected in 1 s; nvme3 lost at 60 s, still out.
	 */
	add(4, ev_state(T0 + 40 * S, 1, NTPROF_CTRL_LIVE, NTPROF_CTRL_RESETTING));
	add(4, ev_state(T0 + 40 * S + 1, 1, NTPROF_CTRL_RESETTING,
		  NTPROF_CTRL_CONNECTING));
	add(4, ev_state(T0 + 50 * S, 1, NTPROF_CTRL_CONNECTING,
		  NTPROF_CTRL_DELETING));
	add(4, ev_state(T0 + 50 * S + 7, 1, NTPROF_CTRL_DELETING, NTPROF_CTRL_DEAD));
	add(4, ev_state(T0 + 55 * S, 1, NTPROF_CTRL_NEW, NTPROF_CTRL_CONNECTING));
	add(4, ev_state(T0 + 56 * S, 1, NTPROF_CTRL_CONNECTING, NTPROF_CTRL_LIVE));
	add(4, ev_state(T0 + 60 * S, 3, NTPROF_CTRL_LIVE, NTPROF_CTRL_RESETTING));
}

/* The table of the recording's start: nvme0 and nvme3. */
static const struct ntp_ctrl tab[] = {
	{ .dev = 1, .nsid = 1, .transport = NTPROF_TRANSPORT_TCP,
	  .name = "nvme0", .subsysnqn = "nqn.sub0",
	  .address = "traddr=10.0.0.1,trsvcid=4420" },
	{ .dev = 2, .nsid = 1, .transport = NTPROF_TRANSPORT_RDMA,
	  .name = "nvme3", .subsysnqn = "nqn.sub3",
	  .address = "traddr=10.0.0.3,trsvcid=4421" },
};
static const prom_nqn tab_nqns[] = { "nqn.host", "nqn.host" };

/* A controller's directory in the test's sysfs tree, or none. */
static void sysfs_ctrl(const char *name, const char *subnqn, const char *addr)
{
	const char *v[] = { subnqn, addr, "nqn.host", "tcp" };
	char path[128];
	FILE *f;
	size_t i;

	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "sys/%s/%s", name, attrs[i]);
		unlink(path);
	}
	snprintf(path, sizeof(path), "sys/%s", name);
	rmdir(path);
	if (!subnqn)
		return;
	if (mkdir(path, 0755))
		scratch_bail("mkdir sys/...");
	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "sys/%s/%s", name, attrs[i]);
		f = fopen(path, "w");
		if (!f)
			scratch_bail("cannot write the sysfs tree");
		fprintf(f, "%s\n", v[i]);
		fclose(f);
	}
}

/* The labels of a series, in the file's order. */
#define L0	"{role=\"host\",controller=\"nvme0\",transport=\"tcp\",subnqn=\"nqn.sub0\",traddr=\"10.0.0.1\",trsvcid=\"4420\",hostnqn=\"nqn.host\""
#define L1	"{role=\"host\",controller=\"nvme1\",transport=\"tcp\",subnqn=\"nqn.sub1\",traddr=\"10.0.0.11\",trsvcid=\"4420\",hostnqn=\"nqn.host\""
#define L1B	"{role=\"host\",controller=\"nvme1\",transport=\"tcp\",subnqn=\"nqn.sub1b\",traddr=\"10.0.0.12\",trsvcid=\"4420\",hostnqn=\"nqn.host\""
#define L2	"{role=\"host\",controller=\"nvme2\",transport=\"tcp\",subnqn=\"nqn.sub2\",traddr=\"10.0.0.2\",trsvcid=\"4420\",hostnqn=\"nqn.host\""
#define L3	"{role=\"host\",controller=\"nvme3\",transport=\"rdma\",subnqn=\"nqn.sub3\",traddr=\"10.0.0.3\",trsvcid=\"4421\",hostnqn=\"nqn.host\""
#define L4	"{role=\"host\",controller=\"nvme4\",transport=\"\",subnqn=\"\",traddr=\"\",trsvcid=\"\",hostnqn=\"\""

#define N(l, e)		"ntprof_ctrl_events_total" l ",event=\"" e "\"} "
#define SEC(l, e)	"ntprof_ctrl_event_seconds_total" l ",event=\"" e "\"} "
#define OUT(l)		"ntprof_ctrl_out" l "} "

static struct prom *p;
/* The file read back, in tap_slurp()'s buffer. */
static char *text;

/* The sysfs tree as it is at drain @d. */
static void sysfs_at(int d)
{
	if (d == 0)
		sysfs_ctrl("nvme2", "nqn.sub2", "traddr=10.0.0.2,trsvcid=4420");
	/* nvme1 connected after drain 2. */
	if (d == 2)
		sysfs_ctrl("nvme1", "nqn.sub1", "traddr=10.0.0.11,trsvcid=4420");
	/* nvme1 deleted, and a controller of another subsystem took its name. */
	if (d == 4)
		sysfs_ctrl("nvme1", "nqn.sub1b", "traddr=10.0.0.12,trsvcid=4420");
}

/* Drain @d, rewrite the file and read it back. */
static bool drain(int d)
{
	sysfs_at(d);
	text = NULL;
	if (prom_events(p, ev[d], nev[d], d == DRAINS - 1 ? 3 : 0, T0) ||
	    prom_write(p, NULL))
		return false;
	text = tap_slurp("ev.prom");
	return text != NULL;
}

static bool has(const char *line)
{
	char want[1024];

	snprintf(want, sizeof(want), "\n%s\n", line);
	return text && strstr(text, want);
}

static void test_drains(void)
{
	p = prom_new("ev.prom", NTPROF_ROLE_HOST);
	if (!ok(p && !prom_paths(p, tab, tab_nqns, 2), "prom_new, prom_paths"))
		return;
	prom_events_sysfs(p, "sys");

	ok(drain(0) && has(N(L0, "reset") "1") &&
	   has(SEC(L0, "reset") "0.250000000") && has(N(L0, "loss") "0") &&
	   has(OUT(L0) "0") && has(N(L2, "recovery") "1") &&
	   has(SEC(L2, "recovery") "3.000000000") &&
	   has("# TYPE ntprof_ctrl_events_total counter") &&
	   has("# TYPE ntprof_ctrl_event_seconds_total counter") &&
	   has("# TYPE ntprof_ctrl_out gauge"),
	   "drain 1: nvme0's reset of 0.25 s (the table's labels), not out for the target's controller 0; nvme2's recovery of 3 s (sysfs')");
	ok(drain(1) && has(N(L0, "loss") "1") && has(SEC(L0, "loss") "0.000000000") &&
	   has(OUT(L0) "1") && has(N(L0, "reset") "1"),
	   "drain 2: nvme0's loss under way: counted, out, no seconds yet");
	ok(drain(2) && has(N(L0, "loss") "1") &&
	   has(SEC(L0, "loss") "12.500000000") && has(OUT(L0) "0") &&
	   !strstr(text, "controller=\"nvme1\""),
	   "drain 3: nvme0 live again after 12.5 s; nvme1 being connected has no series yet");
	ok(drain(3) && has(N(L1, "connect") "1") &&
	   has(SEC(L1, "connect") "1.500000000") && has(OUT(L1) "0") &&
	   has(N(L4, "connect") "1") && has(SEC(L4, "connect") "1.000000000") &&
	   has(N(L4, "delete") "1"),
	   "drain 4: nvme1's connect of 1.5 s, labelled once live; nvme4 deleted before it was: its name, no path");
	if (text && !strstr(text, "nvme4"))
		diag("%s", text);
	ok(drain(4) && has(N(L1, "loss") "1") &&
	   has(SEC(L1, "loss") "10.000000000") && has(N(L1, "delete") "1") &&
	   has(N(L1, "connect") "1") && has(OUT(L1) "0") &&
	   has(N(L1B, "connect") "1") && has(SEC(L1B, "connect") "1.000000000") &&
	   has(N(L1B, "loss") "0") && has(N(L3, "loss") "1") &&
	   has(OUT(L3) "1") && has(SEC(L3, "loss") "0.000000000") &&
	   has("ntprof_ctrl_events_dropped_total{role=\"host\"} 3"),
	   "drain 5: nvme1's loss ended deleted (10 s) in its series, the new nvme1 in its own; nvme3 out; 3 events dropped");
	if (text && !strstr(text, "nqn.sub1b"))
		diag("%s", text);
}

static void test_report(void)
{
	struct ntp_trailer tr = { 0 };
	struct ntp_header h = { 0 };
	struct ntp_writer *w;
	char dir[PATH_MAX], cmd[2 * PATH_MAX + 128];
	int err, d;

	/* Run alone (-t report), the drains are made here. */
	if (!p) {
		p = prom_new("ev.prom", NTPROF_ROLE_HOST);
		if (!p || prom_paths(p, tab, tab_nqns, 2))
			scratch_bail("prom_new");
		prom_events_sysfs(p, "sys");
		for (d = 0; d < DRAINS; d++)
			if (!drain(d))
				scratch_bail("the drains");
	}

	events_host_header(&h, T0);
	err = ntp_writer_open("events.ntp", &h, &w);
	for (d = 0; d < DRAINS && !err; d++)
		err = ntp_writer_events(w, ev[d], nev[d],
					d == DRAINS - 1 ? 3 : 0);
	tr.end_mono_ns = T0 + 70 * S;
	tr.end_real_ns = h.start_real_ns + 70 * S;
	if (!err)
		err = ntp_writer_close(w, &tr);
	ok(!err, "a recording of the same events, one unit a drain (%d)", err);

	test_program_dir(dir, sizeof(dir));
	snprintf(cmd, sizeof(cmd),
		 "%s/../../tools/ntprof/ntprof report --json events.ntp > report.json",
		 dir);
	ok(!system(cmd), "ntprof report --json of it");
	if (!tap_have("jq")) {
		tap_skip_missing("the prom file counts what the report lists", "jq");
		return;
	}
	snprintf(cmd, sizeof(cmd),
		 "bash %s/../prom-events-check.sh report.json ev.prom > check.out 2>&1",
		 dir);
	err = system(cmd);
	text = tap_slurp("check.out");
	ok(!err && text && strstr(text, "counts the report's 10 episodes"),
	   "Prometheus' counters are the report's: episodes, durations, open ones, events lost (%s)",
	   text ? strtok(text, "\n") : "no output");
	/* The check itself must see a count that differs. */
	snprintf(cmd, sizeof(cmd),
		 "sed 's/^\\(ntprof_ctrl_events_total.*controller=\"nvme0\".*event=\"loss\"}\\) 1$/\\1 2/' ev.prom > bad.prom && "
		 "! bash %s/../prom-events-check.sh report.json bad.prom > check.out 2>&1 && "
		 "grep -q '^nvme0 loss: the report 1, the prom file 2$' check.out",
		 dir);
	ok(!system(cmd), "prom-events-check.sh tells a file whose nvme0 counts 2 losses from the report's 1");
	if (!tap_have("promtool"))
		tap_skip_missing("promtool check metrics accepts the file",
				 "promtool (Debian's prometheus)");
	else
		ok(!system("promtool check metrics < ev.prom > promtool.out 2>&1"),
		   "promtool check metrics accepts the file");
}

static void sysfs_cleanup(void)
{
	sysfs_ctrl("nvme1", NULL, NULL);
	sysfs_ctrl("nvme2", NULL, NULL);
	rmdir("sys");
}

static const struct tap_case cases[] = {
	{ "drains", test_drains },
	{ "report", test_report },
};

int main(int argc, char *argv[])
{
	if (tap_args(argc, argv, cases, TAP_NR_CASES(cases)) != argc)
		tap_usage("test_prom_events");
	scratch_enter("test_prom_events", files,
		      sizeof(files) / sizeof(files[0]));
	if (mkdir("sys", 0755))
		scratch_bail("mkdir sys");
	events_make();
	tap_run(cases, TAP_NR_CASES(cases));
	prom_free(p);
	sysfs_cleanup();
	scratch_cleanup();
	return tap_done("test_prom_events");
}
