/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record --prom's control-path series (record_prom_events.c): per host
 * controller, the episodes of analysis/ctl_events.h that the events
 * drained so far make, counted as ntprof report counts them.
 * Documentation/prometheus.rst names the metrics and labels.
 */
#ifndef NTPROF_RECORD_PROM_EVENTS_H
#define NTPROF_RECORD_PROM_EVENTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ntp/ntp.h"

struct prom_ctl;

/* Where the host's controllers are read: /sys/class/nvme. */
#define PROM_CTL_SYSFS	"/sys/class/nvme"

/* The state of a session of @role; NULL: no memory. */
struct prom_ctl *prom_ctl_new(uint32_t role);
void prom_ctl_free(struct prom_ctl *pc);
/*
 * prom_ctl_sysfs() - read the controllers' labels under @dir instead of
 * PROM_CTL_SYSFS (a test's tree); @dir is referenced, not copied.
 */
void prom_ctl_sysfs(struct prom_ctl *pc, const char *dir);
/*
 * prom_ctl_table() - the controller table of the recording's start and
 * each entry's host NQN, the labels of a controller that is gone before
 * its labels could be read; referenced, not copied.
 */
void prom_ctl_table(struct prom_ctl *pc, const struct ntp_ctrl *ctrls,
		    const char (*hostnqns)[NTP_NQN_MAX + 1], size_t n);
/*
 * prom_ctl_add() - take @n events of one drain, in the module's order,
 * and @drops, the module's count of events dropped so far, of a session
 * that started at @start_ns. It returns 0 or -ENOMEM.
 */
int prom_ctl_add(struct prom_ctl *pc, const struct ntp_event *ev, size_t n,
		 uint64_t drops, uint64_t start_ns);
/* prom_ctl_print() - the series, with their help lines; 0 or -ENOMEM. */
int prom_ctl_print(FILE *f, const struct prom_ctl *pc);

#endif /* NTPROF_RECORD_PROM_EVENTS_H */
