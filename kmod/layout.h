/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layouts: the offsets of the members of private NVMe structs that the
 * hooks read (enum ntprof_layout_field), from the running kernel's BTF
 * as the tool reads it and hands it over in a start request, or from the
 * built-in table of the releases checked. The hooks read those members
 * with ntprof_lf_get(), a nofault load, and declare them in struct
 * ntprof_hook.fields; a hook with a field of no offset is not attached.
 */
#ifndef _NTPROF_LAYOUT_H
#define _NTPROF_LAYOUT_H

#include <linux/compiler.h>
#include <linux/limits.h>
#include <linux/types.h>
#include <linux/uaccess.h>

#include <asm/page.h>
#include <asm/processor.h>
#include <asm/vsyscall.h>

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
 * Read field @f, of C type @type, of the struct at @base. The offset
 * comes from BTF, through a start request: checked within the struct's
 * size and aligned to the field, it still is what the sender said. So
 * every load at an offset, whether @base is a pointer the hook was
 * handed or one itself read through an offset, is a nofault one: a
 * wrong offset, or a wrong pointer it found, costs a record, never the
 * kernel, in softirq context. ntprof_nofault_get() reads a naturally
 * aligned scalar in one load, as READ_ONCE() does; 0 if it faults.
 */
#define ntprof_lf_get(base, f, type) \
	ntprof_nofault_get(ntprof_lf_at(base, f), type)

#ifdef CONFIG_X86_64
/*
 * What x86's copy_from_kernel_nofault_allowed() lets get_kernel_nofault()
 * read: no user address (nor the guard page above them), not the vsyscall
 * page (a kernel-mode fault there may go unhandled), and a canonical one,
 * whose load would raise #GP rather than a page fault.
 */
static __always_inline bool ntprof_kaddr_ok(unsigned long a)
{
	const unsigned int shift = 64 - boot_cpu_data.x86_virt_bits;

	return a >= TASK_SIZE_MAX + PAGE_SIZE &&
	       (a & PAGE_MASK) != VSYSCALL_ADDR &&
	       (unsigned long)((long)(a << shift) >> shift) == a;
}

/* An unsigned integer of @type's size, which the x86 load macros take. */
#define ntprof_uint_of(type)						\
	__typeof__(__builtin_choose_expr(sizeof(type) == 1, (u8)0,	\
		   __builtin_choose_expr(sizeof(type) == 2, (u16)0,	\
		   __builtin_choose_expr(sizeof(type) == 4, (u32)0, (u64)0))))

/*
 * Read the @type at @p, a pointer read through an offset; 0 if it fails.
 * get_kernel_nofault() inline: the same checks and the same load under
 * pagefault_disable(), with the same exception-table fixup, without the
 * call to copy_from_kernel_nofault() (some 70 instructions a load, 3 of
 * them in an unsampled read's hooks; Documentation/benchmarks.rst). The
 * load fills the low bytes of a zeroed u64 (x86 is little-endian).
 */
#define ntprof_nofault_get(p, type) ({					\
	__label__ __nf_fault;						\
	const unsigned long __nf_a = (unsigned long)(p);		\
	u64 __nf_v = 0;							\
									\
	if (ntprof_kaddr_ok(__nf_a)) {					\
		pagefault_disable();					\
		__get_kernel_nofault(&__nf_v, (void *)__nf_a,		\
				     ntprof_uint_of(type), __nf_fault);	\
		if (0) {						\
__nf_fault:								\
			__nf_v = 0;					\
		}							\
		pagefault_enable();					\
	}								\
	(__force type)__nf_v;						\
})
#else
/* Read the @type at @p, a pointer read through an offset; 0 if it fails. */
#define ntprof_nofault_get(p, type) ({					\
	type __v;							\
									\
	if (get_kernel_nofault(__v, (type *)(p)))				\
		__v = (type)0;						\
	__v;								\
})
#endif

/* The struct at @p's field @f, from that field's address. */
#define ntprof_lf_base(p, f) \
	((void *)((char *)(p) - ntprof_layout_off[f]))

/* The structs whose members the fields are (layout.c). */
#define NTPROF_LS_MAX	8

/**
 * struct ntprof_layout - the fields a start request gives
 * @set: NTPROF_LF() of each field it gives
 * @off: their offsets
 * @st_size: the size of each struct it gives fields of, 0 for others
 */
struct ntprof_layout {
	u64 set;
	u16 off[NTPROF_LF_COUNT];
	u32 st_size[NTPROF_LS_MAX];
};

void ntprof_layout_init(void);
int ntprof_layout_parse(struct genl_info *info, enum ntprof_role role,
			struct ntprof_layout *layout);
void ntprof_layout_swap(struct ntprof_layout *layout);
u64 ntprof_layout_builtin(void);
u64 ntprof_layout_missing(u64 fields);

#endif /* _NTPROF_LAYOUT_H */
