// SPDX-License-Identifier: GPL-2.0
/*
 * The handler. Built with -mgeneral-regs-only: the stub saved the
 * general registers only. No lock, no system call, no allocation, never
 * a wait: a thread's in-flight table and ring are its own (the ring is
 * claimed once, with one atomic add), a full ring or table is a count.
 *
 * A first site reads the command's identity and decides with the
 * kernel's sampling hash (the uapi header's ntprof_sample_hash()), so
 * that an SPDK side and a kernel side sample the same commands; a
 * sampled command gets a slot under its key (the request's address) in
 * the thread's table, later sites stamp it, and a last site writes its
 * record to the ring. SPDK completes a request on the thread of its poll
 * group, where it started: one thread's table sees all its sites.
 * Stamps are the TSC, read with rdtscp, which also tells the CPU.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "hit.h"
#include "ident.h"
#include "regs.h"

/* Sampled commands in flight on one thread: a power of two. */
#define INFLIGHT	256
#define PROBES		8

struct slot {
	uint64_t key;		/* 0: free */
	uint32_t session;	/* the control page's when it was taken */
	struct ntprof_record rec;
};

/* Hits between two looks at the recorder's heartbeat: a power of two. */
#define BEAT_HITS	16

struct thread_state {
	struct agent_shm_ring *ring;
	unsigned int hits;
	bool no_ring;		/* every ring was taken: records are drops */
	struct slot slots[INFLIGHT];
};

static __thread struct thread_state self __attribute__((tls_model("initial-exec")));

static struct agent_shm_ctl *ctl;
static void *shm_base;
static struct agent_site sites[AGENT_SITES_MAX];
/* The identity plans of first sites, by site id. */
static struct agent_ident idents[AGENT_SITES_MAX];
static unsigned int nr_sites;
static uint32_t agent_pid;

/* What the handler indexes or reads with, within bounds. */
static bool site_valid(const struct agent_site *s)
{
	const struct agent_fetch *f;
	unsigned int i;

	if (s->point >= NTPROF_RECORD_POINTS || !s->f[AGENT_F_KEY].set)
		return false;
	for (i = 0; i < AGENT_F_COUNT; i++) {
		f = &s->f[i];
		if (f->set && (f->reg > 5 || f->nr_derefs > AGENT_DEREFS_MAX ||
			       (f->width & (f->width - 1)) || f->width > 8))
			return false;
	}
	return true;
}

int agent_hit_setup(void *shm, const struct agent_site *s, unsigned int n,
		    uint32_t pid)
{
	unsigned int i;

	if (n > AGENT_SITES_MAX)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!site_valid(&s[i]))
			return -EINVAL;
	shm_base = shm;
	ctl = shm;
	memcpy(sites, s, n * sizeof(*s));
	for (i = 0; i < n; i++)
		agent_ident_plan(&s[i], &idents[i]);
	nr_sites = n;
	agent_pid = pid;
	return 0;
}

static inline uint64_t tsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static inline uint64_t tsc_cpu(uint16_t *cpu)
{
	uint32_t lo, hi, aux;

	__asm__ volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux));
	/* Linux keeps the CPU number in TSC_AUX's low 12 bits. */
	*cpu = aux & 0xfff;
	return (uint64_t)hi << 32 | lo;
}

/*
 * A fetch's value. Its offsets are the program's own DWARF's; a null
 * pointer on the way (a request not set up yet) is a failed read. The
 * identity's are agent_ident_read()'s; these come after the sampling.
 */
static bool fetch(const struct agent_fetch *f, const struct agent_regs *r,
		  uint64_t *v)
{
	uintptr_t addr = ((const uint64_t *)r)[agent_reg_slot[f->reg]];
	unsigned int i;

	for (i = 0; i < f->nr_derefs; i++) {
		if (addr < 4096)
			return false;
		addr = *(const uintptr_t *)(addr + f->derefs[i]);
	}
	addr += f->offset;
	if (!f->width) {
		*v = addr;
		return true;
	}
	if (addr < 4096)
		return false;
	switch (f->width) {
	case 1: *v = *(const uint8_t *)addr; return true;
	case 2: *v = *(const uint16_t *)addr; return true;
	case 4: *v = *(const uint32_t *)addr; return true;
	case 8: *v = *(const uint64_t *)addr; return true;
	}
	return false;
}

/* The thread's ring, claimed at its first record; NULL if none is left. */
static struct agent_shm_ring *ring_of_thread(void)
{
	unsigned int i;

