/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ntprof record --prom: the textfile of Prometheus' node_exporter
 * (record_prom.c). Documentation/prometheus.rst names its metrics and
 * labels.
 */
#ifndef NTPROF_RECORD_PROM_H
#define NTPROF_RECORD_PROM_H

#include <stddef.h>
#include <stdint.h>

#include <uapi/linux/ntprof.h>

#include "ntp/ntp.h"

struct prom;

/* The session's own counters, as the module keeps them. */
struct prom_counters {
	uint64_t seen;
	uint64_t sampled;
	uint64_t records;
	uint64_t drops;
	uint64_t evicted;
};

/*
 * Groups (op, size, device, transport and path) with series of their
 * own; the commands of any further group go to their path's overflow
 * series (op="overflow"), of which there are at most PROM_OVERFLOW_MAX,
 * and beyond those to one overflow series without a path.
 */
#define PROM_GROUPS_MAX		64
#define PROM_OVERFLOW_MAX	16

/* The host NQN of a controller entry: "" when unknown. */
typedef char prom_nqn[NTP_NQN_MAX + 1];

/* The state of FILE at @path for a session of @role; NULL: no memory. */
struct prom *prom_new(const char *path, uint32_t role);
void prom_free(struct prom *p);
/*
 * The machine's controller table (ntp_ctrl) and each entry's host NQN,
 * which give the records their path's labels; referenced, not copied.
 * Without it (or for a record of no entry) those labels are empty.
 * 0, or -ENOMEM.
 */
int prom_paths(struct prom *p, const struct ntp_ctrl *ctrls,
	       const prom_nqn *hostnqns, size_t n);
/* A record, of the device named @device ("" unknown); 0 or -ENOMEM. */
int prom_add(struct prom *p, const struct ntprof_record *r,
	     const char *device);
/* The subsystem NQN of @r's path, as its series carry it; "" unknown. */
const char *prom_subnqn(struct prom *p, const struct ntprof_record *r);
/*
 * The control-path events of one drain and the module's count of events
 * dropped so far, of a session that started at @start_ns (its header's
 * start_mono_ns): each controller's episodes, counted as ntprof report
 * counts them (record_prom_events.c). 0 or -ENOMEM.
 */
int prom_events(struct prom *p, const struct ntp_event *ev, size_t n,
		uint64_t drops, uint64_t start_ns);
/* Read the controllers' labels under @dir, not /sys/class/nvme (tests). */
void prom_events_sysfs(struct prom *p, const char *dir);
/* Rewrites the file, with the session's counters @c (NULL: none). */
int prom_write(struct prom *p, const struct prom_counters *c);
/*
 * The value of @key ("traddr") in an address as sysfs and the controller
 * table have it ("traddr=10.0.0.1,trsvcid=4420"); "" when absent.
 */
void prom_address_part(const char *address, const char *key, char *buf,
		       size_t size);

#endif /* NTPROF_RECORD_PROM_H */
