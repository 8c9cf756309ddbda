/* SPDX-License-Identifier: GPL-2.0 */
/* The site list the recorder hands the agent, read at start-up. */
#ifndef NTPROF_AGENT_SITELIST_H
#define NTPROF_AGENT_SITELIST_H

#include <limits.h>
#include <stdint.h>

#include "site.h"

/* A site as listed: where its function is, and what it stamps. */
struct agent_listed {
	char object[PATH_MAX];
	uint64_t vaddr;
	uint64_t size;
	struct agent_site site;
};

/*
 * Reads up to @max sites of the list at @path into @sites: 0 with *@nr
 * set, -errno for a file that cannot be read, or -EINVAL with the first
 * line that is no site in *@bad_line.
 */
int agent_sitelist_read(const char *path, struct agent_listed *sites,
			unsigned int max, unsigned int *nr,
			unsigned int *bad_line);

#endif /* NTPROF_AGENT_SITELIST_H */