	if (self.ring || self.no_ring)
		return self.ring;
	i = __atomic_fetch_add(&ctl->rings_claimed, 1, __ATOMIC_RELAXED);
	if (i >= AGENT_RINGS_MAX) {
		self.no_ring = true;
		return NULL;
	}
	self.ring = agent_shm_ring(shm_base, i);
	return self.ring;
}

static void emit(const struct ntprof_record *rec)
{
	struct agent_shm_ring *ring = ring_of_thread();
	uint64_t head, tail;

	if (!ring) {
		__atomic_fetch_add(&ctl->ringless, 1, __ATOMIC_RELAXED);
		return;
	}
	head = ring->head;
	/* The recorder's tail, bounded: whatever it wrote, no overrun. */
	tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);
	if (head - tail >= AGENT_RING_RECORDS || tail > head) {
		ring->drops++;
		return;
	}
	ring->recs[head & (AGENT_RING_RECORDS - 1)] = *rec;
	__atomic_store_n(&ring->head, head + 1, __ATOMIC_RELEASE);
}

static struct slot *slot_find(uint64_t key, bool claim)
{
	uint64_t h = ntprof_fmix64(key);
	struct slot *s;
	unsigned int i;

	for (i = 0; i < PROBES; i++) {
		s = &self.slots[(h + i) & (INFLIGHT - 1)];
		if (s->key == key)
			return s;
		if (claim && !s->key) {
			s->key = key;
			agent_inflight++;
			return s;
		}
	}
	return NULL;
}

static void slot_free(struct slot *s)
{
	s->key = 0;
	agent_inflight--;
}

/* The recorder's filter of commands by their kind, as the kernel's. */
static bool wanted(uint8_t opcode)
{
	uint32_t op = opcode == 0x02 ? NTPROF_OP_READ :
		      opcode == 0x01 ? NTPROF_OP_WRITE : NTPROF_OP_OTHER;

	return __atomic_load_n(&ctl->ops, __ATOMIC_RELAXED) & op;
}

/*
 * Off for want of a heartbeat: the recorder died or hangs. Its sites'
 * bytes cleared, every site costs one load and one branch again.
 */
static void expire(void)
{
	unsigned int i;

	if (!__atomic_exchange_n(&ctl->sample, 0, __ATOMIC_RELAXED))
		return;
	for (i = 0; i < nr_sites; i++)
		__atomic_store_n(&ctl->site_on[i], 0, __ATOMIC_RELAXED);
	__atomic_fetch_add(&ctl->expired, 1, __ATOMIC_RELAXED);
}

/*
 * A first site's identity into @v: by its plan, or field by field where
 * the plan cannot (a field at the end of its page, an address as a
 * field, a null pointer on the way, which fails here too).
 */
static inline __attribute__((always_inline)) bool
identity(uint32_t id, const struct agent_regs *r, uint64_t *v)
{
	const struct agent_site *site = &sites[id];
	unsigned int i;

	if (idents[id].fast &&
	    agent_ident_read(&idents[id], (const uint64_t *)r, &v[AGENT_F_QID]))
		return true;
	for (i = AGENT_F_QID; i <= AGENT_F_NLB; i++) {
		v[i] = 0;
		if (site->f[i].set && !fetch(&site->f[i], r, &v[i]))
			return false;
	}
	return true;
}

/*
 * A sampled command's record begun, from its identity in @v: out of line,
 * so that the unsampled commands' path keeps a small frame.
 */
