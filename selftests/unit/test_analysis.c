// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the tool's analysis library (stats.c, analysis.c, join.c,
 * table.c): records with known timestamps go in, and the stage means,
 * shares, queue depths, matches and printed rows that must come out are
 * worked out by hand here. This file holds the program's table of cases
 * and its statistics, empty input and --bench; the other cases are in one
 * file for each topic (analysis_test.h). Prints TAP; exits 1 if any test
 * failed.
 *
 * "test_analysis --bench N" instead times the join and the analysis of N
 * host and N target records (not part of make check).
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "analysis/analysis.h"
#include "analysis/join.h"
#include "analysis/stats.h"
#include "analysis_test.h"
#include "out/live.h"
#include "out/report_json.h"
#include "out/table.h"
#include "tap.h"

/*
 * A vector past ntprof_vec_exact_max turns into a histogram: its memory
 * stops growing, n, mean, min and max stay exact, percentiles within
 * 0.05 %, on a spread from -50 us (a negative wire) to 20 ms.
 */
static void t_vec_hist(void)
{
	size_t saved = ntprof_vec_exact_max, i, n = 200000;
	struct ntprof_vec vec = { 0 };
	struct ntprof_stats ex, st;
	uint64_t x = 88172645463325252ULL;
	bool pushed = true;
	int64_t *all;

	all = malloc(n * sizeof(*all));
	ntprof_vec_exact_max = 4096;
	for (i = 0; all && i < n; i++) {
		/* xorshift; log-uniform magnitudes over 1 ns .. 20 ms */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		all[i] = (int64_t)exp((double)(x % 1000000) / 1e6 * log(2e7));
		if (x % 97 == 0)
			all[i] = -(all[i] % 50000);
		pushed &= !ntprof_vec_push(&vec, all[i]);
	}
	ntprof_vec_exact_max = saved;
	ok(all && pushed && vec.hist && !vec.v && vec.cap == 0,
	   "vec: past its exact maximum, a histogram holds the values");
	if (!all || !vec.hist) {
		free(all);
		ntprof_vec_free(&vec);
		return;
	}
	ntprof_vec_stats(&vec, &st);
	ntprof_stats_i64(all, n, &ex);
	ok(st.n == ex.n && st.mean == ex.mean && st.min == ex.min &&
	   st.max == ex.max,
	   "vec histogram: n, mean, min, max exact (%.3f %.3f %.0f %.0f)",
	   st.mean, ex.mean, st.min, st.max);
	ok(close_rel(st.p50, ex.p50, 0.0005) &&
	   close_rel(st.p99, ex.p99, 0.0005) &&
	   close_rel(st.p999, ex.p999, 0.0005),
	   "vec histogram: p50 %.1f/%.1f, p99 %.1f/%.1f, p99.9 %.1f/%.1f within 0.05 %%",
	   st.p50, ex.p50, st.p99, ex.p99, st.p999, ex.p999);
	free(all);
	ntprof_vec_free(&vec);
	ok(!vec.hist && !vec.n, "vec: freed, histogram and all");
}

