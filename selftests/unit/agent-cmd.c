// SPDX-License-Identifier: GPL-2.0
/*
 * A command's path for test_agent_hit, as SPDK's target map sees one:
 * a first function that gets the request (its identity inside), one in
 * the middle, and a last one. Built at -O2; noinline so that each has an
 * entry of its own taking the request in rdi.
 */
#include "agent-cmd.h"

#define STEP	__attribute__((noinline, used))

STEP uint64_t tcmd_begin(struct tcmd *c)
{
	c->state = 1;
	return c->slba + c->qid;
}

STEP uint64_t tcmd_work(struct tcmd *c)
{
	c->state = c->state * 3 + 2;
	return c->state ^ c->cid;
}

STEP uint64_t tcmd_end(struct tcmd *c)
{
	c->state += 7;
	return c->state + c->nlb;
}
