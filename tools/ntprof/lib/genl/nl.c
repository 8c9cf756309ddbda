// SPDX-License-Identifier: GPL-2.0
/*
 * The generic-netlink layer: a socket bound to one family, requests that
 * wait for their ACK or for the end of their dump, and errors that carry
 * the kernel's own explanation (extended ACK).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "genl/nl.h"

struct nl_sock {
	struct mnl_socket *mnl;
	uint32_t portid;
	uint32_t seq;
	uint16_t family;
	uint8_t version;		/* sent in requests */
	uint32_t family_version;	/* advertised by the kernel */
	char extack[256];
	size_t recv_size;		/* of each receive: see NL_QUIET_SIZE */
	/* Aligned for the message headers libmnl reads in place. */
	_Alignas(8) char buf[NL_MSG_SIZE];
};

/* What one request's receive loop needs in the libmnl callbacks. */
struct nl_ctx {
	struct nl_sock *sock;
	mnl_cb_t reply;
	void *data;
	int err;
};

int nl_open(struct nl_sock **sockp)
{
	return nl_open_sized(sockp, NL_MSG_SIZE);
}

/*
 * nl_setup() - set the options of @sock->mnl, bind it unless @bound, and
 * note its port id.
 */
static int nl_setup(struct nl_sock *sock, bool bound)
{
	int one = 1;

	/*
	 * Ask for the kernel's error strings, and for ACKs without a copy of
	 * our request: they would only cost receive buffer.
	 */
	if (mnl_socket_setsockopt(sock->mnl, NETLINK_EXT_ACK, &one,
				  sizeof(one)) < 0 ||
	    mnl_socket_setsockopt(sock->mnl, NETLINK_CAP_ACK, &one,
				  sizeof(one)) < 0 ||
	    (!bound && mnl_socket_bind(sock->mnl, 0, MNL_SOCKET_AUTOPID) < 0))
		return -errno;
	sock->portid = mnl_socket_get_portid(sock->mnl);
	/* Replies to an earlier process on a reused port id won't match. */
	sock->seq = (uint32_t)time(NULL) ^ ((uint32_t)getpid() << 16);
	return 0;
}

/*
 * nl_wrap() - wrap @mnl in a struct nl_sock and set it up; @mnl is closed on
 * failure.
 */
static int nl_wrap(struct mnl_socket *mnl, size_t recv_size, bool bound,
		   struct nl_sock **sockp)
{
	struct nl_sock *sock;
	int err;

	if (!mnl)
		return -errno;
	sock = calloc(1, sizeof(*sock));
	if (!sock) {
		mnl_socket_close(mnl);
		return -ENOMEM;
	}
	sock->mnl = mnl;
	sock->recv_size = recv_size;
	err = nl_setup(sock, bound);
	if (err) {
		nl_close(sock);
		return err;
	}
	*sockp = sock;
	return 0;
}

int nl_open_sized(struct nl_sock **sockp, size_t recv_size)
{
	if (!recv_size || recv_size > NL_MSG_SIZE)
		return -EINVAL;
	return nl_wrap(mnl_socket_open(NETLINK_GENERIC), recv_size, false,
		       sockp);
}

int nl_open_fd(struct nl_sock **sockp, int fd)
{
	struct mnl_socket *mnl = mnl_socket_fdopen(fd);
	int err = -errno;

	if (!mnl) {
		close(fd);
		return err;
	}
	return nl_wrap(mnl, NL_MSG_SIZE, true, sockp);
}

void nl_close(struct nl_sock *sock)
{
	if (!sock)
		return;
	if (sock->mnl)
		mnl_socket_close(sock->mnl);
	free(sock);
}

uint32_t nl_portid(const struct nl_sock *sock)
{
	return sock->portid;
}

uint32_t nl_family_version(const struct nl_sock *sock)
{
	return sock->family_version;
}

uint16_t nl_family_id(const struct nl_sock *sock)
{
	return sock->family;
}

const char *nl_extack(const struct nl_sock *sock)
{
	return sock->extack;
}

void nl_note(struct nl_sock *sock, const char *reason)
{
	snprintf(sock->extack, sizeof(sock->extack), "%s", reason);
}

void nl_perror(const struct nl_sock *sock, const char *what, int err)
{
	const char *msg = sock ? sock->extack : "";
	const char *sep = *msg ? ": " : "";

	/*
	 * Without a reason, the kernel's generic check refused a user
	 * without the capabilities; with one, the module says what is
	 * missing, which may be no privilege (a locked-down kernel).
	 */
	if ((err == -EPERM || err == -EACCES) && !*msg)
		fprintf(stderr, "ntprof: %s: permission denied (run as root)\n",
			what);
	else if (err == -EPERM || err == -EACCES)
		fprintf(stderr, "ntprof: %s: permission denied: %s\n", what, msg);
	else
		fprintf(stderr, "ntprof: %s: %s%s%s\n",
			what, strerror(-err), sep, msg);
}

struct nl_parse_ctx {
	const enum mnl_attr_data_type *policy;
	const struct nlattr **tb;
	unsigned int max;
};

