// SPDX-License-Identifier: GPL-2.0
/*
 * The module's sampling decision (kmod/sample.h), compiled here with
 * kshim/ for the kernel's headers, on commands built as they go on the
 * wire: under the chain rule the same command seen on each machine of a
 * chain (a host, a middle exporting md raid1, a replica whose LBAs md
 * shifted by its data offset) with other queue, command and namespace
 * ids is picked alike on all of them, as the uapi header's
 * ntprof_chain_hash() says; opcodes other than read, write and
 * write-zeroes, and sessions of the hop rule, decide as before.
 * Prints TAP; exits 1 if any test failed.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "kshim/kshim.h"
#include "../../kmod/sample.h"
#include "tap.h"

#define N		100
#define COMMANDS	200000
/* md's data_offset of a 128 GiB member: 264192 sectors, 4 KiB LBAs. */
#define OFFSET		(264192 / 8)

/* A command as a driver builds it: little-endian fields in the SQE. */
static void cmd_make(struct nvme_command *c, uint8_t opcode, uint16_t cid,
		     uint32_t nsid, uint64_t slba, uint16_t nlb)
{
	memset(c, 0, sizeof(*c));
	c->common.opcode = opcode;
	c->common.command_id = cid;
	c->common.nsid = cpu_to_le32(nsid);
	c->common.cdw10 = cpu_to_le32((uint32_t)slba);
	c->common.cdw11 = cpu_to_le32((uint32_t)(slba >> 32));
	/* Bits above NLB (FUA, limited retry) are not the length. */
	c->common.cdw12 = cpu_to_le32(nlb | 1U << 30);
}

/* A 64-bit pseudo-random sequence (splitmix64), the same every run. */
static uint64_t next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static const uint8_t chain_ops[] = { 0x02, 0x01, 0x08 };

/*
 * The same command on the host (offset 0), the middle's host side and a
 * replica (md's offset, other ids): picked alike everywhere, by the
 * uapi's formula, about one in N of them.
 */
static void test_chain_agrees(void)
{
	uint64_t state = 1, picked = 0, agree = 0, formula = 0, hop_apart = 0;
	struct nvme_command up, down;
	int i;

	for (i = 0; i < COMMANDS; i++) {
		uint8_t op = chain_ops[i % 3];
		uint64_t lba = next(&state) % (1ULL << 28);
		uint16_t nlb = next(&state) % 256;
		uint16_t cid = next(&state), cid2 = next(&state);
		bool a, b;

		cmd_make(&up, op, cid, 1, lba, nlb);
		cmd_make(&down, op, cid2, 2, lba + OFFSET, nlb);
		a = ntprof_sample_pick_cmd(3, &up, N, true, 0);
		b = ntprof_sample_pick_cmd(7, &down, N, true, OFFSET);
		picked += a;
		agree += a == b;
		formula += a == (ntprof_chain_hash(op, lba, nlb) % N == 0);
		/* What the hop rule would have made of the two. */
		hop_apart += ntprof_sample_pick_cmd(3, &up, N, false, 0) !=
			     ntprof_sample_pick_cmd(7, &down, N, false, OFFSET);
	}
	ok(agree == COMMANDS,
	   "chain rule: %" PRIu64 " of %d commands picked alike upstream and downstream (other qid, cid, nsid; LBA + %d)",
	   agree, COMMANDS, OFFSET);
	ok(formula == COMMANDS,
	   "chain rule: each decision is ntprof_chain_hash(opcode, slba - offset, nlb) %% N == 0 (%" PRIu64 ")",
	   formula);
	ok(picked > COMMANDS / N * 9 / 10 && picked < COMMANDS / N * 11 / 10,
	   "chain rule: %" PRIu64 " of %d picked at 1 in %d", picked,
	   COMMANDS, N);
	ok(hop_apart > COMMANDS / N,
	   "the hop rule would part %" PRIu64 " of the same pairs", hop_apart);
}

