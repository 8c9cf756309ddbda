// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the agent's entry patching (tools/agent/patch.c) on
 * functions of this program: agent-shapes.c at -O2 with and without
 * -fcf-protection, and agent-shapes.S's rarer prologues. For each
 * function: its results over 10^6 random calls unpatched; then patched,
 * the same results with its site off (no hit) and on (a hit a call, with
 * the call's arguments in the registers the handler sees); then
 * unpatched, its bytes as they were; then patched as a site that only
 * follows commands, whose stub calls the handler only while the thread
 * has a sampled command in flight. Each function the rules refuse is
 * refused with its reason, and left as it was.
 * Prints TAP; exits 1 if any test failed.
 */
#define _GNU_SOURCE	/* dladdr1() */
#include <dlfcn.h>
#include <link.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent-hit-test.h"
#include "patch.h"
#include "tap.h"
#include "tramp.h"

#define CALLS	1000000

typedef uint64_t (*fn6)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t,
			uint64_t);

#define SHAPES(p)							\
	uint64_t p##add(uint64_t, uint64_t);				\
	uint64_t p##global(uint64_t);					\
	uint64_t p##loop(uint64_t);					\
	uint64_t p##stack(uint64_t, uint64_t, uint64_t);		\
	uint64_t p##tail(uint64_t);					\
	uint64_t p##recurse(uint64_t);					\
	uint64_t p##choose(uint64_t);					\
	uint64_t p##six(uint64_t, uint64_t, uint64_t, uint64_t,		\
			uint64_t, uint64_t)
SHAPES(cf_);
SHAPES(nocf_);
uint64_t asm_rip_first(uint64_t);
uint64_t asm_endbr_rip(uint64_t);
uint64_t asm_jcc_first(uint64_t);
uint64_t asm_call_first(uint64_t);
uint64_t asm_loop_entry(uint64_t, uint64_t);
uint64_t asm_branch_inside(uint64_t);
uint64_t asm_short(uint64_t);
uint64_t asm_jrcxz_first(uint64_t);
uint64_t asm_breakpoint(uint64_t);
uint64_t asm_calls_into(uint64_t);
uint64_t asm_called_inside(uint64_t);
uint64_t asm_near_piece(uint64_t);
uint64_t asm_near_target(uint64_t);

/* agent-shapes-cold.c: spin() and its piece spin.cold. */
struct shape_lock {
	uint64_t spins;
	uint64_t held;
	uint64_t backoffs;
};
uint64_t cf_spin(struct shape_lock *);
uint64_t nocf_spin(struct shape_lock *);

/* Hits a call: exactly one, or at least one (loops, recursion). */
enum hits { ONE, SOME };

struct shape {
	const char *name;
	void *fn;
	uint64_t mask0;		/* the first argument's bits */
	enum agent_refusal want;
	enum hits hits;
};

