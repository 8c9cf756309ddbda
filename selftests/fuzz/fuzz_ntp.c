// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target of the .ntp reader (tools/ntprof/lib/ntp/ntp_read.c,
 * crec.c for the compact records of format 2.0). Each input is
 * written to a memfd and opened by its /proc path, so it goes through
 * ntp_open() exactly as a file on disk would; then it is read to the end
 * twice, block by block and with ntp_read_all(), and the two must agree.
 *
 * Built with -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION, the reader lets
 * bad CRC-32s pass: the fuzzer cannot forge them, and would otherwise
 * never get past the header's. Besides the sanitizers' findings, abort()
 * marks a broken promise of ntp.h: an error without its one-line message
 * naming the file, a string (a hook's, a device's or a controller's too)
 * without its NUL, a table longer than its cap, more records than bytes.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ntp/ntp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64];

/* The promises of an error: "<path>: <what>", one line. */
static void check_message(const char *msg)
{
	size_t len = strlen(path);

	if (strncmp(msg, path, len) || strncmp(msg + len, ": ", 2) ||
	    !msg[len + 2] || strchr(msg, '\n'))
		abort();
}

static void check_header(const struct ntp_header *h)
{
	uint32_t i;

	if (strnlen(h->hostname, sizeof(h->hostname)) == sizeof(h->hostname) ||
	    strnlen(h->kernel_release, sizeof(h->kernel_release)) ==
		    sizeof(h->kernel_release) ||
	    strnlen(h->boot_id, sizeof(h->boot_id)) == sizeof(h->boot_id) ||
	    strnlen(h->tool_version, sizeof(h->tool_version)) ==
		    sizeof(h->tool_version) ||
	    h->nr_hooks > NTP_HOOKS_MAX || (h->nr_hooks && !h->hooks) ||
	    h->nr_devs > NTP_DEVS_MAX || (h->nr_devs && !h->devs) ||
	    h->nr_ctrls > NTP_CTRLS_MAX || (h->nr_ctrls && !h->ctrls) ||
	    (h->version_major == 1 && h->version_minor < 1 &&
	     (h->nr_devs || h->nr_ctrls)) ||
	    (h->version_major == 1 && h->record_size < NTP_RECORD_SIZE) ||
	    (h->version_major == 2 && h->record_size) ||
	    h->chain > 1 || (!h->chain && h->chain_offset) ||
	    ((h->version_major == 1 || h->version_minor < 1) && h->chain) ||
	    h->version_major < 1 || h->version_major > NTP_VERSION_MAJOR)
		abort();
	for (i = 0; i < h->nr_hooks; i++)
		if (strnlen(h->hooks[i].name, sizeof(h->hooks[i].name)) ==
		    sizeof(h->hooks[i].name))
			abort();
	/* Every entry is read: the sanitizers see one out of bounds. */
	for (i = 0; i < h->nr_devs; i++)
		if (strnlen(h->devs[i].name, sizeof(h->devs[i].name)) ==
		    sizeof(h->devs[i].name))
			abort();
	for (i = 0; i < h->nr_ctrls; i++)
		if (strnlen(h->ctrls[i].name, sizeof(h->ctrls[i].name)) ==
		    sizeof(h->ctrls[i].name) ||
		    strnlen(h->ctrls[i].subsysnqn,
			    sizeof(h->ctrls[i].subsysnqn)) ==
		    sizeof(h->ctrls[i].subsysnqn) ||
		    strnlen(h->ctrls[i].address, sizeof(h->ctrls[i].address)) ==
		    sizeof(h->ctrls[i].address))
			abort();
}

/* A cheap digest of records, so that both ways of reading must agree. */
static uint64_t digest(uint64_t d, const struct ntprof_record *recs, size_t n)
{
	const uint8_t *p = (const uint8_t *)recs;
	size_t i;

	/* Every byte is read: the sanitizers see any record out of bounds. */
	for (i = 0; i < n * sizeof(*recs); i++)
		d = (d ^ p[i]) * 0x100000001b3ULL;
	return d;
}

struct outcome {
	int ret;
	size_t records;
	size_t events;
	uint64_t digest;
	bool trailer;
	char msg[512];
};

static void read_input(bool all, size_t size, struct outcome *o)
{
	const struct ntprof_record *block;
	struct ntprof_record *recs;
	struct ntp_file *f;
	uint64_t drops;
	size_t n;

	memset(o, 0, sizeof(*o));
	o->ret = ntp_open(path, &f, o->msg, sizeof(o->msg));
	if (o->ret) {
		check_message(o->msg);
		return;
	}
	check_header(ntp_header(f));
	if (all) {
		o->ret = ntp_read_all(f, &recs, &n);
		o->records = n;
		o->digest = digest(0, recs, n);
		free(recs);
	} else {
		while ((o->ret = ntp_next_block(f, &block, &n)) > 0) {
			if (!n)
				abort();	/* empty blocks are skipped */
			o->records += n;
			o->digest = digest(o->digest, block, n);
		}
	}
	/* No record comes from nothing: 48 bytes the smallest (2.0). */
	if (o->records > size / sizeof(struct ntprof_crec))
		abort();
	/* Events (2.2) neither: 16 bytes each, after the unit's 8. */
	if (ntp_events(f, &o->events, &drops) && o->events > size / 16)
		abort();
	if (o->ret) {
		snprintf(o->msg, sizeof(o->msg), "%s", ntp_error(f));
		check_message(o->msg);
	} else {
		o->trailer = ntp_trailer(f);
		if (o->trailer && ntp_trailer(f)->records != o->records)
			abort();
	}
	ntp_close(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	struct outcome blocks, all;

	if (fd < 0) {
		fd = memfd_create("fuzz.ntp", MFD_CLOEXEC);
		if (fd < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();

	read_input(false, size, &blocks);
	read_input(true, size, &all);
	if (blocks.ret != all.ret || blocks.records != all.records ||
	    blocks.events != all.events ||
	    blocks.digest != all.digest || blocks.trailer != all.trailer ||
	    strcmp(blocks.msg, all.msg)) {
		fprintf(stderr, "next_block: %d %zu \"%s\"\nread_all: %d %zu \"%s\"\n",
			blocks.ret, blocks.records, blocks.msg, all.ret,
			all.records, all.msg);
		abort();
	}
	return 0;
}
