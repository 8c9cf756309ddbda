/* SPDX-License-Identifier: GPL-2.0 */
/* test_agent_hit's command and the three functions of its path. */
#ifndef NTPROF_AGENT_CMD_H
#define NTPROF_AGENT_CMD_H

#include <stdint.h>

struct tcmd_ns {
	uint32_t flags;
	uint32_t id;
};

/* The identity where SPDK's request keeps it: some of it a pointer away. */
struct tcmd {
	uint64_t state;
	struct tcmd_ns *ns;
	uint16_t qid;
	uint16_t cid;
	uint8_t opcode;
	uint64_t slba;
	uint16_t nlb;
	uint32_t length;
};

/* Command @i's identity: a function of @i alone (slba is 1000 i). */
void tcmd_make(struct tcmd *c, uint32_t i);

uint64_t tcmd_begin(struct tcmd *c);
uint64_t tcmd_work(struct tcmd *c);
uint64_t tcmd_end(struct tcmd *c);

#endif /* NTPROF_AGENT_CMD_H */
