// SPDX-License-Identifier: GPL-2.0
/*
 * The .ntp recording format's writer: the header, blocks of records and
 * the trailer, each unit written with one write() so that a writer killed
 * at any moment leaves whole units (Documentation/ntp-format.rst).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ntp/crec.h"
#include "ntp/ntp.h"
#include "ntp/ntp_layout.h"

/*
 * On a little-endian machine the 1.x disk record is struct ntprof_record
 * byte for byte, so records are copied; these make sure the uapi
 * header's layout never drifts from the one the format documents.
 */
#define ntp_rec_at(field, off) \
	_Static_assert(offsetof(struct ntprof_record, field) == (off), \
		       "struct ntprof_record." #field " moved")
ntp_rec_at(role, NTP_REC_OFF_ROLE);
ntp_rec_at(transport, NTP_REC_OFF_TRANSPORT);
ntp_rec_at(opcode, NTP_REC_OFF_OPCODE);
ntp_rec_at(flags, NTP_REC_OFF_FLAGS);
ntp_rec_at(qid, NTP_REC_OFF_QID);
ntp_rec_at(cid, NTP_REC_OFF_CID);
ntp_rec_at(nsid, NTP_REC_OFF_NSID);
ntp_rec_at(length, NTP_REC_OFF_LENGTH);
ntp_rec_at(slba, NTP_REC_OFF_SLBA);
ntp_rec_at(status, NTP_REC_OFF_STATUS);
ntp_rec_at(cntlid, NTP_REC_OFF_CNTLID);
ntp_rec_at(cpu_submit, NTP_REC_OFF_CPU_SUBMIT);
ntp_rec_at(cpu_complete, NTP_REC_OFF_CPU_COMPLETE);
ntp_rec_at(dev, NTP_REC_OFF_DEV);
ntp_rec_at(pid, NTP_REC_OFF_PID);
ntp_rec_at(ts, NTP_REC_OFF_TS);
_Static_assert(sizeof(struct ntprof_record) == NTP_RECORD_SIZE,
	       "struct ntprof_record changed size: a new format minor is due");

void ntp_record_encode(void *buf, const struct ntprof_record *rec)
{
	uint8_t *p = buf;
	int i;

	ident_put(p, rec);
	put32(p + NTP_REC_OFF_PID, rec->pid);
	for (i = 0; i < NTPROF_RECORD_POINTS; i++)
		put64(p + NTP_REC_OFF_TS + 8 * i, rec->ts[i]);
}

static void unit_seal(uint8_t *unit, const uint8_t tag[4], uint32_t seq,
		      uint32_t count, uint32_t len)
{
	memcpy(unit + NTP_UNIT_OFF_TAG, tag, 4);
	put32(unit + NTP_UNIT_OFF_SEQ, seq);
	put32(unit + NTP_UNIT_OFF_COUNT, count);
	put32(unit + NTP_UNIT_OFF_LENGTH, len);
	put32(unit + NTP_UNIT_OFF_PAYLOAD_CRC, crc(unit + UNIT_HDR, len));
	put32(unit + NTP_UNIT_OFF_HEADER_CRC,
	      crc(unit, NTP_UNIT_OFF_HEADER_CRC));
}

/* Writer */

struct ntp_writer {
	int fd;
	int err;		/* the first failure; every call returns it */
	unsigned int major;	/* the format written */
	unsigned int minor;
	uint32_t seq;		/* the next unit's number */
	uint64_t records;
	uint64_t size;		/* bytes written */
	size_t nbuf;		/* records in buf */
	size_t nbytes;		/* ... and their bytes */
	uint8_t *buf;		/* unit header, NTP_BLOCK_RECORDS records */
	char path[];
};

/* A block's room: NTP_BLOCK_RECORDS of the largest records of any form. */
#define BLOCK_ROOM	(NTP_BLOCK_RECORDS * \
			 (NTPROF_CREC_MAX > NTP_RECORD_SIZE ? \
			  NTPROF_CREC_MAX : NTP_RECORD_SIZE))

/*
 * write_full() - write @len bytes. A short write is retried so that the
 * second write() says why (ENOSPC, EFBIG); a write that makes no progress at
 * all is an I/O error.
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

/*
 * str_len() - return the length of @s, or -1 if it does not end within @size
 * bytes.
 */
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

