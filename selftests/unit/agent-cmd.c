// SPDX-License-Identifier: GPL-2.0
/*
 * A command's path for test_agent_hit, as SPDK's target map sees one:
 * a first function that gets the request (its identity inside), one in
 * the middle, and a last one. Built at -O2; noinline so that each has an
 * entry of its own taking the request in rdi.
 */
#include <string.h>

#include "agent-cmd.h"

#define STEP	__attribute__((noinline, used))

static struct tcmd_ns spaces[2] = { { 0, 7 }, { 0, 9 } };

void tcmd_make(struct tcmd *c, uint32_t i)
{
	memset(c, 0, sizeof(*c));
	c->ns = &spaces[i % 2];
	c->qid = 1 + i % 4;
	c->cid = i & 0xffff;
	c->opcode = i % 3 ? 2 : 1;
	c->slba = 1000ULL * i;
	c->nlb = i % 8;
	c->length = 512 * (c->nlb + 1);
}

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
