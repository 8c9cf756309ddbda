/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory for trampolines, within reach of a rel32 from the functions
 * they serve, and writes to code, through /proc/self/mem.
 */
#ifndef NTPROF_AGENT_TRAMP_H
#define NTPROF_AGENT_TRAMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The stub a trampoline calls while its site is on (stub.S): the one
 * that saves the registers and calls the handler, or, for a site that
 * starts no command, the one that first tests whether the thread has a
 * sampled command in flight.
 */
enum agent_stub_kind {
	AGENT_STUB_ALL,
	AGENT_STUB_FOLLOW,
};

/*
 * A trampoline's room: @code, @len bytes to write it in (with
 * agent_code_write()); @on, its site's byte in the area's view of the
 * control page, which the code tests with a rip-relative load;
 * @stub_slot, a pointer to the stub that the code calls through. All three within 2 GiB of the address the room was asked
 * near.
 */
struct agent_tramp {
	uint8_t *code;
	size_t len;
	volatile uint8_t *on;
	void *const *stub_slot;
};

/*
 * A room of @len bytes near @near for site @site, whose code calls
 * @stub: 0, -EINVAL for a site past AGENT_SITES_MAX, or -ENOMEM if no
 * memory is in reach.
 */
int agent_tramp_get(uintptr_t near, size_t len, uint32_t site,
		    enum agent_stub_kind stub, struct agent_tramp *t);

/*
 * The memfd whose control page the areas mapped from now on view (the
 * site bytes the recorder sets); without one, each area has a private
 * page of its own.
 */
void agent_tramp_ctl(int fd);

/*
 * Copies @len bytes (256 at most) to code at @dst through /proc/self/mem,
 * its pages' protections untouched: 0, or -errno with the code as it
 * was.
 */
int agent_code_write(void *dst, const void *src, size_t len);

/*
 * Whether a rel32 branch of the trampolines written so far (code
 * displaced from other sites, with its targets) lands in (@at, @at + @len).
 */
bool agent_tramp_branch_into(uintptr_t at, size_t len);

#endif /* NTPROF_AGENT_TRAMP_H */
