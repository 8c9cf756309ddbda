// SPDX-License-Identifier: GPL-2.0
/*
 * The record buffers: one kernel ring buffer (kernel/trace/ring_buffer.c)
 * with a sub-buffer per CPU. Writers never wait and never meet: each
 * writes to its own CPU's sub-buffer, from any context. The buffer does
 * not overwrite: when a CPU's sub-buffer is full, new records are dropped
 * and counted, so that what the tool reads is a prefix of the recording
 * and not a random mix. Readers consume records, possibly while writers
 * add more; the ring buffer serializes readers of one CPU itself.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/ring_buffer.h>
#include <linux/string.h>

#include "buffer.h"

static unsigned int buffer_kib = 4096;
module_param(buffer_kib, uint, 0444);
MODULE_PARM_DESC(buffer_kib,
		 "Size of each CPU's record buffer in KiB (default 4096)");

DEFINE_PER_CPU(struct ntprof_cpu_stats, ntprof_cpu_stats);

/*
 * Allocated by the first session, freed at module exit: records stay
 * readable after a session stops. Published with release semantics,
 * never changed afterwards.
 */
static struct trace_buffer *ntprof_rb;
static unsigned long ntprof_rb_size;

/**
 * ntprof_buffer_prepare() - make the buffers ready for a session
 * @reset: drop the records and zero the counters of earlier sessions
 *
 * Context: Process context, under the session lock; @reset only while
 * no session records.
 * Return: 0, or -ENOMEM.
 */
int ntprof_buffer_prepare(bool reset)
{
	struct trace_buffer *rb = ntprof_rb;
	int cpu;

	if (!rb) {
		/* Flags 0: no RB_FL_OVERWRITE, a full buffer drops. */
		ntprof_rb_size = (unsigned long)clamp(buffer_kib, 64U,
						      1U << 20) * 1024;
		rb = ring_buffer_alloc(ntprof_rb_size, 0);
		if (!rb)
			return -ENOMEM;
		/* Pairs with the loads in the readers and the writer. */
		smp_store_release(&ntprof_rb, rb);
		reset = true;
	}

	if (reset) {
		ring_buffer_reset(rb);
		for_each_possible_cpu(cpu)
			memset(per_cpu_ptr(&ntprof_cpu_stats, cpu), 0,
			       sizeof(struct ntprof_cpu_stats));
	}

	return 0;
}

/**
 * ntprof_buffer_exit() - free the buffers
 *
 * Context: Process context, module exit, with no hook and no reader left.
 */
void ntprof_buffer_exit(void)
{
	if (ntprof_rb)
		ring_buffer_free(ntprof_rb);
	ntprof_rb = NULL;
}

/**
 * ntprof_buffer_emit() - write a finished record to this CPU's buffer
 * @rec: the record
 *
 * Context: Any, preemption disabled or not.
 */
void ntprof_buffer_emit(struct ntprof_record *rec)
{
	/* Pairs with ntprof_buffer_prepare(): see the buffer initialized. */
	struct trace_buffer *rb = smp_load_acquire(&ntprof_rb);

	if (unlikely(!rb) || ring_buffer_write(rb, sizeof(*rec), rec)) {
		ntprof_stat_inc(drops);
		return;
	}

	ntprof_stat_inc(records);
}

/**
 * ntprof_buffer_consume() - take the oldest record of a CPU's buffer
 * @cpu: the CPU
 * @rec: where to copy the record
 *
 * Context: Process context.
 * Return: true if @rec holds a record, false if the buffer is empty.
 */
bool ntprof_buffer_consume(int cpu, struct ntprof_record *rec)
{
	/* Pairs with ntprof_buffer_prepare(): see the buffer initialized. */
	struct trace_buffer *rb = smp_load_acquire(&ntprof_rb);
	struct ring_buffer_event *event;
	unsigned long lost;
	u64 ts;

	if (!rb)
		return false;

	for (;;) {
		event = ring_buffer_consume(rb, cpu, &ts, &lost);
		if (!event)
			return false;
		/* Only this file writes, always whole records: be sure. */
		if (ring_buffer_event_length(event) >= sizeof(*rec))
			break;
	}

	memcpy(rec, ring_buffer_event_data(event), sizeof(*rec));
	return true;
}

/**
 * ntprof_buffer_fill() - count the records waiting in a CPU's buffer
 * @cpu: the CPU
 *
 * Context: Any.
 * Return: the number of records not yet read.
 */
unsigned long ntprof_buffer_fill(int cpu)
{
	/* Pairs with ntprof_buffer_prepare(): see the buffer initialized. */
	struct trace_buffer *rb = smp_load_acquire(&ntprof_rb);

	return rb ? ring_buffer_entries_cpu(rb, cpu) : 0;
}

/**
 * ntprof_buffer_size() - the size of each CPU's buffer
 *
 * Context: Any.
 * Return: the size in bytes, 0 before the first session.
 */
unsigned long ntprof_buffer_size(void)
{
	/* Pairs with ntprof_buffer_prepare(): the size is set before. */
	return smp_load_acquire(&ntprof_rb) ? ntprof_rb_size : 0;
}