static void t_percentiles(void)
{
	int64_t v[100], one = 42;
	struct ntprof_stats st;
	int i;

	for (i = 0; i < 100; i++)
		v[i] = 100 - i;	/* 100..1: the sort has work to do */
	ntprof_stats_i64(v, 100, &st);
	ok(st.n == 100 && near(st.mean, 50.5) && near(st.min, 1) &&
	   near(st.max, 100), "stats: n, mean, min, max of 1..100");
	ok(near(st.p50, 50.5) && near(st.p99, 99.01) && near(st.p999, 99.901),
	   "stats: p50 50.5, p99 99.01, p99.9 99.901 of 1..100 (linear interpolation)");

	ntprof_stats_i64(&one, 1, &st);
	ok(st.n == 1 && st.mean == 42 && st.p50 == 42 && st.p99 == 42 &&
	   st.p999 == 42, "stats: one value is every percentile");

	ntprof_stats_i64(NULL, 0, &st);
	ok(st.n == 0 && isnan(st.mean) && isnan(st.p50) && isnan(st.p999),
	   "stats: no values give NAN");

	ok(near(ntprof_percentile_i64(v, 100, 0), 1) &&
	   near(ntprof_percentile_i64(v, 100, 100), 100) &&
	   near(ntprof_percentile_i64(v, 100, 25), 25.75),
	   "stats: p0, p100 are min and max; p25 of 1..100 is 25.75");
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static void t_sort(void)
{
	const size_t n = 200000;
	int64_t *a = malloc(n * sizeof(*a)), *b = malloc(n * sizeof(*b));
	struct { uint64_t key; uint64_t val; } kv[1000];
	bool stable = true;
	size_t i;

	if (!a || !b) {
		ok(false, "sort: memory");
		return;
	}
	for (i = 0; i < n; i++) {
		/* Negative and positive, small and large, and repeats. */
		a[i] = (int64_t)(rng() % 2000001) - 1000000;
		if (i % 7 == 0)
			a[i] *= 1000000007LL;
		b[i] = a[i];
	}
	ntprof_sort_i64(a, n);
	qsort(b, n, sizeof(*b), cmp_i64);
	ok(!memcmp(a, b, n * sizeof(*a)),
	   "sort: the radix sort of 200000 signed values agrees with qsort");

	for (i = 0; i < 1000; i++) {
		kv[i].key = rng() % 10;
		kv[i].val = i;
	}
	ok(!ntprof_radix_sort(kv, 1000, sizeof(kv[0]), 0),
	   "sort: 16-byte elements by key");
	for (i = 1; i < 1000; i++)
		if (kv[i - 1].key > kv[i].key ||
		    (kv[i - 1].key == kv[i].key && kv[i - 1].val > kv[i].val))
			stable = false;
	ok(stable, "sort: ordered by key, and stable");
	free(a);
	free(b);
}

static void t_empty(void)
{
	struct ntprof_analysis *an = ntprof_analysis_new(NULL);
	struct ntprof_record h;
	struct ntprof_join j;
	FILE *f;

	ok(an && !ntprof_analysis_add_all(an, NULL, 0, NULL, 0, NULL) &&
	   !ntprof_analysis_finish(an) && an->nr_groups == 0 &&
	   isnan(an->duration_s), "empty: an analysis of nothing");
	f = out_open();
	ntprof_print_run(f, an);
	ntprof_print_throughput(f, an);
	ntprof_print_groups(f, an, true);
	ntprof_print_live(f, an, 1);
	ntprof_print_json(f, an, NULL, NULL);
	fclose(f);
	ok(tap_has_line(out_buf, "=== every command recorded ===") &&
	   tap_has_line(out_buf,
			"throughput (estimated from the sampled commands): unknown, without the recording's length") &&
	   json_balanced(out_buf), "empty: prints without groups");
	ntprof_analysis_free(an);

	ok(!ntprof_join(NULL, 0, NULL, 0, NULL, &j) && j.matched == 0,
	   "empty: a join of nothing");
	ntprof_join_free(&j);

	host_rec(&h, NTPROF_TRANSPORT_TCP, 0, 0);
	ok(!ntprof_join(&h, 1, NULL, 0, NULL, &j) && j.matched == 0 &&
	   j.match[0] == NTPROF_NO_MATCH, "empty: no target records");
	ntprof_join_free(&j);

	/* Only unusable records: a group with nothing in its tables. */
	an = ntprof_analysis_new(NULL);
	h.ts[NTPROF_PT_HOST_BLK_COMPLETE] = 1;
	ok(an && !ntprof_analysis_add(an, &h, NULL) &&
	   !ntprof_analysis_finish(an) && an->nr_unusable == 1 &&
	   an->groups[0].n_table == 0, "empty: one unusable record");
	f = out_open();
	ntprof_print_groups(f, an, true);
	fclose(f);
	ok(strstr(out_buf, "1 commands lacked the points"),
	   "empty: ... is reported, not tabulated");
	ntprof_analysis_free(an);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int bench(size_t n)
{
	struct ntprof_analysis_opts opts = { .sample = 1 };
	struct ntprof_record *h, *t;
	struct ntprof_analysis *an;
	struct ntprof_join j;
	struct rusage ru;
	uint32_t *t2h;
	double t0, t1, t2, t3;
	FILE *f;

	t0 = now_s();
	if (gen(n, 0, &h, &t, &t2h))
		return 1;
	t1 = now_s();
	if (ntprof_join(h, n, t, n, NULL, &j))
		return 1;
	t2 = now_s();
	an = ntprof_analysis_new(&opts);
	if (!an || ntprof_analysis_add_all(an, h, n, t, n, j.match) ||
	    ntprof_analysis_finish(an))
		return 1;
	f = fopen("/dev/null", "w");
	ntprof_print_groups(f, an, true);
	fclose(f);
	t3 = now_s();
	getrusage(RUSAGE_SELF, &ru);
	printf("records: %zu host + %zu target, %.1f MB\n", n, n,
	       2.0 * n * sizeof(*h) / 1e6);
	printf("generate %.2f s, join %.2f s (%zu matched), analysis %.2f s\n",
	       t1 - t0, t2 - t1, j.matched, t3 - t2);
	printf("max RSS %.1f MB\n", ru.ru_maxrss / 1e3);
	ntprof_join_free(&j);
	ntprof_analysis_free(an);
	free(h);
	free(t);
	free(t2h);
	return 0;
}

static const struct tap_case cases[] = {
	{ "percentiles", t_percentiles },
	{ "vec_hist", t_vec_hist },
	{ "sort", t_sort },
	{ "breakdown_joined", t_breakdown_joined },
	{ "breakdown_rdma", t_breakdown_rdma },
	{ "breakdown_one_side", t_breakdown_one_side },
	{ "breakdown_spdk", t_breakdown_spdk },
	{ "throughput_span", t_throughput_span },
	{ "missing_points", t_missing_points },
	{ "stages_only", t_stages_only },
	{ "disorder", t_disorder },
	{ "group", t_group },
	{ "e2e_only", t_e2e_only },
	{ "groups_and_labels", t_groups_and_labels },
	{ "passthru", t_passthru },
	{ "print", t_print },
	{ "print_host_only", t_print_host_only },
	{ "json", t_json },
	{ "join", t_join },
	{ "join_repeats", t_join_repeats },
	{ "join_transports", t_join_transports },
	{ "empty", t_empty },
};

int main(int argc, char *argv[])
{
	int ret;

	if (argc == 3 && !strcmp(argv[1], "--bench"))
		return bench(strtoull(argv[2], NULL, 0));
	ret = tap_main(argc, argv, "test_analysis", cases, TAP_NR_CASES(cases));
	free(out_buf);
	return ret;
}
