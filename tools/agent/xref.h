/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Branches into a patch from elsewhere in the function's object: its
 * other pieces (gcc's f.cold, which jumps back into f), other functions,
 * and the trampolines that hold code displaced from other sites.
 */
#ifndef NTPROF_AGENT_XREF_H
#define NTPROF_AGENT_XREF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "patch.h"

/*
 * Whether the bytes [@start, @start + @n), read at every byte offset,
 * hold a jmp, jcc or call rel32 whose target lies in (@at, @at + @len).
 */
bool agent_rel32_into(const uint8_t *start, size_t n, uintptr_t at,
		      size_t len);

/*
 * Whether the patch of @len bytes at @at may be written as far as
 * branches from outside the function's body are concerned:
 * AGENT_PATCHED if no rel32 branch of the executable segments of the
 * object that holds @at, nor of the trampolines, lands in
 * (@at, @at + @len); AGENT_BRANCH_FROM_OBJECT if one does (or an
 * executable segment cannot be read to tell); AGENT_NOT_LOADED if no
 * loaded object's executable segment holds @at.
 */
enum agent_refusal agent_xref_check(uintptr_t at, size_t len);

#endif /* NTPROF_AGENT_XREF_H */
