// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of tools/ntprof/lib/genl/nl.c against nlctrl, the generic-netlink
 * family every kernel has, so they run where the ntprof module cannot be
 * loaded. Prints TAP; exits 1 if any test failed.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/genetlink.h>

#include "genl/nl.h"
#include "tap.h"

struct perror_args {
	struct nl_sock *sock;
	const char *what;
	int err;
};

static void print_perror(void *arg)
{
	const struct perror_args *a = arg;

	nl_perror(a->sock, a->what, a->err);
}

/* What nl_perror() writes, as a string. */
static const char *perror_text(struct nl_sock *sock, const char *what, int err)
{
	struct perror_args a = { sock, what, err };

	return tap_capture(STDERR_FILENO, print_perror, &a);
}

/* What the replies to CTRL_CMD_GETFAMILY told us. */
struct families {
	int count;
	bool saw_nlctrl;
	int fail_with;		/* errno to fail the first reply with */
	bool stop;		/* MNL_CB_STOP at the first reply */
};

static int family_reply(const struct nlmsghdr *nlh, void *data)
{
	static const enum mnl_attr_data_type policy[CTRL_ATTR_FAMILY_NAME + 1] = {
		[CTRL_ATTR_FAMILY_ID] = MNL_TYPE_U16,
		[CTRL_ATTR_FAMILY_NAME] = MNL_TYPE_NUL_STRING,
	};
	const struct nlattr *tb[CTRL_ATTR_FAMILY_NAME + 1];
	struct families *f = data;

	if (f->fail_with) {
		errno = f->fail_with;
		return MNL_CB_ERROR;
	}
	if (nl_parse(nlh, policy, tb, CTRL_ATTR_FAMILY_NAME) ||
	    !tb[CTRL_ATTR_FAMILY_NAME]) {
		errno = EPROTO;
		return MNL_CB_ERROR;
	}
	f->count++;
	if (!strcmp(mnl_attr_get_str(tb[CTRL_ATTR_FAMILY_NAME]), "nlctrl") &&
	    mnl_attr_get_u16(tb[CTRL_ATTR_FAMILY_ID]) == GENL_ID_CTRL)
		f->saw_nlctrl = true;
	return f->stop ? MNL_CB_STOP : MNL_CB_OK;
}

static int put_name(struct nlmsghdr *nlh, void *data)
{
	const char *name = *(const char **)data;

	if (!mnl_attr_put_strz_check(nlh, NL_MSG_SIZE, CTRL_ATTR_FAMILY_NAME,
				     name))
		return -EMSGSIZE;
	return 0;
}

static int put_fails(struct nlmsghdr *nlh, void *data)
{
	(void)nlh;
	(void)data;
	return -EMSGSIZE;
}

/* The request's data: the name to put first, the replies' tally after. */
struct lookup {
	const char *name;
	struct families f;
};

static int lookup_put(struct nlmsghdr *nlh, void *data)
{
	return put_name(nlh, &((struct lookup *)data)->name);
}

static int lookup_reply(const struct nlmsghdr *nlh, void *data)
{
	return family_reply(nlh, &((struct lookup *)data)->f);
}

static int lookup(struct nl_sock *sock, struct lookup *l)
{
	return nl_request(sock, CTRL_CMD_GETFAMILY, 0, lookup_put,
			  lookup_reply, l);
}

/* Policy dumps end with NLMSG_DONE in a datagram of its own. */
static int policy_reply(const struct nlmsghdr *nlh, void *data)
{
	struct lookup *l = data;

	(void)nlh;
	if (l->f.fail_with) {
		errno = l->f.fail_with;
		return MNL_CB_ERROR;
	}
	l->f.count++;
	return MNL_CB_OK;
}

static int policy_dump(struct nl_sock *sock, struct lookup *l)
{
	return nl_request(sock, CTRL_CMD_GETPOLICY, NLM_F_DUMP, lookup_put,
			  policy_reply, l);
}

static int dump(struct nl_sock *sock, struct families *f)
{
	return nl_request(sock, CTRL_CMD_GETFAMILY, NLM_F_DUMP, NULL,
			  family_reply, f);
}

static void test_parse(void)
{
	static const enum mnl_attr_data_type policy[3] = {
		[1] = MNL_TYPE_U32,
		[2] = MNL_TYPE_NUL_STRING,
	};
	const struct nlattr *tb[3];
	char buf[256] = { 0 };
	struct nlmsghdr *nlh;

	nlh = mnl_nlmsg_put_header(buf);
	mnl_nlmsg_put_extra_header(nlh, sizeof(struct genlmsghdr));
	mnl_attr_put_u32(nlh, 1, 7);
	mnl_attr_put_strz(nlh, 2, "x");
	mnl_attr_put_u32(nlh, 9, 1);	/* from a "newer kernel" */
	ok(nl_parse(nlh, policy, tb, 2) == 0 && tb[1] && tb[2] &&
	   mnl_attr_get_u32(tb[1]) == 7 && !tb[0],
	   "nl_parse() fills the table and skips attributes above max");

	nlh = mnl_nlmsg_put_header(buf);
	mnl_nlmsg_put_extra_header(nlh, sizeof(struct genlmsghdr));
	mnl_attr_put_u16(nlh, 1, 7);
	ok(nl_parse(nlh, policy, tb, 2) == -EPROTO,
	   "nl_parse() rejects an attribute of the wrong size");
}

