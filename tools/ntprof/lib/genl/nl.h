/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small generic-netlink layer over libmnl: one socket, one family, one
 * request at a time, with the kernel's extended ACK kept for error messages.
 */
#ifndef NTPROF_NL_H
#define NTPROF_NL_H

#include <stdint.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

/*
 * The size of a request and of one receive. 32 KiB is the most the kernel
 * puts in one dump datagram, so a receive is never truncated.
 */
#define NL_MSG_SIZE	32768

/*
 * The receive size of a socket for dumps that bring little: the kernel
 * sizes a dump's datagrams by the largest receive a socket ever asked
 * for, and on kernels that clear what they allocate (init_on_alloc, as
 * Debian builds them) each 32 KiB datagram is 32 KiB cleared, records or
 * not. Below 8 KiB less the skb's overhead it is one 8 KiB slab object.
 */
#define NL_QUIET_SIZE	7680

struct nl_sock;

/*
 * Adds the request's attributes after its genetlink header; nlh has room
 * for NL_MSG_SIZE bytes, so use the mnl_attr_put_*_check() helpers with it.
 * Returns 0 or -errno.
 */
typedef int (*nl_put_cb)(struct nlmsghdr *nlh, void *data);

int nl_open(struct nl_sock **sockp);
/* A socket whose receives are @recv_size bytes, at most NL_MSG_SIZE. */
int nl_open_sized(struct nl_sock **sockp, size_t recv_size);
/*
 * A bound generic-netlink socket another process handed over, as @fd
 * (closed by nl_close(), or at once if this fails): requests go out
 * with its port id, which the module knows a session's owner by.
 */
int nl_open_fd(struct nl_sock **sockp, int fd);
void nl_close(struct nl_sock *sock);
/* The socket's port id: the module's name for it. */
uint32_t nl_portid(const struct nl_sock *sock);

/*
 * Looks the family up by name with nlctrl; later requests go to it, with
 * @version (the one this tool speaks) in their genetlink header.
 * Returns -ENOENT when no such family is registered.
 */
int nl_family_resolve(struct nl_sock *sock, const char *name, uint8_t version);
/* The version the kernel's side of the resolved family advertises. */
uint32_t nl_family_version(const struct nl_sock *sock);
uint16_t nl_family_id(const struct nl_sock *sock);

/*
 * Sends @cmd to the resolved family and feeds every reply message to
 * @reply (which may be NULL) until the kernel's ACK or, with NLM_F_DUMP in
 * @flags, the end of the dump. @reply returns MNL_CB_OK to go on,
 * MNL_CB_STOP to ignore the rest, or MNL_CB_ERROR with errno set.
 * Returns 0 or -errno: the kernel's error, @put's or @reply's, or -EINTR
 * when a dump changed under us and should be retried. After any of
 * these the socket is ready for the next request: what the kernel still
 * had to send for this one is read and dropped.
 */
int nl_request(struct nl_sock *sock, uint8_t cmd, uint16_t flags,
	       nl_put_cb put, mnl_cb_t reply, void *data);

/*
 * The kernel's explanation of the last request's outcome, or "". It can
 * come with a success too, as a warning.
 */
const char *nl_extack(const struct nl_sock *sock);

/*
 * The reason for the last request's error when it is the tool's own (a
 * reply it refused), in place of the kernel's explanation.
 */
void nl_note(struct nl_sock *sock, const char *reason);

/* Prints "ntprof: @what: <error>[: <kernel's explanation>]" to stderr. */
void nl_perror(const struct nl_sock *sock, const char *what, int err);

/*
 * Fills @tb[0..@max] with the attributes of a genetlink message or of a
 * nest, checking the type of those @policy names (MNL_TYPE_UNSPEC: any).
 * Attributes above @max, from a newer kernel, are ignored.
 * Returns 0 or -EPROTO when one is malformed.
 */
int nl_parse(const struct nlmsghdr *nlh, const enum mnl_attr_data_type *policy,
	     const struct nlattr **tb, unsigned int max);
int nl_parse_nested(const struct nlattr *nest,
		    const enum mnl_attr_data_type *policy,
		    const struct nlattr **tb, unsigned int max);

/* Walks all attributes: nl_parse() keeps only the last of a multi-attr. */
#define nl_attr_for_each(attr, nlh) \
	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr))

#endif /* NTPROF_NL_H */
