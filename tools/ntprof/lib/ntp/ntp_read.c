// SPDX-License-Identifier: GPL-2.0
/*
 * The .ntp recording format's reader. It treats every length and count it
 * reads as hostile until it has checked it against a cap and against the
 * bytes the file really has: a damaged file costs an error message, never
 * a crash or a huge allocation (Documentation/ntp-format.rst).
 * ntp_read_header.c reads the header; this file opens the file and reads
 * the blocks and the trailer after it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ntp/crec.h"
#include "ntp/ntp.h"
#include "ntp/ntp_layout.h"
#include "ntp/ntp_read_priv.h"

void ntp_record_decode(struct ntprof_record *rec, const void *buf)
{
	const uint8_t *p = buf;
	int i;

	ident_get(rec, p);
	rec->pid = get32(p + NTP_REC_OFF_PID);
	for (i = 0; i < NTPROF_RECORD_POINTS; i++)
		rec->ts[i] = get64(p + NTP_REC_OFF_TS + 8 * i);
}

bool ntp_is_recording(const char *path)
{
	uint8_t start[sizeof(ntp_magic)];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	n = ntp_pread_full(fd, start, sizeof(start), 0);
	close(fd);
	return n == (ssize_t)sizeof(start) &&
	       !memcmp(start + NTP_HDR_OFF_MAGIC, ntp_magic, sizeof(start));
}

/* A unit header, checked. */
struct unit {
	const uint8_t *tag;	/* tag_block or tag_end, NULL if unknown */
	uint8_t raw[4];		/* the tag as the file has it */
	uint32_t count;
	uint32_t len;
	uint32_t crc;		/* the payload's */
};

int ntp_fail(struct ntp_file *f, int err, const char *fmt, ...)
{
	int n = snprintf(f->msg, sizeof(f->msg), "%s: ", f->path);
	va_list ap;

	if (n >= 0 && (size_t)n < sizeof(f->msg)) {
		va_start(ap, fmt);
		vsnprintf(f->msg + n, sizeof(f->msg) - n, fmt, ap);
		va_end(ap);
	}
	f->err = err;
	return err;
}

ssize_t ntp_pread_full(int fd, void *buf, size_t len, uint64_t off)
{
	uint8_t *p = buf;
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = pread(fd, p + done, len - done, off + done);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		done += n;
	}
	return done;
}

int ntp_read_error(struct ntp_file *f, ssize_t err)
{
	return ntp_fail(f, err, "read error: %s", strerror(-err));
}

