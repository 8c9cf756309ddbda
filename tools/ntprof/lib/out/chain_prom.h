/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ntprof record -r host,target --chain --prom on a middle: its records
 * of both roles linked as they come, window by window, into the middle
 * stage and its legs' stages for Prometheus (chain_prom.c;
 * Documentation/prometheus.rst, "A chain's middle").
 */
#ifndef NTPROF_CHAIN_PROM_H
#define NTPROF_CHAIN_PROM_H

#include <stddef.h>
#include <stdint.h>

#include <uapi/linux/ntprof.h>

struct chain_prom;

/*
 * Series of their own: (op, size, device, leg) keys past these go to
 * one overflow series. Records waiting for their link partner: past
 * these per side, new ones are counted as dropped, never kept.
 */
#define CHAIN_PROM_SERIES_MAX	64
#define CHAIN_PROM_PENDING_MAX	(1U << 19)

/*
 * The state of FILE at @path for a middle whose target side samples
 * with the chain rule's offset @up_offset and whose host side with
 * @down_offset (--chain=md's); NULL: no memory.
 */
struct chain_prom *chain_prom_new(const char *path, uint64_t up_offset,
				  uint64_t down_offset);
void chain_prom_free(struct chain_prom *cp);
/*
 * A sampled record of either role, of the device named @device (the
 * middle's exported device for a target record, a leg's for a host
 * record; "" unknown) and of the subsystem @subnqn (a target record's:
 * the volume's; "" or NULL unknown), kept until it is linked. 0 or
 * -ENOMEM.
 */
int chain_prom_add(struct chain_prom *cp, const struct ntprof_record *r,
		   const char *device, const char *subnqn);
/*
 * Links what is kept. Every record that ended by @safe (CLOCK_MONOTONIC
 * ns) has been added, of both roles. An upstream record that ended by
 * the previous call's @safe is taken into the series with its linked
 * downstream records, and a downstream record that ended by then and
 * linked to nothing is counted as unlinked; the others wait for the
 * next call. UINT64_MAX: the end, everything is taken. 0 or -ENOMEM.
 */
int chain_prom_settle(struct chain_prom *cp, uint64_t safe);
/* Rewrites the file atomically; 0 or -errno. */
int chain_prom_write(struct chain_prom *cp);

#endif /* NTPROF_CHAIN_PROM_H */
