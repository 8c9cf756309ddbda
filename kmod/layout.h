/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layouts: the offsets of the members of private NVMe structs that the
 * hooks read (enum ntprof_layout_field), from the running kernel's BTF
 * as the tool reads it and hands it over in a start request, or from the
 * built-in table of the releases checked. The hooks read those members
 * with ntprof_lf_get() and declare them in struct ntprof_hook.fields; a
 * hook with a field of no offset is not attached.
 */
#ifndef _NTPROF_LAYOUT_H
#define _NTPROF_LAYOUT_H

#include <linux/compiler.h>
#include <linux/limits.h>
#include <linux/types.h>
#include <linux/uaccess.h>

#include <uapi/linux/ntprof.h>

struct genl_info;
struct netlink_ext_ack;

/* An offset that no table gives. */
#define NTPROF_LF_NONE	U16_MAX

#define NTPROF_LF(_f)	(1ULL << (_f))

/*
 * Offsets, by field. Written only by the start of a session of the
 * field's role, before its hooks attach, and read by those hooks.
 */
extern u16 ntprof_layout_off[NTPROF_LF_COUNT];

/* Whether field @f has an offset: for hooks that can do without it. */
static __always_inline bool ntprof_lf_known(enum ntprof_layout_field f)
{
	return ntprof_layout_off[f] != NTPROF_LF_NONE;
}

/* The address of field @f of the struct at @base. */
static __always_inline void *ntprof_lf_at(const void *base,
					  enum ntprof_layout_field f)
{
	return (char *)base + ntprof_layout_off[f];
}

/*
 * Read field @f, of C type @type, of the struct at @base, a pointer the
 * hook was handed (its argument, or one the kernel's public structs
 * give): the offset is checked within the struct and aligned to the
 * field, so the load is within the object, in one load.
 */
#define ntprof_lf_get(base, f, type) \
	READ_ONCE(*(type *)ntprof_lf_at(base, f))

/*
 * The same where @base was itself read through an offset: whatever 8
 * bytes a wrong offset found, the load must cost a record, never the
 * kernel, in softirq context. get_kernel_nofault() reads a naturally
 * aligned scalar in one load, as READ_ONCE() does; 0 if it faults. It
 * costs some 40 instructions: the unsampled path takes as few as it can.
 */
#define ntprof_lf_get_chased(base, f, type) \
	ntprof_nofault_get(ntprof_lf_at(base, f), type)

/* Read the @type at @p, a pointer read through an offset; 0 if it fails. */
#define ntprof_nofault_get(p, type) ({					\
	type __v;							\
									\
	if (get_kernel_nofault(__v, (type *)(p)))				\
		__v = (type)0;						\
	__v;								\
})

/* The struct at @p's field @f, from that field's address. */
#define ntprof_lf_base(p, f) \
	((void *)((char *)(p) - ntprof_layout_off[f]))

/**
 * struct ntprof_layout - the fields a start request gives
 * @set: NTPROF_LF() of each field it gives
 * @off: their offsets
 */
struct ntprof_layout {
	u64 set;
	u16 off[NTPROF_LF_COUNT];
};

void ntprof_layout_init(void);
int ntprof_layout_parse(struct genl_info *info, enum ntprof_role role,
			struct ntprof_layout *layout);
void ntprof_layout_swap(struct ntprof_layout *layout);
u64 ntprof_layout_builtin(void);
u64 ntprof_layout_missing(u64 fields);

#endif /* _NTPROF_LAYOUT_H */
