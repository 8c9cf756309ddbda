/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Entry patching: a function's first instructions replaced by a 5-byte
 * jump to a trampoline of its own, which calls the agent's handler
 * (when its site is on) and then runs the displaced instructions,
 * relocated, and jumps back. Decoding and re-encoding are Zydis's.
 * Documentation/agent.rst has the design.
 */
#ifndef NTPROF_AGENT_PATCH_H
#define NTPROF_AGENT_PATCH_H

#include <stddef.h>
#include <stdint.h>
#include <ntprof/agent_abi.h>

#include "tramp.h"

/*
 * enum agent_refusal, agent_refusal_str() and AGENT_DISPLACED_MAX, the
 * most bytes displaced, are the agent's ABI (ntprof/agent_abi.h): the
 * tool reads the first two in the control page, and names the code near
 * a site by the third.
 */

/**
 * struct agent_patch - a patched function
 * @entry: the function's address
 * @at: where the jump is: @entry, or after its endbr64
 * @len: the bytes displaced from @at, at least 5
 * @saved: those bytes as they were
 * @tramp: the function's trampoline
 * @site: the site id the trampoline hands the handler
 * @on: the byte the trampoline tests; the handler runs while it is not 0
 */
struct agent_patch {
	uintptr_t entry;
	uintptr_t at;
	size_t len;
	uint8_t saved[AGENT_DISPLACED_MAX];
	uint8_t *tramp;
	uint32_t site;
	volatile uint8_t *on;
};

/*
 * Patches the function at @entry, @size bytes long (its symbol's size),
 * for site @site, its trampoline calling @stub: AGENT_PATCHED with @p filled in, or the reason it was
 * not, with the function left as it was. The caller makes sure no other
 * thread runs meanwhile (the agent patches before main). The site starts
 * off.
 */
enum agent_refusal agent_patch(uintptr_t entry, size_t size, uint32_t site,
			       enum agent_stub_kind stub, struct agent_patch *p);

/* Code near a function: another function's whole body, as loaded. */
struct agent_code {
	uintptr_t start;
	size_t size;
};

/*
 * Whether a relative branch of the code @near (@n functions within a
 * rel8's reach of the function at @entry, @size bytes long), decoded
 * whole, lands in the bytes agent_patch() would displace:
 * AGENT_BRANCH_FROM_OBJECT if one does or if some of that code does not
 * decode, else AGENT_PATCHED (also for a function agent_patch() refuses
 * anyway). xref.c finds the rel32 branches from anywhere; this, the
 * rel8 ones from beside the function, which only decoding finds.
 */
enum agent_refusal agent_patch_near(uintptr_t entry, size_t size,
				    const struct agent_code *near, size_t n);

/* Puts the displaced bytes back; the trampoline stays, unused. 0 or -errno. */
int agent_unpatch(const struct agent_patch *p);

#endif /* NTPROF_AGENT_PATCH_H */
