// SPDX-License-Identifier: GPL-2.0
/*
 * record --rotate SIZE --keep N: the recording in parts, as tcpdump's -C
 * and -W and journald do it. -o FILE.ntp (or FILE) becomes FILE.0001.ntp,
 * FILE.0002.ntp, ...; a part is closed, with its trailer, at the first
 * block boundary after it reached SIZE, and is then a complete recording
 * (Documentation/ntp-format.rst, "Parts"); the next one starts with the
 * session's header. Beyond N parts, the oldest is removed. Each part
 * closed and each removed is a line on stderr, for a service's journal.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/record/record.h"
#include "ntp/ntp.h"

/*
 * rotate_part_path() - write into @buf the path of part @part of FILE.ntp:
 * FILE.0001.ntp. Four digits sort in the order of the parts up to 9999;
 * after that, the numbers grow wider (the report orders parts by the numbers
 * in their headers, not by their names). It returns 0 or -ENAMETOOLONG.
 */
int rotate_part_path(const char *out, uint32_t part, char *buf, size_t size)
{
	size_t len = strlen(out);
	int n;

	if (len > 4 && !strcmp(out + len - 4, ".ntp"))
		len -= 4;
	n = snprintf(buf, size, "%.*s.%04" PRIu32 ".ntp", (int)len, out, part);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/* part_set() - note part @part's records and start. It returns 0 or -ENOMEM. */
static int part_set(struct record_rotation *rot, uint32_t part, uint64_t n,
		    uint64_t start_mono)
{
	struct rotation_part *v;
	size_t cap;

	if (part > rot->cap) {
		cap = rot->cap ? 2 * (size_t)rot->cap : 16;
		if (cap < part)
			cap = part;
		v = realloc(rot->parts, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		memset(v + rot->cap, 0, (cap - rot->cap) * sizeof(*v));
		rot->parts = v;
		rot->cap = cap;
	}
	rot->parts[part - 1].records = n;
	rot->parts[part - 1].start_mono = start_mono;
	return 0;
}

int record_rotation_init(struct recorder *rec, struct record_opts *o)
{
	struct record_rotation *rot = &rec->rot;

	rot->size = o->rotate_size;
	rot->keep = o->keep;
	rot->base = o->out;
	rot->part = 1;
	rot->first = 1;
	if (!rot->size)
		return 0;
	if (part_set(rot, 1, 0, rec->start_mono))
		return -ENOMEM;
	if (rotate_part_path(rot->base, 1, rot->path, sizeof(rot->path)))
		return -ENAMETOOLONG;
	/* Every message and every open names the part being written. */
	o->out = rot->path;
	return 0;
}

void record_rotation_free(struct record_rotation *rot)
{
	/* Only after an error: a part left without its end, as if killed. */
	if (rot->closing)
		ntp_writer_close(rot->closing, NULL);
	rot->closing = NULL;
	free(rot->parts);
	rot->parts = NULL;
	free(rot->hooks);
	rot->hooks = NULL;
}

/*
 * part_trailer() - fill the trailer of the part closed now: its records, and
 * the session's losses since the part was opened, so that the parts'
 * trailers add up to the session's and no loss is counted twice.
 */
static void part_trailer(struct recorder *rec, struct ntp_trailer *tr,
			 const struct session_stats *st, bool have_stats)
{
	struct record_rotation *rot = &rec->rot;

	tr->drops = 0;
	tr->evictions = 0;
	if (!have_stats)
		return;
	if (st->drops >= rot->drops0)
		tr->drops = st->drops - rot->drops0;
	if (st->evicted >= rot->evictions0)
		tr->evictions = st->evicted - rot->evictions0;
	rot->drops0 = st->drops;
	rot->evictions0 = st->evicted;
}

void record_rotation_trailer(struct recorder *rec, struct ntp_trailer *tr,
			     const struct session_stats *st, bool have_stats)
{
	if (rec->rot.size)
		part_trailer(rec, tr, st, have_stats);
	else if (have_stats) {
		tr->drops = st->drops;
		tr->evictions = st->evicted;
	}
}

/*
 * part_open() - open the next part, with the session's header as the first
 * part had it, so that no request goes to the module, which may be in the
 * middle of a drain's dump. It returns 0 or -errno.
 */
static int part_open(struct recorder *rec, uint64_t start_mono)
{
	struct record_rotation *rot = &rec->rot;
	struct ntp_header hdr = rot->hdr;
	int err;

	err = rotate_part_path(rot->base, rot->part + 1, rot->path,
			       sizeof(rot->path));
	if (!err)
		err = part_set(rot, rot->part + 1, 0, start_mono);
	if (err)
		return err;
	rot->part++;
	hdr.part = rot->part;
	hdr.part_start_mono_ns = start_mono;
	return ntp_writer_open(rot->path, &hdr, &rec->w);
}

/*
 * parts_trim() - remove the oldest part beyond --keep N parts, and say so in
 * a line of its own; a part that is already gone is fine.
 */
static void parts_trim(struct recorder *rec, const char *cmd)
{
	struct record_rotation *rot = &rec->rot;
	char old[sizeof(rot->path)];

	while (rot->keep && rot->part - rot->first + 1 > rot->keep) {
		if (!rotate_part_path(rot->base, rot->first, old, sizeof(old))) {
			if (!unlink(old))
				fprintf(stderr,
					"ntprof: %s: part %" PRIu32 " removed, %s (--keep %" PRIu32 ")\n",
					cmd, rot->first, old, rot->keep);
			else if (errno != ENOENT)
				fprintf(stderr,
					"ntprof: %s: cannot remove %s: %s\n",
					cmd, old, strerror(errno));
		}
		rot->first++;
	}
}

void record_part_line(const struct recorder *rec, uint32_t part,
		      const char *path, uint64_t records,
		      const struct ntp_trailer *tr,
		      const struct session_stats *st)
{
	fprintf(stderr,
		"ntprof: %s: part %" PRIu32 " closed, %s: %" PRIu64 " records",
		rec->cmd, part, path, records);
	if (!st) {
		/*
		 * A part filled within the drain that filled the next has
		 * its losses counted in a later part's trailer; the last
		 * part of a session without counters has none to give.
		 */
		fputs(rec->rot.part > part ?
		      ", its losses counted in a later part\n" :
		      ", no counters\n", stderr);
		return;
	}
	fprintf(stderr, ", %" PRIu64 " dropped, %" PRIu64 " evicted",
		tr->drops, tr->evictions);
	/* The agents count no commands seen or sampled: the module does. */
	if (rec->kernel)
		fprintf(stderr,
			"; the session so far: %" PRIu64 " commands seen, %" PRIu64 " sampled, %" PRIu64 " dropped, %" PRIu64 " evicted\n",
			st->seen, st->sampled, st->drops, st->evicted);
	else
		fprintf(stderr,
			"; the session so far: %" PRIu64 " dropped, %" PRIu64 " evicted\n",
			st->drops, st->evicted);
}

/*
 * part_close() - close the part just left, with its trailer: its records,
 * and the losses since its start. Without @fresh counters (when a second
 * part filled within one drain), the trailer has no losses; they go to a
 * later part, and the sum stays whole.
 */
static int part_close(struct recorder *rec, bool fresh)
{
	struct record_rotation *rot = &rec->rot;
	struct session_stats st = { 0 };
	struct ntp_trailer tr = { 0 };
	char path[sizeof(rot->path)];
	struct ntp_hook *late_hooks;
	struct ntp_dev *late;
	bool have_stats;
	int err;

	tr.end_mono_ns = rot->closing_end_mono;
	tr.end_real_ns = rot->closing_end_real;
	have_stats = fresh && record_counters(rec, &st);
	record_rotation_trailer(rec, &tr, &st, have_stats);
	record_trailer_tables(rec, &tr, &late, &late_hooks);
	err = ntp_writer_close(rot->closing, &tr);
	rot->closing = NULL;
	free(late);
	free(late_hooks);
	if (err)
		return err;
	/* The part closing is always the one before the part written. */
	if (!rotate_part_path(rot->base, rot->part - 1, path, sizeof(path)))
		record_part_line(rec, rot->part - 1, path,
				 rot->parts[rot->part - 2].records, &tr,
				 have_stats ? &st : NULL);
	parts_trim(rec, rec->cmd);
	return 0;
}

int record_rotation_settle(struct recorder *rec)
{
	if (!rec->rot.closing)
		return 0;
	return part_close(rec, true);
}

int record_rotate_maybe(struct recorder *rec)
{
	struct record_rotation *rot = &rec->rot;
	int err;

	if (!rot->size || ntp_writer_size(rec->w) < rot->size)
		return 0;
	/* Two parts filled in one drain: the first closes now. */
	if (rot->closing) {
		err = part_close(rec, false);
		if (err)
			return err;
	}
	/* Its records all written, it only waits for its trailer. */
	err = ntp_writer_flush(rec->w);
	if (err)
		return err;
	rot->parts[rot->part - 1].records = ntp_writer_records(rec->w);
	rot->closing = rec->w;
	rot->closing_end_mono = clock_ns(CLOCK_MONOTONIC);
	rot->closing_end_real = clock_ns(CLOCK_REALTIME);
	rec->w = NULL;
	return part_open(rec, rot->closing_end_mono);
}

/*
 * record_rotation_last() - note the records of the last part as it is
 * closed, for the read back.
 */
void record_rotation_last(struct recorder *rec, uint64_t records)
{
	if (rec->rot.size)
		rec->rot.parts[rec->rot.part - 1].records = records;
}

uint64_t record_rotation_start(const struct recorder *rec)
{
	const struct record_rotation *rot = &rec->rot;

	return rot->size ? rot->parts[rot->first - 1].start_mono :
			   rec->start_mono;
}
