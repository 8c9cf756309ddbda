/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What differs between the kernels ntprof builds for: one small wrapper
 * per kernel API that changed, with the tests of versions and features
 * here and nowhere else. Where a header or the kernel's exports tell
 * whether a feature is there, the test is of the feature: kmod/Kbuild
 * defines an NTPROF_HAVE_* macro for it, or the feature brings a macro
 * of its own. A distribution may backport a feature into an older
 * version (RHEL 9's 5.14), which a test of the version would miss. The
 * version is tested only where nothing else tells: the layouts and the
 * arguments of functions private to the NVMe drivers, whose headers are
 * not installed.
 */
#ifndef _NTPROF_COMPAT_H
#define _NTPROF_COMPAT_H

#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/dcache.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/ftrace.h>
#include <linux/mm.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/ring_buffer.h>
#include <linux/string.h>
#include <linux/uprobes.h>
#include <linux/version.h>
#include <net/genetlink.h>
#include <net/netlink.h>

/*
 * The version test, for what no feature test tells. checkpatch's
 * LINUX_VERSION_CODE rule is for code merged into one kernel; an
 * out-of-tree module builds for many (the style target ignores it).
 */
#define NTPROF_KERNEL_BEFORE(a, b, c) \
	(KERNEL_VERSION(a, b, c) > LINUX_VERSION_CODE)

/*
 * A function hook's arguments. Where ftrace's plain caller saves the
 * argument registers (x86-64 since 5.11, "WITH_ARGS"), the ops asks for
 * no more: the caller that saves every register (FTRACE_OPS_FL_SAVE_REGS)
 * costs each hit some tens of instructions more. ftrace_regs_get_argument()
 * came later (6.2) than the registers it reads; before it, x86's
 * struct ftrace_regs is a struct pt_regs. NTPROF_HAVE_FTRACE_REGS: the
 * kernel has struct ftrace_regs (5.11).
 */
#ifndef NTPROF_HAVE_FTRACE_REGS
/*
 * Before 5.11 there is no struct ftrace_regs: ftrace passes the callback
 * a struct pt_regs, NULL unless the ops asked for all of them. ntprof's
 * handlers take this struct ftrace_regs, which wraps the pt_regs.
 */
struct ftrace_regs {
	struct pt_regs regs;
};

#define ntprof_ftrace_cb_regs	pt_regs
static inline struct ftrace_regs *ntprof_ftrace_regs(struct pt_regs *regs)
{
	return container_of(regs, struct ftrace_regs, regs);
}
#else
/* What ftrace passes a callback, the handlers' struct ftrace_regs. */
#define ntprof_ftrace_cb_regs	ftrace_regs
static inline struct ftrace_regs *
ntprof_ftrace_regs(struct ftrace_regs *fregs)
{
	return fregs;
}
#endif

#ifndef NTPROF_HAVE_FTRACE_REGS
#define NTPROF_FTRACE_REGS_FLAG	FTRACE_OPS_FL_SAVE_REGS
static inline bool ntprof_ftrace_args_ok(struct ftrace_regs *fregs)
{
	return fregs;
}

static inline unsigned long ntprof_fn_arg(struct ftrace_regs *fregs,
					  unsigned int n)
{
	return regs_get_kernel_argument(&fregs->regs, n);
}
#elif defined(ftrace_regs_get_argument)
#define NTPROF_FTRACE_REGS_FLAG	0
static inline bool ntprof_ftrace_args_ok(struct ftrace_regs *fregs)
{
	return true;
}

static inline unsigned long ntprof_fn_arg(struct ftrace_regs *fregs,
					  unsigned int n)
{
	return ftrace_regs_get_argument(fregs, n);
}
#elif defined(CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS) && defined(CONFIG_X86_64)
#define NTPROF_FTRACE_REGS_FLAG	0
static inline bool ntprof_ftrace_args_ok(struct ftrace_regs *fregs)
{
	return true;
}

static inline unsigned long ntprof_fn_arg(struct ftrace_regs *fregs,
					  unsigned int n)
{
	return regs_get_kernel_argument(&fregs->regs, n);
}
#else
#define NTPROF_FTRACE_REGS_FLAG	FTRACE_OPS_FL_SAVE_REGS
static inline bool ntprof_ftrace_args_ok(struct ftrace_regs *fregs)
{
	return ftrace_get_regs(fregs);
}

static inline unsigned long ntprof_fn_arg(struct ftrace_regs *fregs,
					  unsigned int n)
{
	return regs_get_kernel_argument(ftrace_get_regs(fregs), n);
}
#endif

/*
 * ntprof's ftrace callback needs no recursion guard: no handler calls a
 * hooked function, and the callback disables preemption itself. So ftrace
 * should call it directly, not through ftrace_ops_assist_func(), which
 * adds a recursion lock to every hit. Since 5.11 that is the default, and
 * FTRACE_OPS_FL_RECURSION asks for the guard; before, the default was the
 * guard, and FTRACE_OPS_FL_RECURSION_SAFE declined it.
 */
#ifdef NTPROF_HAVE_FTRACE_RECURSION_SAFE
#define NTPROF_FTRACE_RECURSION_FLAG	FTRACE_OPS_FL_RECURSION_SAFE
#else
#define NTPROF_FTRACE_RECURSION_FLAG	0
#endif

/*
 * ftrace_free_filter() is exported since 6.2 and 6.1's stable updates:
 * NTPROF_HAVE_FTRACE_FREE_FILTER, from the kernel's Module.symvers.
 * Without it, resetting the filter to nothing frees its entries as well:
 * the ops is left with ftrace's static empty hash. ntprof sets no
 * notrace filter.
 */
static inline void ntprof_ftrace_free_filter(struct ftrace_ops *ops)
{
#ifdef NTPROF_HAVE_FTRACE_FREE_FILTER
	ftrace_free_filter(ops);
#else
	ftrace_set_filter(ops, NULL, 0, 1);
#endif
}

/*
 * The layout of nvmet's private structs (kmod/layout.c). Since 6.16,
 * struct nvmet_sq has a cq pointer before qid, and struct nvmet_ctrl has
 * cqs and drvdata pointers before reset_tbkas (pahole on the BTF of
 * Debian's 6.16.12, 7.2.12 and 7.3.4); Debian's 5.10, 6.1 and 6.12 have
 * neither.
 */
#if NTPROF_KERNEL_BEFORE(6, 16, 0)
#define NTPROF_NVMET_CQS	0
#else
#define NTPROF_NVMET_CQS	1
#endif

/* The releases whose layouts were checked: the built-in table's. */
#define NTPROF_KERNEL_SERIES(a, b) \
	((LINUX_VERSION_CODE >> 8) == ((a) << 8) + (b))
#define NTPROF_LAYOUT_CHECKED						\
	(NTPROF_KERNEL_SERIES(5, 10) || NTPROF_KERNEL_SERIES(6, 1) ||	\
	 NTPROF_KERNEL_SERIES(6, 12) || NTPROF_KERNEL_SERIES(6, 16) ||	\
	 NTPROF_KERNEL_SERIES(7, 2) || NTPROF_KERNEL_SERIES(7, 3))

/*
 * The argument of nvmet_req_init() that is the transport's ops: (req,
 * cq, sq, ops) up to 6.12, (req, sq, ops) since 6.16, the queue's cq
 * being its sq's (the BTF of the same builds). 6.13 to 6.15 had no
 * Debian build to check which: 0, unknown, and the kprobe that reads it
 * does not attach there; the tracepoint reads the ops from the nvmet_req
 * where BTF gives their offset (hooks_target.c).
 */
#if NTPROF_KERNEL_BEFORE(6, 13, 0)
#define NTPROF_NVMET_REQ_INIT_OPS	3
#elif NTPROF_KERNEL_BEFORE(6, 16, 0)
#define NTPROF_NVMET_REQ_INIT_OPS	0
#else
#define NTPROF_NVMET_REQ_INIT_OPS	2
#endif

/*
 * The argument of blk_execute_rq() and blk_execute_rq_nowait() that is
 * the request: (q, disk, rq, ...) up to 5.11, (disk, rq, ...) up to
 * 5.18, (rq, at_head) since.
 */
#if NTPROF_KERNEL_BEFORE(5, 12, 0)
#define NTPROF_EXECUTE_RQ_ARG	2
#elif NTPROF_KERNEL_BEFORE(5, 19, 0)
#define NTPROF_EXECUTE_RQ_ARG	1
#else
#define NTPROF_EXECUTE_RQ_ARG	0
#endif

/*
 * Userspace probes. Up to 6.11, a uprobe is named by its inode and
 * offset: uprobe_register() returns an errno, uprobe_unregister() takes
 * the same triple and returns once no handler of the consumer runs (it
 * takes the uprobe's register_rwsem, which the handlers hold). Since
 * 6.12, uprobe_register() returns the struct uprobe (or an ERR_PTR)
 * and takes a ref_ctr_offset; uprobe_unregister_nosync() detaches a
 * consumer without waiting, and one uprobe_unregister_sync() after a
 * batch waits for the handlers of all of them (an RCU tasks trace grace
 * period). Up to 6.12 the consumer's handler is handler(uc, regs); 6.13
 * adds a __u64 *data (for a uretprobe's session), which ntprof does not
 * use: NTPROF_UPROBE_HANDLER(HANDLER) defines HANDLER_uprobe, the
 * kernel's handler, which calls HANDLER(uc, regs). kmod/Kbuild tells
 * which API the kernel has: NTPROF_HAVE_UPROBE_NOSYNC (6.12's register
 * and unregister), NTPROF_HAVE_UPROBE_FILTER_CTX (a filter's ctx, up to
 * 6.11), NTPROF_HAVE_UPROBE_HANDLER_DATA (a handler's data, 6.13).
 */
#ifdef CONFIG_UPROBES
#ifdef NTPROF_HAVE_UPROBE_HANDLER_DATA
#define NTPROF_UPROBE_HANDLER(_handler)					\
static int _handler##_uprobe(struct uprobe_consumer *uc,		\
			     struct pt_regs *regs, __u64 *data)		\
{									\
	return _handler(uc, regs);					\
}
#else
#define NTPROF_UPROBE_HANDLER(_handler)					\
static int _handler##_uprobe(struct uprobe_consumer *uc,		\
			     struct pt_regs *regs)			\
{									\
	return _handler(uc, regs);					\
}
#endif

