// SPDX-License-Identifier: GPL-2.0
/*
 * nlfuzz: a fuzzer of a generic-netlink family, the shapes of whose
 * messages come from its YAML spec (nlfuzz_spec.c), so that it follows
 * the family as it grows.
 *
 *   nlfuzz SPEC.yaml COUNT SEED SCRATCH_FILE
 *   nlfuzz --check SPEC.yaml     (print the shapes, check the ids against
 *                                 include/uapi/linux/ntprof.h; no kernel)
 *
 * It resolves the spec's family with nlctrl, then sends COUNT messages:
 * well-formed requests of each command with random values (of their enums,
 * within their checks; two in five with valid values only, every
 * attribute whose doc says "required" and every flags one); the same with
 * mutated attributes (wrong lengths, oversized, duplicated, nests where
 * none belong, garbage in nests, flag bits, nla_len too short, too long
 * or below a header, empty, deeply nested, left out; attributes of unknown
 * ids and of other sets); bad headers (unknown commands 0, MAX+1, 255;
 * nlmsg_len too short or too long; genl version and reserved; short
 * messages; NLM_F_DUMP on a do-only command and none on a dump-only one;
 * random flags; control types; byte flips; two messages in one datagram);
 * and dumps abandoned half-way (a socket closed after reading one reply
 * or none). Three times it forks 4 children that race start, stop,
 * probe-get and records-get on sockets of their own; outside them stops
 * are rare (STOP_RARITY). At the end it stops every session (stop without
 * a role), prints its counts by the class of the kernel's answers, and on
 * stderr the time each command took outside the races.
 *
 * Safety: a usite's path names a file to put uprobes in. Every path the
 * kernel could see, after all mutations, found as the kernel parses
 * (spec_sanitize()), is SCRATCH_FILE, under /nonexistent-nlfuzz/, or
 * relative (the first byte of any other is made 'x'). SCRATCH_FILE must be
 * a regular file of one link and no execute bit, which nobody runs. A
 * layout's offsets are where the hooks read the kernel's structs, and a
 * start applies them even when it fails later: every layout field is made
 * one of the other role's (or out of range), which the module refuses.
 * No message goes to another family.
 *
 * Replies are read without blocking: the kernel answers a request, and
 * each further part of a dump, before the call that asked returns. Errors
 * from the kernel are expected; nlfuzz fails (exit 1) only when it cannot
 * work: spec unreadable, family missing, socket errors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <libmnl/libmnl.h>

#include "nlfuzz.h"

#define BUF_MAX		(96 * 1024)
/* Without NETLINK_CAP_ACK, an error's ack holds the request whole. */
#define RCV_MAX		(BUF_MAX + 4096)
#define RACE_CHILDREN	4
#define RACE_PHASES	3
#define RACE_ITERS	40	/* per child and phase */
#define RACE_SECONDS	20
/*
 * A stop that works costs the hooks' detach, and the starts after it
 * their attach (a second each under the lab's TCG): outside the races, a
 * stop is picked one time in STOP_RARITY of any other op. The sessions
 * that run meanwhile make starts EBUSY, once fully parsed.
 */
#define STOP_RARITY	300

struct counts {
	uint64_t sent, send_err, none, reply_only, replies;
	uint64_t abandoned, race;
	uint64_t res[256];	/* 0: ok, else the errno */
	uint64_t n[256], ns[256];	/* by command: messages, time (no race's) */
};

struct msg {
	size_t len;
	uint8_t b[BUF_MAX];
};

static struct spec S;
static const char *scratch;
static uint64_t scratch_size;
static uint16_t family;
static uint8_t fversion;
static uint64_t rs;
static struct counts C;
static struct msg M, M2;
static int valid;	/* this message: required attributes, valid values */
static int stop_op = -1;
static long race_secs;

uint64_t rnd64(void)
{
	rs ^= rs >> 12;
	rs ^= rs << 25;
	rs ^= rs >> 27;
	return rs * 2685821657736338717ULL;
}