static int nl_parse_attr(const struct nlattr *attr, void *arg)
{
	struct nl_parse_ctx *ctx = arg;
	unsigned int type = mnl_attr_get_type(attr);

	if (type > ctx->max)
		return MNL_CB_OK;
	if (ctx->policy && ctx->policy[type] != MNL_TYPE_UNSPEC &&
	    mnl_attr_validate(attr, ctx->policy[type]) < 0) {
		errno = EPROTO;
		return MNL_CB_ERROR;
	}
	ctx->tb[type] = attr;
	return MNL_CB_OK;
}

int nl_parse(const struct nlmsghdr *nlh, const enum mnl_attr_data_type *policy,
	     const struct nlattr **tb, unsigned int max)
{
	struct nl_parse_ctx ctx = { .policy = policy, .tb = tb, .max = max };

	memset(tb, 0, (max + 1) * sizeof(*tb));
	if (mnl_attr_parse(nlh, sizeof(struct genlmsghdr), nl_parse_attr,
			   &ctx) < 0)
		return -EPROTO;
	return 0;
}

int nl_parse_nested(const struct nlattr *nest,
		    const enum mnl_attr_data_type *policy,
		    const struct nlattr **tb, unsigned int max)
{
	struct nl_parse_ctx ctx = { .policy = policy, .tb = tb, .max = max };

	memset(tb, 0, (max + 1) * sizeof(*tb));
	if (mnl_attr_parse_nested(nest, nl_parse_attr, &ctx) < 0)
		return -EPROTO;
	return 0;
}

static int nl_extack_attr(const struct nlattr *attr, void *arg)
{
	const struct nlattr **tb = arg;
	unsigned int type = mnl_attr_get_type(attr);

	if (type <= NLMSGERR_ATTR_MAX)
		tb[type] = attr;
	return MNL_CB_OK;
}

/*
 * nl_extack_parse() - keep the explanation that the kernel put after an
 * error or a DONE.
 */
static void nl_extack_parse(struct nl_sock *sock, const struct nlmsghdr *nlh,
			    unsigned int offset)
{
	const struct nlattr *tb[NLMSGERR_ATTR_MAX + 1] = { NULL };

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) ||
	    offset > mnl_nlmsg_get_payload_len(nlh))
		return;
	/* A malformed TLV only costs us the explanation, not the errno. */
	mnl_attr_parse(nlh, offset, nl_extack_attr, tb);

	if (tb[NLMSGERR_ATTR_MSG] &&
	    mnl_attr_validate(tb[NLMSGERR_ATTR_MSG], MNL_TYPE_NUL_STRING) == 0)
		snprintf(sock->extack, sizeof(sock->extack), "%s",
			 mnl_attr_get_str(tb[NLMSGERR_ATTR_MSG]));
	else if (tb[NLMSGERR_ATTR_MISS_TYPE] &&
		 mnl_attr_validate(tb[NLMSGERR_ATTR_MISS_TYPE],
				   MNL_TYPE_U32) == 0)
		/* GENL_REQ_ATTR_CHECK() names the attribute but says nothing. */
		snprintf(sock->extack, sizeof(sock->extack),
			 "missing attribute %u",
			 mnl_attr_get_u32(tb[NLMSGERR_ATTR_MISS_TYPE]));
}

static int nl_error_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct nl_ctx *ctx = arg;
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	unsigned int offset = sizeof(*e);

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*e)) {
		ctx->err = -EBADMSG;
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	/* Without NETLINK_CAP_ACK honoured, our request sits before the TLVs. */
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		offset += e->msg.nlmsg_len - sizeof(e->msg);
	nl_extack_parse(ctx->sock, nlh, offset);

	if (e->error == 0)
		return MNL_CB_STOP;
	/* Some subsystems send a positive errno. */
	ctx->err = e->error < 0 ? e->error : -e->error;
	errno = -ctx->err;
	return MNL_CB_ERROR;
}

static int nl_done_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct nl_ctx *ctx = arg;
	int error;

	/* A dump that failed part-way says why in its DONE message. */
	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(error))
		return MNL_CB_STOP;
	memcpy(&error, mnl_nlmsg_get_payload(nlh), sizeof(error));
	nl_extack_parse(ctx->sock, nlh, sizeof(error));
	if (error >= 0)
		return MNL_CB_STOP;
	ctx->err = error;
	errno = -error;
	return MNL_CB_ERROR;
}

static int nl_data_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct nl_ctx *ctx = arg;
	int ret;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(struct genlmsghdr)) {
		ctx->err = -EBADMSG;
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	if (!ctx->reply)
		return MNL_CB_OK;
	errno = 0;
	ret = ctx->reply(nlh, ctx->data);
	if (ret == MNL_CB_ERROR)
		ctx->err = errno > 0 ? -errno : -EIO;
	return ret;
}

/* Not const: mnl_cb_run2() takes a plain pointer. */
static mnl_cb_t nl_ctl_cb[NLMSG_MIN_TYPE] = {
	[NLMSG_ERROR] = nl_error_cb,
	[NLMSG_DONE] = nl_done_cb,
};

/*
 * nl_has_end() - tell whether @buf holds the ACK, error or DONE that ends
 * request @seq.
 */
