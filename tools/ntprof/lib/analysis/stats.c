// SPDX-License-Identifier: GPL-2.0
/*
 * Means and percentiles of sample sets. A report sorts one set per group
 * and component, each up to the size of the recording, so the integer
 * sort is a radix sort: linear in n, about 0.1 s for 10 M values, where
 * qsort() with its comparison calls takes a second or more.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "common/util.h"

/* Below this, a radix sort's 2 KiB of counters cost more than they save. */
#define SMALL_SORT	64

double ntprof_percentile_i64(const int64_t *sorted, size_t n, double p)
{
	double h, frac;
	size_t lo;

	if (!n)
		return NAN;
	h = (double)(n - 1) * p / 100.0;
	if (h <= 0)
		return (double)sorted[0];
	lo = (size_t)h;
	if (lo >= n - 1)
		return (double)sorted[n - 1];
	frac = h - (double)lo;
	return (double)sorted[lo] +
	       frac * ((double)sorted[lo + 1] - (double)sorted[lo]);
}

static inline uint64_t key_at(const unsigned char *p, size_t off)
{
	uint64_t k;

	memcpy(&k, p + off, sizeof(k));
	return k;
}

/*
 * Always inlined into ntprof_radix_sort()'s cases, so that @size is a
 * constant there and each memcpy() becomes a few moves.
 */
static inline __attribute__((always_inline)) int
radix_sort(unsigned char *base, size_t n, size_t size, size_t off)
{
	unsigned char *tmp, *src, *dst, *p;
	size_t (*cnt)[256];
	uint64_t k, first;
	size_t i, sum, c;
	unsigned int b, d;

	if (n < 2)
		return 0;
	tmp = malloc(n * size);
	cnt = calloc(8, sizeof(*cnt));
	if (!tmp || !cnt) {
		free(tmp);
		free(cnt);
		return -ENOMEM;
	}

	/* One pass counts all eight digits. */
	for (i = 0, p = base; i < n; i++, p += size) {
		k = key_at(p, off);
		for (b = 0; b < 8; b++)
			cnt[b][(k >> (8 * b)) & 0xff]++;
	}

	first = key_at(base, off);
	src = base;
	dst = tmp;
	for (b = 0; b < 8; b++) {
		/*
		 * A digit that all keys share moves nothing: timestamps and
		 * latencies leave their high bytes constant, so most of the
		 * eight passes are skipped.
		 */
		if (cnt[b][(first >> (8 * b)) & 0xff] == n)
			continue;
		for (d = 0, sum = 0; d < 256; d++) {
			c = cnt[b][d];
			cnt[b][d] = sum;
			sum += c;
		}
		for (i = 0, p = src; i < n; i++, p += size) {
			d = (key_at(p, off) >> (8 * b)) & 0xff;
			memcpy(dst + cnt[b][d]++ * size, p, size);
		}
		p = src;
		src = dst;
		dst = p;
	}
	if (src != base)
		memcpy(base, src, n * size);
	free(tmp);
	free(cnt);
	return 0;
}

int ntprof_radix_sort(void *base, size_t n, size_t size, size_t key_off)
{
	if (key_off + sizeof(uint64_t) > size)
		return -EINVAL;
	switch (size) {
	case 8:
		return radix_sort(base, n, 8, key_off);
	case 16:
		return radix_sort(base, n, 16, key_off);
	case 24:
		return radix_sort(base, n, 24, key_off);
	case 32:
		return radix_sort(base, n, 32, key_off);
	}
	return -EINVAL;
}

static void insertion_sort_i64(int64_t *v, size_t n)
{
	size_t i, j;
	int64_t x;

	for (i = 1; i < n; i++) {
		x = v[i];
		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

void ntprof_sort_i64(int64_t *v, size_t n)
{
	/* Flipping the sign bit maps int64_t order onto uint64_t order. */
	uint64_t *u = (uint64_t *)v;
	const uint64_t sign = 1ULL << 63;
	size_t i;

	if (n < SMALL_SORT) {
		insertion_sort_i64(v, n);
		return;
	}
	for (i = 0; i < n; i++)
		u[i] ^= sign;
	if (ntprof_radix_sort(u, n, sizeof(*u), 0)) {
		for (i = 0; i < n; i++)
			u[i] ^= sign;
		qsort(v, n, sizeof(*v), cmp_i64);
		return;
	}
	for (i = 0; i < n; i++)
		u[i] ^= sign;
}

static void stats_empty(struct ntprof_stats *st)
{
	st->n = 0;
	st->mean = NAN;
	st->min = NAN;
	st->p50 = NAN;
	st->p99 = NAN;
	st->p999 = NAN;
	st->max = NAN;
}

void ntprof_stats_i64(int64_t *v, size_t n, struct ntprof_stats *st)
{
	/*
	 * long double holds any sum of 64-bit integers we can meet exactly
	 * enough; an int64_t sum of nanoseconds could overflow in theory.
	 */
	long double sum = 0;
	size_t i;

	if (!n) {
		stats_empty(st);
		return;
	}
	ntprof_sort_i64(v, n);
	for (i = 0; i < n; i++)
		sum += v[i];
	st->n = n;
	st->mean = (double)(sum / n);
	st->min = (double)v[0];
	st->max = (double)v[n - 1];
	st->p50 = ntprof_percentile_i64(v, n, 50);
	st->p99 = ntprof_percentile_i64(v, n, 99);
	st->p999 = ntprof_percentile_i64(v, n, 99.9);
}

size_t ntprof_vec_exact_max = 1U << 20;

void ntprof_vec_free(struct ntprof_vec *vec)
{
	free(vec->v);
	vec->v = NULL;
	vec->n = 0;
	vec->cap = 0;
	ntprof_hist_free(vec->hist);
	vec->hist = NULL;
}
