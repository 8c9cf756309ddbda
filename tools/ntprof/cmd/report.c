// SPDX-License-Identifier: GPL-2.0
/*
 * ntprof report: the recordings of a run, joined offline, as a stage and
 * component breakdown per group of commands. recording.c loads,
 * recording_join.c joins, the analysis library computes, table.c prints.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/chain.h"
#include "analysis/chain_detail.h"
#include "analysis/recording.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "out/out_file.h"
#include "out/report_chain.h"
#include "out/report_events.h"
#include "out/report_chain_timeline.h"
#include "out/report_csv.h"
#include "out/report_hist.h"
#include "out/report_html.h"
#include "out/report_json.h"
#include "out/report_tail.h"
#include "out/report_timeline.h"
#include "out/run_notes.h"
#include "out/table.h"

struct report_opts {
	bool detail;
	bool json;
	const char *csv;	/* --csv FILE, "-": standard output */
	const char *html;	/* --html FILE */
	const char *hist;	/* --hist[=ID], or NULL */
	double tail;		/* --tail[=P], 0: none */
	unsigned int by;	/* --by: NTPROF_BY_*, 0: the default */
	bool by_leg;		/* --by leg: chains per critical leg */
	double timeline;	/* --timeline SECONDS, 0: none */
	enum recording_stream stream;	/* --stream, --load */
};

static void report_usage(FILE *f)
{
	fputs("usage: ntprof report [--detail] [--json] [--csv FILE] [--hist[=ID]]\n"
	      "                     [--tail[=P]] [--by PARTS] [--timeline SECONDS]\n"
	      "                     [--html FILE] FILE.ntp...\n"
	      "\n"
	      "Join the recordings of a run and show where the latency went: per\n"
	      "group of commands (op, size, device), the latency's mean and\n"
	      "percentiles, and each stage's mean, share and average queue depth.\n"
	      "Give host recordings, target recordings or both, of one or more\n"
	      "machines. A host's record and a target's record of the same command\n"
	      "are matched by what both saw of it; the two machines' clocks need\n"
	      "not agree, and no latency ever mixes them. A directory stands for\n"
	      "its .ntp files; the parts of a recording made with record --rotate\n"
	      "are read as one, in any order.\n"
	      "\n"
	      "options:\n"
	      "  -D, --detail   also the components, in path order: n, mean,\n"
	      "                 commands in each (L, Little's law), p50, p99\n"
	      "  -j, --json     the same numbers as one JSON object (schema\n"
	      "                 ntprof-report/1, Documentation/report.rst)\n"
	      "      --csv FILE also write a row per command to FILE (- for\n"
	      "                 standard output, in place of the report): its\n"
	      "                 identity, every point of both sides, and each\n"
	      "                 stage and component in ns\n"
	      "      --html FILE also write the report as one self-contained page\n"
	      "                 with inline SVG charts: stage bars, components,\n"
	      "                 CDFs with p50/p99/p99.9 marked, timeline, tail;\n"
	      "                 axes in units, legends, hover values\n"
	      "      --by PARTS the groups by these parts of the commands, a\n"
	      "                 list of op, size, dev, queue, cpu (submitting),\n"
	      "                 ccpu (completing), pid (the SPDK process),\n"
	      "                 path (the controller: multipath's paths) and\n"
	      "                 host (the machine), as queue or op,cpu\n"
	      "                 (default op,size,dev); every part but op and\n"
	      "                 size is one machine's: two hosts' groups stay\n"
	      "                 apart, named with their host; leg (chains):\n"
	      "                 the chained groups per critical leg\n"
	      "      --timeline SECONDS\n"
	      "                 per group, a line per slice of SECONDS: the\n"
	      "                 command rate, the mean and each stage's mean;\n"
	      "                 the controllers' episodes (reset, loss, ...)\n"
	      "                 marked on the slices they overlap\n"
	      "      --hist[=ID]\n"
	      "                 per group, a log2 histogram in microseconds of\n"
	      "                 the end to end (default), or of the stage or\n"
	      "                 component ID, as in JSON: storage, network_wire\n"
	      "      --tail[=P] per group, the commands above the P-th percentile\n"
	      "                 of the end to end (default 99) against the\n"
	      "                 others: each stage's mean in both, and the stage\n"
	      "                 that grows the most\n"
	      "      --stream   join in one pass in time order, in memory that\n"
	      "                 does not grow with the records (the default past\n"
	      "                 4.6 M records, 1 GiB loaded; one host and one\n"
	      "                 target recording): percentiles of groups of\n"
	      "                 more than a million commands within 0.05 %;\n"
	      "                 --csv, --hist, --tail, --timeline, --html read\n"
	      "                 the files again\n"
	      "      --load     hold every record in memory, whatever the size\n"
	      "  -h, --help     show this help and exit\n"
	      "\n"
	      "Every file must be recorded with the same -s. A host recording\n"
	      "alone shows the network and the target as one stage, not recorded;\n"
	      "a target recording alone shows the target's stages. A machine with\n"
	      "a target and a host recording is a middle of a chain: each origin\n"
	      "command is followed through it (record --chain on every machine),\n"
	      "its hops and legs shown after the groups.\n"
	      "\n"
	      "examples:\n"
	      "  ntprof report host.ntp target.ntp\n"
	      "      The joined breakdown of one host and its target.\n"
	      "  ntprof report --detail host.ntp target.ntp\n"
	      "      With every component, storage split into the target's block\n"
	      "      layer and the drive.\n"
	      "  ntprof report --json h1.ntp h2.ntp target.ntp > run.json\n"
	      "      Two hosts and a target, for a script.\n"
	      "  ntprof report --csv run.csv host.ntp target.ntp\n"
	      "      The report, and every joined command for pandas or R.\n", f);
}