/* Requests and dumps to nlctrl, and how their errors come back. */
static void test_requests(void)
{
	char long_name[64];
	struct families all = { 0 }, f;
	struct lookup l;
	struct nl_sock *sock = NULL;
	int err;

	err = nl_open(&sock);
	if (!ok(err == 0, "nl_open() opens a generic-netlink socket (%d)",
		err)) {
		printf("Bail out! no netlink socket\n");
		exit(1);
	}

	err = nl_family_resolve(sock, "ntprof-nosuch", 1);
	ok(err == -ENOENT, "resolving a missing family gives -ENOENT (got %d)",
	   err);
	ok(nl_request(sock, CTRL_CMD_GETFAMILY, 0, NULL, NULL, NULL) == -EBADF,
	   "no request goes out without a resolved family");

	err = nl_family_resolve(sock, "nlctrl", 2);
	ok(err == 0 && nl_family_id(sock) == GENL_ID_CTRL &&
	   nl_family_version(sock) >= 1,
	   "nlctrl resolves to id %u, version %u", nl_family_id(sock),
	   nl_family_version(sock));

	memset(&l, 0, sizeof(l));
	l.name = "nlctrl";
	err = lookup(sock, &l);
	ok(err == 0 && l.f.count == 1 && l.f.saw_nlctrl,
	   "a request gets its one reply, then the ACK (err %d, %d replies)",
	   err, l.f.count);

	memset(long_name, 'x', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	memset(&l, 0, sizeof(l));
	l.name = long_name;
	err = lookup(sock, &l);
	ok(err < 0 && err != -ENOENT && *nl_extack(sock),
	   "a rejected request gives the errno and the kernel's message (%d, \"%s\")",
	   err, nl_extack(sock));
	tap_same(perror_text(sock, "status", -EINVAL),
	     "ntprof: status: Invalid argument: Attribute failed policy validation\n",
	     "nl_perror() adds the kernel's message to the error");

	err = dump(sock, &all);
	ok(err == 0 && all.count > 1 && all.saw_nlctrl,
	   "a dump gets every family (err %d, %d families)", err, all.count);
	ok(*nl_extack(sock) == '\0', "a request that worked leaves no message");
	tap_same(perror_text(sock, "status", -EPERM),
	     "ntprof: status: permission denied (run as root)\n",
	     "nl_perror() tells to run as root on EPERM");
	nl_note(sock, "the kernel is locked down");
	tap_same(perror_text(sock, "start", -EPERM),
	     "ntprof: start: permission denied: the kernel is locked down\n",
	     "nl_perror() gives the kernel's reason for an EPERM instead");
	nl_note(sock, "");

	memset(&f, 0, sizeof(f));
	f.fail_with = ECANCELED;
	err = dump(sock, &f);
	ok(err == -ECANCELED, "a reply callback's error ends a dump (got %d)",
	   err);
	memset(&f, 0, sizeof(f));
	err = dump(sock, &f);
	ok(err == 0 && f.count == all.count,
	   "the next dump starts clean (err %d, %d families)", err, f.count);

	memset(&l, 0, sizeof(l));
	l.name = "nlctrl";
	err = policy_dump(sock, &l);
	ok(err == 0 && l.f.count > 1,
	   "a dump read in several receives ends at NLMSG_DONE (err %d, %d parts)",
	   err, l.f.count);
	memset(&l, 0, sizeof(l));
	l.name = "nlctrl";
	l.f.fail_with = ECANCELED;
	err = policy_dump(sock, &l);
	ok(err == -ECANCELED, "a dump stopped early returns the error (%d)",
	   err);
	memset(&f, 0, sizeof(f));
	err = dump(sock, &f);
	ok(err == 0 && f.count == all.count,
	   "and its unread NLMSG_DONE does not confuse the next request (err %d)",
	   err);

	memset(&l, 0, sizeof(l));
	l.name = "nlctrl";
	l.f.stop = true;
	err = lookup(sock, &l);
	ok(err == 0 && l.f.count == 1,
	   "MNL_CB_STOP ends a request early without an error (err %d)", err);
	memset(&l, 0, sizeof(l));
	l.name = "nlctrl";
	l.f.fail_with = ECANCELED;
	err = lookup(sock, &l);
	ok(err == -ECANCELED, "a reply callback's error ends a request (%d)",
	   err);

	err = nl_request(sock, CTRL_CMD_GETFAMILY, 0, put_fails, NULL, NULL);
	ok(err == -EMSGSIZE, "an attribute callback's error is returned (%d)",
	   err);
	memset(&l, 0, sizeof(l));
	l.name = "nlctrl";
	err = lookup(sock, &l);
	ok(err == 0 && l.f.count == 1,
	   "after early ends, requests still pair with their replies (err %d)",
	   err);

	nl_close(sock);
}

static const struct tap_case cases[] = {
	{ "parse", test_parse },
	{ "requests", test_requests },
};

int main(int argc, char *argv[])
{
	return tap_main(argc, argv, "test_nl", cases, TAP_NR_CASES(cases));
}
