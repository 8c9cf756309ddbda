/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The commands a session follows between their first and last point: a
 * fixed-size, lock-free table keyed by a pointer that identifies the
 * command while it is in flight (host: its struct nvme_command, target:
 * its struct nvmet_req).
 */
#ifndef _NTPROF_INFLIGHT_H
#define _NTPROF_INFLIGHT_H

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/types.h>

#include <uapi/linux/ntprof.h>

/*
 * Slot keys: 0 is a free slot and 1 one that its owner is filling or
 * emptying; anything else is the key of the command the slot holds. Both
 * are never kernel pointers.
 */
#define NTPROF_INFLIGHT_FREE	0UL
#define NTPROF_INFLIGHT_BUSY	1UL

/**
 * struct ntprof_inflight_entry - one command in flight
 * @key: NTPROF_INFLIGHT_FREE, NTPROF_INFLIGHT_BUSY or the command's key
 * @obj: what the key was taken from (host: the struct request), to tell
 *	a key that belongs to a new command from one that still is this one
 * @rec: the record being built
 */
struct ntprof_inflight_entry {
	unsigned long key;
	const void *obj;
	struct ntprof_record rec;
};

/**
 * struct ntprof_inflight - the table
 * @mask: the number of slots minus one, a power of two minus one
 * @nr_claimed: slots claimed and not yet taken back
 * @slots: the slots
 */
struct ntprof_inflight {
	unsigned int mask;
	atomic_t nr_claimed;
	struct ntprof_inflight_entry slots[];
};

/*
 * Whether the table may hold a command: most hits are of commands that
 * are not sampled, and while no sampled one is in flight (most of the
 * time at 1 in 100 and queue depth 1) they skip the lookup, and the
 * clock. A command is counted from its claim, before it is published,
 * to its take, after its last point: a point of a command that is
 * followed never finds the table empty.
 */
static inline bool ntprof_inflight_empty(const struct ntprof_inflight *table)
{
	return !atomic_read(&table->nr_claimed);
}

struct ntprof_inflight *ntprof_inflight_alloc(void);
void ntprof_inflight_free(struct ntprof_inflight *table);
unsigned int ntprof_inflight_used(const struct ntprof_inflight *table);

struct ntprof_inflight_entry *
ntprof_inflight_lookup(struct ntprof_inflight *table, const void *key);
struct ntprof_inflight_entry *
ntprof_inflight_claim(struct ntprof_inflight *table, const void *key,
		      bool *reused);
bool ntprof_inflight_take(struct ntprof_inflight *table,
			  struct ntprof_inflight_entry *entry, const void *key);
void ntprof_inflight_release(struct ntprof_inflight *table,
			     struct ntprof_inflight_entry *entry);

/* Make a claimed slot visible to lookups, filled. */
static inline void ntprof_inflight_publish(struct ntprof_inflight_entry *entry,
					   const void *key)
{
	/* Pairs with ntprof_inflight_lookup(): the fill is seen first. */
	smp_store_release(&entry->key, (unsigned long)key);
}

/*
 * Points are stamped by whoever reaches them, with plain stores: the
 * points of one command happen one after the other (each causes the
 * next), so they never race with each other nor with the finish, which
 * reads them after the last one. The only race left is a stamp for a
 * key whose command just finished, which may land in the slot's next
 * command: a stale key, which the finish of that one reports as is.
 */
static inline void ntprof_entry_stamp(struct ntprof_inflight_entry *entry,
				      enum ntprof_point point, u64 ts)
{
	WRITE_ONCE(entry->rec.ts[point], ts);
}

/* For points that a command may reach more than once: keep the first. */
static inline void
ntprof_entry_stamp_first(struct ntprof_inflight_entry *entry,
			 enum ntprof_point point, u64 ts)
{
	if (!READ_ONCE(entry->rec.ts[point]))
		WRITE_ONCE(entry->rec.ts[point], ts);
}

/* The completion's status: a failure flags the record. */
static inline void ntprof_entry_status(struct ntprof_inflight_entry *entry,
				       u16 status)
{
	if (!status)
		return;
	WRITE_ONCE(entry->rec.status, status);
	WRITE_ONCE(entry->rec.flags, entry->rec.flags | NTPROF_REC_F_FAILED);
}

static inline u64 ntprof_entry_ts(const struct ntprof_inflight_entry *entry,
				  enum ntprof_point point)
{
	return READ_ONCE(entry->rec.ts[point]);
}

#endif /* _NTPROF_INFLIGHT_H */
