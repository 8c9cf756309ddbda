// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the control-path events in report's and compare's views
 * with a time axis or a verdict: three host recordings of one workload
 * (a read every 10 ms for 10 s), one without events, one with a loss on
 * nvme1 that held the commands sent during it for 3.1 s and a loss on
 * nvme2 still under way when the recording stopped, one with nvme1's
 * loss alone. report --timeline marks the slices the
 * loss overlaps and a line per episode, in text and in JSON
 * (out/report_timeline_marks.c); report --html shades a band per episode
 * on the timeline and lists the events (out/report_html_events.c;
 * html-dom-check.py events checks the page); compare names the run with
 * the outages, either way round, one or two, or says both had some, in
 * text and JSON (out/compare_events.c).
 * Prints TAP; exits 1 if any test failed.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ntp/ntp.h"
#include "events_test.h"
#include "scratch.h"
#include "tap.h"

#define S	1000000000ULL
#define MS	1000000ULL
#define US	1000ULL
#define T0	(100 * S)
/* The first command, 0.5 s after the recording's start: the timeline's 0. */
#define FIRST	(T0 + S / 2)
#define CMDS	1000
/* nvme1 lost at 4.0 s after the start, live again 3.1 s later. */
#define LOSS	(T0 + 4 * S)
#define BACK	(LOSS + 3 * S + S / 10)
/* nvme2 lost at 10.6 s, after the last command; the recording ends at 11 s. */
#define LOSS2	(T0 + 10 * S + 6 * S / 10)
#define END	(T0 + 11 * S)

static const char *const files[] = {
	"base.ntp", "load.ntp", "one.ntp", "tgt.ntp", "idle.ntp", "c.html", "out.txt", "out.json", "r.html",
};

static char tool[PATH_MAX + 64], top[PATH_MAX];

/*
 * A read of 4 KiB started at @t, whose points follow each other by 10
 * us; a command sent during the loss waits for its end in the network's
 * stage (send to response).
 */
static struct ntprof_record cmd(uint64_t t, bool outage)
{
	struct ntprof_record r = {
		.role = NTPROF_ROLE_HOST, .transport = NTPROF_TRANSPORT_TCP,
		.opcode = 2, .flags = NTPROF_REC_F_SAMPLED, .length = 4096,
		.dev = 1, .nsid = 1,
	};
	uint64_t wait = outage && t >= LOSS && t < BACK ? BACK - t : 0;

	r.ts[NTPROF_PT_HOST_BLK_START] = t;
	r.ts[NTPROF_PT_HOST_QUEUE_RQ] = t + 10 * US;
	r.ts[NTPROF_PT_HOST_SEND] = t + 20 * US;
	r.ts[NTPROF_PT_HOST_RECV] = t + 30 * US + wait;
	r.ts[NTPROF_PT_HOST_NVME_COMPLETE] = t + 40 * US + wait;
	r.ts[NTPROF_PT_HOST_BLK_COMPLETE] = t + 50 * US + wait;
	return r;
}

/*
 * @nev: the events of the run: 0, 3 (nvme1's loss) or 4 (and nvme2's);
 * @role: a host's, or a target's (its commands seen at the target, its
 * event a loss of nvme5 at nvme1's time, as a target's controller might
 * have one some day).
 */
/* A read as its target saw it, 10 us from point to point. */
static struct ntprof_record tcmd(uint64_t t)
{
	struct ntprof_record r = {
		.role = NTPROF_ROLE_TARGET, .transport = NTPROF_TRANSPORT_TCP,
		.opcode = 2, .flags = NTPROF_REC_F_SAMPLED, .length = 4096,
		.dev = 1, .nsid = 1,
	};

	r.ts[NTPROF_PT_TARGET_RECV] = t;
	r.ts[NTPROF_PT_TARGET_INIT] = t + 10 * US;
	r.ts[NTPROF_PT_TARGET_EXEC] = t + 20 * US;
	r.ts[NTPROF_PT_TARGET_COMPLETE] = t + 30 * US;
	r.ts[NTPROF_PT_TARGET_QUEUE_RESP] = t + 40 * US;
	r.ts[NTPROF_PT_TARGET_SEND] = t + 50 * US;
	return r;
}

