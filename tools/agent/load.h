/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loads from the program's memory that cannot stop the program. The
 * handler follows pointers it did not make (a request's, a queue pair's),
 * and one may be stale: freed by a reconnect, or an offset that leaves
 * the object. Each such load is one instruction whose address, with the
 * address to go on at if it faults, is an entry of the library's section
 * ntprof_agent_extable (the kernel's exception table, in small): the
 * agent's SIGSEGV and SIGBUS handler (fault.c) finds the faulting
 * instruction there and resumes at its fixup, a C label where the load
 * is a failed read. A load that does not fault costs what a plain one
 * does: nothing is tested on the way.
 */
#ifndef NTPROF_AGENT_LOAD_H
#define NTPROF_AGENT_LOAD_H

#include <stdbool.h>
#include <stdint.h>

/*
 * An entry: the load and its fixup, each as an offset from the entry's
 * own field, so that the table needs no relocation at load time.
 */
struct agent_extable {
	int32_t insn;
	int32_t fixup;
};

/* The entry of the load at label 1, to go on at C label @fixup. */
#define AGENT_EXTABLE(fixup)						\
	".pushsection ntprof_agent_extable, \"a\"\n\t"			\
	".balign 4\n\t"							\
	".long 1b - .\n\t"						\
	".long %l[" #fixup "] - .\n\t"					\
	".popsection\n\t"

/*
 * *@v = the @width bytes at @addr (1, 2, 4 or 8), zero-extended: true,
 * or false if the load faulted. The memory operand lets the compiler
 * fold an offset into the load's addressing.
 */
#define AGENT_LOAD_FN(name, type, insn)					\
static inline __attribute__((always_inline)) bool			\
name(uintptr_t addr, uint64_t *v)					\
{									\
	uint64_t x;							\
									\
	__asm__ goto("1:\t" insn " %[m], %[x]\n\t"			\
		     AGENT_EXTABLE(bad)					\
		     : [x] "=r"(x)					\
		     : [m] "m"(*(const type *)addr)			\
		     : : bad);						\
	*v = x;								\
	return true;							\
bad:									\
	return false;							\
}

AGENT_LOAD_FN(agent_load1, uint8_t, "movzbq")
AGENT_LOAD_FN(agent_load2, uint16_t, "movzwq")
AGENT_LOAD_FN(agent_load8, uint64_t, "movq")

/* 4 bytes: a 32-bit move, which zero-extends into the whole register. */
static inline __attribute__((always_inline)) bool
agent_load4(uintptr_t addr, uint64_t *v)
{
	uint64_t x;

	__asm__ goto("1:\tmovl %[m], %k[x]\n\t"
		     AGENT_EXTABLE(bad)
		     : [x] "=r"(x)
		     : [m] "m"(*(const uint32_t *)addr)
		     : : bad);
	*v = x;
	return true;
bad:
	return false;
}

#endif /* NTPROF_AGENT_LOAD_H */