/*
 * hook_put() - write a hook entry at @p, as the header and (since 1.3) the
 * trailer hold them.
 */
static uint8_t *hook_put(uint8_t *p, const struct ntp_hook *h)
{
	put16(p + NTP_ENTRY_OFF_ENTRY_LEN, HOOK_FIXED + strlen(h->name));
	p[NTP_HOOK_OFF_KIND] = h->kind;
	p[NTP_HOOK_OFF_ROLE] = h->role;
	p[NTP_HOOK_OFF_TRANSPORT] = h->transport;
	p[NTP_HOOK_OFF_POINT] = h->point;
	p[NTP_HOOK_OFF_REQUIRED] = h->required;
	p[NTP_HOOK_OFF_STATE] = h->state;
	return put_str(p + NTP_HOOK_OFF_NAME_LEN, h->name);
}

/*
 * dev_put() - write a device entry at @p, as the header and (since 1.2) the
 * trailer hold them.
 */
static uint8_t *dev_put(uint8_t *p, const struct ntp_dev *d, size_t name_len)
{
	put16(p + NTP_ENTRY_OFF_ENTRY_LEN, DEV_FIXED + name_len);
	put32(p + NTP_DEV_OFF_DEV, d->dev);
	put16(p + NTP_DEV_OFF_NAME_LEN, name_len);
	memcpy(p + NTP_DEV_OFF_NAME, d->name, name_len);
	return p + DEV_FIXED + name_len;
}

static uint8_t *ctrl_put(uint8_t *p, const struct ntp_ctrl *c)
{
	put16(p + NTP_ENTRY_OFF_ENTRY_LEN, CTRL_FIXED + strlen(c->name) +
	      strlen(c->subsysnqn) + strlen(c->address));
	put32(p + NTP_CTRL_OFF_DEV, c->dev);
	put32(p + NTP_CTRL_OFF_NSID, c->nsid);
	put16(p + NTP_CTRL_OFF_CNTLID, c->cntlid);
	p[NTP_CTRL_OFF_TRANSPORT] = c->transport;
	p = put_str(p + NTP_CTRL_OFF_NAME, c->name);
	p = put_str(p, c->subsysnqn);
	return put_str(p, c->address);
}

/*
 * size_add() - add @fixed and the length of string @s to *@len. It returns
 * false if @s does not end within its @size bytes.
 */
static bool size_add(size_t *len, size_t fixed, const char *s, size_t size)
{
	long l = str_len(s, size);

	if (l < 0)
		return false;
	*len += fixed + l;
	return true;
}

/*
 * w_since() - tell whether the file that @w writes has what version
 * @major.@minor brought.
 */
static bool w_since(const struct ntp_writer *w, unsigned int major,
		    unsigned int minor)
{
	return ntp_since(w->major, w->minor, major, minor);
}

/*
 * header_len() - return the length of @hdr encoded in @w's format, or 0 if
 * the format cannot hold it. 1.0 has no device or controller table; 1.4
 * brought the part, and 2.1 the chain rule.
 */
static size_t header_len(const struct ntp_writer *w,
			 const struct ntp_header *hdr)
{
	/* The fixed part, the hooks' count, the CRC */
	size_t len = HDR_FIXED + 4 + HDR_CRC_SIZE, i;

	if (hdr->nr_hooks > NTP_HOOKS_MAX || (hdr->nr_hooks && !hdr->hooks) ||
	    hdr->nr_devs > NTP_DEVS_MAX || (hdr->nr_devs && !hdr->devs) ||
	    hdr->nr_ctrls > NTP_CTRLS_MAX || (hdr->nr_ctrls && !hdr->ctrls))
		return 0;
	if (!size_add(&len, 2, hdr->hostname, sizeof(hdr->hostname)) ||
	    !size_add(&len, 2, hdr->kernel_release,
		      sizeof(hdr->kernel_release)) ||
	    !size_add(&len, 2, hdr->boot_id, sizeof(hdr->boot_id)) ||
	    !size_add(&len, 2, hdr->tool_version, sizeof(hdr->tool_version)))
		return 0;
	for (i = 0; i < hdr->nr_hooks; i++)
		if (!size_add(&len, HOOK_FIXED, hdr->hooks[i].name,
			      sizeof(hdr->hooks[i].name)))
			return 0;
	if (w_since(w, 1, 4))
		len += HDR_PART_SIZE;
	if (w_since(w, 2, 1))
		len += HDR_CHAIN_SIZE;
	if (!w_since(w, 1, 1))
		return len <= HDR_MAX ? len : 0;
	len += 2 * 4;
	for (i = 0; i < hdr->nr_devs; i++)
		if (!size_add(&len, DEV_FIXED, hdr->devs[i].name,
			      sizeof(hdr->devs[i].name)))
			return 0;
	for (i = 0; i < hdr->nr_ctrls; i++) {
		const struct ntp_ctrl *c = &hdr->ctrls[i];

		if (!size_add(&len, CTRL_FIXED, c->name, sizeof(c->name)) ||
		    !size_add(&len, 0, c->subsysnqn, sizeof(c->subsysnqn)) ||
		    !size_add(&len, 0, c->address, sizeof(c->address)))
			return 0;
	}
	/* Full tables of the longest entries would not fit in a header. */
	return len <= HDR_MAX ? len : 0;
}

