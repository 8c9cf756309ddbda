// SPDX-License-Identifier: GPL-2.0
/*
 * ntprof compare: its options, and the comparison (analysis/compare.c)
 * as a table, JSON or a page.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/chain.h"
#include "analysis/compare.h"
#include "analysis/compare_chain.h"
#include "analysis/recording.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "common/names.h"
#include "common/util.h"
#include "out/compare_chain_out.h"
#include "out/compare_detail.h"
#include "out/compare_events.h"
#include "out/compare_html.h"
#include "out/json.h"
#include "out/out_file.h"
#include "out/table.h"

#define NTPROF_COMPARE_SCHEMA	"ntprof-compare/2"

struct compare_opts {
	bool json;
	bool detail;		/* -D, --detail: the components too */
	unsigned int match;	/* --match: NTPROF_BY_* */
	bool match_given;
	const char *html;	/* --html FILE, or NULL */
	struct cmp_chain_legs legs;	/* --legs BASE,LOAD */
	char *base_arg;
	char *load_arg;
};

static void compare_usage(FILE *f)
{
	fputs("usage: ntprof compare [--detail] [--json] [--html FILE] [--match PARTS]\n"
	      "                     [--legs BASE_LEG,LOAD_LEG] BASE LOAD\n"
	      "\n"
	      "Compare two runs of the same workload stage by stage: a baseline and\n"
	      "a run under some load or change. BASE and LOAD are each a recording\n"
	      "or a comma-separated list of them, typically HOST.ntp,TARGET.ntp.\n"
	      "For every group of commands (op, size, device) in both runs, each\n"
	      "stage's mean in both and its latency amplification degree, LAD =\n"
	      "loaded mean / base mean. The stages' changes add up to the end to\n"
	      "end's: a line says in words how much slower or faster it became,\n"
	      "each stage's share of that, the largest change first.\n"
	      "\n"
	      "options:\n"
	      "  -D, --detail also each component of the stages in both runs, and\n"
	      "               in the answer those of the stage that changed most\n"
	      "               (storage: the target's block layer, the drive)\n"
	      "  -j, --json   the same numbers as one JSON object (schema\n"
	      "               ntprof-compare/2, Documentation/report.rst)\n"
	      "      --html FILE  also write the comparison as one self-contained\n"
	      "               page: each run's mean stage times as a stacked\n"
	      "               bar (per transport when both runs hold both),\n"
	      "               the stage that changed the most outlined, the LAD\n"
	      "               tables and the answer\n"
	      "      --match PARTS  pair the runs' groups by these of op, size and\n"
	      "               dev (default op,size,dev): op,size compares runs on\n"
	      "               two devices, a TCP and an RDMA controller's\n"
	      "      --legs BASE_LEG,LOAD_LEG  chains: compare the base run's leg\n"
	      "               labelled BASE_LEG with the load run's LOAD_LEG (the\n"
	      "               labels of report's legs table), not each leg with\n"
	      "               its namesake; two legs of one run: give it twice\n"
	      "  -h, --help   show this help and exit\n"
	      "\n"
	      "A stage under 0.5 us at the baseline gets no LAD (n/a): the ratio of\n"
	      "two tiny numbers says nothing; its change in us still counts. A group\n"
	      "without its device's pair pairs by op and size when each run holds one\n"
	      "such group. When one run has the target's side and the other not, the\n"
	      "runs are compared on their common ground, the network and the target\n"
	      "as one stage. Each run's files must share their -s; the two runs need\n"
	      "not.\n"
	      "\n"
	      "When either run recorded control-path events (resets, lost\n"
	      "connections), each run's are counted with its outage seconds, and when\n"
	      "one run had an outage and the other none, a last line says so: its\n"
	      "slow commands may be the outage's, not a stage's.\n"
	      "\n"
	      "When both runs are chains (report's \"through the chain\"), each pair\n"
	      "of chained groups is compared hop by hop along the critical path\n"
	      "(\"hop 2: storage\") and leg by leg, and a chain answer names the\n"
	      "hop's stage and the leg that moved.\n"
	      "\n"
	      "examples:\n"
	      "  ntprof compare base/host.ntp,base/target.ntp busy/host.ntp,busy/target.ntp\n"
	      "      Which stage made the busy run slower?\n"
	      "  ntprof compare before.ntp after.ntp\n"
	      "      Two host-only recordings: the host's stages and the rest.\n"
	      "  ntprof compare --detail tcp/host.ntp,tcp/target.ntp rdma/host.ntp,rdma/target.ntp\n"
	      "      Where does RDMA save time over TCP, component by component?\n"
	      "  ntprof compare base/ slow/\n"
	      "      Two runs of a chain (every machine's recordings in each\n"
	      "      directory): which hop's stage, and which replica, moved?\n"
	      "  ntprof compare --legs 'r1 nullb0,r2 nullb0' run/ run/\n"
	      "      One run's local replica against its remote one.\n", f);
}

