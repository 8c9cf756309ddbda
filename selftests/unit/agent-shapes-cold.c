// SPDX-License-Identifier: GPL-2.0
/*
 * A function gcc -O2 splits in two, for test_agent_patch: spin()'s
 * unlikely loop body, the call of a cold function, goes to a piece of
 * its own, spin.cold, in .text.unlikely, whose jmp back lands on the
 * loop's head, a few bytes past spin's entry (after push rbx and
 * mov rbx, rdi): inside the bytes a patch displaces. Compiled with and
 * without -fcf-protection, the names prefixed by SHAPE_PREFIX.
 * try_lock() and backoff() are noipa so that spin() must keep its
 * argument in a callee-saved register across their calls, as it would
 * across calls into another file.
 */
#include <stdint.h>

#define CAT2(a, b)	a##b
#define CAT(a, b)	CAT2(a, b)
#define F(name)		CAT(SHAPE_PREFIX, name)

struct shape_lock {
	uint64_t spins;		/* try_lock() fails this many times */
	uint64_t held;
	uint64_t backoffs;
};

__attribute__((noipa)) int F(try_lock)(struct shape_lock *l)
{
	if (l->spins) {
		l->spins--;
		return 0;
	}
	l->held = 1;
	return 1;
}

__attribute__((noipa, cold)) void F(backoff)(struct shape_lock *l)
{
	l->backoffs++;
}

/* spins times the cold path, then the lock: 3 * spins + 1. */
__attribute__((noinline, used)) uint64_t F(spin)(struct shape_lock *l)
{
	while (__builtin_expect(!F(try_lock)(l), 0))
		F(backoff)(l);
	return l->backoffs * 3 + l->held;
}