static void write_run(const char *path, size_t nev, uint8_t role,
		      size_t ncmds)
{
	static struct ntprof_record recs[CMDS];
	struct ntp_event ev[4];
	struct ntp_trailer tr = { 0 };
	struct ntp_header h = { 0 };
	struct ntp_writer *w;
	size_t i;
	int err;

	events_host_header(&h, T0);
	if (role == NTPROF_ROLE_TARGET) {
		h.role = role;
		snprintf(h.hostname, sizeof(h.hostname), "target1");
	}
	for (i = 0; i < ncmds; i++)
		recs[i] = role == NTPROF_ROLE_HOST ?
			  cmd(FIRST + i * 10 * MS, nev > 0) :
			  tcmd(FIRST + i * 10 * MS);
	ev[0] = ev_state(LOSS, 1, NTPROF_CTRL_LIVE, NTPROF_CTRL_RESETTING);
	ev[1] = ev_state(LOSS + MS, 1, NTPROF_CTRL_RESETTING, NTPROF_CTRL_CONNECTING);
	ev[2] = ev_state(BACK, 1, NTPROF_CTRL_CONNECTING, NTPROF_CTRL_LIVE);
	ev[3] = ev_state(LOSS2, 2, NTPROF_CTRL_LIVE, NTPROF_CTRL_RESETTING);
	if (role == NTPROF_ROLE_TARGET)
		ev[0].ctrl = 5;
	err = ntp_writer_open(path, &h, &w);
	if (!err && ncmds)
		err = ntp_writer_append(w, recs, ncmds);
	if (!err && nev)
		err = ntp_writer_events(w, ev, nev, 0);
	tr.end_mono_ns = END;
	tr.end_real_ns = h.start_real_ns + (END - T0);
	if (!err)
		err = ntp_writer_close(w, &tr);
	if (err)
		scratch_bail("writing a recording");
}

/* Runs "ntprof @args > @out"; its exit status. */
static int tool_run(const char *args, const char *out)
{
	char c[2 * PATH_MAX + 256];

	snprintf(c, sizeof(c), "%s %s > %s", tool, args, out);
	return system(c);
}