/*
 * header_fixed_put() - write the header's fixed part, for a header of @len
 * bytes, at @buf.
 */
static uint8_t *header_fixed_put(const struct ntp_writer *w, uint8_t *buf,
				 const struct ntp_header *hdr, size_t len)
{
	memcpy(buf + NTP_HDR_OFF_MAGIC, ntp_magic, sizeof(ntp_magic));
	put16(buf + NTP_HDR_OFF_VERSION_MAJOR, w->major);
	put16(buf + NTP_HDR_OFF_VERSION_MINOR, w->minor);
	put32(buf + NTP_HDR_OFF_HEADER_LEN, len);
	/* 2.0: each record says its size. */
	put32(buf + NTP_HDR_OFF_RECORD_SIZE,
	      w_since(w, 2, 0) ? 0 : NTP_RECORD_SIZE);
	put32(buf + NTP_HDR_OFF_SAMPLE, hdr->sample);
	buf[NTP_HDR_OFF_ROLE] = hdr->role;
	buf[NTP_HDR_OFF_TRANSPORT] = hdr->transport;
	/* The reserved bytes stay zero, from calloc(). */
	put32(buf + NTP_HDR_OFF_NR_CPUS, hdr->nr_cpus);
	put64(buf + NTP_HDR_OFF_START_MONO_NS, hdr->start_mono_ns);
	put64(buf + NTP_HDR_OFF_START_REAL_NS, hdr->start_real_ns);
	return buf + HDR_FIXED;
}

/*
 * header_tables_put() - write the hook, device and controller tables at @p,
 * then 1.4's part fields and 2.1's chain, as far as @w's format has them. It
 * returns their end.
 */
static uint8_t *header_tables_put(const struct ntp_writer *w, uint8_t *p,
				  const struct ntp_header *hdr)
{
	size_t i;

	put32(p, hdr->nr_hooks);
	p += 4;
	for (i = 0; i < hdr->nr_hooks; i++)
		p = hook_put(p, &hdr->hooks[i]);
	if (!w_since(w, 1, 1))
		return p;
	put32(p, hdr->nr_devs);
	p += 4;
	for (i = 0; i < hdr->nr_devs; i++)
		p = dev_put(p, &hdr->devs[i], strlen(hdr->devs[i].name));
	put32(p, hdr->nr_ctrls);
	p += 4;
	for (i = 0; i < hdr->nr_ctrls; i++)
		p = ctrl_put(p, &hdr->ctrls[i]);
	if (!w_since(w, 1, 4))
		return p;
	put32(p, hdr->part);
	put64(p + 4, hdr->part ? hdr->part_start_mono_ns : 0);
	p += HDR_PART_SIZE;
	if (!w_since(w, 2, 1))
		return p;
	/* The reserved bytes stay zero, from calloc(). */
	p[NTP_CHAIN_OFF_CHAIN] = hdr->chain;
	put64(p + NTP_CHAIN_OFF_CHAIN_OFFSET,
	      hdr->chain ? hdr->chain_offset : 0);
	return p + HDR_CHAIN_SIZE;
}

/*
 * header_encode() - return the encoded header, with its length in @lenp, or
 * NULL with errno set.
 */
