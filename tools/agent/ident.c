// SPDX-License-Identifier: GPL-2.0
/* A first site's identity plan (ident.h), made once at start-up. */
#include <stddef.h>
#include <string.h>

#include "ident.h"
#include "regs.h"

const uint64_t agent_ident_zeros;

const uint8_t agent_reg_slot[6] = {
	offsetof(struct agent_regs, rdi) / 8, offsetof(struct agent_regs, rsi) / 8,
	offsetof(struct agent_regs, rdx) / 8, offsetof(struct agent_regs, rcx) / 8,
	offsetof(struct agent_regs, r8) / 8, offsetof(struct agent_regs, r9) / 8,
};

/* The chain of @x, added to @plan if no field before went through it. */
static uint8_t chain_of(const struct agent_fetch *x, struct agent_ident *plan)
{
	struct agent_ident_chain *c;
	unsigned int i;

	for (i = 0; i < plan->nr_chains; i++) {
		c = &plan->chains[i];
		if (c->slot == agent_reg_slot[x->reg] && c->nr_derefs == x->nr_derefs &&
		    !memcmp(c->derefs, x->derefs,
			    x->nr_derefs * sizeof(x->derefs[0])))
			return i;
	}
	c = &plan->chains[plan->nr_chains];
	memset(c, 0, sizeof(*c));
	c->slot = agent_reg_slot[x->reg];
	c->nr_derefs = x->nr_derefs;
	memcpy(c->derefs, x->derefs, x->nr_derefs * sizeof(x->derefs[0]));
	c->lo = x->offset;
	return plan->nr_chains++;
}

void agent_ident_plan(const struct agent_site *site, struct agent_ident *plan)
{
	const struct agent_fetch *x;
	struct agent_ident_chain *c;
	unsigned int i, k;
	int64_t end;

	memset(plan, 0, sizeof(*plan));
	for (i = 0; i < AGENT_IDENT_FIELDS; i++) {
		x = &site->f[AGENT_F_QID + i];
		if (x->set && !x->width)
			return;
		if (!x->set)
			continue;
		k = chain_of(x, plan);
		c = &plan->chains[k];
		plan->chain[i] = k;
		plan->offset[i] = x->offset;
		plan->mask[i] = x->width == 8 ? ~0ULL :
			       (1ULL << (8 * x->width)) - 1;
		/* The chain's bytes: each field's 8, from the lowest. */
		end = (int64_t)c->lo + c->span;
		if (x->offset < c->lo)
			c->lo = x->offset;
		if (end < (int64_t)x->offset + 8)
			end = (int64_t)x->offset + 8;
		if (end - c->lo > 4096)
			return;
		c->span = end - c->lo;
	}
	/* The unset fields: the zeros, masked to nothing. */
	for (i = 0; i < AGENT_IDENT_FIELDS; i++)
		if (!site->f[AGENT_F_QID + i].set)
			plan->chain[i] = plan->nr_chains;
	plan->fast = true;
}
