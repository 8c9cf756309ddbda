// SPDX-License-Identifier: GPL-2.0
/*
 * The handler. Built with -mgeneral-regs-only: the stub saved the
 * general registers only; and it calls nothing outside this file (no
 * libc: selftests/unit/test_agent_nocall.sh). No lock, no system call,
 * no allocation, never a wait: a thread's in-flight table and ring are
 * its own, each claimed once with one atomic add from what the set-up
 * (hitsetup.c) mapped; a full ring or table, or none left, is a count.
 * Its loads from the program's memory cannot fault the program: a
 * stale pointer is a dropped record, counted (load.h, fault.c).
 *
 * A first site reads the command's identity and decides with the
 * kernel's sampling hash (the uapi header's ntprof_sample_hash()), so
 * that an SPDK side and a kernel side sample the same commands; a
 * sampled command gets a slot under its key (the request's address) in
 * the thread's table, later sites stamp it, and a last site writes its
 * record to the ring. SPDK completes a request on the thread of its poll
 * group, where it started: one thread's table sees all its sites.
 * Stamps are the TSC, read with rdtscp, which also tells the CPU, or
 * where the CPU has no rdtscp with lfence and rdtsc (tsc_cpu()).
 */
#include <stdbool.h>
#include <stddef.h>

#include "hit.h"
#include "hitstate.h"
#include "load.h"
#include "regs.h"

#define PROBES		8

/* Hits between two looks at the recorder's heartbeat: a power of two. */
#define BEAT_HITS	16

/*
 * The thread's own, a few words of initial-exec TLS: its ring and table
 * are claimed at its first sampled command, never allocated here.
 */
struct thread_state {
	struct agent_shm_ring *ring;
	struct agent_table *table;
	unsigned int hits;
	bool no_ring;		/* every ring was taken: records are drops */
	bool no_table;		/* every table was taken: commands evicted */
};

static __thread struct thread_state self __attribute__((tls_model("initial-exec")));

/*
 * The handler calls nothing it was not built with: a call into libc
 * (memcpy, memset) may use the vector registers, which the stub does
 * not save. Records are copied and cleared by rep movsq and rep stosq,
 * which the compiler cannot make into such calls, whatever its level
 * (selftests/unit/test_agent_nocall.sh checks the object).
 */
static inline __attribute__((always_inline)) void
rec_copy(struct ntprof_record *dst, const struct ntprof_record *src)
{
	unsigned long n = sizeof(*dst) / 8;

	_Static_assert(sizeof(*dst) % 8 == 0, "a record is whole words");
	__asm__ volatile("rep movsq"
			 : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
}

static inline __attribute__((always_inline)) void
rec_clear(struct ntprof_record *rec)
{
	unsigned long n = sizeof(*rec) / 8;

	__asm__ volatile("rep stosq"
			 : "+D"(rec), "+c"(n) : "a"(0UL) : "memory");
}

static inline uint64_t tsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

/*
 * A stamp and the CPU it was taken on. With rdtscp, which waits for the
 * instructions before it, the CPU is TSC_AUX's low 12 bits, where Linux
 * keeps it. Without (agent_hs.rdtscp, CPUID's word at start-up), lfence
 * then rdtsc, and the CPU as the vDSO's getcpu reads it on a CPU without
 * RDPID: the limit of the per-CPU segment (GDT entry 15, selector 0x7b)
 * is node << 12 | CPU; where lsl cannot read it, the CPU is 0.
 */
static inline uint64_t tsc_cpu(uint16_t *cpu)
{
	uint32_t lo, hi, aux = 0;

	if (__builtin_expect(agent_hs.rdtscp, 1)) {
		__asm__ volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux));
	} else {
		__asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi));
		__asm__ volatile("lsl %[sel], %[aux]"
				 : [aux] "+r"(aux) : [sel] "r"(0x7bu) : "cc");
	}
	*cpu = aux & 0xfff;
	return (uint64_t)hi << 32 | lo;
}

/*
 * A load that faulted (load.h): the command's record is dropped, and
 * counted in the control page's faults. Out of line: never taken but
 * for a stale pointer.
 */
static __attribute__((noinline, cold)) bool faulted(void)
{
	__atomic_fetch_add(&agent_hs.ctl->faults, 1, __ATOMIC_RELAXED);
	return false;
}

