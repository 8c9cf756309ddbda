/* SPDX-License-Identifier: GPL-2.0 */
/* The site list the recorder hands the agent, read at start-up. */
#ifndef NTPROF_AGENT_SITELIST_H
#define NTPROF_AGENT_SITELIST_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <ntprof/agent_abi.h>

#include "site.h"

#define AGENT_BUILD_ID_MAX	64

/*
 * The build of an object the list was made from: its GNU build ID, or
 * for an object without one its file's size and modification time. A
 * site's address is only good in that build.
 */
struct agent_build {
	uint8_t id[AGENT_BUILD_ID_MAX];
	unsigned int id_len;	/* 0: no build ID, the file's size and time */
	uint64_t size;
	int64_t mtime_sec;
	int64_t mtime_nsec;
};

/* A function's symbol as linked: [vaddr, vaddr + size). */
struct agent_sym {
	uint64_t vaddr;
	uint64_t size;
};

/*
 * A site as listed: where its function is, the functions whose code is
 * within a rel8's reach of its first bytes (the agent decodes them for
 * branches into the patch; near_over if the list named more than it
 * holds), and what it stamps.
 */
struct agent_listed {
	char object[PATH_MAX];
	struct agent_build build;
	uint64_t vaddr;
	uint64_t size;
	struct agent_sym near[AGENT_NEAR_MAX];
	unsigned int nr_near;
	bool near_over;
	struct agent_site site;
};

/*
 * Reads up to @max sites of the list at @path into @sites: 0 with *@nr
 * set, -errno for a file that cannot be read, or -EINVAL with the first
 * line that is no site in *@bad_line (a site of an object that no
 * earlier "object" line names is none).
 */
int agent_sitelist_read(const char *path, struct agent_listed *sites,
			unsigned int max, unsigned int *nr,
			unsigned int *bad_line);

#endif /* NTPROF_AGENT_SITELIST_H */
