// SPDX-License-Identifier: GPL-2.0
/*
 * test_ntp's damaged files: a good file of every version's layout, changed
 * by one function a case in every way the reader must refuse (its magic,
 * version, header length, tables, strings, blocks and trailer), each of
 * which must give one exact message; and what a reader of a damaged file
 * still gets. What only format 1.x has, a record size in the header, is
 * damaged in a 1.4 file. test_ntp2.c damages 2.0's compact records.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ntp/ntp.h"
#include "ntp_cases.h"
#include "ntp_test.h"
#include "tap.h"

static void bad_magic(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	(void)l;
	b[3] = 'X';
}

static void text_file(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)l;
	*len = sprintf((char *)b, "hello\n");
}

static void newer_major(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	(void)l;
	/* A newer major may change anything after the version. */
	memset(b + 8, 0xee, 64);
	b[8] = 3;
	b[9] = 0;
}

static void major_zero(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	(void)l;
	b[8] = 0;
}

static void header_len_huge(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	(void)l;
	wr32(b + 12, 0xffffffff);
}

static void header_len_tiny(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	(void)l;
	wr32(b + 12, 20);
}

static void header_len_past_end(uint8_t *b, size_t *len,
				const struct layout *l)
{
	*len = l->hdr_len;
	wr32(b + 12, l->hdr_len + 1);
}

static void header_byte(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	b[l->hdr_len / 2] ^= 0x01;
}

static void hooks_huge(uint8_t *b, size_t *len, const struct layout *l)
{
	/* The hook count sits before the three hook entries. */
	size_t off = l->hdr_len - 4 - TAIL_LEN - CTRLS_LEN - DEVS_LEN - HOOKS_LEN;

	(void)len;
	wr32(b + off, 0xffffffff);
	fix_header(b);
}

static void hooks_overrun(uint8_t *b, size_t *len, const struct layout *l)
{
	size_t off = l->hdr_len - 4 - TAIL_LEN - CTRLS_LEN - DEVS_LEN - HOOKS_LEN;

	(void)len;
	wr32(b + off, 1000);
	fix_header(b);
}

static void hook_name_huge(uint8_t *b, size_t *len, const struct layout *l)
{
	/* The last hook's name grows to 300 bytes; the blocks go. */
	size_t off = l->hdr_len - 4 - TAIL_LEN - CTRLS_LEN - DEVS_LEN - (10 + 255);

	b[off] = (10 + 300) & 0xff;
	b[off + 1] = (10 + 300) >> 8;
	b[off + 8] = 300 & 0xff;
	b[off + 9] = 300 >> 8;
	memset(b + off + 10, 'x', 300);
	*len = off + 10 + 300 + 4;
	wr32(b + 12, *len);
	fix_header(b);
}

/* The device table's count, and its entries after it. */
static size_t devs_at(const struct layout *l)
{
	return l->hdr_len - 4 - TAIL_LEN - CTRLS_LEN - DEVS_LEN;
}

/* The controller table's count, and its entries after it. */
static size_t ctrls_at(const struct layout *l)
{
	return l->hdr_len - 4 - TAIL_LEN - CTRLS_LEN;
}

static void devs_huge(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	wr32(b + devs_at(l), 0xffffffff);
	fix_header(b);
}

static void devs_overrun(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	wr32(b + devs_at(l), 102);	/* room for 101 empty entries */
	fix_header(b);
}

/* A 1.1 header that ends after its hooks, without the device count. */
static void devs_missing(uint8_t *b, size_t *len, const struct layout *l)
{
	size_t off = devs_at(l);

	*len = off + 4;
	wr32(b + 12, *len);
	fix_header(b);
}

static void dev_entry_short(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	b[devs_at(l) + 4 + 15] = 7;	/* the second entry's length */
	fix_header(b);
}

static void dev_name_overrun(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	b[devs_at(l) + 4 + 6] = 8;	/* the first name, past its entry */
	fix_header(b);
}

static void dev_name_nul(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	b[devs_at(l) + 4 + 15 + 8 + 4] = 0;	/* "nvme\0..." */
	fix_header(b);
}

