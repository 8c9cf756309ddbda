/* SPDX-License-Identifier: GPL-2.0 */
/* ntprof report --html: one self-contained page (report_html.c). */
#ifndef NTPROF_REPORT_HTML_H
#define NTPROF_REPORT_HTML_H

#include <stdio.h>

struct recording_run;

/* Writes the page to @f; 0, -ENOMEM or -EIO. */
int report_html_write(FILE *f, const struct recording_run *run);

#endif /* NTPROF_REPORT_HTML_H */
