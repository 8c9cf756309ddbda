// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of a first site's identity plan (tools/agent/ident.c): the
 * plan reads what the site's fetches name, through two chains (one
 * through a pointer), unset fields as 0, and declines (for the handler
 * to fetch field by field) where its 8-byte loads could leave the
 * fields' page: a chain whose fields end at a page with no access
 * behind it is refused without a fault; a null pointer on the way is
 * refused; a field that is an address, or fields farther apart than a
 * page, make no plan.
 * Prints TAP; exits 1 if any test failed.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ident.h"
#include "regs.h"
#include "tap.h"

struct ns {
	uint32_t flags;
	uint32_t id;
};

struct cmd {
	uint8_t opcode;
	uint8_t pad;
	uint16_t cid;
	struct ns *ns;
	uint64_t slba;
	uint16_t nlb;
};

#define FIELD(member, w)						\
	{ .set = 1, .reg = 1, .offset = offsetof(struct cmd, member),	\
	  .width = w }

static struct agent_site site = {
	.flags = NTPROF_USITE_F_FIRST,
	.f = {
		[AGENT_F_KEY] = { .set = 1, .reg = 1 },
		[AGENT_F_CID] = FIELD(cid, 2),
		[AGENT_F_OPCODE] = FIELD(opcode, 1),
		[AGENT_F_NSID] = {
			.set = 1, .reg = 1, .nr_derefs = 1,
			.derefs = { offsetof(struct cmd, ns) },
			.offset = offsetof(struct ns, id), .width = 4,
		},
		[AGENT_F_SLBA] = FIELD(slba, 8),
		[AGENT_F_NLB] = FIELD(nlb, 2),
	},
};

/* The stub's saved registers, the command's address as rsi (reg 1). */
static bool read_at(const struct agent_ident *plan, struct cmd *c,
		    uint64_t v[AGENT_IDENT_FIELDS])
{
	uint64_t regs[sizeof(struct agent_regs) / 8] = { 0 };

	regs[agent_reg_slot[1]] = (uintptr_t)c;
	memset(v, 0xa5, AGENT_IDENT_FIELDS * sizeof(v[0]));
	return agent_ident_read(plan, regs, v) == 1;
}

/* A first site's identity plan, against pages it must not read past. */
static void test_plan(void)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t v[AGENT_IDENT_FIELDS];
	struct agent_ident plan;
	struct ns ns = { 7, 0x12345678 };
	struct cmd *c;
	uint8_t *mem;

	/* Two pages, the second with no access: a fault if read. */
	mem = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED || mprotect(mem + page, page, PROT_NONE))
		tap_bail("no memory");

	agent_ident_plan(&site, &plan);
	ok(plan.fast && plan.nr_chains == 2,
	   "a plan of two chains: the command's, and its namespace's");

	/* Bytes around the fields that the masks must drop. */
	c = (struct cmd *)mem;
	memset(c, 0xff, sizeof(*c));
	c->opcode = 0x02;
	c->cid = 0x1234;
	c->ns = &ns;
	c->slba = 0x1122334455667788ULL;
	c->nlb = 7;
	ok(read_at(&plan, c, v) && v[0] == 0 && v[1] == 0x1234 &&
	   v[2] == 0x02 && v[3] == 0x12345678 &&
	   v[4] == 0x1122334455667788ULL && v[5] == 7,
	   "each field read at its width, the unset qid 0");

	/* The command's last field in its page's last bytes. */
	c = (struct cmd *)(mem + page - offsetof(struct cmd, nlb) - 2);
	c->opcode = 0x01;
	c->ns = &ns;
	ok(!read_at(&plan, c, v),
	   "fields that end at a page with nothing behind it: declined, no fault");

	c = (struct cmd *)mem;
	c->ns = NULL;
	ok(!read_at(&plan, c, v), "a null pointer on the way: declined");
	ok(!read_at(&plan, NULL, v), "a null request: declined");
	munmap(mem, 2 * page);
}

/* Sites whose fields cannot be read in one plan. */
static void test_no_plan(void)
{
	struct agent_ident plan;
	struct agent_site other;

	other = site;
	other.f[AGENT_F_QID] = (struct agent_fetch){ .set = 1, .reg = 1 };
	agent_ident_plan(&other, &plan);
	ok(!plan.fast, "a field that is an address: no plan");

	other = site;
	other.f[AGENT_F_NLB].offset = 8192;
	agent_ident_plan(&other, &plan);
	ok(!plan.fast, "fields farther apart than a page: no plan");
}

static const struct tap_case cases[] = {
	{ "plan", test_plan },
	{ "no_plan", test_no_plan },
};

int main(int argc, char *argv[])
{
	return tap_main(argc, argv, "test_agent_ident", cases, TAP_NR_CASES(cases));
}
