/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The names of roles and transports, as the tool prints them and takes
 * them in its options: "host", "target"; "tcp", "rdma", and "tcp,rdma"
 * for a session of every transport (NTPROF_TRANSPORT_NONE).
 */
#ifndef NTPROF_NAMES_H
#define NTPROF_NAMES_H

#include <stdint.h>

/* "host" or "target"; "?" for any other value. */
const char *ntprof_role_name(uint32_t role);

/* "tcp" or "rdma"; NULL for any other value, NONE included. */
const char *ntprof_transport_id(uint32_t transport);

/* As ntprof_transport_id(), and "tcp,rdma" for NONE, "?" for others. */
const char *ntprof_transport_name(uint32_t transport);

/* -r's value: host or target. 0, or -EINVAL. */
int ntprof_role_parse(const char *s, uint32_t *role);

/*
 * -t's value: tcp, rdma, or both (a list, "tcp,rdma"), which is
 * NTPROF_TRANSPORT_NONE, a session of every transport. 0, or -EINVAL.
 */
int ntprof_transport_parse(const char *s, uint32_t *transport);

#endif /* NTPROF_NAMES_H */