#define S(f, mask, want, hits) { #f, (void *)f, mask, want, hits }
#define C_SHAPES(p)							\
	S(p##add, ~0ULL, AGENT_PATCHED, ONE),				\
	S(p##global, ~0ULL, AGENT_PATCHED, ONE),			\
	S(p##loop, ~0ULL, AGENT_PATCHED, ONE),				\
	S(p##stack, ~0ULL, AGENT_PATCHED, ONE),				\
	S(p##tail, ~0ULL, AGENT_PATCHED, ONE),				\
	S(p##recurse, ~0ULL, AGENT_PATCHED, SOME),			\
	S(p##choose, ~0ULL, AGENT_PATCHED, ONE),			\
	S(p##six, ~0ULL, AGENT_PATCHED, ONE)

static const struct shape shapes[] = {
	C_SHAPES(cf_),
	C_SHAPES(nocf_),
	S(asm_rip_first, ~0ULL, AGENT_PATCHED, ONE),
	S(asm_endbr_rip, ~0ULL, AGENT_PATCHED, ONE),
	S(asm_jcc_first, 3, AGENT_PATCHED, ONE),
	S(asm_call_first, ~0ULL, AGENT_PATCHED, ONE),
	S(asm_loop_entry, 15, AGENT_PATCHED, SOME),
	S(asm_branch_inside, ~0ULL, AGENT_BRANCH_INTO_PATCH, ONE),
	S(asm_short, ~0ULL, AGENT_TOO_SHORT, ONE),
	S(asm_jrcxz_first, ~0ULL, AGENT_UNRELOCATABLE, ONE),
	S(asm_breakpoint, ~0ULL, AGENT_BREAKPOINT, ONE),
};

static uint64_t rng_state;

static uint64_t rng(void)
{
	/* xorshift64*: the same calls in every run of a shape */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

/*
 * CALLS calls of @s with the same arguments each time: a digest of the
 * results, and the last call's arguments in @last.
 */
static uint64_t run(const struct shape *s, uint64_t last[6])
{
	fn6 f = (fn6)s->fn;
	uint64_t a[6], digest = 0;
	int i, k;

	rng_state = 0x9e3779b97f4a7c15ULL;
	for (i = 0; i < CALLS; i++) {
		for (k = 0; k < 6; k++)
			a[k] = rng();
		a[0] &= s->mask0;
		digest = (digest ^ f(a[0], a[1], a[2], a[3], a[4], a[5])) *
			 0x100000001b3ULL;
	}
	memcpy(last, a, sizeof(a));
	return digest;
}

/* The function's size, from its dynamic symbol (-rdynamic). */
static size_t size_of(void *fn)
{
	const ElfW(Sym) *sym = NULL;
	Dl_info info;

	if (!dladdr1(fn, &info, (void **)&sym, RTLD_DL_SYMENT) || !sym ||
	    info.dli_saddr != fn)
		return 0;
	return sym->st_size;
}

static bool regs_are(const struct agent_regs *r, const uint64_t a[6])
{
	return r->rdi == a[0] && r->rsi == a[1] && r->rdx == a[2] &&
	       r->rcx == a[3] && r->r8 == a[4] && r->r9 == a[5];
}

/*
 * Patched as a site that starts no command: on, no hit while the thread
 * has no sampled command in flight, a hit a call while it has one; the
 * same results either way.
 */
static void test_follow(const struct shape *s, uint32_t site, size_t size,
			uint64_t want)
{
	struct agent_patch p;
	uint64_t got, last[6];

	if (!ok(agent_patch((uintptr_t)s->fn, size, site, AGENT_STUB_FOLLOW,
			    &p) == AGENT_PATCHED,
		"%s: patched again, to follow commands", s->name))
		return;
	*p.on = 1;
	test_hits[site] = 0;
	agent_inflight = 0;
	got = run(s, last);
	ok(got == want && test_hits[site] == 0,
	   "%s: following, on, nothing in flight: the same results, no hit",
	   s->name);
	agent_inflight = 1;
	got = run(s, last);
	agent_inflight = 0;
	*p.on = 0;
	ok(got == want && (s->hits == ONE ? test_hits[site] == CALLS &&
			   regs_are(&test_last[site], last) :
			   test_hits[site] >= CALLS),
	   "%s: following, on, a command in flight: the same results, the hits and their registers",
	   s->name);
	ok(!agent_unpatch(&p) && run(s, last) == want,
	   "%s: unpatched again, its results as they were", s->name);
}

static void test_shape(const struct shape *s, uint32_t site)
{
	uint8_t before[32];
	uint64_t want, got, last[6];
	size_t size = size_of(s->fn);
	struct agent_patch p;
	enum agent_refusal r;

	if (!ok(size > 0, "%s: its size from the symbol table", s->name))
		return;
	want = run(s, last);
	memcpy(before, s->fn, size < sizeof(before) ? size : sizeof(before));
	r = agent_patch((uintptr_t)s->fn, size, site, AGENT_STUB_ALL, &p);
	if (!ok(r == s->want, "%s (%zu bytes): %s", s->name, size,
		agent_refusal_str(s->want)))
		diag("got: %s", agent_refusal_str(r));
	if (r != AGENT_PATCHED) {
		ok(!memcmp(before, s->fn, size < sizeof(before) ? size : sizeof(before)) &&
		   run(s, last) == want,
		   "%s: refused, its bytes and results as they were", s->name);
		return;
	}
	diag("%s: %zu bytes displaced at +%zu", s->name, p.len,
	     (size_t)(p.at - p.entry));

	test_hits[site] = 0;
	got = run(s, last);
	ok(got == want && test_hits[site] == 0,
	   "%s: patched and off, the same results over %d calls, no hit",
	   s->name, CALLS);

	*p.on = 1;
	got = run(s, last);
	*p.on = 0;
	if (!ok(got == want && (s->hits == ONE ? test_hits[site] == CALLS :
				test_hits[site] >= CALLS),
		"%s: on, the same results and %s hit a call", s->name,
		s->hits == ONE ? "one" : "at least one"))
		diag("%lu hits", (unsigned long)test_hits[site]);
	if (s->hits == ONE)
		ok(regs_are(&test_last[site], last),
		   "%s: the handler saw the last call's six argument registers",
		   s->name);

	ok(!agent_unpatch(&p) &&
	   !memcmp(before, s->fn, size < sizeof(before) ? size : sizeof(before)) &&
	   run(s, last) == want,
	   "%s: unpatched, its bytes and results as they were", s->name);
	test_follow(s, site, size, want);
}

/*
 * The check of branches from elsewhere in the object, wrapped
 * (-Wl,--wrap=agent_xref_check): off in a child, to show what it keeps
 * from happening.
 */
enum agent_refusal __real_agent_xref_check(uintptr_t at, size_t len);
enum agent_refusal __wrap_agent_xref_check(uintptr_t at, size_t len);
static bool xref_off;

enum agent_refusal __wrap_agent_xref_check(uintptr_t at, size_t len)
{
	return xref_off ? AGENT_PATCHED : __real_agent_xref_check(at, len);
}

/*
 * A rel8 branch from beside a function into its first bytes, which
 * only decoding the code beside it finds: asm_near_piece's jmp into
 * asm_near_target. Patched without that (in a child), the piece breaks.
 */
static void test_near(uint32_t site)
{
	size_t size = size_of((void *)asm_near_target);
	struct agent_code piece = {
		(uintptr_t)asm_near_piece, size_of((void *)asm_near_piece),
	};
	struct agent_patch p;
	enum agent_refusal r;
	int status;
	pid_t pid;

	if (!ok(size && piece.size && asm_near_piece(5) == 7 &&
		asm_near_target(5) == 7, "asm_near_target and its piece run"))
		return;
	r = agent_patch_near((uintptr_t)asm_near_target, size, &piece, 1);
	if (!ok(r == AGENT_BRANCH_FROM_OBJECT,
		"asm_near_target, its piece named near it: %s",
		agent_refusal_str(AGENT_BRANCH_FROM_OBJECT)))
		diag("got: %s", agent_refusal_str(r));
	ok(agent_patch_near((uintptr_t)asm_near_target, size, NULL, 0) ==
	   AGENT_PATCHED, "asm_near_target, nothing named near it: no objection");
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (agent_patch((uintptr_t)asm_near_target, size, site,
				AGENT_STUB_ALL, &p) != AGENT_PATCHED)
			_exit(3);
		alarm(10);
		_exit(asm_near_target(5) == 7 && asm_near_piece(5) == 7 ? 0 : 4);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		status = 0;
	if (!ok(!WIFEXITED(status) || WEXITSTATUS(status) == 4,
		"asm_near_target patched without it: its piece breaks"))
		diag("the child exited %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		diag("the child was killed by signal %d", WTERMSIG(status));
}

/*
 * Every mmap and mprotect of the agent's, wrapped (-Wl,--wrap): asking
 * for a page writable and executable at once is counted. Every pwrite
 * (the agent writes code through /proc/self/mem), wrapped: the
 * pwrite_fail'th from now fails, having written pwrite_part bytes.
 */
void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd,
		  off_t off);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd,
		  off_t off);
int __real_mprotect(void *addr, size_t len, int prot);
int __wrap_mprotect(void *addr, size_t len, int prot);
ssize_t __real_pwrite(int fd, const void *buf, size_t n, off_t off);
ssize_t __wrap_pwrite(int fd, const void *buf, size_t n, off_t off);
static unsigned int wx_asked, pwrite_fail;
static size_t pwrite_part;

void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd,
		  off_t off)
{
	wx_asked += (prot & (PROT_WRITE | PROT_EXEC)) == (PROT_WRITE | PROT_EXEC);
	return __real_mmap(addr, len, prot, flags, fd, off);
}

int __wrap_mprotect(void *addr, size_t len, int prot)
{
	wx_asked += (prot & (PROT_WRITE | PROT_EXEC)) == (PROT_WRITE | PROT_EXEC);
	return __real_mprotect(addr, len, prot);
}

ssize_t __wrap_pwrite(int fd, const void *buf, size_t n, off_t off)
{
	if (!pwrite_fail || --pwrite_fail)
		return __real_pwrite(fd, buf, n, off);
	if (!pwrite_part) {
		errno = EIO;
		return -1;
	}
	return __real_pwrite(fd, buf, pwrite_part < n ? pwrite_part : n, off);
}

/* The permissions ("r-xp") of the mapping that holds @addr, or "". */
static void perms_of(const void *addr, char perms[8])
{
	unsigned long start, end;
	char line[512];
	FILE *f = fopen("/proc/self/maps", "re");

	perms[0] = '\0';
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx %7s", &start, &end, perms) == 3 &&
		    (uintptr_t)addr >= start && (uintptr_t)addr < end)
			break;
		else
			perms[0] = '\0';
	if (f)
		fclose(f);
}

/* How many mappings of this process are writable and executable. */
static unsigned int wx_mappings(void)
{
	char line[512], perms[8];
	unsigned int n = 0;
	FILE *f = fopen("/proc/self/maps", "re");

	while (f && fgets(line, sizeof(line), f))
		n += sscanf(line, "%*x-%*x %7s", perms) == 1 &&
		     perms[1] == 'w' && perms[2] == 'x';
	if (f)
		fclose(f);
	return n;
}

/*
 * A write of code that fails: the trampoline's (the first pwrite), or
 * the jump's (the second), whole or after two bytes. The site is
 * refused, and the function's bytes, protections and results are as
 * they were.
 */
static void test_write_fails(const struct shape *s, uint32_t site)
{
	static const struct { unsigned int at; size_t part; const char *what; } f[] = {
		{ 1, 0, "the trampoline's write fails" },
		{ 2, 0, "the jump's write fails" },
		{ 2, 2, "the jump's write stops after 2 bytes" },
	};
	size_t size = size_of(s->fn), k;
	char perms[8], perms_after[8];
	uint64_t want, last[6];
	uint8_t before[32];
	struct agent_patch p;
	enum agent_refusal r;

	want = run(s, last);
	memcpy(before, s->fn, sizeof(before));
	perms_of(s->fn, perms);
	for (k = 0; k < sizeof(f) / sizeof(f[0]); k++) {
		pwrite_fail = f[k].at;
		pwrite_part = f[k].part;
		r = agent_patch((uintptr_t)s->fn, size, site, AGENT_STUB_ALL, &p);
		pwrite_fail = 0;
		perms_of(s->fn, perms_after);
		if (!ok(r == AGENT_NO_WRITE && !memcmp(before, s->fn, sizeof(before)) &&
			!strcmp(perms, perms_after) && run(s, last) == want,
			"%s: %s: refused, its bytes, protections (%s) and results as they were",
			s->name, f[k].what, perms))
			diag("got: %s, %s", agent_refusal_str(r), perms_after);
	}
}

/*
 * No page writable and executable: none asked for (mmap, mprotect), none
 * in /proc/self/maps with every shape patched; the stubs' pointers
 * read-only.
 */
static void test_wx(void)
{
	struct agent_tramp t;
	char perms[8];

	ok(!wx_asked, "no mmap or mprotect of the agent's asked for a page writable and executable (%u did)",
	   wx_asked);
	ok(!wx_mappings(), "no mapping is writable and executable");
	if (!ok(!agent_tramp_get((uintptr_t)test_wx, 16, 0, AGENT_STUB_ALL, &t),
		"a trampoline's room"))
		return;
	perms_of(t.stub_slot, perms);
	ok(!strcmp(perms, "r--p") && *t.stub_slot,
	   "the stubs' pointers are read-only (%s)", perms);
}

/* spin(@spins), its cold path taken @spins times: 3 * spins + 1? */
static bool spin_right(uint64_t (*spin)(struct shape_lock *), uint64_t spins)
{
	struct shape_lock l = { .spins = spins };

	return spin(&l) == 3 * spins + 1 && l.backoffs == spins;
}

/*
 * landing_in() - the first offset past @fn's entry, within its first @len
 * bytes, on which a branch from elsewhere in the object lands: the
 * agent's own search, which looks past the entry, over a range one byte
 * longer each time; 0 when there is none.
 */
static size_t landing_in(void *fn, size_t len)
{
	size_t k;

	for (k = 1; k < len; k++)
		if (__real_agent_xref_check((uintptr_t)fn, k + 1) ==
		    AGENT_BRANCH_FROM_OBJECT)
			return k;
	return 0;
}

/*
 * gcc's split function: spin.cold jumps back into spin's first bytes.
 * Without the check, patched, the bytes the cold path lands on are the
 * patch's, no longer spin's code. What running them does depends on
 * where the trampoline lies (the jump's displacement is what the cold
 * path executes), so a run of it in a child, which it may kill or
 * mislead or, by chance, not, is shown as a diagnostic only. With the
 * check, the site is refused with its reason, and spin runs as it did.
 */
static void test_split(const char *name, uint64_t (*spin)(struct shape_lock *),
		       uint32_t site)
{
	size_t size = size_of((void *)spin), k;
	uint8_t before[128];
	struct agent_patch p;
	enum agent_refusal r;
	bool rewritten;
	int status;
	pid_t pid;

	if (!ok(size > 0 && size <= sizeof(before) && spin_right(spin, 0) &&
		spin_right(spin, 3), "%s: its results unpatched, the cold path too",
		name))
		return;
	memcpy(before, (void *)spin, size);
	k = landing_in((void *)spin, size);
	xref_off = true;
	r = agent_patch((uintptr_t)spin, size, site, AGENT_STUB_ALL, &p);
	rewritten = k && r == AGENT_PATCHED &&
		    (uintptr_t)spin + k < p.at + p.len &&
		    ((uint8_t *)spin)[k] != before[k];
	if (r == AGENT_PATCHED && agent_unpatch(&p))
		rewritten = false;
	if (!ok(rewritten && !memcmp(before, (void *)spin, size),
		"%s: without the check, patched, the byte its cold path lands on is the patch's",
		name))
		diag("landing offset %zu, %s", k, agent_refusal_str(r));
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (agent_patch((uintptr_t)spin, size, site, AGENT_STUB_ALL,
				&p) != AGENT_PATCHED)
			_exit(3);
		alarm(10);
		_exit(spin_right(spin, 0) && spin_right(spin, 3) ? 0 : 4);
	}
	xref_off = false;
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		diag("%s: no child to run it patched", name);
	else if (WIFSIGNALED(status))
		diag("%s: run patched, the child was killed by signal %d", name,
		     WTERMSIG(status));
	else
		diag("%s: run patched, the child's results were %s", name,
		     WEXITSTATUS(status) == 4 ? "wrong" :
		     WEXITSTATUS(status) ? "not reached" : "right, by chance");

	r = agent_patch((uintptr_t)spin, size, site, AGENT_STUB_ALL, &p);
	if (!ok(r == AGENT_BRANCH_FROM_OBJECT, "%s (%zu bytes): %s", name,
		size, agent_refusal_str(AGENT_BRANCH_FROM_OBJECT)))
		diag("got: %s", agent_refusal_str(r));
	ok(!memcmp(before, (void *)spin, size) && spin_right(spin, 0) &&
	   spin_right(spin, 3),
	   "%s: refused, its bytes and results as they were, the cold path too",
	   name);
}

/*
 * A branch into a site's first bytes from code a patch moved to a
 * trampoline: asm_calls_into's call asm_called_inside + 3.
 */
static void test_moved_branch(uint32_t site)
{
	size_t size = size_of((void *)asm_calls_into);
	size_t inside = size_of((void *)asm_called_inside);
	struct agent_patch p, q;
	enum agent_refusal r;

	if (!ok(agent_patch((uintptr_t)asm_calls_into, size, site,
			    AGENT_STUB_ALL, &p) == AGENT_PATCHED &&
		asm_calls_into(5) == 7,
		"asm_calls_into: patched, its call into asm_called_inside moved to its trampoline"))
		return;
	r = agent_patch((uintptr_t)asm_called_inside, inside, site + 1,
			AGENT_STUB_ALL, &q);
	if (!ok(r == AGENT_BRANCH_FROM_OBJECT && asm_calls_into(5) == 7 &&
		asm_called_inside(5) == 6,
		"asm_called_inside: refused for the call in the trampoline, both run"))
		diag("got: %s", agent_refusal_str(r));
	ok(!agent_unpatch(&p) &&
	   agent_patch((uintptr_t)asm_called_inside, inside, site + 1,
		       AGENT_STUB_ALL, &q) == AGENT_BRANCH_FROM_OBJECT &&
	   asm_calls_into(5) == 7,
	   "asm_calls_into unpatched: asm_called_inside refused for its call");
}

/*
 * The cases' site numbers: one per shape, then the split functions', then
 * the others', as they were when main() called them in a row.
 */
#define NR_SHAPES (sizeof(shapes) / sizeof(shapes[0]))

static void t_shapes(void)
{
	size_t i;

	for (i = 0; i < NR_SHAPES; i++)
		test_shape(&shapes[i], i);
}

static void t_split(void)
{
	test_split("cf_spin", cf_spin, NR_SHAPES);
	test_split("nocf_spin", nocf_spin, NR_SHAPES + 1);
}

static void t_moved_branch(void)
{
	test_moved_branch(NR_SHAPES + 2);
}

static void t_near(void)
{
	test_near(NR_SHAPES + 4);
}

static void t_write_fails(void)
{
	test_write_fails(&shapes[0], NR_SHAPES + 4);
	test_write_fails(&shapes[8], NR_SHAPES + 4);
}

static const struct tap_case cases[] = {
	{ "shapes", t_shapes },
	{ "split", t_split },
	{ "moved_branch", t_moved_branch },
	{ "near", t_near },
	{ "write_fails", t_write_fails },
	{ "wx", test_wx },
};

int main(int argc, char *argv[])
{
	return tap_main(argc, argv, "test_agent_patch", cases,
			TAP_NR_CASES(cases));
}
