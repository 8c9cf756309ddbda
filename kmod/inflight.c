// SPDX-License-Identifier: GPL-2.0
/*
 * The in-flight table: open addressing over a power-of-two array, with a
 * probe of NTPROF_INFLIGHT_PROBES slots from the key's hash. Slots change
 * hands with cmpxchg() on their key only, so the I/O path never waits:
 * when the probe finds no free slot the command is not recorded, and
 * counted as evicted.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/moduleparam.h>
#include <linux/overflow.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "inflight.h"

/* Short, so that a full table costs a bounded, small number of loads. */
#define NTPROF_INFLIGHT_PROBES	8

static unsigned int inflight_slots = 4096;
module_param(inflight_slots, uint, 0444);
MODULE_PARM_DESC(inflight_slots,
		 "Commands a session can follow at once, rounded up to a power of two (default 4096)");

/**
 * ntprof_inflight_alloc() - allocate an empty table
 *
 * Its size is the inflight_slots parameter, between 64 and 1 Mi slots.
 *
 * Context: Process context; sleeps.
 * Return: the table, or NULL when out of memory.
 */
struct ntprof_inflight *ntprof_inflight_alloc(void)
{
	struct ntprof_inflight *table;
	unsigned int nr;

	nr = roundup_pow_of_two(clamp(inflight_slots, 64U, 1U << 20));
	table = vzalloc(struct_size(table, slots, nr));
	if (!table)
		return NULL;

	table->mask = nr - 1;
	return table;
}

/**
 * ntprof_inflight_free() - free a table
 * @table: the table, or NULL
 *
 * Context: Process context, with no hook left that could use @table.
 */
void ntprof_inflight_free(struct ntprof_inflight *table)
{
	vfree(table);
}

/**
 * ntprof_inflight_used() - count the slots in use
 * @table: the table
 *
 * Context: Any. The count is exact only once no hook can use @table any
 * more.
 * Return: the number of commands the table holds.
 */
unsigned int ntprof_inflight_used(const struct ntprof_inflight *table)
{
	unsigned int i, used = 0;

	for (i = 0; i <= table->mask; i++)
		if (READ_ONCE(table->slots[i].key) != NTPROF_INFLIGHT_FREE)
			used++;

	return used;
}

static struct ntprof_inflight_entry *
ntprof_inflight_slot(struct ntprof_inflight *table, const void *key,
		     unsigned int i)
{
	return &table->slots[(hash_ptr(key, 32) + i) & table->mask];
}

/**
 * ntprof_inflight_lookup() - find the slot of a command
 * @table: the table
 * @key: the command's key
 *
 * The slot may change hands right after the lookup; see
 * ntprof_entry_stamp() for why stamping it anyway is fine.
 *
 * Context: Any.
 * Return: the slot, or NULL when @key is not in the table.
 */
struct ntprof_inflight_entry *
ntprof_inflight_lookup(struct ntprof_inflight *table, const void *key)
{
	struct ntprof_inflight_entry *entry;
	unsigned int i;

	for (i = 0; i < NTPROF_INFLIGHT_PROBES; i++) {
		entry = ntprof_inflight_slot(table, key, i);
		/* Pairs with ntprof_inflight_publish(): see it filled. */
		if (smp_load_acquire(&entry->key) == (unsigned long)key)
			return entry;
	}

	return NULL;
}

/**
 * ntprof_inflight_claim() - get a slot for a command
 * @table: the table
 * @key: the command's key
 * @reused: set to true when the slot still holds a command of that key
 *
 * A command whose key is already in the table is a retry of it, or one
 * that reuses the key of a command the session lost track of: the caller
 * gets that slot, with its old content, to report it before it fills the
 * slot again. The slot is the caller's until ntprof_inflight_publish().
 *
 * Context: Any.
 * Return: the slot, or NULL when all the slots the key may use are busy.
 */
struct ntprof_inflight_entry *
ntprof_inflight_claim(struct ntprof_inflight *table, const void *key,
		      bool *reused)
{
	struct ntprof_inflight_entry *entry;
	unsigned int i;

	for (i = 0; i < NTPROF_INFLIGHT_PROBES; i++) {
		entry = ntprof_inflight_slot(table, key, i);
		if (READ_ONCE(entry->key) == (unsigned long)key &&
		    cmpxchg(&entry->key, (unsigned long)key,
			    NTPROF_INFLIGHT_BUSY) == (unsigned long)key) {
			*reused = true;
			return entry;
		}
	}

	for (i = 0; i < NTPROF_INFLIGHT_PROBES; i++) {
		entry = ntprof_inflight_slot(table, key, i);
		if (READ_ONCE(entry->key) == NTPROF_INFLIGHT_FREE &&
		    cmpxchg(&entry->key, NTPROF_INFLIGHT_FREE,
			    NTPROF_INFLIGHT_BUSY) == NTPROF_INFLIGHT_FREE) {
			atomic_inc(&table->nr_claimed);
			*reused = false;
			return entry;
		}
	}

	return NULL;
}

/**
 * ntprof_inflight_take() - finish a command: own its slot until released
 * @table: the table
 * @entry: the command's slot, from ntprof_inflight_lookup()
 * @key: the command's key
 *
 * Of several callers that race to finish one command, exactly one wins.
 * The winner owns the slot: lookups no longer find it, so it may stamp
 * the last point and emit the record in place, without a copy of its
 * own, before ntprof_inflight_release().
 *
 * Context: Any.
 * Return: true if the caller owns the slot; false if the slot no longer
 * held @key (another caller finished it).
 */
bool ntprof_inflight_take(struct ntprof_inflight *table,
			  struct ntprof_inflight_entry *entry, const void *key)
{
	return cmpxchg(&entry->key, (unsigned long)key, NTPROF_INFLIGHT_BUSY) ==
	       (unsigned long)key;
}

/**
 * ntprof_inflight_release() - free a slot that ntprof_inflight_take() gave
 * @table: the table
 * @entry: the slot
 *
 * Context: Any.
 */
void ntprof_inflight_release(struct ntprof_inflight *table,
			     struct ntprof_inflight_entry *entry)
{
	/* The record is read out before the slot can be claimed again. */
	smp_store_release(&entry->key, NTPROF_INFLIGHT_FREE);
	atomic_dec(&table->nr_claimed);
}
