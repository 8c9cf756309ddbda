/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Finished records, in per-CPU ring buffers until the tool reads them,
 * and the per-CPU counters of the recording.
 */
#ifndef _NTPROF_BUFFER_H
#define _NTPROF_BUFFER_H

#include <linux/percpu.h>
#include <linux/types.h>

#include <uapi/linux/ntprof.h>

/**
 * struct ntprof_cpu_stats - the counters of one CPU, as in stats-get
 * @records: records written to the buffer
 * @drops: records lost because the buffer was full
 * @sampled: commands chosen by sampling and the filters
 * @seen: commands the sampling decided on
 * @evicted: sampled commands not followed: the in-flight table was full
 *
 * Host and target sessions add to the same counters; they are zeroed
 * when a session starts while no other runs.
 */
struct ntprof_cpu_stats {
	u64 records;
	u64 drops;
	u64 sampled;
	u64 seen;
	u64 evicted;
};

DECLARE_PER_CPU(struct ntprof_cpu_stats, ntprof_cpu_stats);

/* Only the owning CPU writes its counters: no atomics, no lost updates. */
#define ntprof_stat_inc(field)	this_cpu_inc(ntprof_cpu_stats.field)

int ntprof_buffer_prepare(bool reset);
void ntprof_buffer_exit(void);
void ntprof_buffer_emit(struct ntprof_record *rec);
bool ntprof_buffer_consume(int cpu, struct ntprof_record *rec);
unsigned long ntprof_buffer_fill(int cpu);
unsigned long ntprof_buffer_size(void);

#endif /* _NTPROF_BUFFER_H */