static void dev_name_huge(uint8_t *b, size_t *len, const struct layout *l)
{
	/* The last device's name grows to 64 bytes; the rest goes. */
	size_t off = ctrls_at(l) - (8 + 63);

	b[off] = 8 + 64;
	b[off + 6] = 64;
	memset(b + off + 8, 'd', 64);
	*len = off + 8 + 64 + 4;
	wr32(b + 12, *len);
	fix_header(b);
}

static void dev_last_overrun(uint8_t *b, size_t *len, const struct layout *l)
{
	/* The last device's entry claims 10 bytes past the header's end. */
	size_t off = ctrls_at(l) - (8 + 63);
	size_t entry = 8 + 63 + CTRLS_LEN + TAIL_LEN + 10;

	(void)len;
	b[off] = entry & 0xff;
	b[off + 1] = entry >> 8;
	fix_header(b);
}

static void ctrls_huge(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	wr32(b + ctrls_at(l), 0xffffffff);
	fix_header(b);
}

static void ctrls_overrun(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	wr32(b + ctrls_at(l), 37);	/* room for 36 empty entries */
	fix_header(b);
}

static void ctrl_entry_short(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	b[ctrls_at(l) + 4] = 18;
	fix_header(b);
}

static void ctrl_nqn_overrun(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	b[ctrls_at(l) + 4 + 20] = 200;	/* past the first entry's end */
	fix_header(b);
}

static void ctrl_name_nul(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	b[ctrls_at(l) + 4 + 15 + 2] = 0;	/* "nv\0me0" */
	fix_header(b);
}

static void ctrl_addr_huge(uint8_t *b, size_t *len, const struct layout *l)
{
	/* The last controller's address grows to 256 bytes. */
	size_t off = l->hdr_len - 4 - TAIL_LEN - CTRL1_LEN;

	b[off] = (CTRL1_LEN + 1) & 0xff;
	b[off + 1] = (CTRL1_LEN + 1) >> 8;
	b[off + 335] = 0;
	b[off + 336] = 1;
	memset(b + off + 337, 'a', 256);
	*len = off + CTRL1_LEN + 1 + 4;
	wr32(b + 12, *len);
	fix_header(b);
}

static void hostname_huge(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	(void)l;
	b[48] = 0xff;
	b[49] = 0xff;
	fix_header(b);
}

static void record_size_huge(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	(void)l;
	set_record_size(b, 0xffffffff);
}

static void record_size_small(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	(void)l;
	set_record_size(b, 231);
}

static void payload_byte(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	b[l->unit[1] + 24 + 100] ^= 0x80;
}

static void block_header_byte(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	b[l->unit[1] + 9] ^= 0x04;	/* the count */
}

static void block_len_huge(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	wr32(b + l->unit[1] + 8, 0xffffffff);
	wr32(b + l->unit[1] + 12, 0xffffffff);
	fix_unit(b, l->unit[1], false);
}

static void block_count_wrong(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	set_unit_count(b, l->unit[1], 0x40000001);	/* * 232 wraps in 32 bits */
}

static void block_repeated(uint8_t *b, size_t *len, const struct layout *l)
{
	size_t n = l->unit[1] - l->unit[0];

	/* Block 0 again where block 1 should be. */
	memmove(b + l->unit[1] + n, b + l->unit[1], *len - l->unit[1]);
	memcpy(b + l->unit[1], b + l->unit[0], n);
	*len += n;
}

static void trailer_byte(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)len;
	b[l->unit[l->units - 1] + 24 + 9] ^= 0x10;
}

static void trailer_count(uint8_t *b, size_t *len, const struct layout *l)
{
	size_t t = l->unit[l->units - 1];

	(void)len;
	wr32(b + t + 24, 8);
	fix_unit(b, t, true);
}

static void after_trailer(uint8_t *b, size_t *len, const struct layout *l)
{
	(void)l;
	memcpy(b + *len, "junk", 4);
	*len += 4;
}