unsigned int rnd(unsigned int n)
{
	return n ? rnd64() % n : 0;
}

int chance(unsigned int pct)
{
	return rnd(100) < pct;
}

static void die(const char *what)
{
	fprintf(stderr, "nlfuzz: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* An attribute at the end of @m, @len bytes of @data or random ones. */
static struct nlattr *put(struct msg *m, uint16_t type, const void *data,
			  size_t len)
{
	struct nlattr *a = (void *)(m->b + m->len);
	size_t tot = NLA_ALIGN(NLA_HDRLEN + len), i;
	uint8_t *d = (uint8_t *)a + NLA_HDRLEN;

	if (len > 0xffff - NLA_HDRLEN || m->len + tot > BUF_MAX)
		return NULL;
	a->nla_len = NLA_HDRLEN + len;
	a->nla_type = type;
	if (data) {
		memcpy(d, data, len);
	} else {
		for (i = 0; i + 8 <= len; i += 8) {
			uint64_t x = rnd64();

			memcpy(d + i, &x, 8);
		}
		for (; i < len; i++)
			d[i] = rnd64() >> 56;
	}
	memset(d + len, 0, tot - NLA_HDRLEN - len);
	m->len += tot;
	return a;
}

static size_t nest_begin(struct msg *m, uint16_t type)
{
	size_t off = m->len;

	return put(m, type | NLA_F_NESTED, NULL, 0) ? off : SIZE_MAX;
}

static void nest_end(struct msg *m, size_t off)
{
	size_t len = m->len - off;

	if (off != SIZE_MAX)
		((struct nlattr *)(m->b + off))->nla_len = len > 0xffff ? 0xffff : len;
}

static const uint8_t width_of[] = {
	[FT_U8] = 1, [FT_S8] = 1, [FT_U16] = 2, [FT_S16] = 2,
	[FT_U32] = 4, [FT_S32] = 4, [FT_U64] = 8, [FT_S64] = 8, [FT_FLAG] = 0,
};

static void gen_set(struct msg *m, int set, const int *list, unsigned int n,
		    int depth, unsigned int mut);
static void mutate_attr(struct msg *m, const struct fattr *a, int depth);

static void gen_attr(struct msg *m, const struct fattr *a, int depth,
		     unsigned int mut)
{
	static char sbuf[8192];
	unsigned int w = width_of[a->type];
	uint8_t v[8];
	uint64_t x;
	size_t off;

	if (mut && chance(mut)) {
		mutate_attr(m, a, depth);
		return;
	}
	if (w) {
		x = spec_value(&S, a, w, scratch_size, valid);
		memcpy(v, &x, w);	/* little-endian hosts: the low bytes */
		put(m, a->id, v, w);
	} else if (a->type == FT_STRING) {
		put(m, a->id, sbuf, spec_string(a, scratch, sbuf, sizeof(sbuf), valid));
	} else if (a->type == FT_NEST) {
		off = nest_begin(m, a->id);
		if (depth < 8)
			gen_set(m, a->nest, NULL, 0, depth + 1, mut);
		nest_end(m, off);
	} else if (a->type == FT_FLAG) {
		put(m, a->id, NULL, 0);
	} else if (a->type != FT_PAD || mut) {
		put(m, a->id, NULL, rnd(a->type == FT_PAD ? 9 : 65));
	}
}

/* An attribute of an unknown id (max + 1, 0, any), or of another set. */
static void gen_extra(struct msg *m, int set, int depth)
{
	const struct fset *o = &S.sets[rnd(S.nsets)];
	unsigned int r = rnd(4);

	if (r < 2 || !o->n)
		put(m, r ? rnd(NLA_TYPE_MASK + 1) * chance(50) :
		    (set >= 0 ? S.sets[set].max_id : 0) + 1 + rnd(3), NULL, rnd(12));
	else
		gen_attr(m, &o->a[rnd(o->n)], depth, 0);
}

static void gen_set(struct msg *m, int set, const int *list, unsigned int n,
		    int depth, unsigned int mut)
{
	const struct fset *fs = set >= 0 ? &S.sets[set] : NULL;
	unsigned int i, reps;

	if (!list)
		n = fs ? fs->n : 0;
	for (i = 0; i < n; i++) {
		const struct fattr *a = &fs->a[list ? list[i] : (int)i];

		if (!chance(valid ? (a->required || a->as_flags ? 100 : 25) :
			    depth ? 80 : 75))
			continue;
		reps = !a->multi ? 1 : valid ? 1 + rnd(2) :
		       chance(8) ? 10 + rnd(12) : 1 + rnd(3);
		while (reps--)
			gen_attr(m, a, depth, mut);
	}
	if (mut && chance(mut))
		gen_extra(m, set, depth);
}

static void mutate_attr(struct msg *m, const struct fattr *a, int depth)
{
	uint16_t nested = a->type == FT_NEST ? NLA_F_NESTED : 0;
	struct nlattr *at = (void *)(m->b + m->len);
	size_t offs[64], room, off;
	unsigned int n, i;

	switch (rnd(11)) {
	case 0:		/* a wrong length */
		put(m, a->id | nested, NULL, rnd(10));
		break;
	case 1:		/* oversized */
		room = BUF_MAX - m->len - 2 * NLA_HDRLEN;
		n = 256 + rnd(65000);
		put(m, a->id | nested, NULL, n < room ? n : room);
		break;
	case 2:		/* duplicated */
		for (n = 2 + rnd(3); n--; )
			gen_attr(m, a, depth, 0);
		break;
	case 3:		/* garbage in a nest, a nest where none belongs */
		if (nested) {
			put(m, a->id | nested, NULL, 4 + rnd(60));
		} else {
			off = nest_begin(m, a->id);
			gen_set(m, rnd(S.nsets), NULL, 0, depth + 1, 0);
			nest_end(m, off);
		}
		break;
	case 4:		/* flag bits */
		gen_attr(m, a, depth, 0);
		if ((uint8_t *)at < m->b + m->len)
			at->nla_type ^= chance(50) ? NLA_F_NESTED : NLA_F_NET_BYTEORDER;
		break;
	case 5:		/* nla_len short: the rest parsed as attributes */
		gen_attr(m, a, depth, 0);
		if ((uint8_t *)at < m->b + m->len && at->nla_len > NLA_HDRLEN)
			at->nla_len = NLA_HDRLEN + rnd(at->nla_len - NLA_HDRLEN);
		break;
	case 6:		/* nla_len past its end, or below a header */
	case 7:
		gen_attr(m, a, depth, 0);
		if ((uint8_t *)at < m->b + m->len)
			at->nla_len = chance(50) ? at->nla_len + 1 + rnd(0xffff - at->nla_len) :
				      rnd(NLA_HDRLEN);
		break;
	case 8:		/* empty */
		put(m, a->id | nested, NULL, 0);
		break;
	case 9:		/* deeply nested */
		n = 8 + rnd(56);
		for (i = 0; i < n; i++)
			offs[i] = nest_begin(m, chance(80) ? a->id : rnd(32));
		gen_attr(m, a, depth, 0);
		while (n--)
			nest_end(m, offs[n]);
		break;
	default:	/* left out */
		break;
	}
}

static void msg_begin(struct msg *m, uint16_t flags, uint8_t cmd)
{
	struct nlmsghdr *nlh = (void *)m->b;
	struct genlmsghdr *g = (void *)(m->b + NLMSG_HDRLEN);
	static uint32_t seq;

	memset(m->b, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	nlh->nlmsg_type = family;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++seq;
	g->cmd = cmd;
	g->version = fversion;
	m->len = NLMSG_HDRLEN + GENL_HDRLEN;
}

static void msg_end(struct msg *m)
{
	((struct nlmsghdr *)m->b)->nlmsg_len = m->len;
}

/* Op @opi's request, its dump if @dump; attributes mutated at @mut %. */
static void build_op(struct msg *m, int opi, int dump, unsigned int mut)
{
	const struct fop *op = &S.ops[opi];

	msg_begin(m, NLM_F_ACK | (dump ? NLM_F_DUMP : 0), op->id);
	gen_set(m, op->set, op->req[dump], op->nreq[dump], 0, mut);
	msg_end(m);
}

static int pick_op(void)
{
	int e;

	do
		e = rnd(S.nops);
	while (e == stop_op && rnd(STOP_RARITY));
	return e;
}

static int pick_mode(int opi)
{
	const struct fop *op = &S.ops[opi];

	return op->has[0] && op->has[1] ? (int)rnd(2) : op->has[1];
}

static void build_raw(struct msg *m)
{
	struct nlmsghdr *nlh = (void *)m->b;
	struct genlmsghdr *g = (void *)(m->b + NLMSG_HDRLEN);
	int opi = pick_op();
	unsigned int n;
	size_t at;

	build_op(m, opi, pick_mode(opi), chance(30) ? 20 : 0);
	switch (rnd(11)) {
	case 0:		/* unknown commands */
		n = rnd(4);
		g->cmd = n == 0 ? 0 : n == 1 ? S.max_cmd + 1 : n == 2 ? 255 :
			 S.max_cmd + 1 + rnd(255 - S.max_cmd);
		break;
	case 1:
		g->version = fversion + 1 + rnd(255);
		break;
	case 2:
		g->reserved = 1 + rnd(0xffff);
		break;
	case 3:		/* NLM_F_DUMP on a do, none on a dump */
		nlh->nlmsg_flags ^= NLM_F_DUMP;
		break;
	case 4:		/* nlmsg_len short: the rest is another message */
		nlh->nlmsg_len = rnd(m->len);
		break;
	case 5:
		nlh->nlmsg_len = m->len + 1 + rnd(4096);
		break;
	case 6:		/* short messages */
		m->len = rnd(NLMSG_HDRLEN + GENL_HDRLEN + 1);
		if (chance(50))
			nlh->nlmsg_len = m->len;
		break;
	case 7:
		nlh->nlmsg_flags = rnd(0x10000);
		break;
	case 8:		/* control types: never another family */
		nlh->nlmsg_type = 1 + rnd(NLMSG_MIN_TYPE - 1);
		break;
	case 9:		/* flipped bits past the netlink header */
		for (n = 1 + rnd(8); n--; )
			m->b[NLMSG_HDRLEN + rnd(m->len - NLMSG_HDRLEN)] ^= 1 << rnd(8);
		break;
	default:	/* two messages in one datagram */
		at = NLMSG_ALIGN(m->len);
		opi = pick_op();
		build_op(&M2, opi, pick_mode(opi), 30);
		if (at + M2.len <= BUF_MAX) {
			memset(m->b + m->len, 0, at - m->len);
			memcpy(m->b + at, M2.b, M2.len);
			m->len = at + M2.len;
		}
	}
}

static int sk_open(int ext_ack, int cap_ack)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct timeval tv = { .tv_sec = 20 };
	int fd, size = 1 << 20;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0)
		die("socket");
	if (setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &ext_ack, sizeof(int)) ||
	    setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &cap_ack, sizeof(int)) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size)) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa)))
		die("netlink socket setup");
	return fd;
}

