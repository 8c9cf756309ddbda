// SPDX-License-Identifier: GPL-2.0
/*
 * The values of ntpgen's options: numbers in a range, signed durations
 * and sizes. Each says on stderr what was wrong, naming the option, so
 * that the command line's parser only has to stop.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "ntpgen.h"

int parse_u64(const char *s, const char *what, uint64_t min, uint64_t max,
	      uint64_t *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-' || v < min || v > max) {
		fprintf(stderr, "ntpgen: %s: '%s' is not a number from %" PRIu64
			" to %" PRIu64 "\n", what, s, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

int parse_double(const char *s, const char *what, double min, double max,
		 double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= min && v <= max)) {
		fprintf(stderr, "ntpgen: %s: '%s' is not a number from %g to %g\n",
			what, s, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

/* parse_u64() for a 32-bit option: @out is left alone on an error. */
int parse_u32(const char *s, const char *what, uint32_t min, uint32_t max,
	      uint32_t *out)
{
	uint64_t v;

	if (parse_u64(s, what, min, max, &v))
		return -1;
	*out = v;
	return 0;
}

/* A signed duration: a number with ns (default), us, ms or s. */
int parse_dur(const char *s, const char *what, int64_t *out)
{
	static const struct {
		const char *sfx;
		double mul;
	} units[] = {
		{ "", 1 }, { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 },
		{ "s", 1e9 },
	};
	char *end;
	double v;
	size_t i;

	errno = 0;
	v = strtod(s, &end);
	if (!errno && end != s) {
		for (i = 0; i < ARRAY_SIZE(units); i++) {
			if (strcmp(end, units[i].sfx))
				continue;
			v *= units[i].mul;
			if (fabs(v) > 1e6 * 1e9)
				break;
			*out = llround(v);
			return 0;
		}
	}
	fprintf(stderr, "ntpgen: %s: '%s' is not a duration (e.g. 3s, -250ms, 15us, 1000)\n",
		what, s);
	return -1;
}

/* The power of 1024 that size suffix @c stands for, in bits; -1: none. */
static int size_shift(char c)
{
	static const char suffixes[] = "kmgt";
	const char *p;

	if (!c)
		return 0;
	p = strchr(suffixes, tolower((unsigned char)c));
	return p ? 10 * (int)(p - suffixes + 1) : -1;
}

/* Bytes with an optional k, M, G or T suffix (powers of 1024). */
int parse_size(const char *s, const char *what, uint64_t *out)
{
	unsigned long long v;
	int shift;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (!errno && end != s && *s != '-') {
		shift = size_shift(*end);
		if (shift >= 0 && (!*end || !end[1]) && v &&
		    v <= (UINT64_MAX >> 1) >> shift) {
			*out = (uint64_t)v << shift;
			return 0;
		}
	}
	fprintf(stderr, "ntpgen: %s: '%s' is not a size (e.g. 1G, 64M)\n",
		what, s);
	return -1;
}
