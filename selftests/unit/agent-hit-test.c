// SPDX-License-Identifier: GPL-2.0
/*
 * test_agent_patch's agent_hit(), which the patched functions' stub
 * calls: it counts each site's hits and keeps the registers of the last.
 * Built with -mgeneral-regs-only, as the agent's own handler is.
 */
#include "agent-hit-test.h"

uint64_t test_hits[TEST_SITES];
struct agent_regs test_last[TEST_SITES];

void agent_hit(uint32_t site, const struct agent_regs *regs)
{
	if (site >= TEST_SITES)
		return;
	test_hits[site]++;
	test_last[site] = *regs;
}