/*
 * A consumer's filter, which tells in which processes the breakpoint
 * goes: up to 6.11 filter(uc, ctx, mm), since 6.12 filter(uc, mm).
 * NTPROF_UPROBE_FILTER(FILTER) defines FILTER_uprobe, which calls
 * FILTER(uc, mm). The kernel calls it with the mm's mmap_lock held
 * (registering, unregistering, mapping), and from a hit only when every
 * consumer's handler asked for its removal, which ntprof's never does.
 */
#ifdef NTPROF_HAVE_UPROBE_FILTER_CTX
#define NTPROF_UPROBE_FILTER(_filter)					\
static bool _filter##_uprobe(struct uprobe_consumer *uc,		\
			     enum uprobe_filter_ctx ctx,		\
			     struct mm_struct *mm)			\
{									\
	return _filter(uc, mm);						\
}
#else
#define NTPROF_UPROBE_FILTER(_filter)					\
static bool _filter##_uprobe(struct uprobe_consumer *uc,		\
			     struct mm_struct *mm)			\
{									\
	return _filter(uc, mm);						\
}
#endif

/*
 * Whether @dentry is named @name. A rename may replace its name at any
 * time: the name it had is freed only after an RCU grace period, so it
 * is read once, under rcu_read_lock(), as dentry_cmp() does. A name
 * being rewritten in place may compare wrong, never out of bounds: the
 * comparison stops at @name's end, shorter than any dentry's name room.
 */
