/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Finished records, in per-CPU ring buffers until the tool reads them,
 * and the per-CPU counters of the recording: one set per role, so that
 * a host session and a target session on one machine never share them.
 */
#ifndef _NTPROF_BUFFER_H
#define _NTPROF_BUFFER_H

#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/types.h>

#include <uapi/linux/ntprof.h>

struct trace_buffer;

/**
 * struct ntprof_cpu_stats - the counters of one CPU, as in stats-get
 * @records: records written to the buffer
 * @drops: records lost because the buffer was full
 * @sampled: commands chosen by sampling and the filters
 * @seen: commands the sampling decided on
 * @evicted: sampled commands not followed: the in-flight table was full
 */
struct ntprof_cpu_stats {
	u64 records;
	u64 drops;
	u64 sampled;
	u64 seen;
	u64 evicted;
};

/**
 * struct ntprof_buffer - the record buffers and counters of one role
 * @rb: a kernel ring buffer with a sub-buffer per CPU; NULL before the
 *	role's first session
 * @stats: the per-CPU counters, valid when @rb is
 * @size: the size of each CPU's sub-buffer in bytes
 * @lock: held by readers; a new session's start takes it to replace the set
 *
 * A session's start allocates its role's set, replacing the one of the
 * role's previous session once the start succeeds; the set stays
 * readable after the session stops, until the next successful start of
 * the role or module exit. The I/O path
 * takes no lock: it runs only while the role's hooks are attached, and
 * the set is replaced only while they are not.
 */
struct ntprof_buffer {
	struct trace_buffer *rb;
	struct ntprof_cpu_stats __percpu *stats;
	unsigned long size;
	/* Serializes the readers with the replacement by a new session. */
	struct mutex lock;
};

/* Indexed by enum ntprof_role; [NTPROF_ROLE_NONE] is unused. */
extern struct ntprof_buffer ntprof_buffers[NTPROF_ROLE_TARGET + 1];

/*
 * Count an event of a session of @role, from one of its hooks. Only the
 * owning CPU writes its counters: no atomics, no lost updates.
 */
#define ntprof_stat_inc(role, field) \
	this_cpu_inc((*ntprof_buffers[role].stats).field)

int ntprof_buffer_alloc(enum ntprof_role role);
void ntprof_buffer_commit(enum ntprof_role role);
void ntprof_buffer_restore(enum ntprof_role role);
void ntprof_buffer_exit(void);
void ntprof_buffer_emit(const struct ntprof_record *rec);
bool ntprof_buffer_used(enum ntprof_role role);
struct ntprof_buffer *ntprof_buffer_get(enum ntprof_role role);
void ntprof_buffer_put(struct ntprof_buffer *b);
int ntprof_buffer_consume(struct ntprof_buffer *b, int cpu, void *buf,
			  unsigned int room);
unsigned long ntprof_buffer_fill(struct ntprof_buffer *b, int cpu);
void ntprof_buffer_stats(struct ntprof_buffer *b, int cpu,
			 struct ntprof_cpu_stats *st);

#endif /* _NTPROF_BUFFER_H */
