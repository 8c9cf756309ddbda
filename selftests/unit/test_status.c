// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of what 'ntprof status' makes of the module's reply: replies
 * are built here, since this machine has no module to send them, and
 * parsed by session.c as for every command, and printed by status_print()
 * (lib/out/status_out.c), as 'ntprof status' prints them.
 * Prints TAP; exits 1 if any test failed.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "out/status_out.h"
#include "tap.h"

static char msg[4096];

static struct nlmsghdr *reply_start(const char *version, uint32_t state)
{
	struct nlmsghdr *nlh;

	memset(msg, 0, sizeof(msg));
	nlh = mnl_nlmsg_put_header(msg);
	mnl_nlmsg_put_extra_header(nlh, sizeof(struct genlmsghdr));
	mnl_attr_put_strz(nlh, NTPROF_A_STATUS_VERSION, version);
	mnl_attr_put_u32(nlh, NTPROF_A_STATUS_STATE, state);
	mnl_attr_put_strz(nlh, NTPROF_A_STATUS_KERNEL_RELEASE,
			  "6.1.0-57-amd64");
	return nlh;
}

static void reply_module(struct nlmsghdr *nlh, const char *name,
			 uint32_t role, uint32_t transport, uint32_t present)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, NTPROF_A_STATUS_MODULE);

	mnl_attr_put_strz(nlh, NTPROF_A_MODULE_NAME, name);
	mnl_attr_put_u32(nlh, NTPROF_A_MODULE_ROLE, role);
	mnl_attr_put_u32(nlh, NTPROF_A_MODULE_TRANSPORT, transport);
	mnl_attr_put_u32(nlh, NTPROF_A_MODULE_PRESENT, present);
	mnl_attr_nest_end(nlh, nest);
}

/* Feeds the reply to the parser as nl_request() would; errno on failure. */
static int feed(struct session_status *st, const struct nlmsghdr *nlh)
{
	struct session_status_ctx ctx = { .st = st };

	memset(st, 0, sizeof(*st));
	if (session_status_reply(nlh, &ctx) == MNL_CB_ERROR)
		return errno;
	return 0;
}

static void print_status(void *st)
{
	status_print(st);
}

/* What status_print() writes, as a string. */
static const char *printed(const struct session_status *st)
{
	return tap_capture(STDOUT_FILENO, print_status, (void *)st);
}

/* A host session recording 1 in 100, by the chain rule when @chain. */
static struct nlmsghdr *session_reply(bool chain, uint64_t offset)
{
	struct nlmsghdr *nlh = reply_start("1.0", NTPROF_STATE_RECORDING);

	mnl_attr_put_u32(nlh, NTPROF_A_STATUS_ROLE, NTPROF_ROLE_HOST);
	mnl_attr_put_u32(nlh, NTPROF_A_STATUS_TRANSPORT, NTPROF_TRANSPORT_TCP);
	mnl_attr_put_u32(nlh, NTPROF_A_STATUS_SAMPLE, 100);
	mnl_attr_put_u64(nlh, NTPROF_A_STATUS_START_MONO, 1000);
	mnl_attr_put_u64(nlh, NTPROF_A_STATUS_START_REAL, 2000);
	mnl_attr_put_u32(nlh, NTPROF_A_STATUS_OWNER_PID, 4242);
	if (chain) {
		mnl_attr_put_u32(nlh, NTPROF_A_STATUS_CHAIN, 1);
		mnl_attr_put_u64(nlh, NTPROF_A_STATUS_CHAIN_OFFSET, offset);
	}
	reply_module(nlh, "nvme_core", NTPROF_ROLE_HOST, 0, 1);
	return nlh;
}

/* The session's sampling rule, shown when it is the chain rule. */
static void test_session_chain(void)
{
	struct session_status st;

	ok(feed(&st, session_reply(true, 33024)) == 0 && st.have_session &&
	   st.chain && st.chain_offset == 33024 && st.sample == 100,
	   "a chain session's reply: the rule and its offset parsed");
	tap_same(printed(&st),
	     "ntprof module 1.0, recording, kernel 6.1.0-57-amd64\n"
	     "host session recording, owned by process 4242\n"
	     "host session sampling: 1 in 100, chain rule, offset 33024\n"
	     "nvme modules:\n"
	     "  host    nvme_core  present\n",
	     "status shows the chain rule and its offset");
	ok(feed(&st, session_reply(false, 0)) == 0 && st.have_session &&
	   !st.chain && !st.chain_offset,
	   "a session of the hop rule: no chain");
	tap_same(printed(&st),
	     "ntprof module 1.0, recording, kernel 6.1.0-57-amd64\n"
	     "host session recording, owned by process 4242\n"
	     "nvme modules:\n"
	     "  host    nvme_core  present\n",
	     "status of a hop-rule session says nothing of a rule");
}

