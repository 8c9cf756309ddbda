// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace sites: a uprobe per site that a session's start request
 * names, registered by inode and file offset, so that it fires in every
 * process that maps the binary, now or later, until the session stops;
 * with a pid, it records that process's commands only.
 *
 * The binary is the file the request's sender has open, and parsed: not
 * whatever its path names by the time the request arrives. The site
 * holds that file's path (its mount too) while probed, and probes the
 * real inode behind it, the one a process maps when it runs the file
 * from an overlay.
 *
 * A site stamps one point of its session's role into the record of the
 * command it runs for. The first site of a command fetches the command's
 * identity from the program's memory, decides sampling as the kernel
 * hooks do (kmod/sample.h: a kernel host and a user target pick the same
 * commands), and claims an in-flight slot under the command's key; the
 * other sites find the slot by the key, and a last site takes it and
 * emits the record. The values fetched are the program's and are never
 * trusted: they are read with copy_from_user_nofault(), which fails on an
 * address that is not the process's or not in memory, and are only
 * hashed, compared and stored. A read that fails drops the hit and
 * counts a fault on the site.
 *
 * Handlers run in the probed task, at the int3 of the probe; they never
 * wait for a page (a FUSE-backed mapping would stall them), allocate
 * nothing and take no lock.
 *
 * A process that runs ntprof's in-process agent (tools/agent/) gets no
 * breakpoint: the agent replaced the entries with jumps, and an int3
 * put over one would run the entry's first instruction, copied from the
 * file, then land inside the jump. The consumer's filter finds the
 * agent by its shared memory, a memfd "ntprof-agent" that it maps.
 *
 * Sites are configured, registered and unregistered under the session
 * lock, by session.c; the table of a role keeps the last session's sites
 * (without their inodes) for debugfs until the role's next start.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/dcache.h>
#include <linux/errno.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mm_types.h>
#include <linux/mmap_lock.h>
#include <linux/mutex.h>
#include <linux/netlink.h>
#include <linux/path.h>
#include <linux/pid.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/uprobes.h>

#include "buffer.h"
#include "compat.h"
#include "follow.h"
#include "inflight.h"
#include "names.h"
#include "sample.h"
#include "session_types.h"
#include "uprobes.h"

/**
 * struct ntprof_usite_stats - a site's counters on one CPU
 * @hits: times its probe fired while its session recorded
 * @faults: hits dropped because a read of the program's memory failed
 */
struct ntprof_usite_stats {
	u64 hits;
	u64 faults;
};

/**
 * struct ntprof_usite - a site of a role's current or last session
 * @uc: the consumer registered on the probe
 * @up: what the kernel's uprobe API names the probe by (compat.h)
 * @registered: @uc is registered
 * @file: the binary's path, the sender's open file's, held while
 *	@registered may be true
 * @inode: the real inode behind @file, which the probe is on
 * @path: the binary's path as the request named it, for debugfs
 * @offset: the probe's file offset
 * @role: the session's role
 * @act: what it does where it fires, as its spec asked
 * @stats: per-CPU counters, since the role's last start
 */
struct ntprof_usite {
	struct uprobe_consumer uc;
	struct ntprof_uprobe up;
	bool registered;
	struct path file;
	struct inode *inode;
	char *path;
	u64 offset;
	enum ntprof_role role;
	struct ntprof_usite_action act;
	struct ntprof_usite_stats __percpu *stats;
};

/* Indexed by enum ntprof_role; under the session lock. */
static struct ntprof_usite ntprof_usites[NTPROF_ROLE_TARGET + 1]
				       [NTPROF_USITES_MAX];
static unsigned int ntprof_nr_usites[NTPROF_ROLE_TARGET + 1];

/*
 * Read a fetch's value in the probed task. The loads go through
 * copy_from_user_nofault(), which checks that each address is the
 * task's (never the kernel's) and fails, without waiting for a page,
 * on one that is unmapped or not in memory. The argument registers are
 * the user's, as the probe's int3 saved them: at a function's entry,
 * those of the x86-64 SysV calling convention, in the order
 * regs_get_kernel_argument() reads them.
 */
static int ntprof_fetch_read(const struct ntprof_fetch *f,
			     struct pt_regs *regs, u64 *val)
{
	unsigned long addr = regs_get_kernel_argument(regs, f->reg);
	unsigned int i;
	u64 v = 0;

	for (i = 0; i < f->nr_derefs; i++) {
		if (copy_from_user_nofault(&v, (const void __user *)
					   (addr + f->derefs[i]), sizeof(v)))
			return -EFAULT;
		addr = v;
	}
	addr += f->offset;