static bool nl_has_end(const void *buf, size_t len, uint32_t seq)
{
	const struct nlmsghdr *nlh = buf;
	int left = len;

	for (; mnl_nlmsg_ok(nlh, left); nlh = mnl_nlmsg_next(nlh, &left))
		if (nlh->nlmsg_seq == seq &&
		    (nlh->nlmsg_type == NLMSG_ERROR ||
		     nlh->nlmsg_type == NLMSG_DONE))
			return true;
	return false;
}

/*
 * nl_drain() - after the caller stopped early, read what the kernel still
 * sends for request @seq (the ACK, the rest of a dump), so that the next
 * request starts clean.
 */
static void nl_drain(struct nl_sock *sock, size_t len, uint32_t seq)
{
	ssize_t n = len;

	while (!nl_has_end(sock->buf, n, seq)) {
		n = mnl_socket_recvfrom(sock->mnl, sock->buf,
					sock->recv_size);
		if (n <= 0)
			return;
	}
}

static int nl_transact(struct nl_sock *sock, uint16_t family,
		       uint8_t version, uint8_t cmd, uint16_t flags,
		       nl_put_cb put, mnl_cb_t reply, void *data)
{
	struct nl_ctx ctx = { .sock = sock, .reply = reply, .data = data };
	struct genlmsghdr *genl;
	struct nlmsghdr *nlh;
	uint32_t seq;
	ssize_t n;
	int ret;

	sock->extack[0] = '\0';
	nlh = mnl_nlmsg_put_header(sock->buf);
	nlh->nlmsg_type = family;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	/* A dump always ends with NLMSG_DONE; an ACK is never sent for it. */
	if (!(flags & NLM_F_DUMP))
		nlh->nlmsg_flags |= NLM_F_ACK;
	seq = ++sock->seq;
	nlh->nlmsg_seq = seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = version;
	if (put) {
		ret = put(nlh, data);
		if (ret)
			return ret;
	}

	if (mnl_socket_sendto(sock->mnl, nlh, nlh->nlmsg_len) < 0)
		return -errno;

	do {
		n = mnl_socket_recvfrom(sock->mnl, sock->buf,
					sock->recv_size);
		if (n < 0)
			return -errno;
		/* NLM_F_DUMP_INTR makes libmnl fail with EINTR. */
		ret = mnl_cb_run2(sock->buf, n, seq, sock->portid,
				  nl_data_cb, &ctx, nl_ctl_cb,
				  MNL_ARRAY_SIZE(nl_ctl_cb));
	} while (ret == MNL_CB_OK);

	if (ret == MNL_CB_ERROR && !ctx.err)
		ctx.err = errno > 0 ? -errno : -EIO;
	nl_drain(sock, n, seq);
	return ctx.err;
}

int nl_request(struct nl_sock *sock, uint8_t cmd, uint16_t flags,
	       nl_put_cb put, mnl_cb_t reply, void *data)
{
	if (!sock->family)
		return -EBADF;
	return nl_transact(sock, sock->family, sock->version, cmd, flags,
			   put, reply, data);
}

/* A family lookup's name going out and socket being filled in. */
struct nl_family_req {
	struct nl_sock *sock;
	const char *name;
};

static int nl_put_family_name(struct nlmsghdr *nlh, void *data)
{
	struct nl_family_req *req = data;

	if (!mnl_attr_put_strz_check(nlh, NL_MSG_SIZE, CTRL_ATTR_FAMILY_NAME,
				     req->name))
		return -EMSGSIZE;
	return 0;
}

static int nl_family_reply(const struct nlmsghdr *nlh, void *data)
{
	static const enum mnl_attr_data_type policy[CTRL_ATTR_VERSION + 1] = {
		[CTRL_ATTR_FAMILY_ID] = MNL_TYPE_U16,
		[CTRL_ATTR_VERSION] = MNL_TYPE_U32,
	};
	const struct nlattr *tb[CTRL_ATTR_VERSION + 1];
	struct nl_family_req *req = data;
	int err;

	err = nl_parse(nlh, policy, tb, CTRL_ATTR_VERSION);
	if (!err && !tb[CTRL_ATTR_FAMILY_ID])
		err = -EPROTO;
	if (err) {
		errno = -err;
		return MNL_CB_ERROR;
	}
	req->sock->family = mnl_attr_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	req->sock->family_version = tb[CTRL_ATTR_VERSION] ?
				    mnl_attr_get_u32(tb[CTRL_ATTR_VERSION]) : 0;
	return MNL_CB_OK;
}

int nl_family_resolve(struct nl_sock *sock, const char *name, uint8_t version)
{
	struct nl_family_req req = { .sock = sock, .name = name };
	int err;

	sock->family = 0;
	/* nlctrl does not check the version; send the one it advertises. */
	err = nl_transact(sock, GENL_ID_CTRL, 2, CTRL_CMD_GETFAMILY, 0,
			  nl_put_family_name, nl_family_reply, &req);
	if (err)
		return err;
	/* An ACK without a reply would leave us without a family. */
	if (!sock->family)
		return -EPROTO;
	sock->version = version;
	return 0;
}
