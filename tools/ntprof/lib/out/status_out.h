/* SPDX-License-Identifier: GPL-2.0 */
/* What 'ntprof status' prints of the module's status (status_out.c). */
#ifndef NTPROF_STATUS_OUT_H
#define NTPROF_STATUS_OUT_H

#include "genl/session.h"

/*
 * status_print() - print the module's version, state and kernel, the
 * session that records (if any), and the NVMe-oF modules it reports, on
 * standard output.
 */
void status_print(const struct session_status *st);

#endif /* NTPROF_STATUS_OUT_H */