/* Status replies, whole, from a newer module, and malformed. */
static void test_replies(void)
{
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	struct session_status_ctx again;
	struct session_status st;

	nlh = reply_start("0.1.0-3-gabcdef", NTPROF_STATE_IDLE);
	reply_module(nlh, "nvme_core", NTPROF_ROLE_HOST, 0, 1);
	reply_module(nlh, "nvme_tcp", NTPROF_ROLE_HOST,
		     NTPROF_TRANSPORT_TCP, 1);
	reply_module(nlh, "nvme_rdma", NTPROF_ROLE_HOST,
		     NTPROF_TRANSPORT_RDMA, 0);
	reply_module(nlh, "nvmet", NTPROF_ROLE_TARGET, 0, 1);
	reply_module(nlh, "nvmet_tcp", NTPROF_ROLE_TARGET,
		     NTPROF_TRANSPORT_TCP, 1);
	reply_module(nlh, "nvmet_rdma", NTPROF_ROLE_TARGET,
		     NTPROF_TRANSPORT_RDMA, 0);
	ok(feed(&st, nlh) == 0 && st.nr_modules == 6,
	   "a full reply is accepted, with all six modules");
	tap_same(printed(&st),
	     "ntprof module 0.1.0-3-gabcdef, idle, kernel 6.1.0-57-amd64\n"
	     "nvme modules:\n"
	     "  host    nvme_core   present\n"
	     "  host    nvme_tcp    present  (tcp)\n"
	     "  host    nvme_rdma   absent   (rdma)\n"
	     "  target  nvmet       present\n"
	     "  target  nvmet_tcp   present  (tcp)\n"
	     "  target  nvmet_rdma  absent   (rdma)\n",
	     "it prints as aligned columns");

	/* What a newer module might send. */
	nlh = reply_start("0.9.0", 7);
	mnl_attr_put_u32(nlh, NTPROF_A_STATUS_MAX + 1, 1);
	nest = mnl_attr_nest_start(nlh, NTPROF_A_STATUS_MODULE);
	mnl_attr_put_strz(nlh, NTPROF_A_MODULE_NAME, "nvme_fc");
	mnl_attr_put_u32(nlh, NTPROF_A_MODULE_ROLE, 9);
	mnl_attr_put_u32(nlh, NTPROF_A_MODULE_TRANSPORT, 5);
	mnl_attr_put_u32(nlh, NTPROF_A_MODULE_MAX + 1, 1);
	mnl_attr_nest_end(nlh, nest);
	ok(feed(&st, nlh) == 0, "unknown attributes and values are accepted");
	tap_same(printed(&st),
	     "ntprof module 0.9.0, state 7, kernel 6.1.0-57-amd64\n"
	     "nvme modules:\n"
	     "  -       nvme_fc  absent   (unknown)\n",
	     "unknown values print as such");

	nlh = reply_start("0.1.0", NTPROF_STATE_RECORDING);
	ok(feed(&st, nlh) == 0, "a reply without modules is accepted");
	tap_same(printed(&st),
	     "ntprof module 0.1.0, recording, kernel 6.1.0-57-amd64\n"
	     "nvme modules: none reported\n",
	     "it says no module was reported");
	again = (struct session_status_ctx) { .st = &st, .replies = 1 };
	ok(session_status_reply(nlh, &again) == MNL_CB_ERROR &&
	   errno == EPROTO, "a second reply to the same request is rejected");

	nlh = reply_start("0.1.0", NTPROF_STATE_IDLE);
	mnl_attr_put_u16(nlh, NTPROF_A_STATUS_STATE, 0);
	ok(feed(&st, nlh) == EPROTO,
	   "an attribute of the wrong size is rejected");

	nlh = reply_start("0.1.0", NTPROF_STATE_IDLE);
	nest = mnl_attr_nest_start(nlh, NTPROF_A_STATUS_MODULE);
	mnl_attr_put_u32(nlh, NTPROF_A_MODULE_PRESENT, 1);
	mnl_attr_nest_end(nlh, nest);
	ok(feed(&st, nlh) == EPROTO, "a module without a name is rejected");
}

static const struct tap_case cases[] = {
	{ "replies", test_replies },
	{ "session_chain", test_session_chain },
};

int main(int argc, char *argv[])
{
	return tap_main(argc, argv, "test_status", cases, TAP_NR_CASES(cases));
}