static __attribute__((noinline)) void
first_sampled(uint32_t id, const struct agent_regs *r, uint64_t *v)
{
	const struct agent_site *site = &sites[id];
	uint32_t transport, want, session;
	struct ntprof_record rec;
	struct slot *s;
	uint16_t cpu;

	v[AGENT_F_LENGTH] = 0;
	v[AGENT_F_TRTYPE] = 0;
	if ((site->f[AGENT_F_LENGTH].set &&
	     !fetch(&site->f[AGENT_F_LENGTH], r, &v[AGENT_F_LENGTH])) ||
	    !fetch(&site->f[AGENT_F_KEY], r, &v[AGENT_F_KEY]))
		return;
	if (v[AGENT_F_LENGTH] < __atomic_load_n(&ctl->min_len, __ATOMIC_RELAXED) ||
	    v[AGENT_F_LENGTH] > __atomic_load_n(&ctl->max_len, __ATOMIC_RELAXED))
		return;
	transport = site->transport;
	if (!transport && site->f[AGENT_F_TRTYPE].set) {
		if (!fetch(&site->f[AGENT_F_TRTYPE], r, &v[AGENT_F_TRTYPE]))
			return;
		/* NVMe-oF's transport types: 1 RDMA, 3 TCP. */
		switch (v[AGENT_F_TRTYPE] & 0xff) {
		case 1:
			transport = NTPROF_TRANSPORT_RDMA;
			break;
		case 3:
			transport = NTPROF_TRANSPORT_TCP;
			break;
		default:
			return;
		}
	}
	want = __atomic_load_n(&ctl->transport, __ATOMIC_RELAXED);
	if (want && transport && want != transport)
		return;

	memset(&rec, 0, sizeof(rec));
	rec.role = site->role;
	rec.transport = transport;
	rec.flags = NTPROF_REC_F_SAMPLED | NTPROF_REC_F_USER;
	rec.opcode = v[AGENT_F_OPCODE];
	rec.qid = v[AGENT_F_QID];
	rec.cid = v[AGENT_F_CID];
	rec.nsid = v[AGENT_F_NSID];
	rec.slba = v[AGENT_F_SLBA];
	rec.length = v[AGENT_F_LENGTH];
	rec.pid = agent_pid;
	rec.ts[site->point] = tsc_cpu(&cpu);
	rec.cpu_submit = cpu;
	if (site->flags & NTPROF_USITE_F_LAST) {
		rec.cpu_complete = cpu;
		emit(&rec);
		return;
	}

	session = __atomic_load_n(&ctl->session, __ATOMIC_RELAXED);
	s = slot_find(v[AGENT_F_KEY], false);
	if (s && s->session == session) {
		/* The key of a command lost on the way: it ends partial. */
		s->rec.flags |= NTPROF_REC_F_PARTIAL;
		emit(&s->rec);
	} else if (!s) {
		s = slot_find(v[AGENT_F_KEY], true);
	}
	if (s) {
		s->session = session;
		s->rec = rec;
	} else
		__atomic_fetch_add(&ctl->evicted, 1, __ATOMIC_RELAXED);
}

/* A first site: the command's identity, and the sampling's verdict. */
static inline __attribute__((always_inline)) void
first(uint32_t id, const struct agent_regs *r, uint32_t sample)
{
	uint64_t v[AGENT_F_COUNT];

	if (!identity(id, r, v))
		return;
	/* I/O commands only, as the kernel's hooks: no admin, no Connect. */
	if (!v[AGENT_F_QID] || v[AGENT_F_OPCODE] == 0x7f)
		return;
	if (!wanted(v[AGENT_F_OPCODE]))
		return;
	if (ntprof_sample_hash(v[AGENT_F_QID], v[AGENT_F_CID],
			       v[AGENT_F_OPCODE], v[AGENT_F_NSID],
			       v[AGENT_F_SLBA], v[AGENT_F_NLB]) % sample)
		return;
	first_sampled(id, r, v);
}

static void next(const struct agent_site *site, const struct agent_regs *r)
{
	struct slot *s;
	uint64_t key;
	uint16_t cpu;

	/* Most hits are of commands not sampled: no read, no lookup. */
	if (!agent_inflight || !fetch(&site->f[AGENT_F_KEY], r, &key))
		return;
	s = slot_find(key, false);
	if (!s)
		return;
	/* Followed for a recorder that is gone: not this one's. */
	if (s->session != __atomic_load_n(&ctl->session, __ATOMIC_RELAXED)) {
		slot_free(s);
		return;
	}
	if (!s->rec.ts[site->point])
		s->rec.ts[site->point] = tsc_cpu(&cpu);
	if (!(site->flags & NTPROF_USITE_F_LAST))
		return;
	tsc_cpu(&cpu);
	s->rec.cpu_complete = cpu;
	emit(&s->rec);
	slot_free(s);
}

void agent_hit(uint32_t id, const struct agent_regs *r)
{
	const struct agent_site *site;
	uint32_t sample;

	if (id >= nr_sites || !ctl)
		return;
	site = &sites[id];
	/* The recorder's, bounded: 0 or past the uapi's range is off. */
	sample = __atomic_load_n(&ctl->sample, __ATOMIC_RELAXED);
	if (!sample || sample > 1000000)
		return;
	if (!(++self.hits & (BEAT_HITS - 1)) &&
	    tsc() > __atomic_load_n(&ctl->deadline, __ATOMIC_RELAXED)) {
		expire();
		return;
	}
	if (site->flags & NTPROF_USITE_F_FIRST)
		first(id, r, sample);
	else
		next(site, r);
}
