/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_analysis is built from several files, one for each topic:
 * test_analysis.c (the table of cases, statistics, empty input, --bench),
 * analysis_breakdown.c, analysis_groups.c and analysis_join.c. This
 * header declares what they share, in analysis_test.c, and the cases that
 * the table in test_analysis.c runs.
 */
#ifndef NTPROF_SELFTESTS_ANALYSIS_TEST_H
#define NTPROF_SELFTESTS_ANALYSIS_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/analysis.h"

/*
 * The files count their checks in one tally, held by analysis_test.c
 * (tap.h). A file that included tap.h first would count in a tally of its
 * own.
 */
#if defined(NTPROF_SELFTESTS_TAP_H) && !defined(TAP_SHARED_TALLY)
#error "include analysis_test.h before tap.h, so that its checks are counted"
#endif
#define TAP_SHARED_TALLY
#include "tap.h"

#define US		1000ULL
#define HOURS_3		(3ULL * 3600 * 1000000000ULL)

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Equal but for the last bits of a double's rounding. */
bool near(double a, double b);
/* |a - b| within @rel of |b|, or 0.5 ns: a histogram bucket's error. */
bool close_rel(double a, double b, double rel);
/* A small deterministic generator, so that failures reproduce. */
uint64_t rng(void);
uint64_t rng_range(uint64_t lo, uint64_t hi);

/* What printing something gives, as a string (freed by the next call). */
extern char *out_buf;
FILE *out_open(void);
/* A small check that the JSON is well formed: balanced, strings closed. */
bool json_balanced(const char *s);

/* The reference command's records, host and target (analysis_test.c). */
void ref_ident(struct ntprof_record *r, uint8_t role, uint8_t transport,
	       uint32_t dev);
void host_rec(struct ntprof_record *r, uint8_t transport, uint64_t base,
	      uint64_t extra);
void target_rec(struct ntprof_record *r, uint8_t transport, uint64_t base,
		uint64_t extra);
/* Whether the components and the stages add up to the end to end. */
bool sums_hold(const struct ntprof_breakdown *bd);
/* Whether component @c is there and is @v. */
bool comp_is(const struct ntprof_breakdown *bd, int c, int64_t v);

/* The host's one device, nvme0n1 (259:0), and an analysis of @n commands. */
extern const struct ntprof_devname host_devs[1];
struct ntprof_analysis *analysis_ref(unsigned int n);
/* A whole recording of @n commands, and @extra target records. */
int gen(size_t n, size_t extra, struct ntprof_record **hp,
	struct ntprof_record **tp, uint32_t **t2hp);

/* analysis_breakdown.c */
void t_breakdown_joined(void);
void t_breakdown_rdma(void);
void t_breakdown_one_side(void);
void t_breakdown_spdk(void);
void t_missing_points(void);
void t_stages_only(void);
void t_disorder(void);

/* analysis_groups.c */
void t_throughput_span(void);
void t_group(void);
void t_e2e_only(void);
void t_groups_and_labels(void);
void t_passthru(void);
void t_print(void);
void t_print_host_only(void);
void t_json(void);

/* analysis_join.c */
void t_join(void);
void t_join_repeats(void);
void t_join_transports(void);

#endif /* NTPROF_SELFTESTS_ANALYSIS_TEST_H */
