// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the records-get reply's parser (session.c), on messages
 * built here the way the kernel builds them: compact records (struct
 * ntprof_crec, host byte order) back to back in NTPROF_A_RECORDS_DATA.
 * The caller gets the full records, in order, once each, in batches;
 * a malformed record ends the reply with EPROTO and a reason, and an
 * error of the caller's function ends it with its own.
 * Prints TAP; exits 1 if any test failed.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "genl/session.h"
#include "ntp/crec.h"
#include "tap.h"

/* More than two batches, so that the parser hands over three. */
#define NRECS	150

static _Alignas(8) char msg[2 * NRECS * NTPROF_CREC_MAX + 256];
static struct ntprof_record sent[NRECS];
/* The records in compact form, and where each starts. */
static uint8_t wire[NRECS * NTPROF_CREC_MAX];
static size_t at[NRECS + 1];

struct taken {
	struct ntprof_record got[NRECS];
	size_t n, calls;
	size_t crecs_off;	/* records whose compact bytes were not sent's */
	int fail_with;		/* returned by the first call, if not 0 */
};

static int take(const struct ntprof_record *recs, const void *const *crecs,
		size_t n, void *data)
{
	struct taken *t = data;
	size_t i, k;

	if (t->fail_with)
		return t->fail_with;
	if (t->n + n > NRECS)
		return -E2BIG;
	/* Each record's compact bytes, as the writer would take them. */
	for (i = 0; i < n; i++) {
		k = t->n + i;
		if (!crecs || memcmp(crecs[i], wire + at[k], at[k + 1] - at[k]))
			t->crecs_off++;
	}
	memcpy(&t->got[t->n], recs, n * sizeof(*recs));
	t->n += n;
	t->calls++;
	return 0;
}

/*
 * Kernel reads and writes of every shape the module sends: a host's of
 * nine points, a target's of seven, one point alone, none, an offset
 * beyond 2.1 s (WIDE), a point before t0 (an RDMA SEND completed after
 * the response), and a uprobe site's with its process's pid.
 */
static void make(struct ntprof_record *r, unsigned int i)
{
	static const unsigned int pts[] = { 0, 2, 3, 5, 6, 8, 9, 10, 11 };
	uint64_t t = 5000000000ULL + i * 1000ULL;
	unsigned int k;

	memset(r, 0, sizeof(*r));
	r->role = i % 2 ? NTPROF_ROLE_TARGET : NTPROF_ROLE_HOST;
	r->transport = NTPROF_TRANSPORT_TCP;
	r->opcode = i % 3 ? 2 : 1;
	r->flags = NTPROF_REC_F_SAMPLED;
	r->qid = 1 + i % 4;
	r->cid = i;
	r->nsid = 1;
	r->length = 4096;
	r->slba = 1000 + i;
	r->cpu_submit = i % 8;
	r->cpu_complete = (i + 1) % 8;
	r->dev = 259 << 8;
	switch (i % 6) {
	case 0:
		for (k = 0; k < 9; k++)
			r->ts[pts[k]] = t + k * 1500;
		break;
	case 1:
		r->ts[NTPROF_PT_TARGET_INIT] = t;
		break;
	case 2:
		break;
	case 3:
		r->ts[NTPROF_PT_HOST_SETUP] = t;
		r->ts[NTPROF_PT_HOST_BLK_COMPLETE] = t + 3000000000ULL;
		break;
	case 4:
		r->ts[NTPROF_PT_HOST_SETUP] = t;
		r->ts[NTPROF_PT_HOST_SEND] = t + 500;
		r->ts[NTPROF_PT_HOST_SEND_DONE] = t + 9000;
		r->ts[NTPROF_PT_HOST_RECV] = t + 8000;
		break;
	default:
		r->flags |= NTPROF_REC_F_USER;
		r->pid = 4242 + i;
		r->ts[NTPROF_PT_TARGET_INIT] = t;
		r->ts[NTPROF_PT_TARGET_EXEC] = t + 100;
		r->ts[NTPROF_PT_TARGET_COMPLETE] = t + 9000;
	}
}

/* A records message at @buf, the kernel's layout, of @n payloads. */
static struct nlmsghdr *message(char *buf, const void *const *payload,
				const size_t *len, int n)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	int i;

	mnl_nlmsg_put_extra_header(nlh, sizeof(struct genlmsghdr));
	for (i = 0; i < n; i++)
		mnl_attr_put(nlh, NTPROF_A_RECORDS_DATA, len[i], payload[i]);
	return nlh;
}

static int parse(struct nlmsghdr *nlh, struct taken *t,
		 struct session_records_ctx *ctx)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->fn = take;
	ctx->data = t;
	errno = 0;
	return session_records_reply(nlh, ctx);
}

static void t_whole(const char *name, char *buf, int attrs)
{
	static struct session_records_ctx ctx;
	static struct taken t;
	const void *pl[2] = { wire, wire + at[NRECS / 3] };
	size_t len[2] = { at[NRECS], at[NRECS] - at[NRECS / 3] };
	int ret;

	if (attrs == 2)
		len[0] = at[NRECS / 3];
	memset(&t, 0, sizeof(t));
	ret = parse(message(buf, pl, len, attrs), &t, &ctx);
	ok(ret == MNL_CB_OK && ctx.count == NRECS && t.n == NRECS,
	   "%s: all %d records, counted", name, NRECS);
	ok(!memcmp(t.got, sent, sizeof(sent)),
	   "%s: the same records, in order, every field", name);
	ok(!t.crecs_off, "%s: each with its compact bytes as sent", name);
	/* 150 records in one: 64 + 64 + 22; in two: 50, then 64 + 36. */
	ok(t.calls == 3,
	   "%s: in batches of %d, %zu calls", name, SESSION_RECORDS_BATCH,
	   t.calls);
}

