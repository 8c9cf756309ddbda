/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace sites: uprobes in a program that is the NVMe-oF host or
 * target (SPDK), stamping the points of its commands into the records of
 * a session, as the kernel hooks do for the kernel's own stack.
 */
#ifndef _NTPROF_UPROBES_H
#define _NTPROF_UPROBES_H

#include <linux/errno.h>
#include <linux/netlink.h>
#include <linux/types.h>

#include <uapi/linux/ntprof.h>

struct netlink_ext_ack;
struct nlattr;
struct seq_file;

/*
 * The fetches of a first site: the identity, in struct ntprof_ident's
 * order, then the command's length, which is recorded but not hashed.
 */
enum ntprof_uid_field {
	NTPROF_UID_QID,
	NTPROF_UID_CID,
	NTPROF_UID_OPCODE,
	NTPROF_UID_NSID,
	NTPROF_UID_SLBA,
	NTPROF_UID_NLB,
	NTPROF_UID_LENGTH,

	NTPROF_UID_COUNT
};

/**
 * struct ntprof_fetch - how a site reads one value of the program's
 * @set: the fetch exists (an identity field without one is 0)
 * @reg: the function argument it starts from, 0 to %NTPROF_FETCH_REGS - 1
 * @nr_derefs: how many pointer loads follow
 * @width: bytes of the final read: 1, 2, 4 or 8; 0: the address itself
 * @derefs: the offset of each load
 * @offset: added to the address after the loads
 */
struct ntprof_fetch {
	bool set;
	u8 reg;
	u8 nr_derefs;
	u8 width;
	s32 derefs[NTPROF_FETCH_DEREFS_MAX];
	s32 offset;
};

/**
 * struct ntprof_usite_action - what a site does where it fires
 * @point: the enum ntprof_point it stamps
 * @flags: NTPROF_USITE_F_*
 * @key: the command's key
 * @id: the first site's fetches, by enum ntprof_uid_field
 * @transport: the enum ntprof_transport of its commands; NONE: the
 *	session's, or @trtype's
 * @trtype: a first site's fetch of the command's NVMe-oF transport type
 */
struct ntprof_usite_action {
	u32 point;
	u32 flags;
	struct ntprof_fetch key;
	struct ntprof_fetch id[NTPROF_UID_COUNT];
	u32 transport;
	struct ntprof_fetch trtype;
};

/**
 * struct ntprof_usite_spec - a site as a start request asks for it
 * @attr: the request's attribute of the site, for error messages
 * @path: the binary's name, valid for the request only
 * @fd: the sender's file descriptor of the binary, which is probed
 * @offset: the probe's file offset in the binary
 * @act: what it does where it fires, copied into the site
 */
struct ntprof_usite_spec {
	const struct nlattr *attr;
	const char *path;
	u32 fd;
	u64 offset;
	struct ntprof_usite_action act;
};

#ifdef CONFIG_UPROBES
int ntprof_uprobes_init(void);
void ntprof_uprobes_exit(void);
int ntprof_uprobes_attach(enum ntprof_role role,
			  const struct ntprof_usite_spec *specs,
			  unsigned int nr, struct netlink_ext_ack *extack);
void ntprof_uprobes_detach(enum ntprof_role role);
void ntprof_uprobes_show(struct seq_file *m);
#else
/*
 * A kernel built without uprobes: Kbuild leaves uprobes.c out, and a
 * session that names uprobe sites is refused. Sessions of kernel hooks
 * only work as they do elsewhere.
 */
static inline int ntprof_uprobes_init(void)
{
	return 0;
}

static inline void ntprof_uprobes_exit(void)
{
}

static inline int ntprof_uprobes_attach(enum ntprof_role role,
					const struct ntprof_usite_spec *specs,
					unsigned int nr,
					struct netlink_ext_ack *extack)
{
	if (!nr)
		return 0;
	NL_SET_ERR_MSG_ATTR(extack, specs[0].attr,
			    "uprobe site: this kernel has no uprobes (CONFIG_UPROBES)");
	return -EOPNOTSUPP;
}

static inline void ntprof_uprobes_detach(enum ntprof_role role)
{
}

static inline void ntprof_uprobes_show(struct seq_file *m)
{
}
#endif /* CONFIG_UPROBES */

#endif /* _NTPROF_UPROBES_H */