static ssize_t send_to_kernel(int fd, const void *b, size_t len)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };

	return sendto(fd, b, len, 0, (struct sockaddr *)&sa, sizeof(sa));
}

/*
 * Send, then read what the kernel queued, counted by the class of its
 * answer: the first error or done's errno, 0 for ok, or -1. With @wait,
 * until an answer came (SO_RCVTIMEO), not only what was queued.
 */
static int xfer(int fd, const uint8_t *b, size_t len, struct counts *c, int wait)
{
	static uint8_t rb[RCV_MAX];
	const struct nlmsghdr *nlh;
	int res = -1, data = 0, r, e;
	uint8_t cmd = len > NLMSG_HDRLEN ? b[NLMSG_HDRLEN] : 0;
	struct timespec t0, t1;
	unsigned int n;

	c->sent++;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (send_to_kernel(fd, b, len) < 0) {
		c->send_err++;
		return -1;
	}
	for (n = 0; n < 100000; n++) {
		r = recv(fd, rb, sizeof(rb), wait && res < 0 ? 0 : MSG_DONTWAIT);
		if (r < 0 && (errno == EINTR || errno == ENOBUFS))
			continue;
		if (r < 0)
			break;
		for (nlh = (void *)rb; mnl_nlmsg_ok(nlh, r); nlh = mnl_nlmsg_next(nlh, &r)) {
			e = 0;
			if (nlh->nlmsg_len >= NLMSG_HDRLEN + sizeof(int))
				memcpy(&e, mnl_nlmsg_get_payload(nlh), sizeof(int));
			if (nlh->nlmsg_type == NLMSG_ERROR || nlh->nlmsg_type == NLMSG_DONE) {
				if (res < 0)
					res = e < 0 ? (-e > 255 ? 255 : -e) : 0;
			} else {
				data = 1;
				c->replies++;
			}
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	c->n[cmd]++;
	c->ns[cmd] += (t1.tv_sec - t0.tv_sec) * 1000000000ULL + t1.tv_nsec - t0.tv_nsec;
	if (res >= 0)
		c->res[res]++;
	else if (data)
		c->reply_only++;
	else
		c->none++;
	return res;
}

/* A dump asked for, then one reply read or none, and the socket closed. */
static void abandon_dump(void)
{
	static uint8_t rb[RCV_MAX];
	int fd = sk_open(chance(50), 0), opi, tries = 0;

	do
		opi = rnd(S.nops);
	while (!S.ops[opi].has[1] && ++tries < 100);
	valid = 0;
	build_op(&M, opi, 1, chance(20) ? 10 : 0);
	C.sent++;
	if (send_to_kernel(fd, M.b, spec_sanitize(&S, family, scratch, M.b, M.len)) < 0)
		C.send_err++;
	else if (chance(50))
		(void)!recv(fd, rb, sizeof(rb), MSG_DONTWAIT);
	close(fd);
	C.abandoned++;
}

/*
 * start, stop, probe-get, records-get: their attributes of enums, or one
 * in five all of them as a valid request would (usites on the scratch file).
 */
static void race_child(struct counts *c, unsigned int k, time_t deadline)
{
	static const char *const names[] = { "start", "stop", "probe-get", "records-get" };
	unsigned int i, j;
	int fd, opi, dump;

	rs ^= 0x9e3779b97f4a7c15ULL * (k + 1);
	fd = sk_open(1, 0);
	for (i = 0; i < RACE_ITERS && time(NULL) < deadline; i++) {
		const struct fop *op;

		opi = spec_op(&S, names[rnd(4)]);
		if (opi < 0)
			opi = rnd(S.nops);
		op = &S.ops[opi];
		dump = pick_mode(opi);
		valid = chance(90);
		msg_begin(&M, NLM_F_ACK | (dump ? NLM_F_DUMP : 0), op->id);
		for (j = 0; j < op->nreq[dump]; j++) {
			const struct fattr *a = &S.sets[op->set].a[op->req[dump][j]];

			if (a->def >= 0 && chance(90))
				gen_attr(&M, a, 0, 0);
		}
		msg_end(&M);
		if (chance(20))		/* all its attributes, usites and all */
			build_op(&M, opi, dump, 0);
		xfer(fd, M.b, spec_sanitize(&S, family, scratch, M.b, M.len), c, 0);
		c->race++;
	}
	close(fd);
	_exit(0);
}

static void race(void)
{
	struct counts *sh;
	uint64_t *sum = (uint64_t *)&C, *add;
	unsigned int k, i;
	pid_t pid[RACE_CHILDREN];
	int status;
	time_t t0 = time(NULL), deadline = t0 + RACE_SECONDS;

	sh = mmap(NULL, RACE_CHILDREN * sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		die("mmap");
	memset(sh, 0, RACE_CHILDREN * sizeof(*sh));
	fflush(NULL);
	for (k = 0; k < RACE_CHILDREN; k++) {
		pid[k] = fork();
		if (pid[k] < 0)
			die("fork");
		if (!pid[k])
			race_child(&sh[k], k, deadline);
	}
	for (k = 0; k < RACE_CHILDREN; k++) {
		if (waitpid(pid[k], &status, 0) < 0)
			die("waitpid");
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "nlfuzz: race child %u failed (status %#x)\n", k, status);
			exit(1);
		}
		add = (uint64_t *)&sh[k];
		for (i = 0; i < offsetof(struct counts, n) / sizeof(*sum); i++)
			sum[i] += add[i];
	}
	munmap(sh, RACE_CHILDREN * sizeof(*sh));
	race_secs += time(NULL) - t0;
}

static int ctrl_attr(const struct nlattr *a, void *data)
{
	unsigned int *kops = data;
	const struct nlattr *op, *x;

	switch (mnl_attr_get_type(a)) {
	case CTRL_ATTR_FAMILY_ID:
		family = mnl_attr_get_u16(a);
		break;
	case CTRL_ATTR_VERSION:
		fversion = mnl_attr_get_u32(a);
		break;
	case CTRL_ATTR_OPS:
		mnl_attr_for_each_nested(op, a)
			mnl_attr_for_each_nested(x, op)
				if (mnl_attr_get_type(x) == CTRL_ATTR_OP_ID &&
				    mnl_attr_get_u32(x) < 256)
					kops[mnl_attr_get_u32(x)] = 1;
		break;
	}
	return MNL_CB_OK;
}

/* The family's id and version from nlctrl; its ops must be the spec's. */
static int resolve(void)
{
	static uint8_t buf[RCV_MAX];
	unsigned int kops[256] = { 0 }, i;
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	int fd = sk_open(1, 1), r, err = 0;

	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	g->cmd = CTRL_CMD_GETFAMILY;
	g->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, S.family);
	if (send_to_kernel(fd, nlh, nlh->nlmsg_len) < 0)
		die("send to nlctrl");
	while (!family && !err && (r = recv(fd, buf, sizeof(buf), 0)) > 0)
		for (nlh = (void *)buf; mnl_nlmsg_ok(nlh, r); nlh = mnl_nlmsg_next(nlh, &r))
			if (nlh->nlmsg_type == NLMSG_ERROR)
				err = -((struct nlmsgerr *)mnl_nlmsg_get_payload(nlh))->error;
			else if (nlh->nlmsg_type == GENL_ID_CTRL)
				mnl_attr_parse(nlh, sizeof(*g), ctrl_attr, kops);
	close(fd);
	if (!family) {
		fprintf(stderr, "nlfuzz: family %s: %s\n", S.family,
			strerror(err ? err : errno));
		return -1;
	}
	for (i = 0; i < S.nops; i++)
		if (!kops[S.ops[i].id & 0xff]) {
			fprintf(stderr, "nlfuzz: family %s has no op %u (%s in the spec)\n",
				S.family, S.ops[i].id, S.ops[i].name);
			return -1;
		}
	return 0;
}