static int compare_parse(int argc, char *argv[], struct compare_opts *o)
{
	static const struct option options[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "detail", no_argument, NULL, 'D' },
		{ "html", required_argument, NULL, 'W' },
		{ "match", required_argument, NULL, 'M' },
		{ "legs", required_argument, NULL, 'L' },
		CLI_OPT_HELP,
		CLI_OPT_END
	};
	int c;

	opterr = 0;
	o->match = CMP_MATCH_DEFAULT;
	while ((c = getopt_long(argc, argv, ":jDh", options, NULL)) != -1) {
		switch (c) {
		case 'j':
			o->json = true;
			break;
		case 'D':
			o->detail = true;
			break;
		case 'M':
			if (cmp_match_parse(optarg, &o->match))
				return usage_error(argv[0], "--match takes op, size and dev, comma-separated, not '%s'",
						   optarg);
			o->match_given = true;
			break;
		case 'W':
			o->html = optarg;
			break;
		case 'L':
			if (cmp_chain_legs_parse(optarg, &o->legs))
				return usage_error(argv[0], "--legs takes two leg labels, BASE_LEG,LOAD_LEG, not '%s'",
						   optarg);
			break;
		case 'h':
			compare_usage(stdout);
			return 0;
		default:
			return option_error(argv[0], c, argv);
		}
	}
	if (argc - optind < 2)
		return usage_error(argv[0], "needs two runs, BASE and LOAD");
	if (argc - optind > 2)
		return usage_error(argv[0], "unexpected argument '%s'",
				   argv[optind + 2]);
	o->base_arg = argv[optind];
	o->load_arg = argv[optind + 1];
	return -1;
}

/* split_files() - split "a.ntp,b.ntp" in place; an empty name is an error. */
static int split_files(const char *cmd, char *arg, char ***paths, size_t *n)
{
	char **v;
	size_t cap = 1, i;
	char *p;

	for (p = arg; *p; p++)
		cap += *p == ',';
	v = calloc(cap, sizeof(*v));
	if (!v) {
		fprintf(stderr, "ntprof: %s: out of memory\n", cmd);
		return 1;
	}
	for (i = 0, p = arg; i < cap; i++) {
		v[i] = p;
		p = strchr(p, ',');
		if (p)
			*p++ = '\0';
		if (!*v[i]) {
			free(v);
			return usage_error(cmd,
					   "an empty file name in a list of recordings");
		}
	}
	*paths = v;
	*n = cap;
	return 0;
}

static int run_load(const char *cmd, char *arg, struct recording_run *run)
{
	char **paths = NULL;
	size_t n = 0;
	int ret;

	memset(run, 0, sizeof(*run));
	ret = split_files(cmd, arg, &paths, &n);
	if (ret)
		return ret;
	ret = recording_run_load(run, cmd, paths, n, 0);
	free(paths);
	return ret;
}

static void lad_str(double lad, char *buf, size_t size)
{
	if (isnan(lad))
		snprintf(buf, size, "n/a");
	else
		snprintf(buf, size, "%.2f", lad);
}

/*
 * print_largest() - print the line under the largest change: its LAD, or its
 * change in us.
 */
static void print_largest(const struct cmp_group *cg)
{
	const struct cmp_row *r;
	char lad[32];

	if (cg->largest < 0)
		return;
	r = &cg->rows[cg->largest];
	if (cg->largest_lad) {
		printf("  largest LAD: %s, %.2f\n", r->name, r->lad);
		return;
	}
	lad_str(r->lad, lad, sizeof(lad));
	printf("  largest change: %s, %+.2f us (LAD %s)\n", r->name,
	       (r->load_ns - r->base_ns) / 1e3, lad);
}

static void print_note(const char *line, void *arg)
{
	(void)arg;
	printf("  (%s)\n", line);
}

