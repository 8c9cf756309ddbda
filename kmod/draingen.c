// SPDX-License-Identifier: GPL-2.0
/*
 * The drain benchmark's load generator (tools/bench/drain.sh), built into
 * the module with NTPROF_DRAIN_GEN=1 only: fio cannot make the records a
 * second that the drain must be shown to keep up with, so a kernel thread
 * writes synthetic records to a role's buffers, through the path the
 * hooks use (ntprof_buffer_emit()), at a set rate or as fast as it can,
 * while a session of that role runs and `ntprof record` drains it.
 *
 * <debugfs>/ntprof/draingen takes "ROLE COUNT RATE" (RATE records a
 * second, 0: no pacing) or "stop", and shows the generator's state.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/nvme.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>

#include "buffer.h"
#include "draingen.h"
#include "names.h"
#include "session_types.h"

/* Records written per hold of the session lock, and between paces. */
#define NTPROF_DRAINGEN_BATCH	64
/* At most this many records a run, so that COUNT * 10^9 fits a u64. */
#define NTPROF_DRAINGEN_MAX	1000000000ULL

/**
 * struct ntprof_draingen - the generator's one run
 * @task: its thread, from the start of a run to the next start or stop
 * @role: whose buffers it writes
 * @count: records asked for
 * @rate: records a second asked for, 0: as fast as it can
 * @emitted: records handed to the buffer so far (the buffer counts drops)
 * @start_ns: CLOCK_MONOTONIC at its start
 * @end_ns: at its end, 0 while it runs
 * @why: why it ended early, "" otherwise
 */
struct ntprof_draingen {
	struct task_struct *task;
	enum ntprof_role role;
	u64 count;
	u64 rate;
	u64 emitted;
	u64 start_ns;
	u64 end_ns;
	const char *why;
};

static struct ntprof_draingen ntprof_draingen;
/* Serializes the control file's writes with each other and with exit. */
static DEFINE_MUTEX(ntprof_draingen_lock);

/* Where a read's points fall, in ns before its last: a plausible read. */
struct ntprof_draingen_point {
	u8 point;
	u16 before_ns;
};

static const struct ntprof_draingen_point ntprof_draingen_host[] = {
	{ NTPROF_PT_HOST_BLK_START, 20000 },
	{ NTPROF_PT_HOST_QUEUE_RQ, 19000 },
	{ NTPROF_PT_HOST_SETUP, 18800 },
	{ NTPROF_PT_HOST_SEND, 18000 },
	{ NTPROF_PT_HOST_RECV, 3000 },
	{ NTPROF_PT_HOST_DRIVER_DONE, 2500 },
	{ NTPROF_PT_HOST_NVME_COMPLETE, 1000 },
	{ NTPROF_PT_HOST_BLK_COMPLETE, 0 },
};

static const struct ntprof_draingen_point ntprof_draingen_target[] = {
	{ NTPROF_PT_TARGET_RECV, 12000 },
	{ NTPROF_PT_TARGET_INIT, 11800 },
	{ NTPROF_PT_TARGET_EXEC, 11000 },
	{ NTPROF_PT_TARGET_COMPLETE, 2000 },
	{ NTPROF_PT_TARGET_QUEUE_RESP, 1800 },
	{ NTPROF_PT_TARGET_SEND, 0 },
};

/* A read the way the stage model expects one, ending now. */
static void ntprof_draingen_fill(struct ntprof_record *rec,
				 enum ntprof_role role, u64 i)
{
	const struct ntprof_draingen_point *pt = ntprof_draingen_host;
	size_t n = ARRAY_SIZE(ntprof_draingen_host), j;
	u64 now = ktime_get_ns();

	if (role == NTPROF_ROLE_TARGET) {
		pt = ntprof_draingen_target;
		n = ARRAY_SIZE(ntprof_draingen_target);
	}
	memset(rec, 0, sizeof(*rec));
	rec->role = role;
	rec->transport = NTPROF_TRANSPORT_TCP;
	rec->opcode = nvme_cmd_read;
	rec->flags = NTPROF_REC_F_SAMPLED;
	rec->qid = 1;
	rec->cid = i & 0xffff;
	rec->nsid = 1;
	rec->length = 4096;
	rec->slba = i;
	rec->cpu_submit = raw_smp_processor_id();
	rec->cpu_complete = rec->cpu_submit;
	for (j = 0; j < n; j++)
		rec->ts[pt[j].point] = now - pt[j].before_ns;
}

/*
 * Writes in batches under the session lock, so that no start can replace
 * the role's buffers under it and no stop can end the session mid-batch,
 * and ends when the session does. Then waits for kthread_stop().
 */
