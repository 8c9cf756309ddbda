/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Summaries of sample sets (mean and percentiles) and the sorting they
 * need, sized for recordings of tens of millions of commands.
 */
#ifndef NTPROF_STATS_H
#define NTPROF_STATS_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A sample set's summary, in the unit of its values. With n == 0 every
 * value is NAN; with n == 1 they all equal the one sample.
 *
 * Percentiles interpolate linearly between the two closest ranks (the
 * "type 7" estimator of R and NumPy's default): the p-th percentile of
 * the sorted x[0..n-1] is x[h] + (h - floor(h)) * (x[h+1] - x[h]) with
 * h = (n - 1) * p / 100. Unlike nearest rank it moves smoothly as samples
 * are added, so two runs' p99 can be compared without a rank step.
 */
struct ntprof_stats {
	uint64_t n;
	double mean;
	double min;
	double p50;
	double p99;
	double p999;
	double max;
};

/*
 * ntprof_percentile_i64() - return the percentile @p (0..100) of @n sorted
 * values, or NAN when @n is 0.
 */
double ntprof_percentile_i64(const int64_t *sorted, size_t n, double p);

/*
 * ntprof_stats_i64() - sort @v in ascending order, by radix in linear
 * time, and fill @st. @n may be 0.
 */
void ntprof_stats_i64(int64_t *v, size_t n, struct ntprof_stats *st);

/*
 * ntprof_sort_i64() - sort @v in ascending order, in place. It falls back
 * to qsort() when memory is short.
 */
void ntprof_sort_i64(int64_t *v, size_t n);

/*
 * ntprof_radix_sort() - sort @n elements of @size bytes (8, 16, 24 or 32)
 * with a stable LSD radix sort, by the uint64_t at byte offset @key_off
 * of each. It returns 0, or -ENOMEM when its scratch copy (n * size
 * bytes) cannot be allocated, in which case @base is left untouched.
 * Because the sort is stable, sorting by a second key first and then by
 * the main key orders by (main, second).
 */
int ntprof_radix_sort(void *base, size_t n, size_t size, size_t key_off);

/*
 * A growable array of samples; zero-initialized means empty. Past
 * ntprof_vec_exact_max values it becomes a histogram (stats_hist.c):
 * count, mean, min and max stay exact, percentiles within 0.05 %, and
 * its memory stops growing.
 */
struct ntprof_vec {
	int64_t *v;
	size_t n;
	size_t cap;
	struct ntprof_hist *hist;	/* NULL: the exact values in v */
};

/*
 * Exact values a vector keeps before it turns into a histogram: 1 Mi
 * (8 MiB), far more than tests and most groups ever hold.
 */
extern size_t ntprof_vec_exact_max;

int ntprof_vec_grow(struct ntprof_vec *vec);
int ntprof_vec_push_hist(struct ntprof_vec *vec, int64_t x);

/*
 * ntprof_vec_push() - append @x. It returns 0 or -ENOMEM. It is inline
 * because the recorder's live table pushes a value per component of every
 * record that it drains.
 */
static inline int ntprof_vec_push(struct ntprof_vec *vec, int64_t x)
{
	if (vec->n == vec->cap) {
		if (ntprof_vec_grow(vec))
			return -ENOMEM;
		if (vec->hist)
			return ntprof_vec_push_hist(vec, x);
	}
	vec->v[vec->n++] = x;
	return 0;
}
/*
 * ntprof_vec_stats() - fill @st with the summary of @vec's samples,
 * sorting its exact values.
 */
void ntprof_vec_stats(struct ntprof_vec *vec, struct ntprof_stats *st);
/*
 * ntprof_vec_percentile() - return the percentile @p (0..100) of @vec's
 * samples, sorting its exact values, by the estimator of
 * ntprof_vec_stats(). A view that splits the commands at a percentile
 * thus splits them where the tables put that percentile.
 */
double ntprof_vec_percentile(struct ntprof_vec *vec, double p);
void ntprof_hist_free(struct ntprof_hist *h);
void ntprof_vec_free(struct ntprof_vec *vec);

#endif /* NTPROF_STATS_H */