/* The opcode, the LBA and the NLB each make another command. */
static void test_chain_identity(void)
{
	uint64_t state = 2, same_op = 0, same_lba = 0, same_nlb = 0, n = 0;
	struct nvme_command c;
	int i;

	for (i = 0; i < COMMANDS; i++) {
		uint64_t lba = next(&state) % (1ULL << 28);
		uint16_t nlb = next(&state) % 255;
		bool a, r, w, l, k;

		cmd_make(&c, 0x02, 1, 1, lba, nlb);
		a = ntprof_sample_pick_cmd(1, &c, N, true, 0);
		if (!a)
			continue;
		n++;
		cmd_make(&c, 0x01, 1, 1, lba, nlb);
		w = ntprof_sample_pick_cmd(1, &c, N, true, 0);
		cmd_make(&c, 0x02, 1, 1, lba + 1, nlb);
		l = ntprof_sample_pick_cmd(1, &c, N, true, 0);
		cmd_make(&c, 0x02, 1, 1, lba, nlb + 1);
		k = ntprof_sample_pick_cmd(1, &c, N, true, 0);
		/* The same read again: always the same answer. */
		cmd_make(&c, 0x02, 9, 9, lba, nlb);
		r = ntprof_sample_pick_cmd(9, &c, N, true, 0);
		same_op += w;
		same_lba += l;
		same_nlb += k;
		if (!r)
			n = 0;
	}
	ok(n > 0 && same_op < n / 5 && same_lba < n / 5 && same_nlb < n / 5,
	   "chain rule: of %" PRIu64 " reads picked, a write of the same range %" PRIu64 ", the next LBA %" PRIu64 ", one LBA more %" PRIu64 " (about 1 in %d each)",
	   n, same_op, same_lba, same_nlb, N);
}

/* Other opcodes, and sessions of the hop rule, decide by the hop rule. */
static void test_hop_rule(void)
{
	static const uint8_t other_ops[] = { 0x00, 0x09, 0x05, 0x0c, 0x80 };
	uint64_t state = 3, chain_other = 0, hop = 0;
	struct nvme_command c;
	int i;

	for (i = 0; i < COMMANDS; i++) {
		uint8_t op = i % 2 ? chain_ops[i % 3] :
				     other_ops[i % 5];
		uint64_t lba = next(&state);
		uint16_t nlb = next(&state), cid = next(&state);
		uint16_t qid = 1 + next(&state) % 64;
		uint32_t nsid = 1 + next(&state) % 4;
		bool want;

		cmd_make(&c, op, cid, nsid, lba, nlb);
		want = ntprof_sample_hash(qid, cid, op, nsid, lba, nlb) % N == 0;
		hop += ntprof_sample_pick_cmd(qid, &c, N, false, 0) == want;
		if (!ntprof_chain_opcode(op))
			chain_other += ntprof_sample_pick_cmd(qid, &c, N, true,
							      OFFSET) == want;
		else
			chain_other++;
	}
	ok(hop == COMMANDS,
	   "hop rule: every decision is ntprof_sample_hash() %% N == 0, as before (%" PRIu64 ")",
	   hop);
	ok(chain_other == COMMANDS,
	   "chain rule: flush, DSM and the others still by the hop rule (%" PRIu64 ")",
	   chain_other);
}

/* Corner cases: 1 in 1 takes all; an LBA below the offset wraps. */
static void test_edges(void)
{
	struct nvme_command c;
	bool all = true;
	int i;

	for (i = 0; i < 1000; i++) {
		cmd_make(&c, chain_ops[i % 3], i, 1, i * 8, 7);
		all &= ntprof_sample_pick_cmd(1, &c, 1, true, OFFSET) &&
			ntprof_sample_pick_cmd(1, &c, 1, false, 0);
	}
	ok(all, "1 in 1: every command, by either rule");

	/* md's superblock, at sector 8 of a replica: below the offset. */
	all = true;
	for (i = 0; i < 4096; i++) {
		cmd_make(&c, 0x01, i, 1, i, 0);
		all &= ntprof_sample_pick_cmd(1, &c, 7, true, OFFSET) ==
		       (ntprof_chain_hash(0x01, (uint64_t)i - OFFSET, 0) % 7 == 0);
	}
	ok(all, "an LBA below the offset: slba - offset wraps modulo 2^64, as the uapi says");
}

static const struct tap_case cases[] = {
	{ "chain_agrees", test_chain_agrees },
	{ "chain_identity", test_chain_identity },
	{ "hop_rule", test_hop_rule },
	{ "edges", test_edges },
};

int main(int argc, char *argv[])
{
	return tap_main(argc, argv, "test_ksample", cases, TAP_NR_CASES(cases));
}
