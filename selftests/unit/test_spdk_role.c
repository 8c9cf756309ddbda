// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of ntprof run's choice of an SPDK program's role and
 * transport (tools/ntprof/lib/sites/spdk_role.c), where no SPDK host
 * build is: "ntprof run -- spdk_nvme_perf -r 'trtype:RDMA ...'" without
 * -r and -t is a host over RDMA because the program has a host's sites
 * and not a target's, and its transport ID names RDMA; nvmf_tgt is a
 * target; a host of both transports' sites takes its arguments' trtype,
 * a host of one transport that one; and what cannot be told is said.
 * The sites a program has are given by a table here, as the binary's
 * DWARF would give them (test_agent_record.sh resolves the target model's
 * for real).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <uapi/linux/ntprof.h>

#include "sites/spdk_role.h"
#include "tap.h"

#define TCP	NTPROF_TRANSPORT_TCP
#define RDMA	NTPROF_TRANSPORT_RDMA
#define NONE	NTPROF_TRANSPORT_NONE
#define HOST	NTPROF_ROLE_HOST
#define TARGET	NTPROF_ROLE_TARGET

/* What a program has: a target's sites, a host's over TCP, over RDMA. */
struct prog {
	bool target, tcp, rdma;
};

static bool has(void *ctx, uint32_t role, uint32_t transport)
{
	const struct prog *p = ctx;

	if (role == TARGET)
		return p->target;
	return transport == TCP ? p->tcp : transport == RDMA ? p->rdma : false;
}

/* spdk_choose() of @p for -r @role -t @t and @args (NULL-ended). */
static int choose(struct prog p, uint32_t role, uint32_t t, char **args,
		  uint32_t *r_out, uint32_t *t_out, char *why)
{
	int n = 0;

	while (args && args[n])
		n++;
	why[0] = '\0';
	return spdk_choose(role, t, args, n, has, &p, r_out, t_out, why, 256);
}

static void t_args(void)
{
	char *perf[] = { "-q", "32", "-o", "4096", "-w", "randread", "-r",
			 "trtype:RDMA adrfam:IPv4 traddr:10.0.0.1 trsvcid:4420",
			 NULL };
	char *fio[] = { "--filename=trtype=tcp adrfam=IPv4 traddr=10.0.0.1 trsvcid=4420 ns=1",
			NULL };
	char *lower[] = { "-r", "TrType:rdma", NULL };
	char *both[] = { "-r", "trtype:TCP traddr:a", "-r", "trtype:RDMA traddr:b",
			 NULL };
	char *none[] = { "-r", "traddr:10.0.0.1 ptrtype:RDMA trtypes:TCP", NULL };
	bool b;

	ok(spdk_args_transport(perf, 8, &b) == RDMA && !b,
	   "spdk_nvme_perf -r 'trtype:RDMA ...': RDMA");
	ok(spdk_args_transport(fio, 1, &b) == TCP && !b,
	   "the fio plugin's filename=trtype=tcp: TCP");
	ok(spdk_args_transport(lower, 2, &b) == RDMA,
	   "TrType:rdma, in any case: RDMA");
	ok(spdk_args_transport(both, 4, &b) == NONE && b,
	   "two transport IDs of two transports: none, and said so");
	ok(spdk_args_transport(none, 2, &b) == NONE && !b,
	   "no trtype (ptrtype:, trtypes: are other words): none");
}

static void t_choose(void)
{
	struct prog perf = { .tcp = true, .rdma = true };
	struct prog tgt = { .target = true };
	struct prog rdma_only = { .rdma = true };
	struct prog nothing = { 0 };
	char *rdma_args[] = { "-r", "trtype:RDMA adrfam:IPv4 traddr:10.0.0.1", NULL };
	char *tcp_args[] = { "-r", "trtype=TCP traddr=10.0.0.1", NULL };
	char *no_args[] = { "-q", "1", NULL };
	char why[256];
	uint32_t r, t;

	ok(!choose(perf, NONE, NONE, rdma_args, &r, &t, why) &&
	   r == HOST && t == RDMA,
	   "spdk_nvme_perf -r 'trtype:RDMA ...' without -r, -t: a host over RDMA");
	ok(!choose(perf, NONE, NONE, tcp_args, &r, &t, why) &&
	   r == HOST && t == TCP,
	   "with trtype=TCP: a host over TCP");
	ok(!choose(perf, NONE, TCP, rdma_args, &r, &t, why) &&
	   r == HOST && t == TCP, "-t tcp wins over the arguments");
	ok(!choose(perf, HOST, NONE, rdma_args, &r, &t, why) &&
	   r == HOST && t == RDMA, "-r host without -t: the arguments' RDMA");
	ok(!choose(tgt, NONE, NONE, no_args, &r, &t, why) && r == TARGET,
	   "nvmf_tgt: a target, whatever its arguments");
	ok(!choose(tgt, NONE, NONE, rdma_args, &r, &t, why) && r == TARGET,
	   "a target's sites: a target, even with a trtype in its arguments");
	ok(!choose(rdma_only, NONE, NONE, no_args, &r, &t, why) &&
	   r == HOST && t == RDMA,
	   "a host with only RDMA's sites, no trtype: RDMA");
	ok(choose(perf, NONE, NONE, no_args, &r, &t, why) == -EINVAL &&
	   strstr(why, "give -t tcp or -t rdma"),
	   "a host of both transports without a trtype: -t asked for (%s)", why);
	ok(!choose(nothing, NONE, NONE, no_args, &r, &t, why) && r == TARGET,
	   "no site at all: the target's, whose missing site resolving names");
	ok(!choose(nothing, NONE, NONE, rdma_args, &r, &t, why) && r == HOST &&
	   t == RDMA, "no site, but a trtype: the host's, which resolving names");
	ok(!choose(tgt, TARGET, NONE, NULL, &r, &t, why) && r == TARGET,
	   "-r target: as given");
}

static const struct tap_case cases[] = {
	{ "args", t_args },
	{ "choose", t_choose },
};

int main(int argc, char *argv[])
{
	return tap_main(argc, argv, "test_spdk_role", cases, TAP_NR_CASES(cases));
}
