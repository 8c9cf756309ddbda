/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The agent's ABI: what the in-process agent (tools/agent,
 * libntprof-agent.so) and the ntprof tool (tools/ntprof) both read and
 * write, so that each side is built from one definition.
 *
 * - The shared memory: a memfd of the SPDK process's, named
 *   AGENT_SHM_NAME, mode 0600, sealed at AGENT_SHM_SIZE bytes. Its first
 *   page is the control page (struct agent_shm_ctl), which the agent also
 *   maps next to each trampoline area so that a trampoline tests its
 *   site's byte with one rip-relative load; then one ring of records
 *   (struct agent_shm_ring) per thread that stamps. The agent never
 *   trusts what the recorder writes here: it bounds every index and size
 *   it reads; the recorder bounds what it reads likewise.
 * - The refusal codes: why the agent did not patch a site, in the control
 *   page's site_state[], and their words (agent_refusal_str()).
 * - The site list's bounds, and the environment that 'ntprof run' hands
 *   the agent.
 *
 * A change to the layout of the shared memory is a new AGENT_SHM_VERSION:
 * the recorder refuses a control page of another version. The
 * _Static_asserts at the end pin the layout of this version, so that a
 * change compiles only together with a change of the numbers they name.
 */
#ifndef _NTPROF_AGENT_ABI_H
#define _NTPROF_AGENT_ABI_H

#include <stddef.h>
#include <stdint.h>
#include <uapi/linux/ntprof.h>

/* The memfd's name, as /proc/PID/fd shows it: "/memfd:ntprof-agent". */
#define AGENT_SHM_NAME		"ntprof-agent"
/* The site list 'ntprof run' writes for the agent (its path). */
#define AGENT_ENV_SITES		"NTPROF_AGENT_SITES"
/* ntprof run --wait: how long the agent waits for a recorder at start. */
#define AGENT_ENV_WAIT		"NTPROF_AGENT_WAIT"

#define AGENT_SHM_MAGIC		0x746e656761706e74ULL	/* "tnpagent" */
#define AGENT_SHM_VERSION	2
#define AGENT_PAGE		4096
#define AGENT_SITES_MAX		64
#define AGENT_RINGS_MAX		64
/* Records a ring holds: a power of two. */
#define AGENT_RING_RECORDS	4096

/**
 * struct agent_shm_ctl - the control page
 * @magic: AGENT_SHM_MAGIC
 * @version: AGENT_SHM_VERSION
 * @nr_sites: the sites the agent patched
 * @sample: record one command in @sample (the recorder's -s), 0 off
 * @rings_claimed: rings threads took, up to AGENT_RINGS_MAX
 * @evicted: sampled commands not followed: their thread's table was full
 * @ringless: records lost because every ring was taken by other threads
 * @deadline: the recorder's heartbeat, a TSC value: the agent turns
 *	itself off at a hit after it, so that a recorder that died leaves
 *	it off; the recorder moves it on as it takes the records
 * @expired: times the agent turned itself off for want of a heartbeat
 * @ops: the NTPROF_OP_* a recorder wants (read, write, other)
 * @min_len: the shortest command it wants, in bytes
 * @max_len: the longest
 * @transport: the transport it wants, NTPROF_TRANSPORT_NONE: both
 * @session: the recorder's session, a number it changes each time it
 *	turns the agent on: commands still followed from an earlier one
 *	are dropped, never finished with a later session's stamps
 * @site_on: a site's byte, which its trampoline tests: the recorder
 *	sets them all to turn the agent on, clears them to turn it off
 * @site_state: AGENT_STATE() of how each listed site's patch went
 * @site_vaddr: each listed site's address as linked, which names it
 * @faults: commands dropped because a load of the handler's faulted (a
 *	stale pointer of the program's: tools/agent/load.h)
 */
