/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Prometheus' text exposition format, as both of record's --prom files
 * write it: a role's groups (record_prom.c) and a middle's chain
 * (chain_prom.c). Their histograms share one set of buckets so that the
 * rules file can add them.
 */
#ifndef NTPROF_PROM_TEXT_H
#define NTPROF_PROM_TEXT_H

#include <stdint.h>
#include <stdio.h>

/* Buckets of 1 us to 2^23 us (about 8.4 s), doubling, and one above. */
#define PROM_BUCKETS	24

struct prom_hist {
	uint64_t b[PROM_BUCKETS + 1];	/* [PROM_BUCKETS]: above all */
	uint64_t n;
	double sum_s;
};

/* prom_hist_add() - count @ns nanoseconds in @h. */
void prom_hist_add(struct prom_hist *h, int64_t ns);

/*
 * prom_label() - print ,NAME="VALUE" with the value's backslashes,
 * quotes and newlines escaped, as the format asks.
 */
void prom_label(FILE *f, const char *name, const char *value);

/*
 * prom_hist_write() - print histogram @h of @metric: its buckets, sum
 * and count, each with @labels (from '{' on, without the closing brace)
 * and stage="@stage".
 */
void prom_hist_write(FILE *f, const char *metric, const char *labels,
		     const char *stage, const struct prom_hist *h);

/*
 * prom_counter() - print counter @name, with its help line, whose one
 * series has the label role="@role".
 */
void prom_counter(FILE *f, const char *name, const char *help,
		  const char *role, uint64_t v);

/*
 * prom_file_write() - write @path whole: @print's text goes to @tmp,
 * which is renamed over @path, so that node_exporter never reads half a
 * file. @print returns 0 or -errno. Returns 0 or -errno; @tmp is
 * removed on failure.
 */
int prom_file_write(const char *path, const char *tmp,
		    int (*print)(FILE *f, const void *arg), const void *arg);

#endif