	if (!f->width) {
		*val = addr;
		return 0;
	}
	/* Little-endian: the low bytes of @v are the value's. */
	v = 0;
	if (copy_from_user_nofault(&v, (const void __user *)addr, f->width))
		return -EFAULT;
	*val = v;
	return 0;
}

/*
 * The in-flight key of a command of the probed process. Keys fetched
 * from a program are its addresses (its request's), which another
 * process may use for its own command at the same time: the mm is mixed
 * in so that two processes never share a key. The mix is a bijection of
 * the value for one mm (fmix64 of the value xor a hash of the mm), so
 * that the commands of one process never collide; across processes two
 * keys meet with a chance of 2^-62. The top bit is cleared, so that a
 * key is never a kernel pointer, the kernel hooks' keys in the same
 * table, and bit 1 set, so that it is never a free or busy slot's.
 */
static const void *ntprof_usite_key(u64 value)
{
	u64 h = ntprof_fmix64((unsigned long)current->mm);

	h = ntprof_fmix64(value ^ h);
	return (const void *)(unsigned long)(h >> 1 | 2);
}

static void ntprof_usite_fault(struct ntprof_usite *site)
{
	this_cpu_inc(site->stats->faults);
}

/*
 * The transport of a sampled command: the site's, or the one its
 * transport type names (NONE for another, recorded as the session's).
 */
static int ntprof_usite_transport(const struct ntprof_usite *site,
				  struct pt_regs *regs,
				  enum ntprof_transport *transport)
{
	u64 trtype;

	*transport = site->act.transport;
	if (!site->act.trtype.set)
		return 0;
	if (ntprof_fetch_read(&site->act.trtype, regs, &trtype))
		return -EFAULT;
	switch ((u8)trtype) {
	case NVMF_TRTYPE_TCP:
		*transport = NTPROF_TRANSPORT_TCP;
		break;
	case NVMF_TRTYPE_RDMA:
		*transport = NTPROF_TRANSPORT_RDMA;
		break;
	}
	return 0;
}

/* The identity a first site fetches; a field without a fetch is 0. */
static int ntprof_usite_ident(const struct ntprof_usite *site,
			      struct pt_regs *regs, struct ntprof_ident *id)
{
	u64 v[NTPROF_UID_LENGTH] = { 0 };
	unsigned int i;

	for (i = 0; i < NTPROF_UID_LENGTH; i++)
		if (site->act.id[i].set &&
		    ntprof_fetch_read(&site->act.id[i], regs, &v[i]))
			return -EFAULT;

	id->qid = v[NTPROF_UID_QID];
	id->cid = v[NTPROF_UID_CID];
	id->opcode = v[NTPROF_UID_OPCODE];
	id->nsid = v[NTPROF_UID_NSID];
	id->slba = v[NTPROF_UID_SLBA];
	id->nlb = v[NTPROF_UID_NLB];
	return 0;
}

/*
 * The length of a sampled command, fetched for those only: it is not
 * hashed. Without a fetch, the session's minimum, so that only the op
 * filter applies.
 */
static int ntprof_usite_length(const struct ntprof_usite *site,
			       const struct ntprof_session *s,
			       struct pt_regs *regs, u32 *len)
{
	u64 v;

	if (!site->act.id[NTPROF_UID_LENGTH].set) {
		*len = s->cfg.min_len;
		return 0;
	}
	if (ntprof_fetch_read(&site->act.id[NTPROF_UID_LENGTH], regs, &v))
		return -EFAULT;
	*len = v;
	return 0;
}

/* The record of a command a first site sampled, stamped at @now. */
static void ntprof_usite_rec_init(struct ntprof_record *rec,
				  const struct ntprof_usite *site,
				  const struct ntprof_session *s,
				  const struct ntprof_ident *id,
				  enum ntprof_transport transport, u32 len,
				  u64 now)
{
	ntprof_follow_rec_init(rec, site->role,
			       transport ? transport : s->cfg.transport, id,
			       site->act.id[NTPROF_UID_LENGTH].set ? len : 0);
	rec->flags = NTPROF_REC_F_SAMPLED | NTPROF_REC_F_USER;
	rec->pid = task_tgid_nr_ns(current, s->pid_ns);
	rec->ts[site->act.point] = now;
}

/*
 * Record a command of a single site, which is both its first and its
 * last: the record needs no slot. This is a separate function so that
 * the record on its stack, which kernels built with INIT_STACK_ALL_ZERO
 * clear, costs the other sites nothing.
 */
