// SPDX-License-Identifier: GPL-2.0
/*
 * Branches into a patch from outside the function's body. gcc -O2 moves
 * a function's unlikely blocks into a piece of their own, f.cold, in
 * .text.unlikely, and that piece jumps back into f, as often as not a
 * few bytes past its entry: into the bytes the patch displaces, where
 * the jump would find the middle of the patch's jmp. patch.c decodes
 * the body itself; this file finds the rest.
 *
 * A branch from another section than the target's (f.cold to f, or
 * any other function's section with -ffunction-sections) is always
 * rel32: the assembler cannot know the distance and leaves a relocation
 * of 32 bits. So every byte offset of the object's executable segments,
 * as they are loaded, is read as a possible jmp rel32 (e9), call rel32
 * (e8) or jcc rel32 (0f 80-8f), whatever the instruction boundaries: no
 * such branch into the patch escapes, whoever made it, and four bytes
 * that only look like one (one chance in some 2^28 per e8, e9 or 0f 8x
 * byte) cost a site, never the program. The trampolines are read too:
 * a site patched earlier moved its first instructions there, with
 * their branch targets. What this cannot see: indirect branches, and a
 * rel8 branch (reaching 128 bytes) from outside the body, which can only
 * come from code beside the function: agent_patch_near() decodes the
 * functions the site list names near it for those.
 *
 * The cost is one pass over the object's code a site, before main: some
 * milliseconds for several megabytes of text (Documentation/agent.rst).
 */
#define _GNU_SOURCE	/* dl_iterate_phdr() */
#include <link.h>
#include <string.h>

#include "tramp.h"
#include "xref.h"

bool agent_rel32_into(const uint8_t *start, size_t n, uintptr_t at,
		      size_t len)
{
	uintptr_t lo = at + 1, span = len - 1, target;
	int32_t rel;
	size_t q;

	if (len < 2 || n < 5)
		return false;
	/*
	 * Every q: the target of a rel32 at q + 1 that ends at q + 5. It is
	 * an e8 or e9 at q's, and a 0f 8x at q - 1's (whose rel32 is at
	 * q + 1 as well): one sum a byte, the opcode looked at only when
	 * the target is in the patch.
	 */
	for (q = 0; q + 5 <= n; q++) {
		memcpy(&rel, start + q + 1, sizeof(rel));
		target = (uintptr_t)start + q + 5 + (intptr_t)rel;
		if (target - lo >= span)
			continue;
		if (start[q] == 0xe8 || start[q] == 0xe9 ||
		    (q && start[q - 1] == 0x0f && (start[q] & 0xf0) == 0x80))
			return true;
	}
	return false;
}

struct xref_find {
	uintptr_t at;
	size_t len;
	enum agent_refusal r;
};

/* The object whose executable segment holds @x->at, its segments read. */
static int xref_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	struct xref_find *x = data;
	const ElfW(Phdr) *ph;
	uintptr_t start;
	bool holds = false;
	int i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++) {
		ph = &info->dlpi_phdr[i];
		start = info->dlpi_addr + ph->p_vaddr;
		holds |= ph->p_type == PT_LOAD && (ph->p_flags & PF_X) &&
			 x->at >= start && x->at - start < ph->p_memsz;
	}
	if (!holds)
		return 0;
	x->r = AGENT_PATCHED;
	for (i = 0; i < info->dlpi_phnum && x->r == AGENT_PATCHED; i++) {
		ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		/* Execute-only code (a protection key's) cannot be read. */
		if (!(ph->p_flags & PF_R) ||
		    agent_rel32_into((const uint8_t *)(info->dlpi_addr + ph->p_vaddr),
				     ph->p_memsz, x->at, x->len))
			x->r = AGENT_BRANCH_FROM_OBJECT;
	}
	return 1;
}

enum agent_refusal agent_xref_check(uintptr_t at, size_t len)
{
	struct xref_find x = { at, len, AGENT_NOT_LOADED };

	dl_iterate_phdr(xref_cb, &x);
	if (x.r == AGENT_PATCHED && agent_tramp_branch_into(at, len))
		x.r = AGENT_BRANCH_FROM_OBJECT;
	return x.r;
}