int ntp_open(const char *path, struct ntp_file **fp, char *errbuf,
	     size_t errlen)
{
	struct ntp_file *f;
	struct stat st;
	size_t len;
	int ret;

	len = strlen(path) + 1;
	f = calloc(1, sizeof(*f) + len);
	if (!f) {
		snprintf(errbuf, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	memcpy(f->path, path, len);
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0 || fstat(f->fd, &st)) {
		ret = ntp_fail(f, -errno, "%s", strerror(errno));
	} else if (!S_ISREG(st.st_mode)) {
		ret = ntp_fail(f, -EINVAL, "not a regular file");
	} else {
		f->size = st.st_size;
		/*
		 * Read front to back: a larger readahead keeps the disk busy
		 * while a report streaming a file larger than memory works.
		 */
		posix_fadvise(f->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
		ret = ntp_header_read(f);
	}
	if (ret) {
		snprintf(errbuf, errlen, "%s", f->msg);
		ntp_close(f);
		return ret;
	}
	*fp = f;
	return 0;
}

const struct ntp_header *ntp_header(const struct ntp_file *f)
{
	return &f->hdr;
}

/*
 * cut_short() - note that the file stops here without a trailer, which is
 * what a killed recorder leaves.
 */
static int cut_short(struct ntp_file *f, uint64_t discarded)
{
	f->at_end = true;
	f->discarded = discarded;
	return 0;
}

/*
 * block_len_ok() - tell whether a block's length can hold its records:
 * exactly, in 1.x; in 2.x, between the smallest and the largest compact
 * records, in whole words. The records' own sizes are checked as they are
 * decoded.
 */
static bool block_len_ok(const struct ntp_file *f, const struct unit *u)
{
	if (!f->compact)
		return (uint64_t)u->count * f->hdr.record_size == u->len;
	return (uint64_t)u->count * CREC_FIXED <= u->len &&
	       (uint64_t)u->count * NTPROF_CREC_MAX >= u->len && !(u->len % 4);
}

/*
 * unit_header() - read the header of the unit at f->off. It returns 1 when
 * the unit's payload lies wholly in the file, 0 when the file ends inside
 * it, or an error.
 */
static int unit_header(struct ntp_file *f, struct unit *u)
{
	uint64_t left = f->size - f->off;
	uint8_t h[UNIT_HDR];
	uint32_t seq;
	ssize_t n;

	if (left < UNIT_HDR)
		return cut_short(f, left);
	n = ntp_pread_full(f->fd, h, UNIT_HDR, f->off);
	if (n < 0)
		return ntp_read_error(f, n);
	if (n < UNIT_HDR)	/* the file shrank since ntp_open() */
		return cut_short(f, n);
	/*
	 * A cut leaves a partial unit whose header is whole and right, so a
	 * bad header is damage, and its length is safe to compare with the
	 * file's to tell a cut from the unit being there.
	 */
	if (!crc_matches(crc(h, NTP_UNIT_OFF_HEADER_CRC),
			 get32(h + NTP_UNIT_OFF_HEADER_CRC)))
		return ntp_fail(f, -EBADMSG,
				"block %u at offset %llu: header checksum mismatch",
				f->seq, (unsigned long long)f->off);
	seq = get32(h + NTP_UNIT_OFF_SEQ);
	u->count = get32(h + NTP_UNIT_OFF_COUNT);
	u->len = get32(h + NTP_UNIT_OFF_LENGTH);
	u->crc = get32(h + NTP_UNIT_OFF_PAYLOAD_CRC);
	memcpy(u->raw, h + NTP_UNIT_OFF_TAG, 4);
	if (!memcmp(h + NTP_UNIT_OFF_TAG, tag_block, 4))
		u->tag = tag_block;
	else if (!memcmp(h + NTP_UNIT_OFF_TAG, tag_end, 4))
		u->tag = tag_end;
	else
		u->tag = NULL;	/* a newer minor's: skipped */
	if (seq != f->seq)
		return ntp_fail(f, -EBADMSG,
				"block %u at offset %llu: out of sequence (numbered %u)",
				f->seq, (unsigned long long)f->off, seq);
	if (u->len > UNIT_MAX)
		return ntp_fail(f, -EBADMSG,
				"block %u at offset %llu: length %u is too long",
				f->seq, (unsigned long long)f->off, u->len);
	if (u->tag == tag_block && !block_len_ok(f, u))
		return ntp_fail(f, -EBADMSG,
				"block %u at offset %llu: %u records do not make %u bytes",
				f->seq, (unsigned long long)f->off, u->count,
				u->len);
	if (u->tag == tag_end &&
	    (u->len < TRAILER_SIZE || u->len > TRAILER_MAX))
		return ntp_fail(f, -EBADMSG,
				"trailer at offset %llu: length %u is invalid",
				(unsigned long long)f->off, u->len);
	if (u->len > left - UNIT_HDR)
		return cut_short(f, left);
	return 1;
}

/*
 * buf_reserve() - grow f->buf to @len bytes; the callers bound @len by
 * UNIT_MAX.
 */
static int buf_reserve(struct ntp_file *f, size_t len)
{
	uint8_t *p;

	if (len <= f->buf_size)
		return 0;
	p = realloc(f->buf, len);
	if (!p)
		return ntp_fail(f, -ENOMEM, "out of memory");
	f->buf = p;
	f->buf_size = len;
	return 0;
}

/* unit_name() - return what a message calls the unit at f->off. */
static const char *unit_name(const struct ntp_file *f, const struct unit *u,
			     char *buf, size_t size)
{
	if (u->tag == tag_end)
		snprintf(buf, size, "trailer at offset %llu",
			 (unsigned long long)f->off);
	else
		snprintf(buf, size, "block %u at offset %llu", f->seq,
			 (unsigned long long)f->off);
	return buf;
}

/*
 * unit_payload() - read the payload of the unit at f->off into @dst, check
 * it and move on to the next unit. It returns 1, 0 if the file shrank
 * meanwhile, or an error.
 */
static int unit_payload(struct ntp_file *f, const struct unit *u, void *dst)
{
	ssize_t n = ntp_pread_full(f->fd, dst, u->len, f->off + UNIT_HDR);
	char name[64];

	if (n < 0)
		return ntp_read_error(f, n);
	if ((size_t)n < u->len)
		return cut_short(f, f->size - f->off);
	if (!crc_matches(crc(dst, u->len), u->crc))
		return ntp_fail(f, -EBADMSG, "%s: checksum mismatch",
				unit_name(f, u, name, sizeof(name)));
	f->off += UNIT_HDR + u->len;
	f->seq++;
	return 1;
}

static int trailer_read(struct ntp_file *f, const struct unit *u)
{
	struct ntp_trailer *t = &f->trailer;
	uint8_t p[TRAILER_MAX];
	int ret;

	ret = unit_payload(f, u, p);
	if (ret <= 0)
		return ret;
	/* Fields after the first TRAILER_SIZE bytes are a newer minor's. */
	t->records = get64(p + NTP_TRL_OFF_RECORDS);
	t->drops = get64(p + NTP_TRL_OFF_DROPS);
	t->evictions = get64(p + NTP_TRL_OFF_EVICTIONS);
	t->end_mono_ns = get64(p + NTP_TRL_OFF_END_MONO_NS);
	t->end_real_ns = get64(p + NTP_TRL_OFF_END_REAL_NS);
	/* Since 1.2: the devices that appeared after the start. */
	if (ntp_file_since(f, 1, 2) && u->len > TRAILER_SIZE) {
		struct cursor c = { p + TRAILER_SIZE, u->len - TRAILER_SIZE };

		f->late_devs = ntp_table_parse(f, &c, "trailer", &ntp_dev_table,
					       &t->nr_late_devs);
		if (f->err)
			return f->err;
		t->late_devs = f->late_devs;
		/* Since 1.3: the hooks of processes found after the start. */
		if (ntp_file_since(f, 1, 3) && c.left) {
			f->late_hooks = ntp_table_parse(f, &c, "trailer",
							&ntp_hook_table,
							&t->nr_late_hooks);
			if (f->err)
				return f->err;
			t->late_hooks = f->late_hooks;
		}
	}
	if (t->records != f->records)
		return ntp_fail(f, -EBADMSG,
				"the trailer counts %llu records, the blocks hold %llu",
				(unsigned long long)t->records,
				(unsigned long long)f->records);
	if (f->off != f->size)
		return ntp_fail(f, -EBADMSG, "%llu bytes after the trailer",
				(unsigned long long)(f->size - f->off));
	f->has_trailer = true;
	f->at_end = true;
	return 0;
}

/*
 * unit_next() - move to the next block that has records, reading the units
 * on the way. It returns 1 with the block's header in @u and its payload
 * still unread, 0 at the end of the recording, or an error. Every unit moves
 * f->off forward by at least UNIT_HDR bytes within the file, so the loop
 * ends.
 */
static int unit_next(struct ntp_file *f, struct unit *u)
{
	uint64_t off;
	uint32_t seq;
	int ret;

	if (f->err)
		return f->err;
	while (!f->at_end) {
		ret = unit_header(f, u);
		if (ret <= 0)
			return ret;
		if (u->tag == tag_block && u->count)
			return 1;
		if (u->tag == tag_end)
			return trailer_read(f, u);
		/*
		 * An empty block or a newer minor's unit: checked, skipped;
		 * an events unit (since 2.2) read too.
		 */
		off = f->off;
		seq = f->seq;
		ret = buf_reserve(f, u->len ? u->len : 1);
		if (!ret)
			ret = unit_payload(f, u, f->buf);
		if (ret > 0 && !memcmp(u->raw, tag_events, 4) &&
		    ntp_file_since(f, 2, 2))
			ret = ntp_events_parse(f, f->buf, u->count, u->len,
					       seq, off);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/*
 * block_decode() - decode the compact records of the block just read, @u,
 * numbered @seq at @off, into @dst. The block must hold exactly its count of
 * records, ending where the payload ends.
 */
static int block_decode(struct ntp_file *f, const struct unit *u,
			uint32_t seq, uint64_t off, struct ntprof_record *dst)
{
	uint32_t i, at = 0;
	char why[128];
	int n;

	for (i = 0; i < u->count; i++) {
		n = crec_decode(&dst[i], f->buf + at, u->len - at, CREC_LE, why,
				sizeof(why));
		if (n < 0)
			return ntp_fail(f, n,
					"block %u at offset %llu: record %u at byte %u: %s",
					seq, (unsigned long long)off, i, at, why);
		at += n;
	}
	if (at != u->len)
		return ntp_fail(f, -EBADMSG,
				"block %u at offset %llu: its records end at byte %u of %u",
				seq, (unsigned long long)off, at, u->len);
	return 1;
}

/*
 * block_read() - read the payload of a block into @dst, and decode it
 * unless its records are already struct ntprof_record's bytes (f->fast).
 */
static int block_read(struct ntp_file *f, const struct unit *u,
		      struct ntprof_record *dst)
{
	uint64_t off = f->off;
	uint32_t seq = f->seq, i;
	int ret;

	if (f->fast)
		return unit_payload(f, u, dst);
	ret = buf_reserve(f, u->len);
	if (!ret)
		ret = unit_payload(f, u, f->buf);
	if (ret <= 0)
		return ret;
	if (f->compact)
		return block_decode(f, u, seq, off, dst);
	for (i = 0; i < u->count; i++)
		ntp_record_decode(&dst[i],
				  f->buf + (size_t)i * f->hdr.record_size);
	return 1;
}

int ntp_next_block(struct ntp_file *f, const struct ntprof_record **recs,
		   size_t *n)
{
	struct ntprof_record *dst;
	struct unit u;
	int ret;

	*recs = NULL;
	*n = 0;
	ret = unit_next(f, &u);
	if (ret <= 0)
		return ret;
	if (f->fast) {
		/* The records are read into f->buf and used right there. */
		ret = buf_reserve(f, u.len);
		if (ret)
			return ret;
		dst = (struct ntprof_record *)f->buf;
	} else if (u.count > f->recs_size) {
		/* u.count <= UNIT_MAX / CREC_FIXED: bounded. */
		dst = realloc(f->recs, u.count * sizeof(*dst));
		if (!dst)
			return ntp_fail(f, -ENOMEM, "out of memory");
		f->recs = dst;
		f->recs_size = u.count;
	} else {
		dst = f->recs;
	}
	ret = block_read(f, &u, dst);
	if (ret <= 0)
		return ret;
	f->records += u.count;
	*recs = dst;
	*n = u.count;
	return 1;
}

/*
 * compact_bound() - count the records of compact blocks from their headers
 * alone, with one pread() of 24 bytes per block. It stops where the reader
 * would stop: at a unit that is not whole in the file, at a header that is
 * wrong, or at the trailer.
 */
static uint64_t compact_bound(const struct ntp_file *f)
{
	uint64_t off = f->off, n = 0;
	uint8_t h[UNIT_HDR];
	uint32_t len;

	while (f->size - off >= UNIT_HDR &&
	       ntp_pread_full(f->fd, h, UNIT_HDR, off) == UNIT_HDR) {
		if (!crc_matches(crc(h, NTP_UNIT_OFF_HEADER_CRC),
				 get32(h + NTP_UNIT_OFF_HEADER_CRC)))
			break;
		len = get32(h + NTP_UNIT_OFF_LENGTH);
		if (len > UNIT_MAX || len > f->size - off - UNIT_HDR ||
		    !memcmp(h + NTP_UNIT_OFF_TAG, tag_end, 4))
			break;
		if (!memcmp(h + NTP_UNIT_OFF_TAG, tag_block, 4))
			/* More would not fit: the reader refuses the block. */
			n += get32(h + NTP_UNIT_OFF_COUNT) < len / CREC_FIXED ?
			     get32(h + NTP_UNIT_OFF_COUNT) : len / CREC_FIXED;
		off += UNIT_HDR + len;
	}
	return n;
}

uint64_t ntp_records_bound(const struct ntp_file *f)
{
	if (f->err || f->at_end)
		return 0;
	if (f->compact)
		return compact_bound(f);
	return (f->size - f->off) / f->hdr.record_size;
}

/*
 * records_alloc() - allocate @size bytes of records that free() can release.
 * Faulting in gigabytes 4 KiB at a time costs more than reading them from
 * the page cache, so big arrays are aligned for transparent huge pages and
 * ask for them; where there are none, the hint is ignored.
 */
static void *records_alloc(size_t size)
{
	const size_t huge = 2UL << 20;
	void *p;

	if (size < 4 * huge)
		return malloc(size);
	if (posix_memalign(&p, huge, size))
		return NULL;
	madvise(p, size & ~(huge - 1), MADV_HUGEPAGE);
	return p;
}

int ntp_read_all(struct ntp_file *f, struct ntprof_record **recs, size_t *n)
{
	struct ntprof_record *all = NULL;
	uint64_t cap = 0;
	size_t got = 0;
	struct unit u;
	int ret;

	*recs = NULL;
	*n = 0;
	if (f->err)
		return f->err;
	/* No more records than the rest of the file has blocks for. */
	cap = ntp_records_bound(f);
	if (cap > SIZE_MAX / sizeof(*all))
		return ntp_fail(f, -ENOMEM, "too large for this machine's memory");
	if (cap) {
		all = records_alloc(cap * sizeof(*all));
		if (!all)
			return ntp_fail(f, -ENOMEM, "out of memory");
	}
	while ((ret = unit_next(f, &u)) > 0) {
		/* Only if the file changed since its blocks were counted. */
		if (u.count > cap - got) {
			ret = ntp_fail(f, -EBADMSG, "changed while it was read");
			break;
		}
		ret = block_read(f, &u, all + got);
		if (ret <= 0)
			break;
		got += u.count;
		f->records += u.count;
	}
	/*
	 * The room left unused (1.x: the block headers'; blocks not read
	 * after an error) is pages never touched, so never backed by
	 * memory: no realloc().
	 */
	if (!got) {
		free(all);
		all = NULL;
	}
	*recs = all;
	*n = got;
	return ret;
}

const struct ntp_trailer *ntp_trailer(const struct ntp_file *f)
{
	return f->has_trailer ? &f->trailer : NULL;
}

const struct ntp_event *ntp_events(const struct ntp_file *f, size_t *n,
				   uint64_t *drops)
{
	*n = f->nr_events;
	*drops = f->event_drops;
	return f->nr_events ? f->events : NULL;
}

uint64_t ntp_discarded(const struct ntp_file *f)
{
	return f->discarded;
}

const char *ntp_error(const struct ntp_file *f)
{
	return f->msg;
}

void ntp_close(struct ntp_file *f)
{
	if (!f)
		return;
	if (f->fd >= 0)
		close(f->fd);
	free(f->hooks);
	free(f->devs);
	free(f->late_devs);
	free(f->late_hooks);
	free(f->ctrls);
	free(f->events);
	free(f->buf);
	free(f->recs);
	free(f);
}