static void print_group(const struct cmp_group *cg,
			const struct cmp_chain *cc, bool *had_na)
{
	const struct cmp_row *r;
	char lad[32];
	size_t i;
	int w;

	printf("\n== %s: baseline %" PRIu64 " commands sampled, loaded %" PRIu64 "\n",
	       cg->label, cg->base->n_table, cg->load->n_table);
	cmp_group_notes(cg, print_note, NULL);
	printf("  %-38s%10s%10s%8s\n", "stage", "base us", "load us", "LAD");
	for (i = 0; i < cg->nr_rows; i++) {
		r = &cg->rows[i];
		lad_str(r->lad, lad, sizeof(lad));
		*had_na |= isnan(r->lad);
		w = 48 - (int)strlen(r->name);
		if (w < 8)
			w = 8;
		printf("  %s%*.2f%10.2f%8s\n", r->name, w, r->base_ns / 1e3,
		       r->load_ns / 1e3, lad);
	}
	cmp_detail_print(stdout, cg);
	for (i = 0; i < cg->nr_comps; i++)
		*had_na |= isnan(cg->comps[i].lad);
	print_largest(cg);
	printf("  answer: %s\n", cg->answer);
	if (cc)
		cmp_chain_print(stdout, cc, had_na);
}

static void print_only(const struct ntprof_group *g, const char *run)
{
	printf("\n== %s: only in the %s run (%" PRIu64 " commands sampled)\n",
	       g->label, run, g->n);
}

static void print_run_line(const char *what, const struct recording_run *run)
{
	size_t i;

	printf("%s:", what);
	for (i = 0; i < run->nr_files; i++)
		printf("%s %s", i ? "," : "", run->files[i].path);
	if (run->sample > 1)
		printf(" (one command in %u sampled)\n", run->sample);
	else
		puts(" (every command recorded)");
}

static void json_run(struct ntprof_json *js, const char *key,
		     const struct recording_run *run,
		     const struct cmp_events *ce)
{
	size_t i;

	ntprof_json_obj_start(js, key);
	ntprof_json_arr_start(js, "files");
	for (i = 0; i < run->nr_files; i++)
		ntprof_json_str(js, NULL, run->files[i].path);
	ntprof_json_arr_end(js);
	ntprof_json_u64(js, "sample", run->sample);
	ntprof_json_u64(js, "host_records", run->nr_host);
	ntprof_json_u64(js, "target_records", run->nr_target);
	ntprof_json_u64(js, "matched", run->matched);
	cmp_events_json_side(js, ce, !strcmp(key, "load"));
	ntprof_json_obj_end(js);
}

/*
 * json_pairing() - write what the pair was matched by, and how its two
 * groups differ.
 */
static void json_pairing(struct ntprof_json *js, const struct cmp_group *cg)
{
	ntprof_json_arr_start(js, "matched_by");
	if (cg->match & NTPROF_BY_OP)
		ntprof_json_str(js, NULL, "op");
	if (cg->match & NTPROF_BY_SIZE)
		ntprof_json_str(js, NULL, "size");
	if (cg->match & NTPROF_BY_DEV)
		ntprof_json_str(js, NULL, "dev");
	ntprof_json_arr_end(js);
	ntprof_json_str(js, "load_device", cg->load->devname);
	ntprof_json_str(js, "base_transport",
			ntprof_transport_id(cg->base->transport));
	ntprof_json_str(js, "load_transport",
			ntprof_transport_id(cg->load->transport));
	ntprof_json_bool(js, "common_ground", cg->common_ground);
}