/*
 * A fetch's value. Its offsets are the program's own DWARF's; a null
 * pointer on the way (a request not set up yet) is a failed read, and so
 * is a pointer to memory that is not there (a load that faults: counted).
 * The identity's are agent_ident_read()'s; these come after the sampling.
 */
static bool fetch(const struct agent_fetch *f, const struct agent_regs *r,
		  uint64_t *v)
{
	uintptr_t addr = ((const uint64_t *)r)[agent_reg_slot[f->reg]];
	unsigned int i;
	uint64_t x;

	for (i = 0; i < f->nr_derefs; i++) {
		if (addr < 4096)
			return false;
		if (!agent_load8(addr + f->derefs[i], &x))
			return faulted();
		addr = x;
	}
	addr += f->offset;
	if (!f->width) {
		*v = addr;
		return true;
	}
	if (addr < 4096)
		return false;
	switch (f->width) {
	case 1:
		if (agent_load1(addr, v))
			return true;
		break;
	case 2:
		if (agent_load2(addr, v))
			return true;
		break;
	case 4:
		if (agent_load4(addr, v))
			return true;
		break;
	case 8:
		if (agent_load8(addr, v))
			return true;
		break;
	default:
		return false;
	}
	return faulted();
}

/* The thread's ring, claimed at its first record; NULL if none is left. */
static struct agent_shm_ring *ring_of_thread(void)
{
	unsigned int i;

	if (self.ring || self.no_ring)
		return self.ring;
	i = __atomic_fetch_add(&agent_hs.ctl->rings_claimed, 1, __ATOMIC_RELAXED);
	if (i >= AGENT_RINGS_MAX) {
		self.no_ring = true;
		return NULL;
	}
	self.ring = agent_shm_ring(agent_hs.shm_base, i);
	return self.ring;
}

static void emit(const struct ntprof_record *rec)
{
	struct agent_shm_ring *ring = ring_of_thread();
	uint64_t head, tail;

	if (!ring) {
		__atomic_fetch_add(&agent_hs.ctl->ringless, 1, __ATOMIC_RELAXED);
		return;
	}
	head = ring->head;
	/* The recorder's tail, bounded: whatever it wrote, no overrun. */
	tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);
	if (head - tail >= AGENT_RING_RECORDS || tail > head) {
		ring->drops++;
		return;
	}
	rec_copy(&ring->recs[head & (AGENT_RING_RECORDS - 1)], rec);
	__atomic_store_n(&ring->head, head + 1, __ATOMIC_RELEASE);
}

/*
 * The thread's table, claimed at its first sampled command that has
 * sites to go through; NULL if every table was taken.
 */
static struct agent_table *table_of_thread(void)
{
	unsigned int i;

	if (self.table || self.no_table)
		return self.table;
	i = __atomic_fetch_add(&agent_hs.tables_claimed, 1, __ATOMIC_RELAXED);
	if (i >= AGENT_TABLES_MAX) {
		self.no_table = true;
		return NULL;
	}
	self.table = &agent_hs.tables[i];
	return self.table;
}

/* A slot of the thread's table (which the caller has). */
static struct agent_slot *slot_find(uint64_t key, bool claim)
{
	uint64_t h = ntprof_fmix64(key);
	struct agent_slot *s;
	unsigned int i;

