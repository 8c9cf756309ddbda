// SPDX-License-Identifier: GPL-2.0
/*
 * The record buffers: for each role, one kernel ring buffer
 * (kernel/trace/ring_buffer.c) with a sub-buffer per CPU, and per-CPU
 * counters. A host session and a target session on one machine write to
 * their own role's set, and each tool reads its own. Writers never wait
 * and never meet: each writes to its own CPU's sub-buffer, from any
 * context. The buffer does not overwrite: when a CPU's sub-buffer is
 * full, new records are dropped and counted, so that what the tool reads
 * is a prefix of the recording and not a random mix. Readers consume
 * records, possibly while writers add more; the ring buffer serializes
 * readers of one CPU itself, the role's lock keeps the set alive.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bug.h>
#include <linux/cpumask.h>
#include <linux/lockdep.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/ring_buffer.h>
#include <linux/string.h>

#include "buffer.h"
#include "compat.h"
#include "crec.h"

static unsigned int buffer_kib = 4096;
module_param(buffer_kib, uint, 0444);
MODULE_PARM_DESC(buffer_kib,
		 "Size of each CPU's record buffer of each role in KiB (default 4096)");

struct ntprof_buffer ntprof_buffers[NTPROF_ROLE_TARGET + 1] = {
	[NTPROF_ROLE_HOST] = {
		.lock = __MUTEX_INITIALIZER(ntprof_buffers[NTPROF_ROLE_HOST].lock),
	},
	[NTPROF_ROLE_TARGET] = {
		.lock = __MUTEX_INITIALIZER(ntprof_buffers[NTPROF_ROLE_TARGET].lock),
	},
};

/* Whether a session of each role has asked for buffers since load. */
static bool ntprof_buffer_used_role[NTPROF_ROLE_TARGET + 1];

/* A role's set, as a start replaces it. */
struct ntprof_buffer_set {
	struct trace_buffer *rb;
	struct ntprof_cpu_stats __percpu *stats;
	unsigned long size;
};

/*
 * The sets that starts in progress replaced, until the start succeeds
 * (freed) or fails (put back). Under the session lock.
 */
static struct ntprof_buffer_set ntprof_buffer_prev[NTPROF_ROLE_TARGET + 1];

static void ntprof_buffer_set_free(struct ntprof_buffer_set *set)
{
	if (set->rb)
		ring_buffer_free(set->rb);
	free_percpu(set->stats);
	memset(set, 0, sizeof(*set));
}

/* Make @set @b's, and @set what @b had. Context: none of its hooks run. */
static void ntprof_buffer_exchange(struct ntprof_buffer *b,
				   struct ntprof_buffer_set *set)
{
	struct ntprof_buffer_set old;

	mutex_lock(&b->lock);
	old.rb = b->rb;
	old.stats = b->stats;
	old.size = b->size;
	b->stats = set->stats;
	b->size = set->size;
	/* Pairs with the acquire in the writer: see the set initialized. */
	smp_store_release(&b->rb, set->rb);
	mutex_unlock(&b->lock);
	*set = old;
}

/**
 * ntprof_buffer_alloc() - give a role's new session its own buffers
 * @role: %NTPROF_ROLE_HOST or %NTPROF_ROLE_TARGET
 *
 * Allocates empty buffers and zeroed counters, and puts them in place of
 * the role's previous session's, which stay aside until the start
 * succeeds (ntprof_buffer_commit() frees them) or fails
 * (ntprof_buffer_restore() puts them back): a failed start loses no
 * record. The other role's are not touched.
 *
 * Context: Process context, under the session lock, while none of the
 * role's hooks is attached or running.
 * Return: 0, or -ENOMEM, with the previous set in place.
 */
int ntprof_buffer_alloc(enum ntprof_role role)
{
	struct ntprof_buffer_set *set = &ntprof_buffer_prev[role];

	WRITE_ONCE(ntprof_buffer_used_role[role], true);

	set->size = (unsigned long)clamp(buffer_kib, 64U, 1U << 20) * 1024;
	set->stats = alloc_percpu(struct ntprof_cpu_stats);
	/* Flags 0: no RB_FL_OVERWRITE, a full buffer drops. */
	set->rb = set->stats ? ring_buffer_alloc(set->size, 0) : NULL;
	if (!set->rb) {
		ntprof_buffer_set_free(set);
		return -ENOMEM;
	}
	ntprof_buffer_exchange(&ntprof_buffers[role], set);
	return 0;
}

/**
 * ntprof_buffer_commit() - free the set ntprof_buffer_alloc() replaced
 * @role: %NTPROF_ROLE_HOST or %NTPROF_ROLE_TARGET
 *
 * Context: Process context, under the session lock, once the start
 * succeeded.
 */
