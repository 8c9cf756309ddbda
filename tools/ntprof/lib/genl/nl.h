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
 * The receive size of a socket for dumps that bring little data. The
 * kernel sizes a dump's datagrams by the largest receive that the socket
 * ever asked for, and kernels that clear what they allocate
 * (init_on_alloc, as Debian builds them) clear each 32 KiB datagram in
 * full, whether it holds records or not. A size below 8 KiB less the
 * skb's overhead makes each datagram one 8 KiB slab object.
 */
#define NL_QUIET_SIZE	7680

struct nl_sock;

/*
 * A callback that adds the request's attributes after its genetlink
 * header. @nlh has room for NL_MSG_SIZE bytes, so the callback must use
 * the mnl_attr_put_*_check() helpers with it. It returns 0 or -errno.
 */
typedef int (*nl_put_cb)(struct nlmsghdr *nlh, void *data);

/* nl_open() - open a socket whose receives are NL_MSG_SIZE bytes. */
int nl_open(struct nl_sock **sockp);
/*
 * nl_open_sized() - open a socket whose receives are @recv_size bytes, at
 * most NL_MSG_SIZE.
 */
int nl_open_sized(struct nl_sock **sockp, size_t recv_size);
/*
 * nl_open_fd() - take over @fd, a bound generic-netlink socket that
 * another process handed over. nl_close() closes @fd, or this function
 * closes it at once if it fails. Requests go out with the socket's port
 * id, by which the module knows a session's owner.
 */
int nl_open_fd(struct nl_sock **sockp, int fd);
/* nl_close() - close the socket and free @sock; NULL is allowed. */
void nl_close(struct nl_sock *sock);
/*
 * nl_portid() - return the socket's port id, which is the module's name
 * for the socket.
 */
uint32_t nl_portid(const struct nl_sock *sock);

/*
 * nl_family_resolve() - look the family up by name with nlctrl. Later
 * requests go to that family, with @version (the version that this tool
 * speaks) in their genetlink header. It returns -ENOENT when no such
 * family is registered.
 */
int nl_family_resolve(struct nl_sock *sock, const char *name, uint8_t version);
/*
 * nl_family_version() - return the version that the kernel's side of the
 * resolved family advertises.
 */
uint32_t nl_family_version(const struct nl_sock *sock);
/* nl_family_id() - return the id of the resolved family. */
uint16_t nl_family_id(const struct nl_sock *sock);

/*
 * nl_request() - send @cmd to the resolved family and feed every reply
 * message to @reply (which may be NULL) until the kernel's ACK or, with
 * NLM_F_DUMP in @flags, until the end of the dump. @reply returns
 * MNL_CB_OK to go on, MNL_CB_STOP to ignore the rest, or MNL_CB_ERROR
 * with errno set. The function returns 0 or -errno: the kernel's error,
 * @put's or @reply's, or -EINTR when a dump changed during the request
 * and should be retried. After any of these, the socket is ready for the
 * next request, because the function reads and drops what the kernel
 * still had to send for this one.
 */
int nl_request(struct nl_sock *sock, uint8_t cmd, uint16_t flags,
	       nl_put_cb put, mnl_cb_t reply, void *data);

/*
 * nl_extack() - return the kernel's explanation of the last request's
 * outcome, or "". The kernel can send one with a success too, as a
 * warning.
 */
const char *nl_extack(const struct nl_sock *sock);

/*
 * nl_note() - set @reason as the explanation of the last request's error
 * when the error is the tool's own (a reply that it refused), in place of
 * the kernel's explanation.
 */
void nl_note(struct nl_sock *sock, const char *reason);

/*
 * nl_perror() - print "ntprof: @what: <error>[: <kernel's explanation>]"
 * to stderr.
 */
void nl_perror(const struct nl_sock *sock, const char *what, int err);

/*
 * nl_parse() - fill @tb[0..@max] with the attributes of a genetlink
 * message, checking the type of each attribute that @policy names
 * (MNL_TYPE_UNSPEC accepts any type). Attributes above @max, which come
 * from a newer kernel, are ignored. It returns 0, or -EPROTO when an
 * attribute is malformed. nl_parse_nested() does the same for a nest.
 */
int nl_parse(const struct nlmsghdr *nlh, const enum mnl_attr_data_type *policy,
	     const struct nlattr **tb, unsigned int max);
int nl_parse_nested(const struct nlattr *nest,
		    const enum mnl_attr_data_type *policy,
		    const struct nlattr **tb, unsigned int max);

/*
 * Walk all attributes of a message. Use it for a multi-attr, of which
 * nl_parse() keeps only the last.
 */
#define nl_attr_for_each(attr, nlh) \
	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr))

#endif /* NTPROF_NL_H */
