/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The drain benchmark's load generator (draingen.c), in modules built
 * with NTPROF_DRAIN_GEN=1; ordinary builds get these empty stubs.
 */
#ifndef _NTPROF_DRAINGEN_H
#define _NTPROF_DRAINGEN_H

struct dentry;

#ifdef NTPROF_DRAIN_GEN
void ntprof_draingen_init(struct dentry *dir);
void ntprof_draingen_exit(void);
#else
static inline void ntprof_draingen_init(struct dentry *dir)
{
}

static inline void ntprof_draingen_exit(void)
{
}
#endif

#endif /* _NTPROF_DRAINGEN_H */