static uint8_t *header_encode(const struct ntp_writer *w,
			      const struct ntp_header *hdr, size_t *lenp)
{
	size_t len = header_len(w, hdr);
	uint8_t *buf, *p;

	if (!len) {
		errno = EINVAL;
		return NULL;
	}
	buf = calloc(1, len);
	if (!buf)
		return NULL;
	p = header_fixed_put(w, buf, hdr, len);
	p = put_str(p, hdr->hostname);
	p = put_str(p, hdr->kernel_release);
	p = put_str(p, hdr->boot_id);
	p = put_str(p, hdr->tool_version);
	p = header_tables_put(w, p, hdr);
	put32(p, crc(buf, len - HDR_CRC_SIZE));
	*lenp = len;
	return buf;
}

/*
 * format_known() - tell whether the writer writes version @major.@minor:
 * this version, and 1.x and 2.0 for the tests.
 */
static bool format_known(unsigned int major, unsigned int minor)
{
	return (major == NTP_VERSION_MAJOR && minor <= NTP_VERSION_MINOR) ||
	       (major == 1 && minor <= 4);
}

int ntp_writer_open_format(const char *path, const struct ntp_header *hdr,
			   unsigned int major, unsigned int minor,
			   struct ntp_writer **wp)
{
	struct ntp_writer *w;
	uint8_t *head = NULL;
	size_t len;
	int ret;

