// SPDX-License-Identifier: GPL-2.0
/*
 * record --chain: the chain rule's LBA offset, given or read from md.
 *
 * A middle machine that exports an md raid1 over NVMe-oF sends each
 * command on to its members at the LBA md's data offset further on; its
 * host session subtracts that offset so that its commands hash as the
 * upstream command did (Documentation/ntprof.rst, Sampling along a
 * chain). md gives the offset of each member in 512-byte sectors
 * (/sys/block/mdX/md/dev-NAME/offset, md.c's offset_show()); the records
 * carry the member's own LBAs, of its logical block size.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sites/chain_md.h"

/* md's unit: data_offset and the other sysfs offsets are in sectors. */
#define MD_SECTOR	512

/*
 * read_line() - read the first line of @path, without its newline. It
 * returns 0 or -errno.
 */
static int read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t len;

	if (!f)
		return -errno;
	if (!fgets(buf, size, f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	len = strcspn(buf, "\n");
	buf[len] = '\0';
	return 0;
}

/*
 * read_u64() - read a whole decimal number, at most @max, from @path. It
 * returns 0 or -errno.
 */
static int read_u64(const char *path, uint64_t max, uint64_t *v)
{
	unsigned long long n;
	char buf[64], *end;
	int err;

	err = read_line(path, buf, sizeof(buf));
	if (err)
		return err;
	errno = 0;
	n = strtoull(buf, &end, 10);
	if (buf[0] < '0' || buf[0] > '9' || *end || errno || n > max)
		return -EINVAL;
	*v = n;
	return 0;
}

/*
 * member_lbs() - read the member's logical block size; for a partition, its
 * disk's.
 */
static int member_lbs(const char *dir, uint64_t *lbs)
{
	char path[4200];
	int err;

	snprintf(path, sizeof(path), "%s/block/queue/logical_block_size", dir);
	err = read_u64(path, 1U << 16, lbs);
	if (err == -ENOENT) {
		snprintf(path, sizeof(path),
			 "%s/block/../queue/logical_block_size", dir);
		err = read_u64(path, 1U << 16, lbs);
	}
	return !err && (*lbs < MD_SECTOR || *lbs & (*lbs - 1)) ? -EINVAL : err;
}

/* What the members found so far agree on. */
struct md_scan {
	const char *sysfs;
	bool found;
	uint64_t lbas;		/* the first member's offset, in its LBAs */
	char first[520];	/* "md0/dev-nvme1n1" */
	char *why;
	size_t size;
};

/*
 * md_member() - read one member, dev-NAME of array @md: its offset in its
 * LBAs, checked against the first member's. A member that is not an NVMe
 * namespace does not belong to the host session, because a host records NVMe
 * commands only.
 */
static int md_member(struct md_scan *sc, const char *md, const char *dev)
{
	char dir[4096], path[4200], name[520];
	uint64_t sectors, lbs, lbas;
	int err;

	if (strncmp(dev, "dev-nvme", 8))
		return 0;
	snprintf(name, sizeof(name), "%s/%s", md, dev);
	snprintf(dir, sizeof(dir), "%s/block/%s/md/%s", sc->sysfs, md, dev);
	snprintf(path, sizeof(path), "%s/offset", dir);
	err = read_u64(path, UINT64_MAX / MD_SECTOR, &sectors);
	if (err) {
		snprintf(sc->why, sc->size, "cannot read the offset of %s (%s)",
			 name, err == -EINVAL ? "not a number" : strerror(-err));
		return err;
	}
	err = member_lbs(dir, &lbs);
	if (err) {
		snprintf(sc->why, sc->size,
			 "cannot read the logical block size of %s (%s)", name,
			 err == -EINVAL ? "not a power of 2 from 512" :
					  strerror(-err));
		return err;
	}
	if (sectors * MD_SECTOR % lbs) {
		snprintf(sc->why, sc->size,
			 "the offset of %s, %" PRIu64 " sectors, is no whole number of its %" PRIu64 "-byte LBAs",
			 name, sectors, lbs);
		return -EINVAL;
	}
	lbas = sectors * MD_SECTOR / lbs;
	if (!sc->found) {
		sc->found = true;
		sc->lbas = lbas;
		snprintf(sc->first, sizeof(sc->first), "%s", name);
		return 0;
	}
	if (lbas != sc->lbas) {
		snprintf(sc->why, sc->size,
			 "md's members disagree: %s starts its data %" PRIu64 " LBAs in, %s %" PRIu64 ": record each namespace on its own (--dev) with its --chain=OFFSET",
			 sc->first, sc->lbas, name, lbas);
		return -EINVAL;
	}
	return 0;
}

/*
 * list_sorted() - list the entries of directory @path in name order, so that
 * the first member and any message are the same from run to run. It returns
 * the count or -errno.
 */
static int list_sorted(const char *path, struct dirent ***list)
{
	int n = scandir(path, list, NULL, alphasort);

	return n < 0 ? -errno : n;
}

static void list_free(struct dirent **list, int n)
{
	while (n > 0)
		free(list[--n]);
	free(list);
}

/*
 * md_array() - scan the members of array @md if its level is raid1; other
 * levels are refused.
 */
static int md_array(struct md_scan *sc, const char *md)
{
	char path[4200], level[64] = "";
	struct dirent **list;
	bool nvme = false;
	int n, i, err = 0;

	snprintf(path, sizeof(path), "%s/block/%s/md", sc->sysfs, md);
	n = list_sorted(path, &list);
	if (n < 0)
		return 0;	/* md's name, but no array (yet) */
	for (i = 0; !err && i < n; i++) {
		if (!strncmp(list[i]->d_name, "dev-nvme", 8))
			nvme = true;
		err = md_member(sc, md, list[i]->d_name);
	}
	list_free(list, n);
	if (err || !nvme)
		return err;
	/* raid1 mirrors the LBAs; the others stripe or rotate them. */
	snprintf(path, sizeof(path), "%s/block/%s/md/level", sc->sysfs, md);
	if (read_line(path, level, sizeof(level)) || strcmp(level, "raid1")) {
		snprintf(sc->why, sc->size,
			 "%s is %s, not raid1: the chain rule follows a command to the same LBA of each member (give --chain=OFFSET for another array)",
			 md, *level ? level : "of an unknown level");
		return -EINVAL;
	}
	return 0;
}

int chain_md_offset(const char *sysfs, uint64_t *lbas, char *why,
		    size_t size)
{
	struct md_scan sc = { .sysfs = sysfs, .why = why, .size = size };
	struct dirent **list;
	char path[4096];
	int n, i, err = 0;

	snprintf(path, sizeof(path), "%s/block", sysfs);
	n = list_sorted(path, &list);
	if (n < 0) {
		snprintf(why, size, "cannot list %s (%s)", path,
			 strerror(-n));
		return n;
	}
	for (i = 0; !err && i < n; i++)
		if (!strncmp(list[i]->d_name, "md", 2))
			err = md_array(&sc, list[i]->d_name);
	list_free(list, n);
	if (err)
		return err;
	if (!sc.found) {
		snprintf(why, size,
			 "no md array with NVMe members here (%s/block/md*/md/dev-nvme*)",
			 sysfs);
		return -ENOENT;
	}
	*lbas = sc.lbas;
	return 0;
}

int chain_arg_parse(const char *arg, bool *md, uint64_t *offset)
{
	unsigned long long v;
	char *end;

	*md = false;
	*offset = 0;
	if (!arg)
		return 0;
	if (!strcmp(arg, "md")) {
		*md = true;
		return 0;
	}
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (*arg < '0' || *arg > '9' || *end || errno)
		return -EINVAL;
	*offset = v;
	return 0;
}