/*
 * --by leg: not a part of the analysis' groups, but of the chains' (each
 * group's commands per critical leg): kept apart from NTPROF_BY_*.
 */
#define REPORT_BY_LEG	(1U << 31)

/*
 * parse_by() - parse --by, a comma-separated list of parts, each given at
 * most once.
 */
static int parse_by(const char *s, unsigned int *by)
{
	static const struct {
		const char *name;
		unsigned int bit;
	} parts[] = {
		{ "op", NTPROF_BY_OP }, { "size", NTPROF_BY_SIZE },
		{ "dev", NTPROF_BY_DEV }, { "queue", NTPROF_BY_QUEUE },
		{ "cpu", NTPROF_BY_CPU }, { "ccpu", NTPROF_BY_CCPU },
		{ "pid", NTPROF_BY_PID }, { "path", NTPROF_BY_PATH },
		{ "host", NTPROF_BY_HOST }, { "leg", REPORT_BY_LEG },
	};
	const char *end;
	size_t i, len;

	*by = 0;
	for (;;) {
		end = strchr(s, ',');
		len = end ? (size_t)(end - s) : strlen(s);
		for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
			if (strlen(parts[i].name) == len &&
			    !strncmp(s, parts[i].name, len))
				break;
		if (i == sizeof(parts) / sizeof(parts[0]) ||
		    (*by & parts[i].bit))
			return -EINVAL;
		*by |= parts[i].bit;
		if (!end)
			return 0;
		s = end + 1;
	}
}

/* parse_percent() - parse a percentile: a number above 0 and below 100. */
static int parse_percent(const char *s, double *p)
{
	char *end;

	errno = 0;
	*p = strtod(s, &end);
	if (errno || end == s || *end || !(*p > 0 && *p < 100))
		return -EINVAL;
	return 0;
}

/*
 * hist_value() - tell whether @s names a stage or a component that --hist
 * takes.
 */
static bool hist_value(const char *s)
{
	return !report_hist_check(s);
}

static bool tail_value(const char *s)
{
	double p;

	return !parse_percent(s, &p);
}

/*
 * optional_spaced() - catch a value given after a space to --tail or --hist.
 * These options take their value only after '=': getopt reads "--tail 99" as
 * --tail followed by a file named 99. When the word after such an option is
 * not a file but a value that the option takes, the user meant the value, so
 * say how to write it, rather than "99: No such file or directory". It
 * returns -1 to go on, or else the exit status.
 */
static int optional_spaced(int argc, char *argv[], const char *opt,
			   bool (*value)(const char *s))
{
	struct stat st;
	const char *w;

	if (optarg || optind >= argc)
		return -1;
	w = argv[optind];
	if (w[0] == '-' || !value(w) || !stat(w, &st))
		return -1;
	return usage_error(argv[0], "%s takes its value after '=': write %s=%s",
			   opt, opt, w);
}

