/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A first site's identity fetches (qid to nlb), read as one plan made at
 * start-up: the fetches grouped by the pointer chain they go through
 * (SPDK's go mostly through one, the request's command), each chain
 * walked once and each field read with one load and a mask, with no
 * branch but the null and page checks. Read one by one, as the generic
 * fetch does, each would walk its chain again and switch on its width:
 * on every command, sampled or not, since the sampling hash needs them
 * all.
 */
#ifndef NTPROF_AGENT_IDENT_H
#define NTPROF_AGENT_IDENT_H

#include <stdbool.h>
#include <stdint.h>

#include "load.h"
#include "site.h"

#define AGENT_IDENT_FIELDS	(AGENT_F_NLB - AGENT_F_QID + 1)
/* The chains, and one more whose base is a word of zeros: unset fields'. */
#define AGENT_IDENT_BASES	(AGENT_IDENT_FIELDS + 1)

/* An argument register's saved slot, then pointer loads. */
struct agent_ident_chain {
	uint8_t slot;
	uint8_t nr_derefs;
	int32_t derefs[AGENT_DEREFS_MAX];
	/* Its fields' bytes: from @lo past the base, @span of them. */
	int32_t lo;
	uint32_t span;
};

/**
 * struct agent_ident - a first site's identity plan
 * @fast: the plan is good; else (a field that is an address, not a
 *	value, or a chain's fields farther apart than a page) the identity
 *	takes the generic fetches
 * @nr_chains: the chains; base @nr_chains is the zeros
 * @chain: each field's base
 * @offset: each field's offset from its base
 * @mask: each field's width as a mask of the 8 bytes read; 0 if unset
 */
struct agent_ident {
	bool fast;
	unsigned int nr_chains;
	struct agent_ident_chain chains[AGENT_IDENT_FIELDS];
	uint8_t chain[AGENT_IDENT_FIELDS];
	int32_t offset[AGENT_IDENT_FIELDS];
	uint64_t mask[AGENT_IDENT_FIELDS];
};

/* The plan of @site's identity fetches (checked: site_valid()). */
void agent_ident_plan(const struct agent_site *site, struct agent_ident *plan);

extern const uint64_t agent_ident_zeros;

#define AGENT_PAGE_MASK		4095UL

/*
 * The identity into @v (AGENT_F_QID first), from the stub's saved
 * registers as an array: 1; 0 if a pointer on the way is null (a
 * request not set up yet), or a chain's fields are not in one page (the
 * caller reads them with the generic fetches); -1 if a load faulted (a
 * stale pointer: load.h). A field is read as the 8 bytes at its
 * address, masked to its width: the bytes past it are in the page of its
 * chain's other fields, so the load cannot fault where the fields' own
 * would not. One check of the page a chain, not a field.
 */
static inline __attribute__((always_inline)) int
agent_ident_read(const struct agent_ident *p, const uint64_t *regs,
		 uint64_t v[AGENT_IDENT_FIELDS])
{
	uintptr_t base[AGENT_IDENT_BASES], addr;
	const struct agent_ident_chain *c;
	unsigned int i, k;
	uint64_t x;

	/*
	 * The plan's address, opaque: each load ends a basic block (its
	 * fixup is a branch), and the compiler would compute the address
	 * again in each rather than keep it in a register.
	 */
	__asm__("" : "+r"(p));
	for (i = 0; i < p->nr_chains; i++) {
		c = &p->chains[i];
		addr = regs[c->slot];
		for (k = 0; k < c->nr_derefs; k++) {
			if (addr < 4096)
				return 0;
			if (!agent_load8(addr + c->derefs[k], &x))
				return -1;
			addr = x;
		}
		base[i] = addr;
		addr += c->lo;
		if (addr < 4096 || ((addr ^ (addr + c->span - 1)) & ~AGENT_PAGE_MASK))
			return 0;
	}
	base[p->nr_chains] = (uintptr_t)&agent_ident_zeros;
#ifndef __clang__	/* clang does not unroll a loop of asm goto */
#pragma GCC unroll 6
#endif
	for (i = 0; i < AGENT_IDENT_FIELDS; i++) {
		if (!agent_load8(base[p->chain[i]] + p->offset[i], &x))
			return -1;
		v[i] = x & p->mask[i];
	}
	return 1;
}

#endif /* NTPROF_AGENT_IDENT_H */
