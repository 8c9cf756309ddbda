// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the records-get reply's parser (session.c), on messages
 * built here the way the kernel builds them: where the payload is
 * 8-aligned the records are handed over where they lie, elsewhere they
 * are copied out in batches first; either way the caller gets the same
 * records, in order, once each. A payload that is not whole records is
 * refused, and an error of the caller's function ends the reply.
 * Prints TAP; exits 1 if any test failed.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "genl/session.h"
#include "tap.h"

/* More than two batches, so that the copying path takes three. */
#define NRECS	150

static _Alignas(8) char msg[NRECS * sizeof(struct ntprof_record) + 256];
static struct ntprof_record sent[NRECS];

struct taken {
	const char *msg_start, *msg_end;
	struct ntprof_record got[NRECS];
	size_t n, calls;
	bool in_place;
	int fail_with;		/* returned by the first call, if not 0 */
};

static int take(const struct ntprof_record *recs, size_t n, void *data)
{
	struct taken *t = data;

	if (t->fail_with)
		return t->fail_with;
	if (t->n + n > NRECS)
		return -E2BIG;
	if ((const char *)recs >= t->msg_start &&
	    (const char *)recs < t->msg_end)
		t->in_place = true;
	memcpy(&t->got[t->n], recs, n * sizeof(*recs));
	t->n += n;
	t->calls++;
	return 0;
}

/* A records message at @at, the kernel's layout: header, genl, attribute. */
static struct nlmsghdr *message(char *at, size_t len)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(at);

	mnl_nlmsg_put_extra_header(nlh, sizeof(struct genlmsghdr));
	mnl_attr_put(nlh, NTPROF_A_RECORDS_DATA, len, sent);
	return nlh;
}

static int parse(struct nlmsghdr *nlh, struct taken *t,
		 struct session_records_ctx *ctx)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->fn = take;
	ctx->data = t;
	t->msg_start = (const char *)nlh;
	t->msg_end = (const char *)nlh + nlh->nlmsg_len;
	errno = 0;
	return session_records_reply(nlh, ctx);
}

static void t_layout(const char *name, size_t offset, bool in_place,
		     size_t calls)
{
	static struct session_records_ctx ctx;
	static struct taken t;
	struct nlmsghdr *nlh;
	int ret;

	memset(&t, 0, sizeof(t));
	nlh = message(msg + offset, sizeof(sent));
	ret = parse(nlh, &t, &ctx);
	ok(ret == MNL_CB_OK && ctx.count == NRECS && t.n == NRECS,
	   "%s: all %d records, counted", name, NRECS);
	ok(!memcmp(t.got, sent, sizeof(sent)),
	   "%s: the same records, in order", name);
	ok(t.in_place == in_place && t.calls == calls,
	   "%s: %s, in %zu call%s", name,
	   in_place ? "where they lie" : "copied out", t.calls,
	   t.calls == 1 ? "" : "s");
}

int main(void)
{
	static struct session_records_ctx ctx;
	static struct taken t;
	struct nlmsghdr *nlh;
	unsigned int i;
	int ret;

	for (i = 0; i < NRECS; i++) {
		sent[i].role = NTPROF_ROLE_HOST;
		sent[i].cid = i;
		sent[i].slba = 1000 + i;
		sent[i].ts[NTPROF_PT_HOST_BLK_START] = 5000000 + i;
	}

	/* The payload is 24 bytes into the message. */
	t_layout("8-aligned payload", 0, true, 1);
	t_layout("4-aligned payload", 4, false,
		 (NRECS + SESSION_RECORDS_BATCH - 1) / SESSION_RECORDS_BATCH);

	memset(&t, 0, sizeof(t));
	nlh = message(msg, sizeof(sent) - 8);
	ret = parse(nlh, &t, &ctx);
	ok(ret == MNL_CB_ERROR && errno == EPROTO && !t.n,
	   "a payload of part of a record: EPROTO, nothing taken");

	memset(&t, 0, sizeof(t));
	t.fail_with = -ENOSPC;
	nlh = message(msg + 4, sizeof(sent));
	ret = parse(nlh, &t, &ctx);
	ok(ret == MNL_CB_ERROR && errno == ENOSPC && !t.calls,
	   "the function's error ends the reply, with its errno");

	return tap_done("test_records");
}