	if (!format_known(major, minor))
		return -EINVAL;
	w = calloc(1, sizeof(*w) + strlen(path) + 1);	/* zeroed: path's NUL */
	if (!w)
		return -ENOMEM;
	w->major = major;
	w->minor = minor;
	head = header_encode(w, hdr, &len);
	if (!head) {
		ret = -errno;
		goto fail;
	}
	w->buf = malloc(UNIT_HDR + BLOCK_ROOM);
	if (!w->buf) {
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
	w->size = len;
	*wp = w;
	return 0;
fail:
	free(w->buf);
	free(w);
	free(head);
	return ret;
}

int ntp_writer_open(const char *path, const struct ntp_header *hdr,
		    struct ntp_writer **wp)
{
	return ntp_writer_open_format(path, hdr, NTP_VERSION_MAJOR,
				      NTP_VERSION_MINOR, wp);
}

const char *ntp_writer_path(const struct ntp_writer *w)
{
	return w->path;
}

uint64_t ntp_writer_records(const struct ntp_writer *w)
{
	return w->records + w->nbuf;
}

uint64_t ntp_writer_size(const struct ntp_writer *w)
{
	return w->size + (w->nbuf ? UNIT_HDR + w->nbytes : 0);
}

int ntp_writer_flush(struct ntp_writer *w)
{
	uint32_t len = w->nbytes;

	if (w->err || !w->nbuf)
		return w->err;
	unit_seal(w->buf, tag_block, w->seq, w->nbuf, len);
	/* One write(): a kill leaves this block whole or cut, not mixed. */
	w->err = write_full(w->fd, w->buf, UNIT_HDR + len);
	if (w->err)
		return w->err;
	w->seq++;
	w->records += w->nbuf;
	w->size += UNIT_HDR + len;
	w->nbuf = 0;
	w->nbytes = 0;
	return 0;
}

int ntp_writer_events(struct ntp_writer *w, const struct ntp_event *ev,
		      size_t n, uint64_t drops)
{
	size_t len, i, k, kept = n;
	uint8_t *unit, *e;
	int ret;

	if (!w_since(w, 2, 2) || n > NTP_EVENTS_MAX)
		return -EINVAL;
	if (!w_since(w, 2, 3))
		for (i = 0; i < n; i++)
			kept -= ev[i].type >= NTPROF_EVENT_CTRL_ATTEMPT;
	len = EVU_FIXED + kept * EV_SIZE;
	ret = ntp_writer_flush(w);
	if (ret)
		return ret;
	unit = calloc(1, UNIT_HDR + len);
	if (!unit)
		return -ENOMEM;
	put64(unit + UNIT_HDR + NTP_EVU_OFF_DROPS, drops);
	for (i = 0, k = 0; i < n; i++) {
		if (!w_since(w, 2, 3) &&
		    ev[i].type >= NTPROF_EVENT_CTRL_ATTEMPT)
			continue;
		e = unit + UNIT_HDR + EVU_FIXED + k++ * EV_SIZE;
		put64(e + NTP_EV_OFF_TIME_MONO_NS, ev[i].time_mono_ns);
		put32(e + NTP_EV_OFF_CTRL, ev[i].ctrl);
		e[NTP_EV_OFF_TYPE] = ev[i].type;
		e[NTP_EV_OFF_OLD_STATE] = ev[i].old_state;
		e[NTP_EV_OFF_NEW_STATE] = ev[i].new_state;
	}
	unit_seal(unit, tag_events, w->seq, (uint32_t)kept, (uint32_t)len);
	/* One write(), as a block: a kill leaves it whole or cut. */
	w->err = write_full(w->fd, unit, UNIT_HDR + len);
	free(unit);
	if (w->err)
		return w->err;
	w->seq++;
	w->size += UNIT_HDR + len;
	return 0;
}

/*
 * block_add() - add @rec at the end of the block, in the form of @w's
 * format. It returns 0 or -ERANGE.
 */
static int block_add(struct ntp_writer *w, const struct ntprof_record *rec)
{
	uint8_t *p = w->buf + UNIT_HDR + w->nbytes;
	uint32_t len;

	if (w->major >= 2) {
		len = crec_encode(p, rec, CREC_LE);
		if (!len)
			return -ERANGE;
	} else {
		if (HOST_IS_LE)
			memcpy(p, rec, NTP_RECORD_SIZE);
		else
			ntp_record_encode(p, rec);
		len = NTP_RECORD_SIZE;
	}
	w->nbytes += len;
	w->nbuf++;
	return 0;
}

int ntp_writer_append(struct ntp_writer *w, const struct ntprof_record *recs,
		      size_t n)
{
	int ret;

	for (; n && !w->err; recs++, n--) {
		ret = block_add(w, recs);
		if (ret)
			return ret;
		if (w->nbuf == NTP_BLOCK_RECORDS) {
			ret = ntp_writer_flush(w);
			if (ret)
				return ret;
		}
	}
	return w->err;
}

bool ntp_writer_takes_crec(const struct ntp_writer *w)
{
	return w->major >= 2 && HOST_IS_LE;
}

int ntp_writer_append_crec(struct ntp_writer *w, const void *crec,
			   uint16_t cntlid)
{
	uint8_t *p = w->buf + UNIT_HDR + w->nbytes;
	struct ntprof_crec c;
	uint32_t len;

	if (w->err)
		return w->err;
	memcpy(&c, crec, sizeof(c));
	len = ntprof_crec_size(&c);
	memcpy(p, crec, len);
	if (cntlid)
		put16(p + NTP_REC_OFF_CNTLID, cntlid);
	w->nbytes += len;
	if (++w->nbuf == NTP_BLOCK_RECORDS)
		return ntp_writer_flush(w);
	return 0;
}

/*
 * late_devs_encode() - write the trailer's device table (since 1.2) at @p,
 * with the @t->late_devs that fit in @room bytes. It returns the table's
 * length.
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
		dev_put(p + len, &t->late_devs[i], l - DEV_FIXED);
		len += l;
		n++;
	}
	put32(p, n);
	return len;
}

/*
 * late_hooks_encode() - write the trailer's hook table (since 1.3) at @p,
 * with the @t->late_hooks that fit in @room bytes. It returns the table's
 * length.
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
		uint8_t *pl = unit + UNIT_HDR;

		put64(pl + NTP_TRL_OFF_RECORDS, w->records);
		put64(pl + NTP_TRL_OFF_DROPS, t->drops);
		put64(pl + NTP_TRL_OFF_EVICTIONS, t->evictions);
		put64(pl + NTP_TRL_OFF_END_MONO_NS, t->end_mono_ns);
		put64(pl + NTP_TRL_OFF_END_REAL_NS, t->end_real_ns);
		/* 40 bytes, as in 1.0 and 1.1, without late devices or hooks. */
		len = TRAILER_SIZE;
		if (w_since(w, 1, 2) &&
		    (t->nr_late_devs ||
		     (t->nr_late_hooks && w_since(w, 1, 3))))
			len += late_devs_encode(unit + UNIT_HDR + len,
						TRAILER_MAX - len, t);
		if (w_since(w, 1, 3) && t->nr_late_hooks)
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