static noinline void ntprof_usite_one(const struct ntprof_usite *site,
				      const struct ntprof_session *s,
				      const struct ntprof_ident *id,
				      enum ntprof_transport transport, u32 len,
				      u64 now)
{
	struct ntprof_record rec;

	ntprof_usite_rec_init(&rec, site, s, id, transport, len, now);
	rec.cpu_complete = rec.cpu_submit;
	ntprof_buffer_emit(&rec);
}

/* The first site of a command: identity, sampling, a slot. */
static void ntprof_usite_first(struct ntprof_usite *site,
			       struct ntprof_session *s, struct pt_regs *regs)
{
	struct ntprof_inflight_entry *entry;
	enum ntprof_transport transport;
	struct ntprof_ident id;
	const void *key;
	u64 kv, now;
	u32 len;

	if (ntprof_usite_ident(site, regs, &id))
		goto fault;
	/*
	 * I/O commands only, as the kernel hooks: not the admin queue's,
	 * and not a Connect, which a target parses before its queue has
	 * the id the host gives it.
	 */
	if (!id.qid || id.opcode == nvme_fabrics_command)
		return;

	ntprof_stat_inc(site->role, seen);
	if (!ntprof_sample_pick(&id, s->cfg.sample))
		return;
	if (ntprof_usite_length(site, s, regs, &len))
		goto fault;
	if (!ntprof_session_filter(s, id.opcode, len))
		return;
	if (ntprof_usite_transport(site, regs, &transport))
		goto fault;
	if (s->cfg.transport && transport && transport != s->cfg.transport)
		return;
	if (ntprof_fetch_read(&site->act.key, regs, &kv))
		goto fault;
	ntprof_stat_inc(site->role, sampled);
	now = ktime_get_ns();

	if (site->act.flags & NTPROF_USITE_F_LAST) {
		ntprof_usite_one(site, s, &id, transport, len, now);
		return;
	}

	/*
	 * A key still in the table is of a command the session lost track
	 * of: its process died, or the program reused the request before
	 * its last site; the claim reports it.
	 */
	key = ntprof_usite_key(kv);
	entry = ntprof_follow_claim(s->inflight, site->role, key);
	if (!entry)
		return;
	ntprof_usite_rec_init(&entry->rec, site, s, &id, transport, len, now);
	/* The mm is compared, never dereferenced. */
	ntprof_follow_publish(entry, current->mm, key);
	return;

fault:
	ntprof_usite_fault(site);
}

/* A later site: stamp the command's slot; a last one finishes it. */
static void ntprof_usite_next(struct ntprof_usite *site,
			      struct ntprof_session *s, struct pt_regs *regs)
{
	struct ntprof_inflight_entry *entry;
	const void *key;
	u64 kv;

	/* Most hits are of commands not sampled: no read, no lookup. */
	if (ntprof_inflight_empty(s->inflight))
		return;
	if (ntprof_fetch_read(&site->act.key, regs, &kv)) {
		ntprof_usite_fault(site);
		return;
	}

	key = ntprof_usite_key(kv);
	entry = ntprof_inflight_lookup(s->inflight, key);
	if (!entry)
		return;
	ntprof_entry_stamp_first(entry, site->act.point, ktime_get_ns());
	if ((site->act.flags & NTPROF_USITE_F_LAST) &&
	    ntprof_inflight_take(s->inflight, entry, key))
		ntprof_follow_end(s->inflight, entry);
}

/*
 * The consumer's handler. It returns 0 (keep the probe in this process)
 * whatever it did: a site follows every process of its binary.
 */
static int ntprof_usite_handler(struct uprobe_consumer *uc,
				struct pt_regs *regs)
{
	struct ntprof_usite *site = container_of(uc, struct ntprof_usite, uc);
	struct ntprof_session *s = ntprof_session_active(site->role);

	if (!s)
		return 0;
	/* Another process of the binary: not the one asked for. */
	if (s->only_pid && task_tgid(current) != s->only_pid)
		return 0;
#ifdef CONFIG_X86_64
	/* A 32-bit task's arguments are not in the registers fetched. */
	if (!user_64bit_mode(regs))
		return 0;
#endif
	this_cpu_inc(site->stats->hits);

	if (site->act.flags & NTPROF_USITE_F_FIRST)
		ntprof_usite_first(site, s, regs);
	else
		ntprof_usite_next(site, s, regs);
	return 0;
}

NTPROF_UPROBE_HANDLER(ntprof_usite_handler)

