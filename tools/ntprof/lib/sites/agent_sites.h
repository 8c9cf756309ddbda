/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The site list ntprof run hands libntprof-agent.so: an SPDK program's
 * sites, as spdk.c resolved them from its DWARF, in the agent's text
 * format (Documentation/agent.rst, "Start-up and the site list").
 */
#ifndef NTPROF_AGENT_SITES_H
#define NTPROF_AGENT_SITES_H

#include <stdio.h>

#include "sites/spdk.h"

/*
 * Writes @p's sites to @f, each with its function's symbol (vaddr and
 * size) in the file @object names, the executable as the agent will
 * see it, and, while @p's ELF is open, the functions within a rel8's
 * reach of its first bytes (near lines), which the agent decodes. 0, or -EINVAL for a site without a symbol size (the agent
 * decodes the body whole), -EIO if @f failed.
 */
int agent_sites_write(FILE *f, const struct spdk_prog *p, const char *object);

#endif /* NTPROF_AGENT_SITES_H */
