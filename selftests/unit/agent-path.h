/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The set-up that test_agent_hit and test_agent_fault share: agent-cmd.c's
 * three functions of a command's path as a target map's sites (the first
 * with the identity, its namespace id a pointer away; a middle one; the
 * last), the shared memory made as the agent makes it, and the three
 * functions patched. The helpers are static functions in this header, as
 * tap.h's are, because they report in TAP and tap.h's counts are each test
 * program's own. Include it after defining _GNU_SOURCE (for dladdr1()).
 */
#ifndef NTPROF_AGENT_PATH_H
#define NTPROF_AGENT_PATH_H

#ifndef _GNU_SOURCE
#error "agent-path.h needs _GNU_SOURCE defined before the first #include"
#endif

#include <dlfcn.h>
#include <link.h>
#include <stddef.h>
#include <unistd.h>

#include "agent-cmd.h"
#include "hit.h"
#include "patch.h"
#include "tap.h"
#include "tramp.h"

#define TPATH_SITES	3

/* A field of the request, which the first site's rdi points to. */
#define TCMD_FIELD(member, w)						\
	{ .set = 1, .reg = 0, .offset = offsetof(struct tcmd, member),	\
	  .width = w }

/* The sites of tcmd_begin(), tcmd_work() and tcmd_end(), by site id. */
static const struct agent_site tpath_sites[TPATH_SITES] = {
	{
		.point = NTPROF_PT_TARGET_INIT,
		.flags = NTPROF_USITE_F_FIRST,
		.role = NTPROF_ROLE_TARGET,
		.transport = NTPROF_TRANSPORT_TCP,
		.f = {
			[AGENT_F_KEY] = { .set = 1, .reg = 0 },
			[AGENT_F_QID] = TCMD_FIELD(qid, 2),
			[AGENT_F_CID] = TCMD_FIELD(cid, 2),
			[AGENT_F_OPCODE] = TCMD_FIELD(opcode, 1),
			[AGENT_F_NSID] = {
				.set = 1, .reg = 0, .nr_derefs = 1,
				.derefs = { offsetof(struct tcmd, ns) },
				.offset = offsetof(struct tcmd_ns, id), .width = 4,
			},
			[AGENT_F_SLBA] = TCMD_FIELD(slba, 8),
			[AGENT_F_NLB] = TCMD_FIELD(nlb, 2),
			[AGENT_F_LENGTH] = TCMD_FIELD(length, 4),
		},
	},
	{
		.point = NTPROF_PT_TARGET_EXEC,
		.role = NTPROF_ROLE_TARGET,
		.transport = NTPROF_TRANSPORT_TCP,
		.f = { [AGENT_F_KEY] = { .set = 1, .reg = 0 } },
	},
	{
		.point = NTPROF_PT_TARGET_COMPLETE,
		.flags = NTPROF_USITE_F_LAST,
		.role = NTPROF_ROLE_TARGET,
		.transport = NTPROF_TRANSPORT_TCP,
		.f = { [AGENT_F_KEY] = { .set = 1, .reg = 0 } },
	},
};

/* Function @fn's size, from its dynamic symbol (the tests link -rdynamic). */
static size_t tpath_size_of(void *fn)
{
	const ElfW(Sym) *sym = NULL;
	Dl_info info;

	if (!dladdr1(fn, &info, (void **)&sym, RTLD_DL_SYMENT) || !sym)
		return 0;
	return sym->st_size;
}

/*
 * Makes the shared memory as the agent does, publishes it, gives its
 * control page to the trampolines and has the handler take @sites, each
 * step said in TAP (@made: the first test's description). The memory, or
 * NULL if it could not be made.
 */
static void *tpath_setup(const struct agent_site *sites, const char *made)
{
	void *shm = NULL;
	int fd;

	fd = agent_shm_create(&shm);
	if (fd >= 0)
		agent_shm_publish(shm);
	if (!ok(fd >= 0, "%s", made))
		return NULL;
	agent_tramp_ctl(fd);
	ok(!agent_hit_setup(shm, fd, sites, TPATH_SITES, getpid()),
	   "the sites are taken");
	return shm;
}

/*
 * Patches the three functions as sites 0 to 2 of @sites into @patches,
 * the first to stub every register, the others to follow it; each said in
 * TAP. True if all three are patched.
 */
static bool tpath_patch(const struct agent_site *sites,
			struct agent_patch *patches)
{
	static void *const funcs[TPATH_SITES] = {
		(void *)tcmd_begin, (void *)tcmd_work, (void *)tcmd_end,
	};
	enum agent_refusal r;
	bool all = true;
	unsigned int i;

	for (i = 0; i < TPATH_SITES; i++) {
		r = agent_patch((uintptr_t)funcs[i], tpath_size_of(funcs[i]), i,
				(sites[i].flags & NTPROF_USITE_F_FIRST) ?
				AGENT_STUB_ALL : AGENT_STUB_FOLLOW,
				&patches[i]);
		if (!ok(r == AGENT_PATCHED, "site %u patched", i)) {
			diag("%s", agent_refusal_str(r));
			all = false;
		}
	}
	return all;
}

#endif /* NTPROF_AGENT_PATH_H */
