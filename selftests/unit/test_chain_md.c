// SPDX-License-Identifier: GPL-2.0
/*
 * record --chain's value (lib/sites/chain_md.c): an offset, md, or
 * an error; and --chain=md against sysfs trees built here as md lays
 * them out (/sys/block/mdX/md/level, md/dev-NAME/offset in 512-byte
 * sectors, md/dev-NAME/block linked to the member's device, whose queue,
 * or its disk's for a partition, has logical_block_size): the offset in
 * the members' LBAs, and each way the members can fail to give one
 * refused with its one-line reason, members in name order.
 * Prints TAP; exits 1 if any test failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sites/chain_md.h"
#include "tap.h"

static char root[256];

/* Makes every directory of @path, a file's when @file. */
static void mkdirs(const char *path, bool file)
{
	char buf[4096], *p;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = buf + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(buf, 0755);
		*p = '/';
	}
	if (!file)
		mkdir(buf, 0755);
}

/* Writes @text into root/@rel, its directories made. */
static void put(const char *rel, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	mkdirs(path, true);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		printf("Bail out! cannot write %s\n", path);
		exit(1);
	}
}

/*
 * Member dev-@name of array @md, of @sectors offset, whose device is
 * @devpath (under root/devices) with logical block size @lbs there, or
 * none when @lbs is NULL (a partition: its disk has it).
 */
