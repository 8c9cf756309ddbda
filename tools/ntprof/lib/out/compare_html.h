/* SPDX-License-Identifier: GPL-2.0 */
/* compare --html (compare_html.c). */
#ifndef NTPROF_COMPARE_HTML_H
#define NTPROF_COMPARE_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/compare.h"
#include "analysis/recording.h"

struct cmp_chain;
struct cmp_events;

/*
 * The groups of both runs as one page, with @chains[i] (NULL, or @chains
 * NULL: none) the chain of groups[i], after the runs' events @ce
 * (compare_events.h); 0 or -EIO.
 */
int compare_html_write(FILE *f, const struct recording_run *base,
		       const struct recording_run *load,
		       const struct cmp_group *groups,
		       struct cmp_chain *const *chains, size_t nr,
		       const struct cmp_events *ce);

#endif /* NTPROF_COMPARE_HTML_H */