/*
 * Record @bad of the payload spoilt by @spoil: EPROTO, a reason naming
 * @what, and the whole batches before it handed over.
 */
static void t_malformed(const char *name, unsigned int bad,
			void (*spoil)(uint8_t *rec, size_t *len),
			const char *what)
{
	static uint8_t copy[sizeof(wire)];
	static struct session_records_ctx ctx;
	static struct taken t;
	size_t len = at[NRECS];
	const void *pl = copy;
	int ret;

	memcpy(copy, wire, len);
	spoil(copy + at[bad], &len);
	memset(&t, 0, sizeof(t));
	ret = parse(message(msg, &pl, &len, 1), &t, &ctx);
	ok(ret == MNL_CB_ERROR && errno == EPROTO &&
	   t.n == bad / SESSION_RECORDS_BATCH * SESSION_RECORDS_BATCH &&
	   strstr(ctx.why, what),
	   "%s: EPROTO, %zu records before it taken (\"%s\")", name, t.n,
	   ctx.why);
}

static uint32_t points_at(const uint8_t *rec)
{
	uint32_t v;

	memcpy(&v, rec + 36, 4);
	return v;
}

static void set_points(uint8_t *rec, uint32_t v)
{
	memcpy(rec + 36, &v, 4);
}

/* The last record loses its last word: it runs past the payload. */
static void cut_last(uint8_t *rec, size_t *len)
{
	(void)rec;
	*len -= 4;
}

/* A bit between the points and WIDE: a newer module's, or garbage. */
static void unknown_bit(uint8_t *rec, size_t *len)
{
	(void)len;
	set_points(rec, points_at(rec) | 1U << 27);
}

/* t0 0, with points: the first point "not seen" yet present. */
static void t0_zero(uint8_t *rec, size_t *len)
{
	(void)len;
	memset(rec + 40, 0, 8);
}

/* An offset that takes a point below time 0. */
static void wraps(uint8_t *rec, size_t *len)
{
	int32_t off = INT32_MIN;
	uint64_t t0 = 1;

	(void)len;
	memcpy(rec + 48, &off, 4);
	memcpy(rec + 40, &t0, 8);
}

/* WIDE set on a narrow record: it claims more bytes than it has. */
static void wide_claimed(uint8_t *rec, size_t *len)
{
	(void)len;
	set_points(rec, points_at(rec) | NTPROF_CREC_WIDE);
}

static void t_sizes(void)
{
	ok(at[1] == 80 && at[2] - at[1] == 48 && at[3] - at[2] == 48 &&
	   at[4] - at[3] == 56 && at[5] - at[4] == 60 && at[6] - at[5] == 60,
	   "compact sizes: 80 nine points, 48 one or none, 56 two WIDE, 60 four, 60 three and a pid");
}

static void t_wholes(void)
{
	t_whole("one attribute", msg, 1);
	t_whole("one attribute, 4 bytes further", msg + 4, 1);
	t_whole("two attributes, split at a record", msg, 2);
}

static void t_malformeds(void)
{
	t_malformed("a record cut at the payload's end", NRECS - 1, cut_last,
		    "past the");
	t_malformed("a points word with an unknown bit", 100, unknown_bit,
		    "unknown bits");
	t_malformed("points without t0", 70, t0_zero, "at time 0");
	t_malformed("an offset below time 0", 12, wraps, "wraps around");
	t_malformed("WIDE on a record without room for it", NRECS - 1,
		    wide_claimed, "past the");
}

static void t_errors(void)
{
	static struct session_records_ctx ctx;
	static struct taken t;
	const void *pl = wire;
	size_t len;
	int ret;

	memset(&t, 0, sizeof(t));
	len = 47;
	ret = parse(message(msg, &pl, &len, 1), &t, &ctx);
	ok(ret == MNL_CB_ERROR && errno == EPROTO && !t.n &&
	   strstr(ctx.why, "malformed record 0 from the module"),
	   "a payload shorter than a record: EPROTO, nothing taken (\"%s\")",
	   ctx.why);

	memset(&t, 0, sizeof(t));
	t.fail_with = -ENOSPC;
	len = at[NRECS];
	ret = parse(message(msg + 4, &pl, &len, 1), &t, &ctx);
	ok(ret == MNL_CB_ERROR && errno == ENOSPC && !t.calls,
	   "the function's error ends the reply, with its errno");
}

static const struct tap_case cases[] = {
	{ "sizes", t_sizes },
	{ "whole", t_wholes },
	{ "malformed", t_malformeds },
	{ "errors", t_errors },
};

int main(int argc, char *argv[])
{
	unsigned int i;

	if (tap_args(argc, argv, cases, TAP_NR_CASES(cases)) != argc)
		tap_usage("test_records");
	/* The records every case reads, encoded as the module would. */
	for (i = 0; i < NRECS; i++) {
		make(&sent[i], i);
		at[i + 1] = at[i] + crec_encode(wire + at[i], &sent[i],
						CREC_HOST);
	}
	printf("TAP version 13\n");
	tap_run(cases, TAP_NR_CASES(cases));
	return tap_done("test_records");
}