static void member(const char *md, const char *name, const char *sectors,
		   const char *devpath, const char *lbs)
{
	char rel[512], dev[4096], link[4096];

	snprintf(rel, sizeof(rel), "block/%s/md/dev-%s/offset", md, name);
	put(rel, sectors);
	snprintf(dev, sizeof(dev), "%s/devices/%s", root, devpath);
	mkdirs(dev, false);
	if (lbs) {
		snprintf(rel, sizeof(rel), "devices/%s/queue/logical_block_size",
			 devpath);
		put(rel, lbs);
	}
	snprintf(link, sizeof(link), "%s/block/%s/md/dev-%s/block", root, md,
		 name);
	if (symlink(dev, link)) {
		printf("Bail out! cannot link %s\n", link);
		exit(1);
	}
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* A new, empty tree. */
static void fresh(void)
{
	if (root[0])
		nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	snprintf(root, sizeof(root), "%s/ntprof-chain-md.XXXXXX",
		 getenv("TMPDIR") ?: "/tmp");
	if (!mkdtemp(root)) {
		printf("Bail out! mkdtemp\n");
		exit(1);
	}
	put("block/sda/size", "100\n");
}

/* chain_md_offset() of the tree: 0 and *@lbas, or the reason. */
static int scan(uint64_t *lbas, char *why, size_t size)
{
	*why = '\0';
	*lbas = 12345;
	return chain_md_offset(root, lbas, why, size);
}

/* It fails with exactly @want (after the root's path, if %s is in it). */
static bool fails(const char *want_fmt, ...)
{
	char why[512], want[512];
	uint64_t lbas;
	va_list ap;
	int err;

	va_start(ap, want_fmt);
	vsnprintf(want, sizeof(want), want_fmt, ap);
	va_end(ap);
	err = scan(&lbas, why, sizeof(why));
	if (err && !strcmp(why, want) && lbas == 12345)
		return true;
	printf("# got %d \"%s\"\n# want \"%s\"\n", err, why, want);
	return false;
}

static bool gives(uint64_t want)
{
	char why[512];
	uint64_t lbas;
	int err = scan(&lbas, why, sizeof(why));

	if (!err && lbas == want)
		return true;
	printf("# got %d %llu \"%s\", want %llu\n", err,
	       (unsigned long long)lbas, why, (unsigned long long)want);
	return false;
}

static void test_arg(void)
{
	static const char *const bad[] = {
		"", "x", "-1", "+1", " 1", "1.5", "4K", "MD", "md0",
		"18446744073709551616",
	};
	uint64_t off = 7;
	bool md = true, all = true;
	size_t i;

	ok(!chain_arg_parse(NULL, &md, &off) && !md && off == 0,
	   "--chain alone: offset 0");
	ok(!chain_arg_parse("33024", &md, &off) && !md && off == 33024,
	   "--chain=33024: that offset");
	ok(!chain_arg_parse("18446744073709551615", &md, &off) && !md &&
	   off == UINT64_MAX, "--chain=2^64-1: the largest offset");
	ok(!chain_arg_parse("md", &md, &off) && md && off == 0,
	   "--chain=md: md's offset, to find");
	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		if (chain_arg_parse(bad[i], &md, &off) != -EINVAL) {
			printf("# '%s' taken\n", bad[i]);
			all = false;
		}
	ok(all, "an empty value, signs, fractions, units, other words, 2^64: refused");
}

static void test_md(void)
{
	fresh();
	ok(fails("no md array with NVMe members here (%s/block/md*/md/dev-nvme*)",
		 root), "no md array: refused");

	/* An md name without an array, and an array of SATA disks. */
	put("block/md127/size", "0\n");
	put("block/md0/md/level", "raid1\n");
	member("md0", "sda1", "2048\n", "sda/sda1", NULL);
	put("devices/sda/queue/logical_block_size", "512\n");
	ok(fails("no md array with NVMe members here (%s/block/md*/md/dev-nvme*)",
		 root), "an md name without an array, an array of SATA disks: no NVMe member");

	/* 128 GiB members of 4 KiB LBAs: 264192 sectors, 33024 LBAs. */
	put("block/md1/md/level", "raid1\n");
	member("md1", "nvme1n1", "264192\n", "nvme1n1", "4096\n");
	member("md1", "nvme2n1", "264192\n", "nvme2n1", "4096\n");
	ok(gives(33024), "two members of 4 KiB LBAs at 264192 sectors: 33024 LBAs");

	/* A partition: its disk's logical block size. */
	member("md1", "nvme3n1p1", "264192\n", "nvme3n1/nvme3n1p1", NULL);
	put("devices/nvme3n1/queue/logical_block_size", "4096\n");
	ok(gives(33024), "a partition's member: its disk's LBA size");

	fresh();
	put("block/md0/md/level", "raid1\n");
	member("md0", "nvme1n1", "4096\n", "nvme1n1", "512\n");
	member("md0", "nvme2n1", "4096\n", "nvme2n1", "512\n");
	ok(gives(4096), "1 GiB members of 512-byte LBAs: 4096 sectors, 4096 LBAs");
	put("block/md0/md/dev-nvme2n1/offset", "8192\n");
	ok(fails("md's members disagree: md0/dev-nvme1n1 starts its data 4096 LBAs in, md0/dev-nvme2n1 8192: record each namespace on its own (--dev) with its --chain=OFFSET"),
	   "other offsets: refused, both named");
	put("block/md0/md/dev-nvme2n1/offset", "4096\n");
	put("devices/nvme2n1/queue/logical_block_size", "4096\n");
	ok(fails("md's members disagree: md0/dev-nvme1n1 starts its data 4096 LBAs in, md0/dev-nvme2n1 512: record each namespace on its own (--dev) with its --chain=OFFSET"),
	   "the same offset in other LBA sizes: refused, both named");

	fresh();
	put("block/md0/md/level", "raid1\n");
	member("md0", "nvme1n1", "4097\n", "nvme1n1", "4096\n");
	ok(fails("the offset of md0/dev-nvme1n1, 4097 sectors, is no whole number of its 4096-byte LBAs"),
	   "an offset that is no whole number of LBAs: refused");
	put("block/md0/md/dev-nvme1n1/offset", "none\n");
	ok(fails("cannot read the offset of md0/dev-nvme1n1 (not a number)"),
	   "an offset that is no number: refused");
	put("block/md0/md/dev-nvme1n1/offset", "4096\n");
	put("devices/nvme1n1/queue/logical_block_size", "1000\n");
	ok(fails("cannot read the logical block size of md0/dev-nvme1n1 (not a power of 2 from 512)"),
	   "an LBA size that is no power of 2: refused");
	put("devices/nvme1n1/queue/logical_block_size", "4096\n");
	put("block/md0/md/level", "raid0\n");
	ok(fails("md0 is raid0, not raid1: the chain rule follows a command to the same LBA of each member (give --chain=OFFSET for another array)"),
	   "a raid0 of NVMe members: refused");
	put("block/md0/md/level", "raid1\n");
	ok(gives(512), "raid1 again: 4096 sectors, 512 LBAs of 4 KiB");
}

static const struct tap_case cases[] = {
	{ "arg", test_arg },
	{ "md", test_md },
};

int main(int argc, char *argv[])
{
	if (tap_args(argc, argv, cases, TAP_NR_CASES(cases)) != argc)
		tap_usage("test_chain_md");
	printf("TAP version 13\n");
	tap_run(cases, TAP_NR_CASES(cases));
	if (root[0] && !getenv("KEEP_TMP"))
		nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return tap_done("test_chain_md");
}