void ntprof_buffer_commit(enum ntprof_role role)
{
	ntprof_buffer_set_free(&ntprof_buffer_prev[role]);
}

/**
 * ntprof_buffer_restore() - put back the set ntprof_buffer_alloc() replaced
 * @role: %NTPROF_ROLE_HOST or %NTPROF_ROLE_TARGET
 *
 * Frees the failed start's set, and what its hooks wrote in it.
 *
 * Context: Process context, under the session lock, while none of the
 * role's hooks is attached or running.
 */
void ntprof_buffer_restore(enum ntprof_role role)
{
	struct ntprof_buffer_set *set = &ntprof_buffer_prev[role];

	ntprof_buffer_exchange(&ntprof_buffers[role], set);
	ntprof_buffer_set_free(set);
}

/**
 * ntprof_buffer_exit() - free the buffers of both roles
 *
 * Context: Process context, module exit, with no hook and no reader left.
 */
void ntprof_buffer_exit(void)
{
	struct ntprof_buffer_set none;
	enum ntprof_role r;

	for (r = NTPROF_ROLE_HOST; r <= NTPROF_ROLE_TARGET; r++) {
		memset(&none, 0, sizeof(none));
		ntprof_buffer_exchange(&ntprof_buffers[r], &none);
		ntprof_buffer_set_free(&none);
	}
}

/**
 * ntprof_buffer_emit() - write a finished record to this CPU's buffer
 * @rec: the record; its role says whose buffer
 *
 * The buffer keeps the record in compact form (struct ntprof_crec),
 * encoded straight into the event reserved for it: 80 bytes for a kernel
 * read of nine points, not 232. Up to 17 points (112 bytes, every kernel
 * record but a wide one) the ring buffer's event needs no length word.
 *
 * Context: Any, preemption disabled or not; in a hook of @rec's role.
 */
void ntprof_buffer_emit(const struct ntprof_record *rec)
{
	struct ring_buffer_event *event;
	struct ntprof_buffer *b;
	struct trace_buffer *rb;
	u32 points;
	u64 t0;

	if (WARN_ON_ONCE(rec->role != NTPROF_ROLE_HOST &&
			 rec->role != NTPROF_ROLE_TARGET))
		return;
	b = &ntprof_buffers[rec->role];

	/* Pairs with ntprof_buffer_alloc(): see the set initialized. */
	rb = smp_load_acquire(&b->rb);
	/* Not while the role's hooks run; be sure all the same. */
	if (unlikely(!rb))
		return;

	points = ntprof_crec_scan(rec, &t0);
	for (;;) {
		event = ring_buffer_lock_reserve(rb, ntprof_crec_bytes(points));
		if (!event) {
			this_cpu_inc(b->stats->drops);
			return;
		}
		if (ntprof_crec_encode(ring_buffer_event_data(event), rec,
				       points, t0))
			break;
		/* An offset past 32 bits: the reader skips the event. */
		ring_buffer_discard_commit(rb, event);
		points |= NTPROF_CREC_WIDE;
	}
	ntprof_ring_buffer_commit(rb, event);

	this_cpu_inc(b->stats->records);
}

/**
 * ntprof_buffer_used() - whether a session of a role ever started
 * @role: %NTPROF_ROLE_HOST or %NTPROF_ROLE_TARGET
 *
 * Context: Any.
 * Return: true once a session of @role has started, or tried to, since
 * the module was loaded.
 */
bool ntprof_buffer_used(enum ntprof_role role)
{
	return READ_ONCE(ntprof_buffer_used_role[role]);
}

/**
 * ntprof_buffer_get() - hold a role's buffers to read them
 * @role: %NTPROF_ROLE_HOST or %NTPROF_ROLE_TARGET
 *
 * The buffers stay as they are until ntprof_buffer_put(): a new session
 * of the role waits to replace them.
 *
 * Context: Process context; sleeps.
 * Return: the role's buffers, possibly without a ring buffer yet.
 */
struct ntprof_buffer *ntprof_buffer_get(enum ntprof_role role)
{
	struct ntprof_buffer *b = &ntprof_buffers[role];

	mutex_lock(&b->lock);
	return b;
}

/**
 * ntprof_buffer_put() - let go of a role's buffers
 * @b: what ntprof_buffer_get() returned
 *
 * Context: Process context.
 */
void ntprof_buffer_put(struct ntprof_buffer *b)
{
	mutex_unlock(&b->lock);
}