static void json_group(struct ntprof_json *js, const struct cmp_group *cg,
		       const struct cmp_chain *cc)
{
	const struct cmp_row *r;
	size_t i;

	ntprof_json_obj_start(js, NULL);
	ntprof_json_str(js, "label", cg->label);
	ntprof_json_str(js, "op", ntprof_opclass_name(cg->base->op));
	ntprof_json_u64(js, "size", cg->base->length);
	ntprof_json_str(js, "device", cg->base->devname);
	if (cg->base->host)
		ntprof_json_str(js, "host", cg->base->host);
	ntprof_json_str(js, "side", cg->base->target_side ? "target" : "host");
	json_pairing(js, cg);
	ntprof_json_u64(js, "base_n", cg->base->n_table);
	ntprof_json_u64(js, "load_n", cg->load->n_table);
	ntprof_json_arr_start(js, "stages");
	for (i = 0; i < cg->nr_rows; i++)
		cmp_row_json(js, &cg->rows[i]);
	ntprof_json_arr_end(js);
	if (cg->largest >= 0) {
		r = &cg->rows[cg->largest];
		ntprof_json_obj_start(js, "largest");
		ntprof_json_str(js, "id", r->id);
		ntprof_json_str(js, "name", r->name);
		ntprof_json_num(js, "lad", r->lad, 4);
		ntprof_json_num(js, "delta_us", (r->load_ns - r->base_ns) / 1e3,
				3);
		ntprof_json_num(js, "share", r->share, 4);
		ntprof_json_bool(js, "largest_lad", cg->largest_lad);
		ntprof_json_obj_end(js);
	} else {
		ntprof_json_str(js, "largest", NULL);
	}
	cmp_detail_json(js, cg);
	ntprof_json_str(js, "answer", cg->answer);
	if (cc)
		cmp_chain_json(js, cc);
	ntprof_json_obj_end(js);
}

/*
 * chain_of() - return the chain of pair @cg, or NULL when the pair is not
 * chained in both runs.
 */
static const struct cmp_chain *
chain_of(const struct cmp_group *groups, struct cmp_chain *const *chains,
	 const struct cmp_group *cg)
{
	return chains ? chains[cg - groups] : NULL;
}

static void compare_print(const struct recording_run *base,
			  const struct recording_run *load,
			  const struct cmp_group *groups,
			  struct cmp_chain *const *chains, size_t nr, bool json,
			  unsigned int match, const struct cmp_events *ce)
{
	const struct cmp_chain *tc;
	const struct ntprof_analysis *ba = base->an, *la = load->an;
	const struct cmp_group *top = cmp_main_group(groups, nr);
	struct ntprof_json js;
	bool had_na = false;
	size_t i;

	tc = top ? chain_of(groups, chains, top) : NULL;
	if (json) {
		ntprof_json_init(&js, stdout);
		ntprof_json_obj_start(&js, NULL);
		ntprof_json_str(&js, "schema", NTPROF_COMPARE_SCHEMA);
		json_run(&js, "base", base, ce);
		json_run(&js, "load", load, ce);
		ntprof_json_arr_start(&js, "groups");
		for (i = 0; i < nr; i++)
			json_group(&js, &groups[i],
				   chain_of(groups, chains, &groups[i]));
		ntprof_json_arr_end(&js);
		ntprof_json_str(&js, "answer", top ? top->answer : NULL);
		if (tc)
			ntprof_json_str(&js, "chain_answer", tc->answer);
		if (cmp_events_any(ce))
			ntprof_json_str(&js, "outage", ce->verdict[0] ?
					ce->verdict : NULL);
		ntprof_json_obj_end(&js);
		return;
	}
	print_run_line("base", base);
	print_run_line("load", load);
	cmp_events_print(stdout, ce);
	for (i = 0; i < nr; i++)
		print_group(&groups[i], chain_of(groups, chains, &groups[i]),
			    &had_na);
	for (i = 0; i < ba->nr_groups; i++)
		if (!cmp_paired(groups, nr, &ba->groups[i], false))
			print_only(&ba->groups[i], "base");
	for (i = 0; i < la->nr_groups; i++)
		if (!cmp_paired(groups, nr, &la->groups[i], true))
			print_only(&la->groups[i], "loaded");
	if (had_na)
		puts("\n(n/a: under 0.5 us at the baseline, too small for a ratio; its change in us\n"
		     "still counts.)");
	if (!nr && match == CMP_MATCH_DEFAULT)
		puts("\nno group of commands (op, size, device) is in both runs: nothing to compare\n"
		     "(--match op,size pairs the groups of two devices)");
	else if (!nr)
		puts("\nno group of commands is in both runs: nothing to compare");
	else if (nr > 1)
		printf("\nanswer (%s): %s\n", top->label, top->answer);
	if (nr > 1 && tc)
		printf("chain answer (%s): %s\n", top->label, tc->answer);
	/* Last, where the reader looks for the verdict. */
	cmp_events_print_verdict(stdout, ce);
}

/*
 * compare_chains() - compare both runs' chains: put each pair's chain in
 * @chains (NULL where a pair is not chained in both runs). It returns 0, or
 * 1 after a message.
 */
