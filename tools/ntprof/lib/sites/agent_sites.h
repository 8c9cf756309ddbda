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
 * agent_sites_write() - write @p's sites to @f. Each site comes with its
 * function's symbol (vaddr and size) in the file that @object names, the
 * executable as the agent will see it. While @p's ELF is open, each site
 * also comes with the functions within a rel8's reach of its first bytes
 * (near lines), which the agent decodes. It returns 0, -EINVAL for a site
 * without a symbol size (the agent decodes the whole body), or -EIO if
 * writing to @f failed.
 */
int agent_sites_write(FILE *f, const struct spdk_prog *p, const char *object);

#endif /* NTPROF_AGENT_SITES_H */
