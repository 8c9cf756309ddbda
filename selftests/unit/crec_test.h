/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The record that the tests of the compact record share: test_crec checks
 * the tool's codec (tools/ntprof/lib/ntp/crec.c) with it, and test_kcrec
 * the module's encoder (kmod/crec.h). Both need the same host read over
 * NVMe/TCP, so it is written once here. Every identity field holds
 * different bytes, so that a field written at another field's offset, or
 * swapped with its neighbour, changes what the tests compare.
 */
#ifndef NTPROF_SELFTESTS_CREC_TEST_H
#define NTPROF_SELFTESTS_CREC_TEST_H

#include <string.h>

#include "ntp/crec.h"

/* The nine points a host stamps for a read over NVMe/TCP, in point order. */
static const int crec_tcp_read_points[] = {
	NTPROF_PT_HOST_BLK_START, NTPROF_PT_HOST_QUEUE_RQ,
	NTPROF_PT_HOST_SETUP, NTPROF_PT_HOST_BLK_ISSUE,
	NTPROF_PT_HOST_SEND, NTPROF_PT_HOST_RECV,
	NTPROF_PT_HOST_DRIVER_DONE, NTPROF_PT_HOST_NVME_COMPLETE,
	NTPROF_PT_HOST_BLK_COMPLETE,
};

#define CREC_TCP_READ_NR_POINTS \
	(sizeof(crec_tcp_read_points) / sizeof(crec_tcp_read_points[0]))

/*
 * crec_test_ident() - clear @r and fill in the identity of a sampled
 * 4 KiB read over TCP by role @role, with no point stamped yet.
 */
static inline void crec_test_ident(struct ntprof_record *r, uint8_t role)
{
	memset(r, 0, sizeof(*r));
	r->role = role;
	r->transport = NTPROF_TRANSPORT_TCP;
	r->opcode = 2;
	r->flags = NTPROF_REC_F_SAMPLED;
	r->qid = 0x0304;
	r->cid = 0x1005;
	r->nsid = 0x06070809;
	r->length = 4096;
	r->slba = 0x1112131415161718ULL;
	r->status = 0x2122;
	r->cntlid = 0x2324;
	r->cpu_submit = 0x2526;
	r->cpu_complete = 0x2728;
	r->dev = 0x292a2b2c;
}

#endif /* NTPROF_SELFTESTS_CREC_TEST_H */