	for (i = 0; i < PROBES; i++) {
		s = &self.table->slots[(h + i) & (AGENT_INFLIGHT - 1)];
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

static void slot_free(struct agent_slot *s)
{
	s->key = 0;
	agent_inflight--;
}

/* The recorder's filter of commands by their kind, as the kernel's. */
static bool wanted(uint8_t opcode)
{
	uint32_t op = opcode == 0x02 ? NTPROF_OP_READ :
		      opcode == 0x01 ? NTPROF_OP_WRITE : NTPROF_OP_OTHER;

	return __atomic_load_n(&agent_hs.ctl->ops, __ATOMIC_RELAXED) & op;
}

/*
 * Off for want of a heartbeat: the recorder died or hangs. Its sites'
 * bytes cleared, every site costs one load and one branch again.
 */
static void expire(void)
{
	unsigned int i;

	if (!__atomic_exchange_n(&agent_hs.ctl->sample, 0, __ATOMIC_RELAXED))
		return;
	for (i = 0; i < agent_hs.nr_sites; i++)
		__atomic_store_n(&agent_hs.ctl->site_on[i], 0, __ATOMIC_RELAXED);
	__atomic_fetch_add(&agent_hs.ctl->expired, 1, __ATOMIC_RELAXED);
}

/*
 * A first site's identity into @v: by its plan, or field by field where
 * the plan cannot (a field at the end of its page, an address as a
 * field, a null pointer on the way, which fails here too). A load that
 * faulted fails it, counted.
 */
static inline __attribute__((always_inline)) bool
identity(uint32_t id, const struct agent_regs *r, uint64_t *v)
{
	const struct agent_site *site = &agent_hs.sites[id];
	unsigned int i;
	int got;

	if (agent_hs.idents[id].fast) {
		got = agent_ident_read(&agent_hs.idents[id], (const uint64_t *)r,
				       &v[AGENT_F_QID]);
		if (got > 0)
			return true;
		if (got < 0)
			return faulted();
	}
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
	const struct agent_site *site = &agent_hs.sites[id];
	uint32_t transport, want, session;
	struct ntprof_record rec;
	struct agent_slot *s;
	uint16_t cpu;

	v[AGENT_F_LENGTH] = 0;
	v[AGENT_F_TRTYPE] = 0;
	if ((site->f[AGENT_F_LENGTH].set &&
	     !fetch(&site->f[AGENT_F_LENGTH], r, &v[AGENT_F_LENGTH])) ||
	    !fetch(&site->f[AGENT_F_KEY], r, &v[AGENT_F_KEY]))
		return;
	if (v[AGENT_F_LENGTH] < __atomic_load_n(&agent_hs.ctl->min_len, __ATOMIC_RELAXED) ||
	    v[AGENT_F_LENGTH] > __atomic_load_n(&agent_hs.ctl->max_len, __ATOMIC_RELAXED))
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
	want = __atomic_load_n(&agent_hs.ctl->transport, __ATOMIC_RELAXED);
	if (want && transport && want != transport)
		return;

	rec_clear(&rec);
	rec.role = site->role;
	rec.transport = transport;
	rec.flags = NTPROF_REC_F_SAMPLED | NTPROF_REC_F_USER;
	rec.opcode = v[AGENT_F_OPCODE];
	rec.qid = v[AGENT_F_QID];
	rec.cid = v[AGENT_F_CID];
	rec.nsid = v[AGENT_F_NSID];
	rec.slba = v[AGENT_F_SLBA];
	rec.length = v[AGENT_F_LENGTH];
	rec.pid = agent_hs.pid;
	rec.ts[site->point] = tsc_cpu(&cpu);
	rec.cpu_submit = cpu;
	if (site->flags & NTPROF_USITE_F_LAST) {
		rec.cpu_complete = cpu;
		emit(&rec);
		return;
	}

	if (!table_of_thread()) {
		__atomic_fetch_add(&agent_hs.ctl->evicted, 1, __ATOMIC_RELAXED);
		return;
	}
	session = __atomic_load_n(&agent_hs.ctl->session, __ATOMIC_RELAXED);
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
		rec_copy(&s->rec, &rec);
	} else
		__atomic_fetch_add(&agent_hs.ctl->evicted, 1, __ATOMIC_RELAXED);
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
	struct agent_slot *s;
	uint64_t key;
	uint16_t cpu;

	/* Most hits are of commands not sampled: no read, no lookup. */
	if (!agent_inflight || !self.table ||
	    !fetch(&site->f[AGENT_F_KEY], r, &key))
		return;
	s = slot_find(key, false);
	if (!s)
		return;
	/* Followed for a recorder that is gone: not this one's. */
	if (s->session != __atomic_load_n(&agent_hs.ctl->session, __ATOMIC_RELAXED)) {
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

	if (id >= agent_hs.nr_sites || !agent_hs.ctl)
		return;
	site = &agent_hs.sites[id];
	/* The recorder's, bounded: 0 or past the uapi's range is off. */
	sample = __atomic_load_n(&agent_hs.ctl->sample, __ATOMIC_RELAXED);
	if (!sample || sample > 1000000)
		return;
	if (!(++self.hits & (BEAT_HITS - 1)) &&
	    tsc() > __atomic_load_n(&agent_hs.ctl->deadline, __ATOMIC_RELAXED)) {
		expire();
		return;
	}
	if (site->flags & NTPROF_USITE_F_FIRST)
		first(id, r, sample);
	else
		next(site, r);
}
