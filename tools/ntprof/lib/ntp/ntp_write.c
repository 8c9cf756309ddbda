// SPDX-License-Identifier: GPL-2.0
/*
 * The .ntp recording format's writer: the header, blocks of records and
 * the trailer, each unit written with one write() so that a writer killed
 * at any moment leaves whole units (Documentation/ntp-format.rst).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ntp/ntp.h"
#include "ntp/ntp_layout.h"

/*
 * On a little-endian machine the disk record is struct ntprof_record
 * byte for byte, so whole blocks are copied; these make sure the uapi
 * header's layout never drifts from the one the format documents.
 */
#define ntp_rec_at(field, off) \
	_Static_assert(offsetof(struct ntprof_record, field) == (off), \
		       "struct ntprof_record." #field " moved")
ntp_rec_at(role, 0);
ntp_rec_at(transport, 1);
ntp_rec_at(opcode, 2);
ntp_rec_at(flags, 3);
ntp_rec_at(qid, 4);
ntp_rec_at(cid, 6);
ntp_rec_at(nsid, 8);
ntp_rec_at(length, 12);
ntp_rec_at(slba, 16);
ntp_rec_at(status, 24);
ntp_rec_at(cntlid, 26);
ntp_rec_at(cpu_submit, 28);
ntp_rec_at(cpu_complete, 30);
ntp_rec_at(dev, 32);
ntp_rec_at(pid, 36);
ntp_rec_at(ts, 40);
_Static_assert(sizeof(struct ntprof_record) == NTP_RECORD_SIZE,
	       "struct ntprof_record changed size: a new format minor is due");

void ntp_record_encode(void *buf, const struct ntprof_record *rec)
{
	uint8_t *p = buf;
	int i;

	p[0] = rec->role;
	p[1] = rec->transport;
	p[2] = rec->opcode;
	p[3] = rec->flags;
	put16(p + 4, rec->qid);
	put16(p + 6, rec->cid);
	put32(p + 8, rec->nsid);
	put32(p + 12, rec->length);
	put64(p + 16, rec->slba);
	put16(p + 24, rec->status);
	put16(p + 26, rec->cntlid);
	put16(p + 28, rec->cpu_submit);
	put16(p + 30, rec->cpu_complete);
	put32(p + 32, rec->dev);
	put32(p + 36, rec->pid);
	for (i = 0; i < NTPROF_RECORD_POINTS; i++)
		put64(p + 40 + 8 * i, rec->ts[i]);
}

static void unit_seal(uint8_t *unit, const uint8_t tag[4], uint32_t seq,
		      uint32_t count, uint32_t len)
{
	memcpy(unit, tag, 4);
	put32(unit + 4, seq);
	put32(unit + 8, count);
	put32(unit + 12, len);
	put32(unit + 16, crc(unit + UNIT_HDR, len));
	put32(unit + 20, crc(unit, 20));
}

/* Writer */

struct ntp_writer {
	int fd;
	int err;		/* the first failure; every call returns it */
	uint32_t seq;		/* the next unit's number */
	uint64_t records;
	size_t nbuf;		/* records in buf */
	uint8_t *buf;		/* unit header, NTP_BLOCK_RECORDS records */
	char path[];
};

/*
 * A short write is retried so that the second write() says why (ENOSPC,
 * EFBIG); a write that makes no progress at all is an I/O error.
 */
static int write_full(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		p += n;
		len -= n;
	}
	return 0;
}

/* Bytes of @s, or -1 if it does not end within @size. */
static long str_len(const char *s, size_t size)
{
	size_t len = strnlen(s, size);

	return len < size ? (long)len : -1;
}

static uint8_t *put_str(uint8_t *p, const char *s)
{
	size_t len = strlen(s);

	put16(p, len);
	memcpy(p + 2, s, len);
	return p + 2 + len;
}

/* A hook entry at @p, as the header and (since 1.3) the trailer have them. */
static uint8_t *hook_put(uint8_t *p, const struct ntp_hook *h)
{
	put16(p, HOOK_FIXED + strlen(h->name));
	p[2] = h->kind;
	p[3] = h->role;
	p[4] = h->transport;
	p[5] = h->point;
	p[6] = h->required;
	p[7] = h->state;
	return put_str(p + 8, h->name);
}