void test_damaged(void)
{
	struct ntprof_record *recs;
	struct layout l;
	struct result r;
	size_t len, n;
	uint8_t *good;

	good = good_file("good.ntp", NTP_VERSION_MAJOR, NTP_VERSION_MINOR, &len,
			 &l, &recs);

	ok(damaged(good, len, -EBADMSG, bad_magic,
		   "not an ntprof recording (bad magic)"),
	   "bad magic: \"not an ntprof recording (bad magic)\"");
	ok(damaged(good, len, -EBADMSG, text_file,
		   "not an ntprof recording (bad magic)"),
	   "a text file shorter than a header: bad magic");
	ok(damaged(good, len, -ENOTSUP, newer_major,
		   "format version 3 is newer than this tool reads (2)"),
	   "format version 3: \"format version 3 is newer than this tool reads (2)\"");
	ok(damaged(good, len, -EBADMSG, major_zero,
		   "format version 0 does not exist"),
	   "format version 0 is rejected");
	ok(damaged(good, len, -EBADMSG, header_len_huge,
		   "header length 4294967295 is too long"),
	   "a header length of 4 GiB is rejected before any allocation");
	ok(damaged(good, len, -EBADMSG, header_len_tiny,
		   "header length 20 is too short"),
	   "a header length below the fixed part is rejected");
	ok(damaged(good, len, -EBADMSG, header_len_past_end,
		   "header truncated"),
	   "a header length past the end of the file: \"header truncated\"");
	ok(damaged(good, len, -EBADMSG, header_byte,
		   "header checksum mismatch"),
	   "a flipped bit in the header: \"header checksum mismatch\"");
	ok(damaged(good, len, -EBADMSG, hooks_huge,
		   "header: 4294967295 hooks, more than 1024"),
	   "a hook count of 2^32-1 is rejected before any allocation");
	ok(damaged(good, len, -EBADMSG, hooks_overrun,
		   "header: 1000 hooks overrun the header"),
	   "1000 hooks in a header that has room for 30: rejected before allocating");
	ok(damaged(good, len, -EBADMSG, hook_name_huge,
		   "header: hook 2: name is 300 bytes, more than 255"),
	   "a hook name of 300 bytes is rejected");
	ok(damaged(good, len, -EBADMSG, devs_huge,
		   "header: 4294967295 devices, more than %d", NTP_DEVS_MAX),
	   "a device count of 2^32-1 is rejected before any allocation");
	ok(damaged(good, len, -EBADMSG, devs_overrun,
		   "header: 102 devices overrun the header"),
	   "102 devices in a header that has room for 101: rejected before allocating");
	ok(damaged(good, len, -EBADMSG, devs_missing,
		   "header: device count overruns the header"),
	   "a 1.1 header without its device table is rejected");
	ok(damaged(good, len, -EBADMSG, dev_entry_short,
		   "header: device 1: entry length 7 is too short"),
	   "a device entry shorter than its fixed part is rejected");
	ok(damaged(good, len, -EBADMSG, dev_name_overrun,
		   "header: device 0: name overruns its entry"),
	   "a device name longer than its entry is rejected");
	ok(damaged(good, len, -EBADMSG, dev_name_nul,
		   "header: device 1: name contains a NUL byte"),
	   "a device name with a NUL byte is rejected");
	ok(damaged(good, len, -EBADMSG, dev_name_huge,
		   "header: device 2: name is 64 bytes, more than %d",
		   NTP_DEV_NAME_MAX),
	   "a device name of 64 bytes is rejected");
	ok(damaged(good, len, -EBADMSG, dev_last_overrun,
		   "header: device 2 overruns the header"),
	   "a device entry past the header's end is rejected");
	ok(damaged(good, len, -EBADMSG, ctrls_huge,
		   "header: 4294967295 controllers, more than %d",
		   NTP_CTRLS_MAX),
	   "a controller count of 2^32-1 is rejected before any allocation");
	ok(damaged(good, len, -EBADMSG, ctrls_overrun,
		   "header: 37 controllers overrun the header"),
	   "37 controllers in a header that has room for 36: rejected before allocating");
	ok(damaged(good, len, -EBADMSG, ctrl_entry_short,
		   "header: controller 0: entry length 18 is too short"),
	   "a controller entry shorter than its fixed part is rejected");
	ok(damaged(good, len, -EBADMSG, ctrl_nqn_overrun,
		   "header: controller 0: subsystem NQN overruns its entry"),
	   "a subsystem NQN longer than its entry is rejected");
	ok(damaged(good, len, -EBADMSG, ctrl_name_nul,
		   "header: controller 0: name contains a NUL byte"),
	   "a controller name with a NUL byte is rejected");
	ok(damaged(good, len, -EBADMSG, ctrl_addr_huge,
		   "header: controller 1: address is 256 bytes, more than %d",
		   NTP_ADDR_MAX),
	   "an address of 256 bytes is rejected");
	ok(damaged(good, len, -EBADMSG, hostname_huge,
		   "header: hostname is 65535 bytes, more than 64"),
	   "a host name of 64 KiB is rejected");
	ok(damaged(good, len, -EBADMSG, payload_byte,
		   "block 1 at offset %zu: checksum mismatch", l.unit[1]),
	   "a flipped bit in block 1's records: \"block 1 at offset %zu: checksum mismatch\"",
	   l.unit[1]);
	ok(damaged(good, len, -EBADMSG, block_header_byte,
		   "block 1 at offset %zu: header checksum mismatch", l.unit[1]),
	   "a flipped bit in block 1's count: a header checksum mismatch, not a cut");
	ok(damaged(good, len, -EBADMSG, block_len_huge,
		   "block 1 at offset %zu: length 4294967295 is too long",
		   l.unit[1]),
	   "a block length of 4 GiB is rejected, not taken for a cut");
	ok(damaged(good, len, -EBADMSG, block_repeated,
		   "block 1 at offset %zu: out of sequence (numbered 0)",
		   l.unit[1]),
	   "a block repeated is out of sequence");
	ok(damaged(good, len, -EBADMSG, trailer_byte,
		   "trailer at offset %zu: checksum mismatch", l.unit[3]),
	   "a flipped bit in the trailer: a checksum mismatch");
	ok(damaged(good, len, -EBADMSG, trailer_count,
		   "the trailer counts 8 records, the blocks hold 9"),
	   "a trailer that disagrees with the blocks is rejected");
	ok(damaged(good, len, -EBADMSG, after_trailer,
		   "4 bytes after the trailer"),
	   "bytes after the trailer are rejected");

	/* What a reader of a damaged file still gets, and keeps getting. */
	{
		const struct ntprof_record *block;
		const char *bad = tpath("bad.ntp");
		struct ntp_file *f;
		uint8_t *buf = malloc(len);
		char err[256];
		int ret1, ret2 = 0, ret3 = 0;

		if (!buf)
			die("malloc");
		memcpy(buf, good, len);
		payload_byte(buf, &len, &l);
		spit(bad, buf, len);
		read_file(bad, true, &r);
		ok(r.ret == -EBADMSG && r.n == 3 &&
		   same_records(r.recs, recs, 3),
		   "ntp_read_all returns the records before the bad block (%zu)",
		   r.n);
		free(r.recs);
		ret1 = ntp_open(bad, &f, err, sizeof(err));
		if (!ret1) {
			ret1 = ntp_next_block(f, &block, &n);
			ret2 = ntp_next_block(f, &block, &n);
			ret3 = ntp_next_block(f, &block, &n);
			ntp_close(f);
		}
		ok(ret1 == 1 && ret2 == -EBADMSG && ret3 == -EBADMSG && n == 0,
		   "errors stick: block 0, then the error, again (%d %d %d)",
		   ret1, ret2, ret3);
		free(buf);
	}
	free(good);
	free(recs);
}

/* What only format 1.x has: a size for every record, in the header. */
void test_damaged_1x(void)
{
	struct layout l;
	uint8_t *good;
	size_t len;

	good = good_file("good14.ntp", 1, 4, &len, &l, NULL);
	ok(damaged(good, len, -EBADMSG, record_size_huge,
		   "header: record size 4294967295 is more than 4096"),
	   "1.4: a record size of 4 GiB is rejected");
	ok(damaged(good, len, -EBADMSG, record_size_small,
		   "header: record size 231 is less than 232"),
	   "1.4: a record size below format 1's is rejected");
	ok(damaged(good, len, -EBADMSG, block_count_wrong,
		   "block 1 at offset %zu: 1073741825 records do not make 464 bytes",
		   l.unit[1]),
	   "1.4: a record count that does not match the length is rejected");
	free(good);
}