static int report_parse(int argc, char *argv[], struct report_opts *o)
{
	static const struct option options[] = {
		{ "detail", no_argument, NULL, 'D' },
		{ "json", no_argument, NULL, 'j' },
		{ "csv", required_argument, NULL, 'C' },
		{ "html", required_argument, NULL, 'W' },
		{ "hist", optional_argument, NULL, 'H' },
		{ "tail", optional_argument, NULL, 'T' },
		{ "by", required_argument, NULL, 'B' },
		{ "timeline", required_argument, NULL, 'L' },
		{ "stream", no_argument, NULL, 'S' },
		{ "load", no_argument, NULL, 'M' },
		CLI_OPT_HELP,
		CLI_OPT_END
	};
	int c, ret;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":Djh", options, NULL)) != -1) {
		switch (c) {
		case 'D':
			o->detail = true;
			break;
		case 'j':
			o->json = true;
			break;
		case 'C':
			o->csv = optarg;
			break;
		case 'W':
			o->html = optarg;
			break;
		case 'H':
			ret = optional_spaced(argc, argv, "--hist", hist_value);
			if (ret >= 0)
				return ret;
			o->hist = optarg ? optarg : "end_to_end";
			if (report_hist_check(o->hist))
				return usage_error(argv[0],
						   "--hist: no stage or component '%s' (the ids of --json: end_to_end, storage, network_wire, ...)",
						   o->hist);
			break;
		case 'L': {
			char *end;

			errno = 0;
			o->timeline = strtod(optarg, &end);
			if (errno || end == optarg || *end ||
			    !(o->timeline >= 0.001 && o->timeline <= 86400))
				return usage_error(argv[0],
						   "--timeline takes seconds from 0.001 to 86400, not '%s'",
						   optarg);
			break;
		}
		case 'B':
			if (parse_by(optarg, &o->by))
				return usage_error(argv[0],
						   "--by takes op, size, dev, queue, cpu, ccpu, pid, path, host or leg, or a list of them, not '%s'",
						   optarg);
			o->by_leg = o->by & REPORT_BY_LEG;
			o->by &= ~REPORT_BY_LEG;
			break;
		case 'T':
			ret = optional_spaced(argc, argv, "--tail", tail_value);
			if (ret >= 0)
				return ret;
			o->tail = 99;
			if (optarg && (parse_percent(optarg, &o->tail)))
				return usage_error(argv[0],
						   "--tail takes a percentile above 0 and below 100, not '%s'",
						   optarg);
			break;
		case 'S':
			o->stream = RECORDING_STREAM_ALWAYS;
			break;
		case 'M':
			o->stream = RECORDING_STREAM_NEVER;
			break;
		case 'h':
			report_usage(stdout);
			return 0;
		default:
			return option_error(argv[0], c, argv);
		}
	}
	if (optind == argc)
		return usage_error(argv[0], "no recording given");
	if (o->csv && !strcmp(o->csv, "-") && o->json)
		return usage_error(argv[0],
				   "--csv - and --json both want standard output");
	return -1;
}

static int report_print(const struct recording_run *run,
			const struct report_opts *o)
{
	const struct ntprof_analysis *an = run->an;
	int err = 0;

	recording_run_print_origin(stdout, run);
	ntprof_print_throughput(stdout, an);
	ntprof_print_groups(stdout, an, o->detail);
	if (!an->nr_groups)
		puts("\nno command with the points for a latency");
	err = report_chain_print(stdout, run);
	if (!err && o->tail)
		err = report_tail_print(stdout, run, o->tail);
	if (!err && o->tail)
		err = report_chain_tail_print(stdout, run, o->tail);
	if (!err && o->hist)
		err = report_hist_print(stdout, run, o->hist);
	if (!err && o->timeline)
		err = report_timeline_print(stdout, run, o->timeline);
	if (!err && o->timeline)
		err = report_chain_timeline_print(stdout, run, o->timeline);
	if (!err)
		err = report_events_print(stdout, run);
	putchar('\n');
	recording_run_print_records(stdout, run);
	recording_run_print_notes(stdout, run, o->detail);
	if (err == -E2BIG) {
		fprintf(stderr, "ntprof: report: --timeline: more than 100000 slices: take longer ones\n");
		return 1;
	}
	if (err) {
		fprintf(stderr, "ntprof: report: %s\n", strerror(-err));
		return 1;
	}
	return 0;
}

struct report_views {
	const struct recording_run *run;
	const struct report_opts *o;
	int err;
};

/*
 * report_views_json() - write the views asked for, as members of the
 * report's JSON object.
 */
static void report_views_json(struct ntprof_json *js, void *arg)
{
	struct report_views *v = arg;
	const struct report_opts *o = v->o;

	recording_run_json_apart(js, v->run);
	report_chain_json(js, v->run);
	recording_run_json_notes(js, v->run, o->detail);
	if (!v->err)
		v->err = report_events_json(js, v->run);
	if (o->tail && !v->err)
		v->err = report_tail_json(js, v->run, o->tail);
	if (o->tail && !v->err)
		v->err = report_chain_tail_json(js, v->run, o->tail);
	if (o->hist && !v->err)
		v->err = report_hist_json(js, v->run, o->hist);
	if (o->timeline && !v->err)
		v->err = report_timeline_json(js, v->run, o->timeline);
	if (o->timeline && !v->err)
		v->err = report_chain_timeline_json(js, v->run, o->timeline);
}