/* The encoded header, or NULL with errno set; its length in @lenp. */
static uint8_t *header_encode(const struct ntp_header *hdr, size_t *lenp)
{
	const char *strs[] = { hdr->hostname, hdr->kernel_release,
			       hdr->boot_id, hdr->tool_version };
	const size_t sizes[] = { sizeof(hdr->hostname),
				 sizeof(hdr->kernel_release),
				 sizeof(hdr->boot_id),
				 sizeof(hdr->tool_version) };
	size_t len = HDR_FIXED + 4 + 4, i;
	uint8_t *buf, *p;
	long l;

	if (hdr->nr_hooks > NTP_HOOKS_MAX || (hdr->nr_hooks && !hdr->hooks) ||
	    hdr->nr_devs > NTP_DEVS_MAX || (hdr->nr_devs && !hdr->devs) ||
	    hdr->nr_ctrls > NTP_CTRLS_MAX || (hdr->nr_ctrls && !hdr->ctrls)) {
		errno = EINVAL;
		return NULL;
	}
	for (i = 0; i < 4; i++) {
		l = str_len(strs[i], sizes[i]);
		if (l < 0) {
			errno = EINVAL;
			return NULL;
		}
		len += 2 + l;
	}
	for (i = 0; i < hdr->nr_hooks; i++) {
		l = str_len(hdr->hooks[i].name, sizeof(hdr->hooks[i].name));
		if (l < 0) {
			errno = EINVAL;
			return NULL;
		}
		len += HOOK_FIXED + l;
	}
	len += 4;
	for (i = 0; i < hdr->nr_devs; i++) {
		l = str_len(hdr->devs[i].name, sizeof(hdr->devs[i].name));
		if (l < 0) {
			errno = EINVAL;
			return NULL;
		}
		len += DEV_FIXED + l;
	}
	len += 4;
	for (i = 0; i < hdr->nr_ctrls; i++) {
		const struct ntp_ctrl *c = &hdr->ctrls[i];
		long n = str_len(c->name, sizeof(c->name));
		long q = str_len(c->subsysnqn, sizeof(c->subsysnqn));

		l = str_len(c->address, sizeof(c->address));
		if (n < 0 || q < 0 || l < 0) {
			errno = EINVAL;
			return NULL;
		}
		len += CTRL_FIXED + n + q + l;
	}
	/* Full tables of the longest entries would not fit in a header. */
	if (len > HDR_MAX) {
		errno = EINVAL;
		return NULL;
	}

	buf = calloc(1, len);
	if (!buf)
		return NULL;
	memcpy(buf, ntp_magic, sizeof(ntp_magic));
	put16(buf + 8, NTP_VERSION_MAJOR);
	put16(buf + 10, NTP_VERSION_MINOR);
	put32(buf + 12, len);
	put32(buf + 16, NTP_RECORD_SIZE);
	put32(buf + 20, hdr->sample);
	buf[24] = hdr->role;
	buf[25] = hdr->transport;
	/* 26, 27: reserved, zero */
	put32(buf + 28, hdr->nr_cpus);
	put64(buf + 32, hdr->start_mono_ns);
	put64(buf + 40, hdr->start_real_ns);
	p = buf + HDR_FIXED;
	for (i = 0; i < 4; i++)
		p = put_str(p, strs[i]);
	put32(p, hdr->nr_hooks);
	p += 4;
	for (i = 0; i < hdr->nr_hooks; i++)
		p = hook_put(p, &hdr->hooks[i]);
	put32(p, hdr->nr_devs);
	p += 4;
	for (i = 0; i < hdr->nr_devs; i++) {
		const struct ntp_dev *d = &hdr->devs[i];

		put16(p, DEV_FIXED + strlen(d->name));
		put32(p + 2, d->dev);
		p = put_str(p + 6, d->name);
	}
	put32(p, hdr->nr_ctrls);
	p += 4;
	for (i = 0; i < hdr->nr_ctrls; i++) {
		const struct ntp_ctrl *c = &hdr->ctrls[i];

		put16(p, CTRL_FIXED + strlen(c->name) + strlen(c->subsysnqn) +
			 strlen(c->address));
		put32(p + 2, c->dev);
		put32(p + 6, c->nsid);
		put16(p + 10, c->cntlid);
		p[12] = c->transport;
		p = put_str(p + 13, c->name);
		p = put_str(p, c->subsysnqn);
		p = put_str(p, c->address);
	}
	put32(p, crc(buf, len - 4));
	*lenp = len;
	return buf;
}

int ntp_writer_open(const char *path, const struct ntp_header *hdr,
		    struct ntp_writer **wp)
{
	struct ntp_writer *w;
	uint8_t *head;
	size_t len;
	int ret;

