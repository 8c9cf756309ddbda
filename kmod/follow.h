/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Following a sampled command, the steps every kind of hook shares: the
 * host's and the target's kernel hooks (hooks_host.c, hooks_target.c)
 * and the userspace sites (uprobes.c). Each finds its command's key its
 * own way; from the key on, a command is followed alike:
 *
 *	ntprof_follow_claim()	a slot for the key, once the command is
 *				sampled and passed the filters
 *	ntprof_follow_publish()	the record filled, the slot visible
 *	ntprof_follow_stamp()	a later point, by key
 *	ntprof_follow_end()	the last point: the record leaves the slot
 *
 * All inline: they run in the I/O path, where they allocate nothing and
 * take no lock (the table's slots change hands by cmpxchg()).
 */
#ifndef _NTPROF_FOLLOW_H
#define _NTPROF_FOLLOW_H

#include <linux/smp.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/types.h>

#include <uapi/linux/ntprof.h>

#include "buffer.h"
#include "inflight.h"
#include "sample.h"

/**
 * ntprof_follow_rec_init() - start the record of a command
 * @rec: the record, all of it overwritten
 * @role: the role of the session that records it
 * @transport: the command's transport
 * @id: the command's identity
 * @length: its data length in bytes, as the role knows it
 *
 * Every field that is not the command's identity is zero, except the CPU
 * that the command starts on.
 */
static inline void ntprof_follow_rec_init(struct ntprof_record *rec,
					  enum ntprof_role role,
					  enum ntprof_transport transport,
					  const struct ntprof_ident *id,
					  u32 length)
{
	memset(rec, 0, sizeof(*rec));
	rec->role = role;
	rec->transport = transport;
	rec->opcode = id->opcode;
	rec->qid = id->qid;
	rec->cid = id->cid;
	rec->nsid = id->nsid;
	rec->slba = id->slba;
	rec->length = length;
	rec->cpu_submit = raw_smp_processor_id();
}

/**
 * ntprof_follow_claim() - get the slot of a sampled command
 * @table: the session's in-flight table
 * @role: the session's role, whose counters count a full table
 * @key: the command's key
 *
 * A slot that still holds @key is the one of a command the session lost
 * track of (a retry, a queue torn down, a request reused before its last
 * point): its record is emitted as it is, flagged partial, first.
 *
 * Context: Any; the I/O path.
 * Return: the slot, the caller's to fill until ntprof_follow_publish();
 * NULL when the slots the key may use are all busy (counted as evicted).
 */
static inline struct ntprof_inflight_entry *
ntprof_follow_claim(struct ntprof_inflight *table, enum ntprof_role role,
		    const void *key)
{
	struct ntprof_inflight_entry *entry;
	bool reused;

	entry = ntprof_inflight_claim(table, key, &reused);
	if (!entry) {
		ntprof_stat_inc(role, evicted);
		return NULL;
	}
	if (reused) {
		entry->rec.flags |= NTPROF_REC_F_PARTIAL;
		entry->rec.cpu_complete = raw_smp_processor_id();
		ntprof_buffer_emit(&entry->rec);
	}
	return entry;
}

/**
 * ntprof_follow_publish() - make a claimed, filled slot visible to lookups
 * @entry: the slot, from ntprof_follow_claim()
 * @obj: what the key was taken from, compared and never dereferenced
 * @key: the command's key
 *
 * Context: Any; the I/O path.
 */
static inline void ntprof_follow_publish(struct ntprof_inflight_entry *entry,
					 const void *obj, const void *key)
{
	entry->obj = obj;
	ntprof_inflight_publish(entry, key);
}

/**
 * ntprof_follow_stamp() - stamp a point of the command of a key, now
 * @table: the session's in-flight table
 * @key: the key a hook found, or NULL
 * @point: the point, whose first stamp is kept: the hooks that stamp by
 *	key fire again for later PDUs, work requests or bios of a command
 *
 * Context: Any; the I/O path.
 */
static inline void ntprof_follow_stamp(struct ntprof_inflight *table,
				       const void *key, enum ntprof_point point)
{
	struct ntprof_inflight_entry *entry;

	if (!key)
		return;
	entry = ntprof_inflight_lookup(table, key);
	if (entry)
		ntprof_entry_stamp_first(entry, point, ktime_get_ns());
}

/**
 * ntprof_follow_end() - emit the record of a finished command, free its slot
 * @table: the session's in-flight table
 * @entry: the slot, which ntprof_inflight_take() gave the caller
 *
 * The record leaves the slot in one pass, encoded into the ring buffer.
 *
 * Context: Any; the I/O path.
 */
static inline void ntprof_follow_end(struct ntprof_inflight *table,
				     struct ntprof_inflight_entry *entry)
{
	entry->rec.cpu_complete = raw_smp_processor_id();
	ntprof_buffer_emit(&entry->rec);
	ntprof_inflight_release(table, entry);
}

#endif /* _NTPROF_FOLLOW_H */