#define NTPROF_AGENT_MEMFD	"memfd:ntprof-agent"

/*
 * The consumer's filter: whether the breakpoints go into @mm. Not into a
 * process that runs the agent (the top of this file). The kernel holds
 * @mm's mmap_lock (compat.h), so its mappings hold still.
 */
static bool ntprof_usite_filter(struct uprobe_consumer *uc,
				struct mm_struct *mm)
{
	mmap_assert_locked(mm);
	return !ntprof_mm_maps_name(mm, NTPROF_AGENT_MEMFD);
}

NTPROF_UPROBE_FILTER(ntprof_usite_filter)

/* Forget the sites of a role's last session, detached already. */
static void ntprof_usites_clear(enum ntprof_role role)
{
	unsigned int i;

	for (i = 0; i < ntprof_nr_usites[role]; i++) {
		kfree(ntprof_usites[role][i].path);
		ntprof_usites[role][i].path = NULL;
	}
	ntprof_nr_usites[role] = 0;
}

/*
 * The binary of a site: the file the sender has open as @spec->fd, its
 * path held, and the real inode behind it; with the reason in @extack
 * if not. The request runs in the sender's context: the descriptor is
 * the sender's.
 */
static int ntprof_usite_file(struct ntprof_usite *site,
			     const struct ntprof_usite_spec *spec,
			     struct netlink_ext_ack *extack)
{
	struct inode *inode;
	struct file *file;
	int err = 0;

	file = fget(spec->fd);
	if (!file) {
		NL_SET_ERR_MSG_ATTR(extack, spec->attr,
				    "uprobe site: its file descriptor is not open");
		return -EBADF;
	}
	inode = d_real_inode(file->f_path.dentry);
	if (!(file->f_mode & FMODE_READ)) {
		NL_SET_ERR_MSG_ATTR(extack, spec->attr,
				    "uprobe site: its file descriptor is not open for reading");
		err = -EBADF;
	} else if (!inode || !S_ISREG(inode->i_mode)) {
		NL_SET_ERR_MSG_ATTR(extack, spec->attr,
				    "uprobe site: its binary is not a regular file");
		err = -EINVAL;
	} else {
		/* Held until the probe is gone: the mount stays busy. */
		site->file = file->f_path;
		path_get(&site->file);
		site->inode = inode;
	}
	fput(file);
	return err;
}

static int ntprof_usite_register(struct ntprof_usite *site,
				 const struct ntprof_usite_spec *spec,
				 struct netlink_ext_ack *extack)
{
	int err;

	err = ntprof_uprobe_register(&site->up, site->inode, site->offset,
				     &site->uc);
	if (!err) {
		site->registered = true;
		return 0;
	}
	if (site->offset >= i_size_read(site->inode))
		NL_SET_ERR_MSG_ATTR(extack, spec->attr,
				    "uprobe site: its offset is past the end of the binary");
	else
		NL_SET_ERR_MSG_ATTR(extack, spec->attr,
				    "uprobe site: the kernel refused a probe at its offset");
	return err;
}

static int ntprof_usite_setup(struct ntprof_usite *site, enum ntprof_role role,
			      const struct ntprof_usite_spec *spec,
			      struct netlink_ext_ack *extack)
{
	struct ntprof_usite_stats __percpu *stats = site->stats;
	int cpu;

	memset(site, 0, sizeof(*site));
	site->stats = stats;
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(stats, cpu), 0, sizeof(*stats));

	site->role = role;
	site->offset = spec->offset;
	site->act = spec->act;
	site->uc.handler = ntprof_usite_handler_uprobe;
	site->uc.filter = ntprof_usite_filter_uprobe;

	site->path = kstrdup(spec->path, GFP_KERNEL);
	if (!site->path) {
		NL_SET_ERR_MSG_MOD(extack, "cannot allocate a uprobe site");
		return -ENOMEM;
	}
	return ntprof_usite_file(site, spec, extack);
}

/**
 * ntprof_uprobes_attach() - register the uprobe sites of a session
 * @role: the session's role, published as active already
 * @specs: the sites, validated by the netlink layer
 * @nr: how many, at most %NTPROF_USITES_MAX
 * @extack: where to say which site failed, and why
 *
 * Context: Process context, under the session lock; sleeps.
 * Return: 0, or a negative errno with every site of @role unregistered.
 */