static int report_json(const struct recording_run *run,
		       const struct report_opts *o)
{
	struct report_views views = { .run = run, .o = o };
	struct ntprof_report_meta meta = {
		.hostname = run->files[0].hdr->hostname,
		.kernel = run->files[0].hdr->kernel_release,
		.nr_files = run->nr_files,
	};
	struct ntprof_report_file *files;
	const struct recording *rec;
	size_t i;

	files = calloc(run->nr_files, sizeof(*files));
	if (!files) {
		fprintf(stderr, "ntprof: report: out of memory\n");
		return 1;
	}
	for (i = 0; i < run->nr_files; i++) {
		rec = &run->files[i];
		files[i] = (struct ntprof_report_file) {
			.path = rec->path,
			.role = rec->hdr->role,
			.transport = rec->hdr->transport,
			.hostname = rec->hdr->hostname,
			.kernel = rec->hdr->kernel_release,
			.records = rec->n,
			.cut_short = rec->cut_short,
			.drops = rec->drops,
			.evictions = rec->evictions,
		};
	}
	meta.files = files;
	meta.extra = report_views_json;
	meta.extra_arg = &views;
	meta.group_extra = report_chain_json_group;
	meta.group_extra_arg = (void *)run;
	ntprof_print_json(stdout, run->an, run->nr_pairs ? &run->total : NULL,
			  &meta);
	free(files);
	if (views.err) {
		fprintf(stderr, "ntprof: report: %s\n", views.err == -E2BIG ?
			"--timeline: more than 100000 slices: take longer ones" :
			strerror(-views.err));
		return 1;
	}
	return 0;
}

/*
 * report_file() - write @write's output (for --csv or --html) to FILE or to
 * standard output. It returns 0, or 1 after a message.
 */
static int report_file(const struct recording_run *run, const char *cmd,
		       const char *path,
		       int (*write)(FILE *f, const struct recording_run *run))
{
	struct out_file of;
	int err;

	if (strcmp(path, "-")) {
		if (out_file_open(&of, cmd, path))
			return 1;
		return out_file_close(&of, cmd, write(of.f, run));
	}
	err = write(stdout, run);
	if (err) {
		fprintf(stderr, "ntprof: %s: cannot write standard output: %s\n",
			cmd, strerror(-err));
		return 1;
	}
	return 0;
}

/*
 * report_outputs_check() - check that --csv and --html never write over a
 * recording or an input (out_file.c). It returns -1 to go on, or else the
 * exit status.
 */
static int report_outputs_check(const struct recording_run *run,
				const char *cmd, const struct report_opts *o)
{
	int ret;

	if (o->csv && strcmp(o->csv, "-")) {
		ret = out_file_check(cmd, "--csv", o->csv, run->paths.v,
				     run->paths.n);
		if (ret >= 0)
			return ret;
	}
	if (o->html)
		return out_file_check(cmd, "--html", o->html, run->paths.v,
				      run->paths.n);
	return -1;
}

int cmd_report(int argc, char *argv[])
{
	struct report_opts o = { 0 };
	struct recording_opts load;
	struct recording_run run;
	int ret = report_parse(argc, argv, &o);

	if (ret >= 0)
		return ret;
	load = (struct recording_opts){ .by = o.by, .stream = o.stream };
	ret = recording_run_load_opts(&run, argv[0], argv + optind,
				      (size_t)(argc - optind), &load);
	if (!ret)
		ret = report_outputs_check(&run, argv[0], &o);
	if (ret > 0) {
		recording_run_free(&run);
		return ret;
	}
	ret = 0;
	/* JSON's groups carry their chains whole, never per leg. */
	if (ntprof_chain_stats_make(&run, o.by_leg && !o.json) ||
	    (o.detail && ntprof_chain_detail_make(&run))) {
		fprintf(stderr, "ntprof: %s: out of memory for the chains\n",
			argv[0]);
		ret = 1;
	}
	if (!ret && o.csv)
		ret = report_file(&run, argv[0], o.csv, report_csv_write);
	if (!ret && o.html)
		ret = report_file(&run, argv[0], o.html, report_html_write);
	if (!ret && o.json)
		ret = report_json(&run, &o);
	else if (!ret && !(o.csv && !strcmp(o.csv, "-")))
		ret = report_print(&run, &o);
	recording_run_free(&run);
	return ret;
}
