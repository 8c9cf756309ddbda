// SPDX-License-Identifier: GPL-2.0
/*
 * Prometheus' text exposition format (prom_text.h), written once for
 * record's --prom files and a middle's chain file.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

#include "out/prom_text.h"

void prom_hist_add(struct prom_hist *h, int64_t ns)
{
	int k = 0;

	while (k < PROM_BUCKETS && ns > (int64_t)1000 << k)
		k++;
	h->b[k]++;
	h->n++;
	h->sum_s += (double)ns / 1e9;
}

void prom_label(FILE *f, const char *name, const char *value)
{
	const char *s;

	fprintf(f, ",%s=\"", name);
	for (s = value; *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', f);
		if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

void prom_hist_write(FILE *f, const char *metric, const char *labels,
		     const char *stage, const struct prom_hist *h)
{
	uint64_t cum = 0;
	int k;

	for (k = 0; k <= PROM_BUCKETS; k++) {
		cum += h->b[k];
		fprintf(f, "%s_bucket%s,stage=\"%s\"", metric, labels, stage);
		if (k < PROM_BUCKETS)
			fprintf(f, ",le=\"%.6f\"} %" PRIu64 "\n",
				(double)(1ULL << k) / 1e6, cum);
		else
			fprintf(f, ",le=\"+Inf\"} %" PRIu64 "\n", cum);
	}
	fprintf(f, "%s_sum%s,stage=\"%s\"} %.9f\n", metric, labels, stage,
		h->sum_s);
	fprintf(f, "%s_count%s,stage=\"%s\"} %" PRIu64 "\n", metric, labels,
		stage, h->n);
}

void prom_counter(FILE *f, const char *name, const char *help,
		  const char *role, uint64_t v)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s counter\n%s{role=\"%s\"} %" PRIu64 "\n",
		name, help, name, name, role, v);
}

int prom_file_write(const char *path, const char *tmp,
		    int (*print)(FILE *f, const void *arg), const void *arg)
{
	FILE *f = fopen(tmp, "w");
	int err = 0;

	if (!f)
		return -errno;
	err = print(f, arg);
	if (!err && (fflush(f) || ferror(f)))
		err = -EIO;
	if (fclose(f) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}
