/* SPDX-License-Identifier: GPL-2.0 */
/* The test handler's counts, for test_agent_patch. */
#ifndef NTPROF_AGENT_HIT_TEST_H
#define NTPROF_AGENT_HIT_TEST_H

#include "regs.h"

#define TEST_SITES	64

extern uint64_t test_hits[TEST_SITES];
extern struct agent_regs test_last[TEST_SITES];

#endif /* NTPROF_AGENT_HIT_TEST_H */