/*
 * Whether an event of @len bytes holds a record of @size bytes: exactly,
 * as records are multiples of 4 bytes; but a ring buffer that aligns
 * events to 8 bytes (CONFIG_HAVE_64BIT_ALIGNED_ACCESS) counts its
 * padding, and its small events' length word, as data.
 */
static bool ntprof_crec_in_event(u32 size, unsigned int len)
{
	if (IS_ENABLED(CONFIG_HAVE_64BIT_ALIGNED_ACCESS))
		return len >= size && len - size <= 8;
	return len == size;
}

/* The size of the record an event holds, 0 if it holds none. */
static u32 ntprof_event_crec_size(struct ring_buffer_event *event)
{
	const struct ntprof_crec *c = ring_buffer_event_data(event);
	unsigned int len = ring_buffer_event_length(event);
	u32 size;

	/* Only this file writes, always whole records: be sure. */
	if (len < sizeof(*c))
		return 0;
	size = ntprof_crec_bytes(c->points);
	return ntprof_crec_in_event(size, len) ? size : 0;
}

/*
 * Copy a record of @size bytes, a multiple of 4, in eight-byte moves: the
 * fixed part, of a known size, then the rest, and its last four bytes if
 * any. memcpy() of a size known only here is a rep movsb on CPUs with
 * FSRM, a move a byte: 80 for a read, where this makes 6 and 4.
 */
static void ntprof_crec_copy(void *dst, const void *src, u32 size)
{
	u32 off;

	memcpy(dst, src, sizeof(struct ntprof_crec));
	for (off = sizeof(struct ntprof_crec); off + 8 <= size; off += 8)
		memcpy(dst + off, src + off, 8);
	if (off < size)
		memcpy(dst + off, src + off, 4);
}

/**
 * ntprof_buffer_consume() - take the oldest record of a CPU's buffer
 * @b: a role's buffers, held with ntprof_buffer_get()
 * @cpu: the CPU
 * @buf: where to copy the record, in compact form
 * @room: the bytes at @buf
 *
 * Events that hold no record are skipped. A record larger than @room
 * stays in the buffer, for the next message, so that messages carry whole
 * records.
 *
 * Context: Process context.
 * Return: the record's size in bytes, 0 if the buffer is empty, or
 * -EMSGSIZE if the oldest record does not fit in @room.
 */
int ntprof_buffer_consume(struct ntprof_buffer *b, int cpu, void *buf,
			  unsigned int room)
{
	struct ring_buffer_event *event;
	unsigned long lost;
	u32 size;
	u64 ts;

	lockdep_assert_held(&b->lock);
	if (!b->rb)
		return 0;

	do {
		/*
		 * Only when the largest record might not fit, look at the
		 * next one before taking it: a second pass under the ring
		 * buffer's reader lock. Under b->lock this is the CPU's only
		 * reader, so the event peeked is the one consumed.
		 */
		if (room < NTPROF_CREC_MAX) {
			event = ring_buffer_peek(b->rb, cpu, &ts, &lost);
			if (event && ntprof_event_crec_size(event) > room)
				return -EMSGSIZE;
		}
		event = ring_buffer_consume(b->rb, cpu, &ts, &lost);
		if (!event)
			return 0;
		size = ntprof_event_crec_size(event);
	} while (!size);

	ntprof_crec_copy(buf, ring_buffer_event_data(event), size);
	return size;
}

/**
 * ntprof_buffer_fill() - count the records waiting in a CPU's buffer
 * @b: a role's buffers, held with ntprof_buffer_get()
 * @cpu: the CPU
 *
 * Context: Process context.
 * Return: the number of records not yet read.
 */
unsigned long ntprof_buffer_fill(struct ntprof_buffer *b, int cpu)
{
	lockdep_assert_held(&b->lock);
	return b->rb ? ring_buffer_entries_cpu(b->rb, cpu) : 0;
}

/**
 * ntprof_buffer_stats() - read a CPU's counters
 * @b: a role's buffers, held with ntprof_buffer_get()
 * @cpu: the CPU
 * @st: where to copy them; zeros before the role's first session
 *
 * Context: Process context.
 */
void ntprof_buffer_stats(struct ntprof_buffer *b, int cpu,
			 struct ntprof_cpu_stats *st)
{
	const struct ntprof_cpu_stats *src;

	lockdep_assert_held(&b->lock);
	memset(st, 0, sizeof(*st));
	if (!b->stats)
		return;

	/* The owning CPU may be adding to them: one load each. */
	src = per_cpu_ptr(b->stats, cpu);
	st->records = READ_ONCE(src->records);
	st->drops = READ_ONCE(src->drops);
	st->sampled = READ_ONCE(src->sampled);
	st->seen = READ_ONCE(src->seen);
	st->evicted = READ_ONCE(src->evicted);
}
