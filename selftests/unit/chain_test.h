/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The middle's records that the chain tests build: test_chain links them
 * (tools/ntprof/lib/analysis/chain.h), and test_chain_prom adds them to
 * record --prom's chain (tools/ntprof/lib/out/chain_prom.h). A middle
 * records each command it serves upstream as a target and each command
 * it sends downstream as a host, so both tests fill in a record's
 * identity the same way, here.
 */
#ifndef NTPROF_SELFTESTS_CHAIN_TEST_H
#define NTPROF_SELFTESTS_CHAIN_TEST_H

#include <stdint.h>
#include <string.h>

#include <uapi/linux/ntprof.h>

/*
 * chain_test_rec() - clear @r and fill in a sampled command of @len bytes
 * at @slba, with @opcode, as the middle records it in role @role: as the
 * target on queue 1 upstream, as the host on queue 2 downstream. The
 * caller stamps its points.
 */
static inline void chain_test_rec(struct ntprof_record *r, uint8_t role,
				  uint8_t opcode, uint64_t slba, uint32_t len)
{
	memset(r, 0, sizeof(*r));
	r->role = role;
	r->qid = role == NTPROF_ROLE_TARGET ? 1 : 2;
	r->opcode = opcode;
	r->slba = slba;
	r->length = len;
	r->flags = NTPROF_REC_F_SAMPLED;
}

#endif /* NTPROF_SELFTESTS_CHAIN_TEST_H */
