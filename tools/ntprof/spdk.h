/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SPDK's NVMe-oF target (nvmf_tgt) as ntprof records it: the uprobe sites
 * of its command path, found in the binary's DWARF at run time (never
 * offsets or layouts fixed here, which move with every SPDK build), the
 * processes that run it, and the sites of a start request.
 */
#ifndef NTPROF_SPDK_H
#define NTPROF_SPDK_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "session.h"

struct elfsite;

/* One function of the site map and what the binary has of it. */
struct spdk_func {
	const char *name;
	uint32_t point;		/* enum ntprof_point */
	bool required;
	const char *state;	/* "ok", "missing", "inlined", "clone" */
	size_t nr_sites;	/* out-of-line entries: one uprobe each */
	size_t nr_inlined;	/* copies in callers, which no site sees */
};

#define SPDK_FUNCS_MAX	8
#define SPDK_PIDS_MAX	16

struct spdk_target {
	char path[PATH_MAX];	/* what the uprobes name */
	const char *build_id;	/* or NULL */
	struct elfsite *es;
	struct spdk_func funcs[SPDK_FUNCS_MAX];
	size_t nr_funcs;
	struct session_usite usites[NTPROF_USITES_MAX];
	size_t nr_usites;
	pid_t pids[SPDK_PIDS_MAX];
	size_t nr_pids;		/* of the processes mapping it, the first */
	bool more_pids;		/* SPDK_PIDS_MAX; and there are more */
	/* Whether a session can start with the sites; else why not. */
	bool ok;
	char why[512];
};

/*
 * Resolves the site map in @arg, a path to nvmf_tgt or the PID of a
 * running one (its /proc/PID/exe). Returns 0 with @t filled in (@t->ok
 * may still be false: a required site missing, a member not found), or
 * -errno with one line in @err (no such process, not ELF, stripped).
 * Free with spdk_target_close() after a 0; the usites and the path stay
 * valid after it, and a second close does nothing.
 */
int spdk_target_open(const char *arg, struct spdk_target *t, char *err,
		     size_t errlen);
void spdk_target_close(struct spdk_target *t);

/* The probe's section: each site, the running processes, no verdict. */
void spdk_target_print(const struct spdk_target *t, FILE *f);

#endif /* NTPROF_SPDK_H */
