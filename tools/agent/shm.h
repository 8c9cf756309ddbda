/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The memory an agent shares with its recorder: a memfd of the SPDK
 * process's, mode 0600, sealed at its size (shm.c). Its first page is the control page, which the
 * agent also maps next to each trampoline area so that a trampoline
 * tests its site's byte with one rip-relative load; then one ring of
 * records per thread that stamps. The agent never trusts what the
 * recorder writes here: it bounds every index and size it reads.
 */
#ifndef NTPROF_AGENT_SHM_H
#define NTPROF_AGENT_SHM_H

#include <stddef.h>
#include <stdint.h>
#include <uapi/linux/ntprof.h>

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

/* A site's state: 0 not listed, else 1 + its enum agent_refusal (patch.h). */
#define AGENT_STATE(refusal)	((uint8_t)(1 + (refusal)))

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

/* The ring @i of a mapping of the whole memfd at @base. */
static inline struct agent_shm_ring *agent_shm_ring(void *base, unsigned int i)
{
	return (struct agent_shm_ring *)((char *)base + AGENT_PAGE +
					 (size_t)i * sizeof(struct agent_shm_ring));
}

/*
 * The recorder's side of a ring: takes up to @max of the records its
 * thread published into @out, and gives their slots back. A head that
 * the agent could not have written (more than a ring ahead) is not
 * followed: nothing is taken.
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

#define AGENT_SHM_SIZE \
	(AGENT_PAGE + AGENT_RINGS_MAX * sizeof(struct agent_shm_ring))

/*
 * The agent's side (shm.c): a new memfd of AGENT_SHM_SIZE bytes, named
 * "ntprof-agent", mode 0600, sealed against shrinking and growing (and
 * further sealing), MFD_NOEXEC_SEAL where the kernel has it, mapped at
 * *@base and off, not yet published. Its descriptor, or -errno.
 */
int agent_shm_create(void **base);

/*
 * Its magic and version, written last, once the sites are patched and
 * their states written: a recorder attaches to a whole control page.
 */
void agent_shm_publish(void *base);

#endif /* NTPROF_AGENT_SHM_H */
