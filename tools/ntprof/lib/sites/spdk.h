/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An SPDK program as ntprof records it: nvmf_tgt (--spdk-target) or
 * spdk_nvme_perf and other programs on SPDK's NVMe driver (--spdk-host).
 * Its uprobe sites are found in the binary's DWARF at run time, never
 * from offsets or layouts fixed here, which move with every SPDK build;
 * spdk.c opens the binary and finds the processes that run it,
 * spdk_sites.c holds the site maps (Documentation/spdk.rst).
 */
#ifndef NTPROF_SPDK_H
#define NTPROF_SPDK_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "genl/session.h"

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
/* The processes left out of a full table that a line names. */
#define SPDK_LEFT_OUT_SAID	8

struct spdk_prog {
	uint32_t role;		/* NTPROF_ROLE_HOST or _TARGET */
	uint32_t transport;	/* NTPROF_TRANSPORT_TCP or _RDMA */
	char path[PATH_MAX];	/* its name, for messages and debugfs */
	int fd;			/* the file, parsed and probed */
	const char *build_id;	/* or NULL */
	struct elfsite *es;
	struct spdk_func funcs[SPDK_FUNCS_MAX];
	size_t nr_funcs;
	struct session_usite usites[NTPROF_USITES_MAX];
	size_t nr_usites;
	pid_t pids[SPDK_PIDS_MAX];
	size_t nr_pids;		/* of the processes running it, the first */
	bool more_pids;		/* SPDK_PIDS_MAX; and there are more */
	pid_t left_out[SPDK_LEFT_OUT_SAID];
	size_t nr_left_out;	/* the others: how many, the first named */
	/* Whether a session can start with the sites; else why not. */
	bool ok;
	char why[512];
};

/*
 * spdk_prog_open() - resolve the site map of @role over @transport in
 * @arg, a path to the program or the PID of a running one (its
 * /proc/PID/exe). It returns 0 with @p filled in (@p->ok may still be
 * false, when a required site is missing or a member is not found), or
 * -errno with one line in @err (no such process, not ELF, stripped). The
 * usites name @p->fd, the file that was parsed.
 */
int spdk_prog_open(const char *arg, uint32_t role, uint32_t transport,
		   struct spdk_prog *p, char *err, size_t errlen);
/*
 * spdk_prog_close_elf() - free the parse and keep the file open for the
 * start request. A second call does nothing.
 */
void spdk_prog_close_elf(struct spdk_prog *p);
/*
 * spdk_prog_close() - free the parse and close the file. The usites and
 * the path stay valid afterwards, but must not be sent. A second call
 * does nothing.
 */
void spdk_prog_close(struct spdk_prog *p);

/*
 * spdk_prog_find_pids() - find again the processes that run @p's program,
 * that is, whose executable is the parsed file (the same device and
 * inode). Root's processes and this user's come first; those that do not
 * fit the table are left out and counted.
 */
void spdk_prog_find_pids(struct spdk_prog *p);

/*
 * spdk_prog_say_left_out() - print to @f one line naming the processes
 * left out of a full table.
 */
void spdk_prog_say_left_out(const struct spdk_prog *p, FILE *f,
			    const char *prefix);

/* The probe's section: each site, the running processes, no verdict. */
void spdk_prog_print(const struct spdk_prog *p, FILE *f);

/*
 * spdk_sites_funcs() - put in @funcs, at most @max of them, the functions
 * of @p's map, which are to be resolved in its binary, and return how many
 * there are; spdk_sites_structs() does the same for the map's structs.
 * Both are in spdk_sites.c.
 */
size_t spdk_sites_funcs(const struct spdk_prog *p, const char **funcs,
			size_t max);
size_t spdk_sites_structs(const struct spdk_prog *p, const char **structs,
			  size_t max);
/*
 * spdk_sites_resolve() - fill @p->funcs and @p->usites from the resolved
 * binary, and set @p->ok.
 */
void spdk_sites_resolve(struct spdk_prog *p);
/* spdk_point_name() - return what a site's point means, for probe. */
const char *spdk_point_name(uint32_t point);

#endif /* NTPROF_SPDK_H */
