/* SPDX-License-Identifier: GPL-2.0 */
/* ntprof record --prom: the textfile of Prometheus' node_exporter (record_prom.c). */
#ifndef NTPROF_RECORD_PROM_H
#define NTPROF_RECORD_PROM_H

#include <stdint.h>

#include <uapi/linux/ntprof.h>

struct prom;

/* The session's own counters, as the module keeps them. */
struct prom_counters {
	uint64_t seen;
	uint64_t sampled;
	uint64_t records;
	uint64_t drops;
	uint64_t evicted;
};

/* The state of FILE at @path for a session of @role; NULL: no memory. */
struct prom *prom_new(const char *path, uint32_t role);
void prom_free(struct prom *p);
/* A record of the group labelled @label; 0 or -ENOMEM. */
int prom_add(struct prom *p, const char *label, const struct ntprof_record *r);
/* Rewrites the file, with the session's counters @c (NULL: none). */
int prom_write(struct prom *p, const struct prom_counters *c);

#endif /* NTPROF_RECORD_PROM_H */
