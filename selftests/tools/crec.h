/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test client's decoder of the module's compact records (struct
 * ntprof_crec, include/uapi/linux/ntprof.h): strict, so that a record
 * the module sends out of shape fails the lab test that drains it.
 */
#ifndef NTPROF_TEST_CREC_H
#define NTPROF_TEST_CREC_H

#include <stddef.h>
#include <uapi/linux/ntprof.h>

/*
 * Decodes the compact record at the start of @buf (@len bytes, host byte
 * order) into @rec. Returns its size in bytes, or 0 when @buf does not
 * start with a whole, well-formed record: unknown bits in the points
 * word, t0 set without a point or unset with one, a point at time 0, or
 * fewer bytes than the record says it has.
 */
size_t crec_decode(const void *buf, size_t len, struct ntprof_record *rec);

#endif /* NTPROF_TEST_CREC_H */