	head = header_encode(hdr, &len);
	if (!head)
		return -errno;
	w = calloc(1, sizeof(*w) + strlen(path) + 1);	/* zeroed: path's NUL */
	if (w)
		w->buf = malloc(UNIT_HDR + NTP_BLOCK_RECORDS * NTP_RECORD_SIZE);
	if (!w || !w->buf) {
		ret = -ENOMEM;
		goto fail;
	}
	memcpy(w->path, path, strlen(path));
	w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (w->fd < 0) {
		ret = -errno;
		goto fail;
	}
	ret = write_full(w->fd, head, len);
	if (ret) {
		close(w->fd);
		goto fail;
	}
	free(head);
	*wp = w;
	return 0;
fail:
	if (w)
		free(w->buf);
	free(w);
	free(head);
	return ret;
}

const char *ntp_writer_path(const struct ntp_writer *w)
{
	return w->path;
}

int ntp_writer_flush(struct ntp_writer *w)
{
	uint32_t len = w->nbuf * NTP_RECORD_SIZE;

	if (w->err || !w->nbuf)
		return w->err;
	unit_seal(w->buf, tag_block, w->seq, w->nbuf, len);
	/* One write(): a kill leaves this block whole or cut, not mixed. */
	w->err = write_full(w->fd, w->buf, UNIT_HDR + len);
	if (w->err)
		return w->err;
	w->seq++;
	w->records += w->nbuf;
	w->nbuf = 0;
	return 0;
}

int ntp_writer_append(struct ntp_writer *w, const struct ntprof_record *recs,
		      size_t n)
{
	uint8_t *p;
	int ret;

	while (n && !w->err) {
		p = w->buf + UNIT_HDR + w->nbuf * NTP_RECORD_SIZE;
		if (HOST_IS_LE)
			memcpy(p, recs, NTP_RECORD_SIZE);
		else
			ntp_record_encode(p, recs);
		recs++;
		n--;
		if (++w->nbuf == NTP_BLOCK_RECORDS) {
			ret = ntp_writer_flush(w);
			if (ret)
				return ret;
		}
	}
	return w->err;
}

/*
 * The trailer's device table (since 1.2) at @p, of the @t->late_devs that
 * fit in @room bytes; returns its length.
 */
static size_t late_devs_encode(uint8_t *p, size_t room,
			       const struct ntp_trailer *t)
{
	uint32_t i, n = 0;
	size_t len = 4, l;

	for (i = 0; i < t->nr_late_devs; i++) {
		l = DEV_FIXED + strnlen(t->late_devs[i].name, NTP_DEV_NAME_MAX);
		if (len + l > room)
			break;
		put16(p + len, (uint16_t)l);
		put32(p + len + 2, t->late_devs[i].dev);
		put16(p + len + 6, (uint16_t)(l - DEV_FIXED));
		memcpy(p + len + DEV_FIXED, t->late_devs[i].name, l - DEV_FIXED);
		len += l;
		n++;
	}
	put32(p, n);
	return len;
}

/*
 * The trailer's hook table (since 1.3) at @p, of the @t->late_hooks that
 * fit in @room bytes; returns its length.
 */
static size_t late_hooks_encode(uint8_t *p, size_t room,
				const struct ntp_trailer *t)
{
	uint32_t i, n = 0;
	size_t len = 4, l;

	for (i = 0; i < t->nr_late_hooks; i++) {
		l = HOOK_FIXED + strnlen(t->late_hooks[i].name,
					 NTP_HOOK_NAME_MAX);
		if (len + l > room)
			break;
		hook_put(p + len, &t->late_hooks[i]);
		len += l;
		n++;
	}
	put32(p, n);
	return len;
}

int ntp_writer_close(struct ntp_writer *w, const struct ntp_trailer *t)
{
	uint8_t unit[UNIT_HDR + TRAILER_MAX];
	size_t len;
	int ret;

	ret = ntp_writer_flush(w);
	if (!ret && t) {
		put64(unit + UNIT_HDR, w->records);
		put64(unit + UNIT_HDR + 8, t->drops);
		put64(unit + UNIT_HDR + 16, t->evictions);
		put64(unit + UNIT_HDR + 24, t->end_mono_ns);
		put64(unit + UNIT_HDR + 32, t->end_real_ns);
		/* 40 bytes, as in 1.0 and 1.1, without late devices or hooks. */
		len = TRAILER_SIZE;
		if (t->nr_late_devs || t->nr_late_hooks)
			len += late_devs_encode(unit + UNIT_HDR + len,
						TRAILER_MAX - len, t);
		if (t->nr_late_hooks)
			len += late_hooks_encode(unit + UNIT_HDR + len,
						 TRAILER_MAX - len, t);
		unit_seal(unit, tag_end, w->seq, 0, (uint32_t)len);
		ret = write_full(w->fd, unit, UNIT_HDR + len);
	}
	/* close() reports errors of a file system that writes back late. */
	if (close(w->fd) && !ret)
		ret = -errno;
	free(w->buf);
	free(w);
	return ret;
}
