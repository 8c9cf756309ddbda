/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record --chain's value, and md's data offset for --chain=md, read from
 * sysfs (chain_md.c).
 */
#ifndef NTPROF_CHAIN_MD_H
#define NTPROF_CHAIN_MD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * chain_md_offset() - the data offset of the md raid1 arrays' NVMe
 * members, in their LBAs, from sysfs at @sysfs ("/sys"; a test's tree).
 * Returns 0, or -errno with a one-line reason in @why: no such array,
 * members that disagree (other offsets or LBA sizes), an array that is
 * not raid1, sysfs unreadable.
 */
int chain_md_offset(const char *sysfs, uint64_t *lbas, char *why,
		    size_t size);

/*
 * chain_arg_parse() - parse --chain's value: none (offset 0), "md"
 * (*@md), or a whole number of LBAs. Returns 0, or -EINVAL.
 */
int chain_arg_parse(const char *arg, bool *md, uint64_t *offset);

#endif /* NTPROF_CHAIN_MD_H */