/* stop without a role, waiting for its answer: 0 or an errno. */
static int stop_all(void)
{
	struct counts c = { 0 };
	int fd, res;

	if (stop_op < 0)
		return 0;
	fd = sk_open(1, 1);
	msg_begin(&M, NLM_F_ACK, S.ops[stop_op].id);
	msg_end(&M);
	res = xfer(fd, M.b, M.len, &c, 1);
	close(fd);
	return res < 0 ? ETIMEDOUT : res;
}

static void usage(FILE *f)
{
	fputs("usage: nlfuzz SPEC.yaml COUNT SEED SCRATCH_FILE\n"
	      "       nlfuzz --check SPEC.yaml\n"
	      "Sends COUNT fuzzed messages to SPEC's generic-netlink family (seeded\n"
	      "by SEED); uprobe sites name SCRATCH_FILE only, a regular file of one\n"
	      "link and no execute bit. Exits 0 unless nlfuzz itself failed.\n", f);
}

int main(int argc, char **argv)
{
	uint64_t count, i;
	unsigned int races = 0, e;
	char err[512];
	struct stat st;
	time_t t0 = time(NULL);
	int fd, r;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return 0;
	}
	if (argc != 5 && !(argc == 3 && !strcmp(argv[1], "--check"))) {
		usage(stderr);
		return 2;
	}
	if (spec_load(argv[argc == 3 ? 2 : 1], &S, err, sizeof(err))) {
		fprintf(stderr, "nlfuzz: %s\n", err);
		return 1;
	}
	if (argc == 3)
		return spec_check(&S);
	count = strtoull(argv[2], NULL, 0);
	rs = strtoull(argv[3], NULL, 0) * 0x9e3779b97f4a7c15ULL + 1;
	scratch = argv[4];
	if (lstat(scratch, &st) || !S_ISREG(st.st_mode) || st.st_nlink != 1 ||
	    (st.st_mode & 0111) || scratch[0] != '/' || strstr(scratch, "/.")) {
		fprintf(stderr, "nlfuzz: %s: not an absolute path of a regular file "
			"with one link and no execute bit\n", scratch);
		return 1;
	}
	scratch_size = st.st_size;
	stop_op = spec_op(&S, "stop");
	if (resolve())
		return 1;
	printf("nlfuzz: family %s id %u version %u, %u ops, %u attribute sets\n",
	       S.family, family, fversion, S.nops, S.nsets);
	fd = sk_open(1, 0);
	for (i = 0; i < count; i++) {
		while (races < RACE_PHASES &&
		       i == count * (races + 1) / (RACE_PHASES + 1)) {
			race();
			races++;
		}
		if (i && i % 1000 == 0) {	/* now and then, other socket options */
			close(fd);
			fd = sk_open(chance(80), chance(30));
		}
		if (i && i % (count / 10 ? count / 10 : 1) == 0)
			fprintf(stderr, "nlfuzz: %llu messages, %ld s\n",
				(unsigned long long)i, (long)(time(NULL) - t0));
		r = rnd(100);
		e = pick_op();
		if (r < 2) {
			abandon_dump();
			continue;
		}
		valid = r < 30 && chance(40);
		if (r < 30)
			build_op(&M, e, pick_mode(e), 0);
		else if (r < 80)
			build_op(&M, e, pick_mode(e), 5 + rnd(40));
		else
			build_raw(&M);
		xfer(fd, M.b, spec_sanitize(&S, family, scratch, M.b, M.len), &C, 0);
	}
	close(fd);
	r = stop_all();
	printf("nlfuzz: %llu messages sent (", (unsigned long long)C.sent);
	for (e = 0; e < 256; e++)
		if (C.res[e])
			printf("%llu %s, ", (unsigned long long)C.res[e],
			       e ? strerrorname_np(e) ?: "E?" : "ok");
	printf("%llu replies only, %llu unanswered, %llu unsent), %llu replies, "
	       "%llu dumps abandoned, %llu race rounds (%ld s), %ld s; final stop: %s\n",
	       (unsigned long long)C.reply_only, (unsigned long long)C.none,
	       (unsigned long long)C.send_err, (unsigned long long)C.replies,
	       (unsigned long long)C.abandoned, (unsigned long long)C.race, race_secs,
	       (long)(time(NULL) - t0), r ? strerrorname_np(r) ?: "E?" : "ok");
	fprintf(stderr, "nlfuzz: outside the races, by command:");
	for (e = 0; e < S.nops; e++)
		fprintf(stderr, " %s %llu in %.1f s%s", S.ops[e].name,
			(unsigned long long)C.n[S.ops[e].id & 0xff],
			C.ns[S.ops[e].id & 0xff] / 1e9, e + 1 < S.nops ? "," : "\n");
	return r && r != ENOENT ? 1 : 0;
}
