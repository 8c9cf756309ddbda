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
 * The handler: called from the stub with the site's id and the saved
 * registers (the function's arguments are rdi, rsi, rdx, rcx, r8, r9).
 * It must be built with -mgeneral-regs-only: the vector registers are
 * not saved.
 */
void agent_hit(uint32_t site, const struct agent_regs *regs);

#endif /* NTPROF_AGENT_REGS_H */