int ntprof_uprobes_attach(enum ntprof_role role,
			  const struct ntprof_usite_spec *specs,
			  unsigned int nr, struct netlink_ext_ack *extack)
{
	struct ntprof_usite *site;
	unsigned int i;
	int err;

	lockdep_assert_held(&ntprof_session_lock);

	ntprof_usites_clear(role);
	for (i = 0; i < nr && i < NTPROF_USITES_MAX; i++) {
		site = &ntprof_usites[role][i];
		ntprof_nr_usites[role] = i + 1;
		err = ntprof_usite_setup(site, role, &specs[i], extack);
		if (!err)
			err = ntprof_usite_register(site, &specs[i], extack);
		if (err)
			goto fail;
	}
	return 0;

fail:
	ntprof_uprobes_detach(role);
	return err;
}

/**
 * ntprof_uprobes_detach() - unregister the uprobe sites of a role
 * @role: the role whose session stops, or failed to start
 *
 * Returns once no handler of the role's sites runs any more, so that
 * the caller may free what they use. The probed processes run on: the
 * kernel puts their original instructions back.
 *
 * Context: Process context, under the session lock; sleeps.
 */
void ntprof_uprobes_detach(enum ntprof_role role)
{
	struct ntprof_usite *site;
	bool any = false;
	unsigned int i;

	lockdep_assert_held(&ntprof_session_lock);

	for (i = 0; i < ntprof_nr_usites[role]; i++) {
		site = &ntprof_usites[role][i];
		if (!site->registered)
			continue;
		ntprof_uprobe_unregister(&site->up, &site->uc);
		site->registered = false;
		any = true;
	}
	if (any)
		ntprof_uprobe_unregister_sync();

	/* The probes are gone: their binaries, and mounts, may go too. */
	for (i = 0; i < ntprof_nr_usites[role]; i++) {
		site = &ntprof_usites[role][i];
		if (!site->inode)
			continue;
		path_put(&site->file);
		site->file = (struct path){ };
		site->inode = NULL;
	}
}

/**
 * ntprof_uprobes_show() - the sites of each role's session, for debugfs
 * @m: where to write a line per site
 *
 * Context: Process context; takes the session lock.
 */
void ntprof_uprobes_show(struct seq_file *m)
{
	struct ntprof_usite *site;
	enum ntprof_role role;
	u64 hits, faults;
	unsigned int i;
	int cpu;

	mutex_lock(&ntprof_session_lock);
	for (role = NTPROF_ROLE_HOST; role <= NTPROF_ROLE_TARGET; role++) {
		for (i = 0; i < ntprof_nr_usites[role]; i++) {
			site = &ntprof_usites[role][i];
			hits = 0;
			faults = 0;
			for_each_possible_cpu(cpu) {
				hits += per_cpu_ptr(site->stats, cpu)->hits;
				faults += per_cpu_ptr(site->stats, cpu)->faults;
			}
			seq_printf(m,
				   "%s %s %#llx point %u%s%s %s hits %llu faults %llu\n",
				   ntprof_role_name(role),
				   site->path ?: "?", site->offset, site->act.point,
				   site->act.flags & NTPROF_USITE_F_FIRST ?
				   " first" : "",
				   site->act.flags & NTPROF_USITE_F_LAST ?
				   " last" : "",
				   site->registered ? "attached" : "detached",
				   hits, faults);
		}
	}
	mutex_unlock(&ntprof_session_lock);
}

/**
 * ntprof_uprobes_init() - allocate the sites' counters
 *
 * Context: Process context, module init.
 * Return: 0 or -ENOMEM.
 */
int __init ntprof_uprobes_init(void)
{
	enum ntprof_role role;
	unsigned int i;

	for (role = NTPROF_ROLE_HOST; role <= NTPROF_ROLE_TARGET; role++) {
		for (i = 0; i < NTPROF_USITES_MAX; i++) {
			ntprof_usites[role][i].stats =
				alloc_percpu(struct ntprof_usite_stats);
			if (!ntprof_usites[role][i].stats) {
				ntprof_uprobes_exit();
				return -ENOMEM;
			}
		}
	}
	return 0;
}

/**
 * ntprof_uprobes_exit() - free what the sites of the last sessions kept
 *
 * Context: Process context, module exit, with every session stopped
 * (their sites unregistered).
 */
void ntprof_uprobes_exit(void)
{
	enum ntprof_role role;
	unsigned int i;

	for (role = NTPROF_ROLE_HOST; role <= NTPROF_ROLE_TARGET; role++) {
		ntprof_usites_clear(role);
		for (i = 0; i < NTPROF_USITES_MAX; i++) {
			free_percpu(ntprof_usites[role][i].stats);
			ntprof_usites[role][i].stats = NULL;
		}
	}
}