struct agent_shm_ctl {
	uint64_t magic;
	uint32_t version;
	uint32_t nr_sites;
	uint32_t sample;
	uint32_t rings_claimed;
	uint64_t evicted;
	uint64_t ringless;
	uint64_t deadline;
	uint64_t expired;
	uint32_t ops;
	uint32_t min_len;
	uint32_t max_len;
	uint32_t transport;
	uint32_t session;
	uint32_t pad;
	uint8_t site_on[AGENT_SITES_MAX];
	uint8_t site_state[AGENT_SITES_MAX];
	uint64_t site_vaddr[AGENT_SITES_MAX];
	uint64_t faults;
};

/**
 * struct agent_shm_ring - a thread's records, single producer
 * @head: records written, by the ring's thread only
 * @tail: records taken, by the recorder only
 * @drops: records lost to a full ring
 * @tid: the thread's id
 * @recs: the records, ts[] in TSC ticks, @head and @tail modulo the size
 */
struct agent_shm_ring {
	uint64_t head;
	uint64_t tail;
	uint64_t drops;
	uint32_t tid;
	uint32_t pad;
	struct ntprof_record recs[AGENT_RING_RECORDS];
};

#define AGENT_SHM_SIZE \
	(AGENT_PAGE + AGENT_RINGS_MAX * sizeof(struct agent_shm_ring))

/* agent_shm_ring() - the ring @i of a mapping of the whole memfd at @base. */
static inline struct agent_shm_ring *agent_shm_ring(void *base, unsigned int i)
{
	return (struct agent_shm_ring *)((char *)base + AGENT_PAGE +
					 (size_t)i * sizeof(struct agent_shm_ring));
}

/*
 * agent_ring_take() - the recorder's side of a ring: take up to @max of
 * the records its thread published into @out, and give their slots back.
 * A head that the agent could not have written (more than a ring ahead)
 * is not followed: nothing is taken. Returns the records taken.
 */
static inline size_t agent_ring_take(struct agent_shm_ring *ring,
				     struct ntprof_record *out, size_t max)
{
	uint64_t head = __atomic_load_n(&ring->head, __ATOMIC_ACQUIRE);
	uint64_t tail = ring->tail;
	size_t n = 0;

	if (head - tail > AGENT_RING_RECORDS)
		return 0;
	while (tail < head && n < max)
		out[n++] = ring->recs[tail++ % AGENT_RING_RECORDS];
	__atomic_store_n(&ring->tail, tail, __ATOMIC_RELEASE);
	return n;
}

/* Why a function was not patched; AGENT_PATCHED if it was. */
enum agent_refusal {
	AGENT_PATCHED,
	AGENT_TOO_SHORT,	/* fewer than 5 bytes after an endbr64 */
	AGENT_UNDECODABLE,	/* bytes of the body that are no instruction */
	AGENT_BRANCH_INTO_PATCH,/* a branch of the body lands in the patch */
	AGENT_UNRELOCATABLE,	/* a displaced instruction cannot move */
	AGENT_NO_TRAMPOLINE,	/* no memory within 2 GiB of the function */
	AGENT_NO_WRITE,		/* the code cannot be written */
	AGENT_NOT_LOADED,	/* its object is not mapped in the process */
	AGENT_BREAKPOINT,	/* an int3 in the bytes: a uprobe or debugger's */
	AGENT_OTHER_BUILD,	/* the list is of another build of its object */
	AGENT_BRANCH_FROM_OBJECT,/* a branch from outside the body lands in it */
	AGENT_NOT_IN_TEXT,	/* the listed address is not its object's code */
};

/* A site's state: 0 not listed, else 1 + its enum agent_refusal. */
#define AGENT_STATE(refusal)	((uint8_t)(1 + (refusal)))

/*
 * agent_refusal_str() - why the agent refused a site, in words: the
 * agent's and the tool's (ntprof probe, record) alike.
 */