static inline bool ntprof_dentry_named(const struct dentry *dentry,
				       const char *name)
{
	const unsigned char *cs;
	bool same;

	rcu_read_lock();
	cs = READ_ONCE(dentry->d_name.name);
	same = !strcmp((const char *)cs, name);
	rcu_read_unlock();
	return same;
}

/*
 * Whether @mm maps a file whose dentry is named @name; the caller holds
 * its mmap_lock. The mappings are a list up to 6.0, a maple tree since,
 * which came with for_each_vma().
 */
static inline bool ntprof_mm_maps_name(struct mm_struct *mm, const char *name)
{
	struct vm_area_struct *vma;
#ifdef for_each_vma
	VMA_ITERATOR(vmi, mm, 0);

	for_each_vma(vmi, vma)
#else

	for (vma = mm->mmap; vma; vma = vma->vm_next)
#endif
		if (vma->vm_file &&
		    ntprof_dentry_named(vma->vm_file->f_path.dentry, name))
			return true;
	return false;
}

#ifndef NTPROF_HAVE_UPROBE_NOSYNC
struct ntprof_uprobe {
	struct inode *inode;
	loff_t offset;
};

static inline int ntprof_uprobe_register(struct ntprof_uprobe *up,
					 struct inode *inode, loff_t offset,
					 struct uprobe_consumer *uc)
{
	up->inode = inode;
	up->offset = offset;
	return uprobe_register(inode, offset, uc);
}

