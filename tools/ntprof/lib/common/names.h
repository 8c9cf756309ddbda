/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The names of roles and transports, as the tool prints them and takes
 * them in its options: "host", "target"; "tcp", "rdma", and "tcp,rdma"
 * for a session of every transport (NTPROF_TRANSPORT_NONE).
 */
#ifndef NTPROF_NAMES_H
#define NTPROF_NAMES_H

#include <stdint.h>

/* ntprof_role_name() - return "host" or "target", or "?" for another value. */
const char *ntprof_role_name(uint32_t role);

/*
 * ntprof_transport_id() - return "tcp" or "rdma", or NULL for any other
 * value, including NONE.
 */
const char *ntprof_transport_id(uint32_t transport);

/*
 * ntprof_transport_name() - return what ntprof_transport_id() returns,
 * except "tcp,rdma" for NONE and "?" for other values.
 */
const char *ntprof_transport_name(uint32_t transport);

/*
 * ntprof_role_parse() - parse the value of -r, "host" or "target". It
 * returns 0, or -EINVAL.
 */
int ntprof_role_parse(const char *s, uint32_t *role);

/*
 * ntprof_transport_parse() - parse the value of -t: "tcp", "rdma", or
 * both as a list ("tcp,rdma"), which gives NTPROF_TRANSPORT_NONE, a
 * session of every transport. It returns 0, or -EINVAL.
 */
int ntprof_transport_parse(const char *s, uint32_t *transport);

#endif /* NTPROF_NAMES_H */