static inline const char *agent_refusal_str(enum agent_refusal r)
{
	switch (r) {
	case AGENT_PATCHED:
		return "patched";
	case AGENT_TOO_SHORT:
		return "the function is shorter than the 5-byte jump";
	case AGENT_UNDECODABLE:
		return "its body has bytes that decode as no instruction";
	case AGENT_BRANCH_INTO_PATCH:
		return "a branch of its body lands inside the patched bytes";
	case AGENT_UNRELOCATABLE:
		return "a displaced instruction cannot be relocated";
	case AGENT_NO_TRAMPOLINE:
		return "no memory for a trampoline within 2 GiB of it";
	case AGENT_NO_WRITE:
		return "its code cannot be written (through /proc/self/mem)";
	case AGENT_NOT_LOADED:
		return "its executable or library is not loaded in the process";
	case AGENT_BREAKPOINT:
		return "a breakpoint is in its first bytes (a uprobe or a debugger's)";
	case AGENT_OTHER_BUILD:
		return "the site list was made from another build of its program or library";
	case AGENT_BRANCH_FROM_OBJECT:
		return "a branch from elsewhere in the object lands in the patched bytes";
	case AGENT_NOT_IN_TEXT:
		return "its address and size in the site list are not in its object's executable code";
	}
	return "unknown";
}

/*
 * The site list: the most bytes the agent displaces at a function's
 * entry (a 5-byte jump over instructions of up to 15), and the most
 * functions beside a site that the list names ("near" lines: code within
 * a rel8's reach of those bytes, which the agent decodes for branches
 * into them).
 */
#define AGENT_DISPLACED_MAX	19
#define AGENT_NEAR_MAX		16

/*
 * The layout of version 2, field by field: the recorder of one build and
 * the agent of another agree on it only through AGENT_SHM_VERSION.
 */
#define AGENT_CTL_AT(field, off) \
	_Static_assert(offsetof(struct agent_shm_ctl, field) == (off), \
		       "agent_shm_ctl." #field " moved: a new AGENT_SHM_VERSION")
AGENT_CTL_AT(magic, 0);
AGENT_CTL_AT(version, 8);
AGENT_CTL_AT(nr_sites, 12);
AGENT_CTL_AT(sample, 16);
AGENT_CTL_AT(rings_claimed, 20);
AGENT_CTL_AT(evicted, 24);
AGENT_CTL_AT(ringless, 32);
AGENT_CTL_AT(deadline, 40);
AGENT_CTL_AT(expired, 48);
AGENT_CTL_AT(ops, 56);
AGENT_CTL_AT(min_len, 60);
AGENT_CTL_AT(max_len, 64);
AGENT_CTL_AT(transport, 68);
AGENT_CTL_AT(session, 72);
AGENT_CTL_AT(site_on, 80);
AGENT_CTL_AT(site_state, 80 + AGENT_SITES_MAX);
AGENT_CTL_AT(site_vaddr, 80 + 2 * AGENT_SITES_MAX);
AGENT_CTL_AT(faults, 80 + 10 * AGENT_SITES_MAX);
#undef AGENT_CTL_AT
_Static_assert(AGENT_SHM_VERSION == 2 &&
	       sizeof(struct agent_shm_ctl) == 88 + 10 * AGENT_SITES_MAX,
	       "the control page's layout is version 2's");
_Static_assert(sizeof(struct agent_shm_ctl) <= AGENT_PAGE,
	       "the control page fits its page");
_Static_assert(offsetof(struct agent_shm_ring, recs) == 32 &&
	       sizeof(struct agent_shm_ring) ==
	       32 + AGENT_RING_RECORDS * sizeof(struct ntprof_record),
	       "a ring is its 32-byte head and its records, unpadded");
_Static_assert((AGENT_RING_RECORDS & (AGENT_RING_RECORDS - 1)) == 0,
	       "a ring's size is a power of two");
_Static_assert(1 + AGENT_NOT_IN_TEXT <= UINT8_MAX,
	       "a site's state, 1 + its refusal, fits its byte");

#endif /* _NTPROF_AGENT_ABI_H */