static int ntprof_draingen_thread(void *data)
{
	struct ntprof_draingen *g = data;
	struct ntprof_record rec;
	u64 i = 0, n, due, now;

	while (i < g->count && !kthread_should_stop()) {
		mutex_lock(&ntprof_session_lock);
		if (!READ_ONCE(ntprof_sessions[g->role].active)) {
			mutex_unlock(&ntprof_session_lock);
			g->why = "the session stopped";
			break;
		}
		for (n = 0; n < NTPROF_DRAINGEN_BATCH && i < g->count; n++) {
			ntprof_draingen_fill(&rec, g->role, i++);
			ntprof_buffer_emit(&rec);
		}
		mutex_unlock(&ntprof_session_lock);
		WRITE_ONCE(g->emitted, i);

		if (!g->rate) {
			cond_resched();
			continue;
		}
		due = g->start_ns + div64_u64(i * NSEC_PER_SEC, g->rate);
		now = ktime_get_ns();
		if (due > now)
			usleep_range(div_u64(due - now, NSEC_PER_USEC),
				     div_u64(due - now, NSEC_PER_USEC) + 50);
	}
	/* Pairs with the acquires of the readers: @why is set before. */
	smp_store_release(&g->end_ns, ktime_get_ns());

	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

/* Context: under ntprof_draingen_lock. */
static void ntprof_draingen_stop(void)
{
	if (!ntprof_draingen.task)
		return;
	kthread_stop(ntprof_draingen.task);
	ntprof_draingen.task = NULL;
}

/* Context: under ntprof_draingen_lock. */
static int ntprof_draingen_start(enum ntprof_role role, u64 count, u64 rate)
{
	struct ntprof_draingen *g = &ntprof_draingen;
	struct task_struct *task;

	/* Pairs with the thread's release: an ended run has said why. */
	if (g->task && !smp_load_acquire(&g->end_ns))
		return -EBUSY;
	ntprof_draingen_stop();
	if (!READ_ONCE(ntprof_sessions[role].active))
		return -ENOENT;

	g->role = role;
	g->count = count;
	g->rate = rate;
	g->emitted = 0;
	g->end_ns = 0;
	g->why = "";
	g->start_ns = ktime_get_ns();
	task = kthread_run(ntprof_draingen_thread, g, "ntprof-draingen");
	if (IS_ERR(task))
		return PTR_ERR(task);
	g->task = task;
	return 0;
}

static ssize_t ntprof_draingen_write(struct file *file, const char __user *ubuf,
				     size_t len, loff_t *ppos)
{
	enum ntprof_role role;
	char buf[64], name[8];
	u64 count, rate;
	ssize_t n;
	int err;

	n = simple_write_to_buffer(buf, sizeof(buf) - 1, ppos, ubuf, len);
	if (n < 0)
		return n;
	buf[n] = '\0';

	mutex_lock(&ntprof_draingen_lock);
	if (sysfs_streq(buf, "stop")) {
		ntprof_draingen_stop();
		err = 0;
	} else if (sscanf(buf, "%7s %llu %llu", name, &count, &rate) != 3 ||
		   !count || count > NTPROF_DRAINGEN_MAX) {
		err = -EINVAL;
	} else {
		role = ntprof_role_from_name(name);
		err = role == NTPROF_ROLE_NONE ? -EINVAL :
		      ntprof_draingen_start(role, count, rate);
	}
	mutex_unlock(&ntprof_draingen_lock);

	return err ? err : len;
}

static int ntprof_draingen_show(struct seq_file *m, void *unused)
{
	struct ntprof_draingen *g = &ntprof_draingen;
	u64 end;

	mutex_lock(&ntprof_draingen_lock);
	/* Pairs with the thread's release: see @why once it ended. */
	end = smp_load_acquire(&g->end_ns);
	seq_printf(m, "state %s\n", !g->task ? "idle" :
		   end ? "done" : "running");
	if (g->task) {
		seq_printf(m, "role %s\ncount %llu\nrate %llu\nemitted %llu\n",
			   ntprof_role_name(g->role),
			   g->count, g->rate, READ_ONCE(g->emitted));
		seq_printf(m, "elapsed_ns %llu\n",
			   (end ? end : ktime_get_ns()) - g->start_ns);
		if (end && *g->why)
			seq_printf(m, "ended %s\n", g->why);
	}
	mutex_unlock(&ntprof_draingen_lock);
	return 0;
}

static int ntprof_draingen_open(struct inode *inode, struct file *file)
{
	return single_open(file, ntprof_draingen_show, NULL);
}

static const struct file_operations ntprof_draingen_fops = {
	.owner = THIS_MODULE,
	.open = ntprof_draingen_open,
	.read = seq_read,
	.write = ntprof_draingen_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/**
 * ntprof_draingen_init() - create <debugfs>/ntprof/draingen
 * @dir: <debugfs>/ntprof
 *
 * Context: Process context, module init.
 */
void ntprof_draingen_init(struct dentry *dir)
{
	debugfs_create_file("draingen", 0600, dir, NULL, &ntprof_draingen_fops);
}

/**
 * ntprof_draingen_exit() - end a run, before the buffers go
 *
 * Context: Process context, module exit, after <debugfs>/ntprof/ is gone.
 */
void ntprof_draingen_exit(void)
{
	mutex_lock(&ntprof_draingen_lock);
	ntprof_draingen_stop();
	mutex_unlock(&ntprof_draingen_lock);
}