static int compare_chains(const char *cmd, struct recording_run *base,
			  struct recording_run *load,
			  const struct compare_opts *o,
			  const struct cmp_group *groups, size_t nr,
			  struct cmp_chain ***chains)
{
	struct cmp_chain **v;
	size_t i;

	*chains = NULL;
	if (ntprof_chain_stats_make(base, false) ||
	    ntprof_chain_stats_make(load, false)) {
		fprintf(stderr, "ntprof: %s: out of memory for the chains\n",
			cmd);
		return 1;
	}
	if (cmp_chain_legs_check(cmd, base, load, &o->legs))
		return 1;
	if (!ntprof_chain_present(base) || !ntprof_chain_present(load))
		return 0;
	v = calloc(nr + 1, sizeof(*v));
	if (!v)
		goto nomem;
	*chains = v;
	for (i = 0; i < nr; i++) {
		v[i] = malloc(sizeof(*v[i]));
		if (!v[i])
			goto nomem;
		if (!cmp_chain_compare(v[i], base, load, &groups[i],
				       &o->legs)) {
			free(v[i]);
			v[i] = NULL;
		}
	}
	return 0;
nomem:
	fprintf(stderr, "ntprof: %s: out of memory\n", cmd);
	return 1;
}

static void chains_free(struct cmp_chain **chains, size_t nr)
{
	size_t i;

	for (i = 0; chains && i < nr; i++)
		free(chains[i]);
	free(chains);
}

/*
 * compare_html() - write the --html page. It returns 0, or 1 after a
 * message.
 */
static int compare_html(const char *cmd, const char *path,
			const struct recording_run *base,
			const struct recording_run *load,
			const struct cmp_group *groups,
			struct cmp_chain *const *chains, size_t nr,
			const struct cmp_events *ce)
{
	struct out_file of;

	if (out_file_open(&of, cmd, path))
		return 1;
	return out_file_close(&of, cmd,
			      compare_html_write(of.f, base, load, groups,
						 chains, nr, ce));
}

/*
 * compare_output_check() - check that --html never writes over a recording
 * or a file of either run (out_file.c). It returns -1 to go on, or else the
 * exit status.
 */
static int compare_output_check(const char *cmd, const char *path,
				const struct recording_run *base,
				const struct recording_run *load)
{
	int ret = out_file_check(cmd, "--html", path, base->paths.v,
				 base->paths.n);

	if (ret >= 0)
		return ret;
	return out_file_check(cmd, "--html", path, load->paths.v,
			      load->paths.n);
}

int cmd_compare(int argc, char *argv[])
{
	struct compare_opts o = { 0 };
	struct recording_run base, load;
	struct cmp_group *groups = NULL;
	struct cmp_chain **chains = NULL;
	struct cmp_events ce = { 0 };
	size_t i, nr = 0;
	int ret = compare_parse(argc, argv, &o);

	if (ret >= 0)
		return ret;
	memset(&load, 0, sizeof(load));
	ret = run_load(argv[0], o.base_arg, &base);
	if (!ret)
		ret = run_load(argv[0], o.load_arg, &load);
	if (!ret && o.html && compare_output_check(argv[0], o.html, &base,
						   &load) > 0)
		ret = 1;
	if (!ret) {
		groups = calloc(base.an->nr_groups + 1, sizeof(*groups));
		if (!groups) {
			fprintf(stderr, "ntprof: %s: out of memory\n", argv[0]);
			ret = 1;
		}
	}
	if (!ret)
		ret = cmp_pair(argv[0], base.an, load.an, o.match, o.match_given,
			       groups, &nr);
	for (i = 0; !ret && i < nr; i++)
		cmp_group_compare(&groups[i], o.detail);
	if (!ret)
		ret = compare_chains(argv[0], &base, &load, &o, groups, nr,
				     &chains);
	if (!ret && cmp_events_make(&base, &load, &ce)) {
		fprintf(stderr, "ntprof: %s: out of memory\n", argv[0]);
		ret = 1;
	}
	if (!ret)
		compare_print(&base, &load, groups, chains, nr, o.json,
			      o.match, &ce);
	if (!ret && o.html)
		ret = compare_html(argv[0], o.html, &base, &load, groups,
				   chains, nr, &ce);
	/* Nothing in common is an answer, but not the one a script wants. */
	if (!ret && !nr)
		ret = 1;
	chains_free(chains, nr);
	cmp_events_free(&ce);
	free(groups);
	recording_run_free(&base);
	recording_run_free(&load);
	return ret;
}
