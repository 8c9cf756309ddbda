/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a patched function's trampoline hands the handler: the registers
 * live at the function's entry, as stub.S pushed them, and its site.
 */
#ifndef NTPROF_AGENT_REGS_H
#define NTPROF_AGENT_REGS_H

#include <stdint.h>

/* In stub.S's push order, reversed: the last pushed is first. */
struct agent_regs {
	uint64_t r11, r10, r9, r8, rdi, rsi, rdx, rcx, rax;
};

/*
 * Where the stub saved argument register 0..5 (rdi, rsi, rdx, rcx, r8,
 * r9), in struct agent_regs read as an array: one load, no branch.
 */
extern const uint8_t agent_reg_slot[6];

/*
 * The handler: called from the stub with the site's id and the saved
 * registers (the function's arguments are rdi, rsi, rdx, rcx, r8, r9).
 * It must be built with -mgeneral-regs-only: the vector registers are
 * not saved.
 */
void agent_hit(uint32_t site, const struct agent_regs *regs);

/*
 * The thread's sampled commands in flight, which the handler keeps and
 * stub.S's agent_stub_follow tests: at 0, a site that starts no command
 * costs no call.
 */
extern __thread unsigned int agent_inflight
	__attribute__((tls_model("initial-exec")));

#endif /* NTPROF_AGENT_REGS_H */
