// SPDX-License-Identifier: GPL-2.0
/*
 * A sample set that outgrew its exact values: a log-linear histogram
 * (HDR-style) that keeps memory bounded whatever the number of samples.
 *
 * Magnitudes below 2^11 ns have a bucket each: exact. Above, each power
 * of two is cut into 2^10 buckets, and a value stands for its bucket's
 * middle: within 2^-11 (0.049 %) of the true value. The count, the sum
 * (so the mean), the minimum and the maximum stay exact; a percentile is
 * the stats.h estimator over the buckets' middles, clamped to [min, max],
 * so within 0.05 % of the exact one (and exact below 2 us). Buckets come
 * in chunks of one power of two, allocated when a value first lands in
 * it: a latency spanning 1 us to 10 ms holds 14 chunks of 8 KiB.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"

#define SUB_BITS	10
#define SUB		(1U << SUB_BITS)
/* Chunk 0: magnitudes 0 .. 2^(SUB_BITS+1) - 1, one bucket each. */
#define CHUNK0		(2 * SUB)
/* Chunk c >= 1: magnitudes with their top bit at SUB_BITS + c. */
#define CHUNKS		(64 - SUB_BITS)

struct ntprof_hist {
	uint64_t n;
	long double sum;
	int64_t min;
	int64_t max;
	/* [0] magnitudes of negative values, [1] of the others. */
	uint64_t *chunk[2][CHUNKS];
};

/* bucket_of() - find the chunk and the index of magnitude @m. */
static void bucket_of(uint64_t m, unsigned int *c, unsigned int *i)
{
	unsigned int top;

	if (m < CHUNK0) {
		*c = 0;
		*i = m;
		return;
	}
	top = 63 - __builtin_clzll(m);
	*c = top - SUB_BITS;
	*i = (m >> (top - SUB_BITS)) & (SUB - 1);
}

/* bucket_mid() - return the middle of bucket @i of chunk @c, as a magnitude. */
static uint64_t bucket_mid(unsigned int c, unsigned int i)
{
	unsigned int shift;

	if (!c)
		return i;
	shift = c;
	return (((uint64_t)SUB + i) << shift) + ((1ULL << shift) >> 1);
}

static int hist_add(struct ntprof_hist *h, int64_t x)
{
	unsigned int side = x >= 0, c, i;
	/* -INT64_MIN does not fit: its magnitude as unsigned. */
	uint64_t m = x >= 0 ? (uint64_t)x : -(uint64_t)x;
	uint64_t **chunk;

	bucket_of(m, &c, &i);
	chunk = &h->chunk[side][c];
	if (!*chunk) {
		*chunk = calloc(c ? SUB : CHUNK0, sizeof(**chunk));
		if (!*chunk)
			return -ENOMEM;
	}
	(*chunk)[i]++;
	if (!h->n || x < h->min)
		h->min = x;
	if (!h->n || x > h->max)
		h->max = x;
	h->n++;
	h->sum += x;
	return 0;
}

void ntprof_hist_free(struct ntprof_hist *h)
{
	unsigned int s, c;

	if (!h)
		return;
	for (s = 0; s < 2; s++)
		for (c = 0; c < CHUNKS; c++)
			free(h->chunk[s][c]);
	free(h);
}

/*
 * vec_to_hist() - move @vec's values into a histogram, which takes every
 * later value. It returns 0, or -ENOMEM with @vec as it was.
 */
static int vec_to_hist(struct ntprof_vec *vec)
{
	struct ntprof_hist *h = calloc(1, sizeof(*h));
	size_t i;

	if (!h)
		return -ENOMEM;
	for (i = 0; i < vec->n; i++) {
		if (hist_add(h, vec->v[i])) {
			ntprof_hist_free(h);
			return -ENOMEM;
		}
	}
	free(vec->v);
	vec->v = NULL;
	vec->hist = h;
	/* cap == n: every push comes through ntprof_vec_grow(). */
	vec->n = 0;
	vec->cap = 0;
	return 0;
}

int ntprof_vec_grow(struct ntprof_vec *vec)
{
	int64_t *v;
	size_t cap;

	if (vec->hist)
		return 0;
	if (vec->n >= ntprof_vec_exact_max)
		return vec_to_hist(vec);
	/* Doubling keeps appends amortized O(1), one realloc per 2x. */
	cap = vec->cap ? vec->cap * 2 : 256;
	if (cap > ntprof_vec_exact_max)
		cap = ntprof_vec_exact_max;
	v = realloc(vec->v, cap * sizeof(*v));
	if (!v)
		return -ENOMEM;
	vec->v = v;
	vec->cap = cap;
	return 0;
}

int ntprof_vec_push_hist(struct ntprof_vec *vec, int64_t x)
{
	return hist_add(vec->hist, x);
}

/*
 * hist_rank() - return the value of rank @r (0-based, ascending): its
 * bucket's middle.
 */
static double hist_rank(const struct ntprof_hist *h, uint64_t r)
{
	uint64_t seen = 0, m;
	unsigned int c, i, nb;
	int s;

	/* Negative values first, largest magnitude first; then the rest. */
	for (s = 0; s < 2; s++) {
		for (c = 0; c < CHUNKS; c++) {
			unsigned int cc = s ? c : CHUNKS - 1 - c;
			const uint64_t *b = h->chunk[s][cc];

			if (!b)
				continue;
			nb = cc ? SUB : CHUNK0;
			for (i = 0; i < nb; i++) {
				unsigned int ii = s ? i : nb - 1 - i;

				seen += b[ii];
				if (seen <= r)
					continue;
				m = bucket_mid(cc, ii);
				return s ? (double)m : -(double)m;
			}
		}
	}
	return (double)h->max;
}

static double clamp(double x, const struct ntprof_hist *h)
{
	if (x < (double)h->min)
		return (double)h->min;
	if (x > (double)h->max)
		return (double)h->max;
	return x;
}

/*
 * hist_percentile() - do what ntprof_percentile_i64() does, over the
 * buckets.
 */
static double hist_percentile(const struct ntprof_hist *h, double p)
{
	double hh = (double)(h->n - 1) * p / 100.0, frac, a, b;
	uint64_t lo;

	if (hh <= 0)
		return (double)h->min;
	lo = (uint64_t)hh;
	if (lo >= h->n - 1)
		return (double)h->max;
	frac = hh - (double)lo;
	a = lo ? clamp(hist_rank(h, lo), h) : (double)h->min;
	b = lo + 1 == h->n - 1 ? (double)h->max :
				 clamp(hist_rank(h, lo + 1), h);
	return a + frac * (b - a);
}

void ntprof_vec_stats(struct ntprof_vec *vec, struct ntprof_stats *st)
{
	const struct ntprof_hist *h = vec->hist;

	if (!h) {
		ntprof_stats_i64(vec->v, vec->n, st);
		return;
	}
	st->n = h->n;
	st->mean = (double)(h->sum / h->n);
	st->min = (double)h->min;
	st->max = (double)h->max;
	st->p50 = hist_percentile(h, 50);
	st->p99 = hist_percentile(h, 99);
	st->p999 = hist_percentile(h, 99.9);
}

double ntprof_vec_percentile(struct ntprof_vec *vec, double p)
{
	if (vec->hist)
		return hist_percentile(vec->hist, p);
	ntprof_sort_i64(vec->v, vec->n);
	return ntprof_percentile_i64(vec->v, vec->n, p);
}