static inline void ntprof_uprobe_unregister(struct ntprof_uprobe *up,
					    struct uprobe_consumer *uc)
{
	uprobe_unregister(up->inode, up->offset, uc);
}

static inline void ntprof_uprobe_unregister_sync(void)
{
}
#else
struct ntprof_uprobe {
	struct uprobe *uprobe;
};

static inline int ntprof_uprobe_register(struct ntprof_uprobe *up,
					 struct inode *inode, loff_t offset,
					 struct uprobe_consumer *uc)
{
	struct uprobe *uprobe = uprobe_register(inode, offset, 0, uc);

	if (IS_ERR(uprobe))
		return PTR_ERR(uprobe);
	up->uprobe = uprobe;
	return 0;
}

static inline void ntprof_uprobe_unregister(struct ntprof_uprobe *up,
					    struct uprobe_consumer *uc)
{
	uprobe_unregister_nosync(up->uprobe, uc);
}

static inline void ntprof_uprobe_unregister_sync(void)
{
	uprobe_unregister_sync();
}
#endif
#endif /* CONFIG_UPROBES */

/*
 * A request's disk: its queue's where the queue knows it
 * (NTPROF_HAVE_QUEUE_DISK, 5.15), the request's own (rq_disk) before.
 */
static inline struct gendisk *ntprof_rq_disk(struct request *rq)
{
#ifdef NTPROF_HAVE_QUEUE_DISK
	return rq->q->disk;
#else
	return rq->rq_disk;
#endif
}

/*
 * Generic netlink. NL_REQ_ATTR_CHECK() and GENL_REQ_ATTR_CHECK() came in
 * 6.0, with the extack's report of the missing attribute; before, the
 * same test, with a message instead.
 */
#ifndef NL_REQ_ATTR_CHECK
static inline bool ntprof_nl_req_attr_missing(struct netlink_ext_ack *extack,
					      const struct nlattr *nest,
					      struct nlattr **tb,
					      unsigned int type)
{
	if (tb[type])
		return false;
	NL_SET_ERR_MSG_ATTR(extack, nest, "a required attribute is missing");
	return true;
}

static inline bool ntprof_genl_req_attr_missing(struct genl_info *info,
						unsigned int type)
{
	return ntprof_nl_req_attr_missing(info->extack, NULL, info->attrs,
					  type);
}

#define NL_REQ_ATTR_CHECK(extack, nest, tb, type) \
	ntprof_nl_req_attr_missing(extack, nest, tb, type)
#define GENL_REQ_ATTR_CHECK(info, type) \
	ntprof_genl_req_attr_missing(info, type)
#endif

/*
 * Since 6.1 a family says from which command on the core validates
 * strictly (genl_family.resv_start_op, NTPROF_HAVE_GENL_RESV_START_OP);
 * before, it validates every command strictly unless the command's ops
 * opt out, which ntprof's never do.
 */
static inline void ntprof_genl_strict_from(struct genl_family *family,
					   u8 cmd)
{
#ifdef NTPROF_HAVE_GENL_RESV_START_OP
	family->resv_start_op = cmd;
#endif
}

/*
 * 6.2 dropped the event from ring_buffer_unlock_commit()'s arguments
 * (NTPROF_HAVE_RB_COMMIT_BUFFER_ONLY).
 */
static inline void ntprof_ring_buffer_commit(struct trace_buffer *rb,
					     struct ring_buffer_event *event)
{
#ifdef NTPROF_HAVE_RB_COMMIT_BUFFER_ONLY
	ring_buffer_unlock_commit(rb);
#else
	ring_buffer_unlock_commit(rb, event);
#endif
}

#endif /* _NTPROF_COMPAT_H */