/* The line of @text that starts with @start, or NULL. */
static const char *line_of(const char *text, const char *start)
{
	const char *p = text;
	size_t n = strlen(start);

	while (p && *p) {
		if (!strncmp(p, start, n))
			return p;
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return NULL;
}

/* Whether @text's line starting with @start ends with @end. */
static bool line_ends(const char *text, const char *start, const char *end)
{
	const char *l = line_of(text, start), *nl;

	if (!l)
		return false;
	nl = strchr(l, '\n');
	if (!nl)
		nl = l + strlen(l);
	return (size_t)(nl - l) >= strlen(end) &&
	       !strncmp(nl - strlen(end), end, strlen(end));
}

static void test_timeline(void)
{
	char *text;
	int err;

	err = tool_run("report --timeline 1 load.ntp", "out.txt");
	text = tap_slurp("out.txt");
	ok(!err && text &&
	   strstr(text, "  events (<< the controller's episode in the slice)\n") &&
	   !line_ends(text, "        2s", "nvme1") &&
	   line_ends(text, "        3s", "  << loss nvme1") &&
	   line_ends(text, "        4s", "  << loss nvme1") &&
	   line_ends(text, "        6s", "  << loss nvme1") &&
	   !line_ends(text, "        7s", "nvme1") &&
	   strstr(text, "\n  << loss nvme1: 3.500 s to 6.600 s (3.100 s)\n") &&
	   strstr(text, "\n  << loss nvme2: 10.100 s to the recording's end at 10.500 s, still out (0.400 s at least), outside the slices\n"),
	   "report --timeline: the rows of the slices the loss overlaps marked, a line per episode");
	if (text && !strstr(text, "<< loss nvme2"))
		diag("%s", text);

	err = tool_run("report --json --timeline 1 load.ntp", "out.json");
	ok(!err && events_schema_ok("ntprof-report-1.json", "out.json"),
	   "report --json --timeline with marks matches ntprof-report-1.json");
	text = json_squeeze(tap_slurp("out.json"));
	ok(text &&
	   strstr(text, "\"marks\":[{\"type\":\"loss\",\"controller\":\"nvme1\",\"machine\":\"host1\",\"start_s\":3.500000,\"end_s\":6.600000,\"duration_s\":3.100000,\"open\":false,\"first_slice\":3,\"last_slice\":6},"
		  "{\"type\":\"loss\",\"controller\":\"nvme2\",\"machine\":\"host1\",\"start_s\":10.100000,\"end_s\":10.500000,\"duration_s\":0.400000,\"open\":true,\"first_slice\":null,\"last_slice\":null}]"),
	   "report --json --timeline: the same marks in the timeline's \"marks\"");

	/*
	 * A timeline is on its side's clock: a host's marks its events, not
	 * a target's, though the events section lists both; one of targets
	 * alone marks the target's.
	 */
	err = tool_run("report --timeline 1 load.ntp tgt.ntp", "out.txt");
	text = tap_slurp("out.txt");
	ok(!err && text && strstr(text, "<< loss nvme1: ") &&
	   !strstr(text, "<< loss nvme5") &&
	   strstr(text, "  nvme5         loss                   -  not within the recording  (target1)\n"),
	   "report --timeline of a host and a target: the host's events marked, not the target's");
	if (text && strstr(text, "<< loss nvme5"))
		diag("%s", text);
	err = tool_run("report --timeline 1 tgt.ntp", "out.txt");
	text = tap_slurp("out.txt");
	ok(!err && text && line_ends(text, "        3s", "  << loss nvme5") &&
	   !strstr(text, "nvme1"),
	   "report --timeline of targets alone: the target's events marked");

	/* The run without events: its timeline unchanged, no mark. */
	err = tool_run("report --timeline 1 base.ntp", "out.txt");
	text = tap_slurp("out.txt");
	ok(!err && text && !strstr(text, "<<") && !strstr(text, "events ("),
	   "report --timeline of a run without events: no mark");
}

static void test_html(void)
{
	char c[3 * PATH_MAX + 256];
	int err;

	err = tool_run("report --html r.html load.ntp", "/dev/null");
	if (!err)
		err = tool_run("report --json --timeline 1 load.ntp", "out.json");
	ok(!err, "report --html and --json of the run with the outages (%d)",
	   err);
	snprintf(c, sizeof(c),
		 "python3 %s/selftests/unit/html-dom-check.py wellformed r.html && "
		 "python3 %s/selftests/unit/html-dom-check.py events r.html out.json",
		 top, top);
	ok(!system(c),
	   "report --html: a labelled band per episode on the timeline where the axis puts its times, the events chart and table the JSON's");

	/* A recording with events and no command: the chart and the table. */
	err = tool_run("report --html r.html idle.ntp", "/dev/null");
	if (!err)
		err = tool_run("report --json idle.ntp", "out.json");
	snprintf(c, sizeof(c),
		 "python3 %s/selftests/unit/html-dom-check.py wellformed r.html && "
		 "python3 %s/selftests/unit/html-dom-check.py events r.html out.json",
		 top, top);
	ok(!err && !system(c),
	   "report --html of a recording with events and no command: its events chart and table the JSON's");
}

/*
 * compare @args: its text has @line, and its JSON @json, and is valid
 * when @schema (python's jsonschema takes a second and more a run: the
 * shapes of the JSON are checked once each).
 */
static void compare_case(const char *args, const char *line,
			 const char *json, const char *what, bool schema)
{
	char a[PATH_MAX];
	char *text;
	int err;

	snprintf(a, sizeof(a), "compare %s", args);
	err = tool_run(a, "out.txt");
	text = tap_slurp("out.txt");
	ok(err == 0 && text && strstr(text, line), "compare %s: text", what);
	if (text && !strstr(text, line))
		diag("%s", text);
	snprintf(a, sizeof(a), "compare --json %s", args);
	err = tool_run(a, "out.json");
	text = json_squeeze(tap_slurp("out.json"));
	ok(err == 0 && text && strstr(text, json) &&
	   (!schema || events_schema_ok("ntprof-compare-2.json", "out.json")),
	   "compare --json %s: the runs' events and the verdict%s", what,
	   schema ? ", valid" : "");
	if (text && !strstr(text, json))
		diag("%s", text);
}

static void test_compare(void)
{
	char c[2 * PATH_MAX + 128];
	const char *v;
	bool quiet;
	char *text;
	int err;

	compare_case("base.ntp load.ntp",
		     "\nevents (the controllers' control path)\n"
		     "  base: none\n"
		     "  load: 2 losses; 3.500 s out (1 still out at the recording's end)\n",
		     "\"matched\":0,\"events\":{\"episodes\":{\"loss\":2},\"outages\":2,\"outage_s\":3.500000,\"open\":1,\"lost\":0}}",
		     "a run with outages against one without: the events per run", true);
	compare_case("base.ntp load.ntp",
		     "\noutage: the load run had 2 outages, 3.500 s in all: loss on nvme1 (3.100 s), loss on nvme2 (0.400 s at least, still out at the recording's end); the base run none: its slow commands may be the outages', not a stage's\n",
		     "\"outage\":\"theloadrunhad2outages,3.500sinall:lossonnvme1(3.100s),lossonnvme2(0.400satleast,stilloutattherecording'send);thebaserunnone:itsslowcommandsmaybetheoutages',notastage's\"",
		     "the verdict names the load run's outages", false);
	/* The page says it first, above the groups' figures. */
	err = tool_run("compare --html c.html base.ntp load.ntp", "/dev/null");
	snprintf(c, sizeof(c),
		 "python3 %s/selftests/unit/html-dom-check.py wellformed c.html",
		 top);
	text = tap_slurp("c.html");
	v = text ? strstr(text, "<p class=\"answer outage\">outage: the load run had 2 outages, 3.500 s in all: loss on nvme1 (3.100 s), ") : NULL;
	ok(!err && v && strstr(text, "<p class=\"events-run\">load: 2 losses; 3.500 s out (1 still out at the recording&#39;s end)</p>") &&
	   (!strstr(text, "<section") || strstr(text, "<section") == strstr(text, "<section class=\"events\">")) &&
	   !system(c),
	   "compare --html: the runs' events and the outage line, before the groups");
	compare_case("load.ntp base.ntp",
		     "\noutage: the base run had 2 outages",
		     "\"base\":{\"files\":[\"load.ntp\"],\"sample\":1,\"host_records\":1000,\"target_records\":0,\"matched\":0,\"events\":{\"episodes\":{\"loss\":2}",
		     "the other way round: the base run named", false);
	compare_case("base.ntp one.ntp",
		     "\n  load: 1 loss; 3.100 s out\n",
		     "\"outage\":\"theloadrunhadalossonnvme1(3.100s);thebaserunnone:itsslowcommandsmaybetheoutage's,notastage's\"",
		     "one loss: its count and seconds", false);
	compare_case("base.ntp one.ntp",
		     "\noutage: the load run had a loss on nvme1 (3.100 s); the base run none: its slow commands may be the outage's, not a stage's\n",
		     "\"events\":{\"episodes\":{},\"outages\":0,\"outage_s\":0.000000,\"open\":0,\"lost\":0}},\"load\"",
		     "one loss: the verdict names it", false);
	compare_case("load.ntp one.ntp",
		     "\noutage: both runs had outages (base 2, 3.500 s; load 1, 3.100 s): the slow commands of either may be an outage's, not a stage's\n",
		     "\"outage\":\"bothrunshadoutages(base2,3.500s;load1,3.100s):theslowcommandsofeithermaybeanoutage's,notastage's\"",
		     "both runs with outages: said so", false);
	compare_case("base.ntp base.ntp", "\n== ", "\"answer\":",
		     "two runs without events: no events section", false);
	/* tap_slurp() has one buffer: the text first, then the JSON. */
	text = tap_slurp("out.txt");
	quiet = text && !strstr(text, "events (") && !strstr(text, "outage:");
	text = tap_slurp("out.json");
	ok(quiet && text && !strstr(text, "\"events\"") &&
	   !strstr(text, "\"outage\""),
	   "two runs without events: no events line, no verdict, no JSON events");
}

static void setup(void)
{
	char self[PATH_MAX];

	test_program_dir(self, sizeof(self));
	if (snprintf(top, sizeof(top), "%s/../..", self) >= (int)sizeof(top))
		scratch_bail("the test's path is too long");
	snprintf(tool, sizeof(tool), "%.*s/tools/ntprof/ntprof",
		 PATH_MAX - 1, top);
}

static const struct tap_case cases[] = {
	{ "timeline", test_timeline },
	{ "html", test_html },
	{ "compare", test_compare },
};

int main(int argc, char *argv[])
{
	if (tap_args(argc, argv, cases, TAP_NR_CASES(cases)) != argc)
		tap_usage("test_events_views");
	setup();
	scratch_enter("test_events_views", files,
		      sizeof(files) / sizeof(files[0]));
	write_run("base.ntp", 0, NTPROF_ROLE_HOST, CMDS);
	write_run("load.ntp", 4, NTPROF_ROLE_HOST, CMDS);
	write_run("one.ntp", 3, NTPROF_ROLE_HOST, CMDS);
	write_run("tgt.ntp", 1, NTPROF_ROLE_TARGET, CMDS);
	/* The events alone: no command, no group, no timeline. */
	write_run("idle.ntp", 4, NTPROF_ROLE_HOST, 0);
	tap_run(cases, TAP_NR_CASES(cases));
	scratch_cleanup();
	return tap_done("test_events_views");
}
