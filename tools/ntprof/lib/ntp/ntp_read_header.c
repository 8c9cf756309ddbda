// SPDX-License-Identifier: GPL-2.0
/*
 * The .ntp reader's header: its fixed part, strings and tables, and the
 * hook and device tables that the trailer has too. Every count and length
 * is checked against its cap and the bytes left before it is used
 * (Documentation/ntp-format.rst, "Reading, and what is an error").
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/escape.h"
#include "ntp/ntp.h"
#include "ntp/ntp_layout.h"
#include "ntp/ntp_read_priv.h"

/*
 * str_set() - copy a string of the file into @dst with its bytes outside
 * printable ASCII escaped (common/escape.h). The strings of a file are
 * whatever its writer put there, and escaping them means that nothing the
 * tool prints from a recording can drive a terminal. A string whose escaped
 * form is longer than its field is cut, and ends in "...".
 */
static void str_set(char *dst, size_t max, const uint8_t *p, size_t len)
{
	ntprof_escape(dst, max + 1, p, len);
}

/* get_str() - read a string of the header's variable part. */
static int get_str(struct ntp_file *f, struct cursor *c, const char *what,
		   char *dst, size_t max)
{
	const uint8_t *p = take(c, 2);
	uint16_t len;

	if (!p)
		return ntp_fail(f, -EBADMSG, "header: %s overruns the header",
				what);
	len = get16(p);
	if (len > max)
		return ntp_fail(f, -EBADMSG,
				"header: %s is %u bytes, more than %zu",
				what, len, max);
	p = take(c, len);
	if (!p)
		return ntp_fail(f, -EBADMSG, "header: %s overruns the header",
				what);
	if (memchr(p, 0, len))
		return ntp_fail(f, -EBADMSG, "header: %s contains a NUL byte",
				what);
	str_set(dst, max, p, len);
	return 0;
}

/* An entry of a table, whole within it, for the table's parse(). */
struct entry {
	const char *where;	/* "header" or "trailer", in messages */
	const char *what;
	uint32_t i;		/* its index */
	const uint8_t *p;	/* its bytes, from its entry_len */
	uint32_t len;
};

/*
 * A table of the header or the trailer: a u32 count, then entries that
 * each start with their length, which a newer minor may make longer.
 */
struct ntp_table {
	const char *what;	/* an entry, in messages: "hook" */
	uint32_t max;		/* entries at most */
	uint32_t fixed;		/* bytes of an entry with empty strings */
	size_t size;		/* of the struct an entry fills */
	/* Fills @dst from entry @e. */
	int (*parse)(struct ntp_file *f, const struct entry *e, void *dst);
};

/*
 * table_walk() - read the table's entries into *@all, a new array, and their
 * count into *@nr.
 */
static int table_walk(struct ntp_file *f, struct cursor *c,
		      const struct ntp_table *t, struct entry *e,
		      uint8_t **all, uint32_t *nr)
{
	const uint8_t *p = take(c, 4);
	int ret;

	if (!p)
		return ntp_fail(f, -EBADMSG, "%s: %s count overruns the %s",
				e->where, e->what, e->where);
	*nr = get32(p);
	if (*nr > t->max)
		return ntp_fail(f, -EBADMSG, "%s: %u %ss, more than %u",
				e->where, *nr, e->what, t->max);
	/* Check the count against the bytes before allocating for it. */
	if ((uint64_t)*nr * t->fixed > c->left)
		return ntp_fail(f, -EBADMSG, "%s: %u %ss overrun the %s",
				e->where, *nr, e->what, e->where);
	if (!*nr)
		return 0;
	*all = calloc(*nr, t->size);
	if (!*all)
		return ntp_fail(f, -ENOMEM, "out of memory");
	for (e->i = 0; e->i < *nr; e->i++) {
		e->p = take(c, 2);
		if (!e->p)
			return ntp_fail(f, -EBADMSG,
					"%s: %s %u overruns the %s",
					e->where, e->what, e->i, e->where);
		e->len = get16(e->p + NTP_ENTRY_OFF_ENTRY_LEN);
		if (e->len < t->fixed)
			return ntp_fail(f, -EBADMSG,
					"%s: %s %u: entry length %u is too short",
					e->where, e->what, e->i, e->len);
		/* The entry's own length field is already taken. */
		if (!take(c, e->len - 2))
			return ntp_fail(f, -EBADMSG,
					"%s: %s %u overruns the %s",
					e->where, e->what, e->i, e->where);
		ret = t->parse(f, e, *all + (size_t)e->i * t->size);
		if (ret)
			return ret;
	}
	return 0;
}

void *ntp_table_parse(struct ntp_file *f, struct cursor *c, const char *where,
		      const struct ntp_table *t, uint32_t *nr_out)
{
	struct entry e = { .where = where, .what = t->what };
	uint8_t *all = NULL;
	uint32_t nr;

	if (table_walk(f, c, t, &e, &all, &nr)) {
		free(all);
		return NULL;
	}
	*nr_out = nr;
	return all;
}

/*
 * entry_name() - read the name of entry @e, whose length is at @off and
 * whose bytes follow it, into @dst, which has room for @max bytes and a NUL.
 * Bytes after the name are fields of a newer minor, and are skipped.
 */
static int entry_name(struct ntp_file *f, const struct entry *e, size_t off,
		      uint32_t max, char *dst)
{
	uint32_t name = get16(e->p + off);

	if (name > e->len - (off + 2))
		return ntp_fail(f, -EBADMSG,
				"%s: %s %u: name overruns its entry",
				e->where, e->what, e->i);
	if (name > max)
		return ntp_fail(f, -EBADMSG,
				"%s: %s %u: name is %u bytes, more than %u",
				e->where, e->what, e->i, name, max);
	if (memchr(e->p + off + 2, 0, name))
		return ntp_fail(f, -EBADMSG,
				"%s: %s %u: name contains a NUL byte",
				e->where, e->what, e->i);
	str_set(dst, max, e->p + off + 2, name);
	return 0;
}

static int hook_parse(struct ntp_file *f, const struct entry *e, void *dst)
{
	struct ntp_hook *h = dst;

	h->kind = e->p[NTP_HOOK_OFF_KIND];
	h->role = e->p[NTP_HOOK_OFF_ROLE];
	h->transport = e->p[NTP_HOOK_OFF_TRANSPORT];
	h->point = e->p[NTP_HOOK_OFF_POINT];
	h->required = e->p[NTP_HOOK_OFF_REQUIRED];
	h->state = e->p[NTP_HOOK_OFF_STATE];
	return entry_name(f, e, NTP_HOOK_OFF_NAME_LEN, NTP_HOOK_NAME_MAX,
			  h->name);
}

const struct ntp_table ntp_hook_table = {
	"hook", NTP_HOOKS_MAX, HOOK_FIXED, sizeof(struct ntp_hook), hook_parse
};

static int dev_parse(struct ntp_file *f, const struct entry *e, void *dst)
{
	struct ntp_dev *d = dst;

	d->dev = get32(e->p + NTP_DEV_OFF_DEV);
	return entry_name(f, e, NTP_DEV_OFF_NAME_LEN, NTP_DEV_NAME_MAX,
			  d->name);
}

const struct ntp_table ntp_dev_table = {
	"device", NTP_DEVS_MAX, DEV_FIXED, sizeof(struct ntp_dev), dev_parse
};

/* ctrl_str() - read a string of controller entry @e from its bytes in @c. */
static int ctrl_str(struct ntp_file *f, const struct entry *e,
		    struct cursor *c, const char *what, char *dst, size_t max)
{
	const uint8_t *p = take(c, 2);
	uint16_t len;

	if (!p)
		return ntp_fail(f, -EBADMSG, "%s: %s %u: %s overruns its entry",
				e->where, e->what, e->i, what);
	len = get16(p);
	p = take(c, len);
	if (!p)
		return ntp_fail(f, -EBADMSG, "%s: %s %u: %s overruns its entry",
				e->where, e->what, e->i, what);
	if (len > max)
		return ntp_fail(f, -EBADMSG,
				"%s: %s %u: %s is %u bytes, more than %zu",
				e->where, e->what, e->i, what, len, max);
	if (memchr(p, 0, len))
		return ntp_fail(f, -EBADMSG,
				"%s: %s %u: %s contains a NUL byte",
				e->where, e->what, e->i, what);
	str_set(dst, max, p, len);
	return 0;
}

static int ctrl_parse(struct ntp_file *f, const struct entry *e, void *dst)
{
	/* The strings, within the entry; what follows is skipped. */
	struct cursor s = {
		e->p + NTP_CTRL_OFF_NAME, e->len - NTP_CTRL_OFF_NAME
	};
	struct ntp_ctrl *x = dst;
	int ret;

	x->dev = get32(e->p + NTP_CTRL_OFF_DEV);
	x->nsid = get32(e->p + NTP_CTRL_OFF_NSID);
	x->cntlid = get16(e->p + NTP_CTRL_OFF_CNTLID);
	x->transport = e->p[NTP_CTRL_OFF_TRANSPORT];
	ret = ctrl_str(f, e, &s, "name", x->name, NTP_CTRL_NAME_MAX);
	if (!ret)
		ret = ctrl_str(f, e, &s, "subsystem NQN", x->subsysnqn,
			       NTP_NQN_MAX);
	if (!ret)
		ret = ctrl_str(f, e, &s, "address", x->address, NTP_ADDR_MAX);
	return ret;
}

static const struct ntp_table ctrl_table = {
	"controller", NTP_CTRLS_MAX, CTRL_FIXED, sizeof(struct ntp_ctrl),
	ctrl_parse
};

/*
 * header_part() - read, since 1.4, which part of a rotated recording the
 * file is. A part numbered 0 is not a part, whatever its start says.
 */
static int header_part(struct ntp_file *f, struct cursor *c)
{
	const uint8_t *p = take(c, HDR_PART_SIZE);

	if (!p)
		return ntp_fail(f, -EBADMSG, "header: part number truncated");
	f->hdr.part = get32(p);
	f->hdr.part_start_mono_ns = f->hdr.part ? get64(p + 4) : 0;
	return 0;
}

/*
 * header_chain() - read, since 2.1, the session's sampling rule: 1 for the
 * chain rule (the uapi header's ntprof_chain_hash()) with the LBA offset
 * that it subtracted, 0 for the hop rule. Any other rule is refused, because
 * this reader could not redo it, and a report that took it for either rule
 * would link commands wrongly.
 */
static int header_chain(struct ntp_file *f, struct cursor *c)
{
	const uint8_t *p = take(c, HDR_CHAIN_SIZE);

	if (!p)
		return ntp_fail(f, -EBADMSG, "header: chain rule truncated");
	f->hdr.chain = p[NTP_CHAIN_OFF_CHAIN];
	if (f->hdr.chain > 1)
		return ntp_fail(f, -EBADMSG,
				"header: sampling rule %u is unknown (0: hop, 1: chain)",
				f->hdr.chain);
	f->hdr.chain_offset = f->hdr.chain ?
		get64(p + NTP_CHAIN_OFF_CHAIN_OFFSET) : 0;
	return 0;
}

/*
 * header_record_size() - check the record size: in 1.x, records of a fixed
 * size of at least 1.0's (a newer minor's fields come after 1.0's); from 2.0
 * on, compact records, each of its own size.
 */
static int header_record_size(struct ntp_file *f)
{
	uint32_t size = f->hdr.record_size;

	if (f->hdr.version_major >= 2) {
		if (size)
			return ntp_fail(f, -EBADMSG,
					"header: record size %u in format %u, whose records are compact (0)",
					size, f->hdr.version_major);
		f->compact = true;
		return 0;
	}
	if (size < NTP_RECORD_SIZE)
		return ntp_fail(f, -EBADMSG,
				"header: record size %u is less than %u",
				size, NTP_RECORD_SIZE);
	if (size > RECORD_SIZE_MAX)
		return ntp_fail(f, -EBADMSG,
				"header: record size %u is more than %u",
				size, RECORD_SIZE_MAX);
	f->fast = HOST_IS_LE && size == sizeof(struct ntprof_record);
	return 0;
}

/*
 * header_parse() - parse the header's fields, once the checksum has vouched
 * for its bytes.
 */
static int header_parse(struct ntp_file *f, const uint8_t *buf, uint32_t len)
{
	struct ntp_header *h = &f->hdr;
	struct cursor c = { buf + HDR_FIXED, len - HDR_FIXED - HDR_CRC_SIZE };
	int ret;

	h->version_major = get16(buf + NTP_HDR_OFF_VERSION_MAJOR);
	h->version_minor = get16(buf + NTP_HDR_OFF_VERSION_MINOR);
	h->record_size = get32(buf + NTP_HDR_OFF_RECORD_SIZE);
	h->sample = get32(buf + NTP_HDR_OFF_SAMPLE);
	h->role = buf[NTP_HDR_OFF_ROLE];
	h->transport = buf[NTP_HDR_OFF_TRANSPORT];
	h->nr_cpus = get32(buf + NTP_HDR_OFF_NR_CPUS);
	h->start_mono_ns = get64(buf + NTP_HDR_OFF_START_MONO_NS);
	h->start_real_ns = get64(buf + NTP_HDR_OFF_START_REAL_NS);
	ret = header_record_size(f);
	if (ret)
		return ret;

	ret = get_str(f, &c, "hostname", h->hostname, NTP_HOSTNAME_MAX);
	if (!ret)
		ret = get_str(f, &c, "kernel release", h->kernel_release,
			      NTP_RELEASE_MAX);
	if (!ret)
		ret = get_str(f, &c, "boot id", h->boot_id, NTP_BOOT_ID_MAX);
	if (!ret)
		ret = get_str(f, &c, "tool version", h->tool_version,
			      NTP_TOOL_VERSION_MAX);
	if (ret)
		return ret;
	f->hooks = ntp_table_parse(f, &c, "header", &ntp_hook_table,
				   &h->nr_hooks);
	h->hooks = f->hooks;
	/* 1.0 ends here: a 1.0 file's later bytes are not a device table. */
	if (!f->err && ntp_file_since(f, 1, 1)) {
		f->devs = ntp_table_parse(f, &c, "header", &ntp_dev_table,
					  &h->nr_devs);
		h->devs = f->devs;
	}
	if (!f->err && ntp_file_since(f, 1, 1)) {
		f->ctrls = ntp_table_parse(f, &c, "header", &ctrl_table,
					   &h->nr_ctrls);
		h->ctrls = f->ctrls;
	}
	if (!f->err && ntp_file_since(f, 1, 4))
		header_part(f, &c);
	if (!f->err && ntp_file_since(f, 2, 1))
		header_chain(f, &c);
	/* What is left before the checksum is a newer minor's: skipped. */
	return f->err;
}

int ntp_header_read(struct ntp_file *f)
{
	uint8_t start[HDR_STABLE], *buf;
	uint16_t major;
	uint32_t len;
	size_t magic;
	ssize_t n;
	int ret;

	if (f->size == 0)
		return ntp_fail(f, -EBADMSG, "empty file, not an ntprof recording");
	n = ntp_pread_full(f->fd, start, sizeof(start), 0);
	if (n < 0)
		return ntp_read_error(f, n);
	magic = n < (ssize_t)sizeof(ntp_magic) ? (size_t)n : sizeof(ntp_magic);
	if (memcmp(start + NTP_HDR_OFF_MAGIC, ntp_magic, magic))
		return ntp_fail(f, -EBADMSG, "not an ntprof recording (bad magic)");
	if (n < (ssize_t)sizeof(start))
		return ntp_fail(f, -EBADMSG, "header truncated");
	/* Magic, major, minor and length keep their places in all majors. */
	major = get16(start + NTP_HDR_OFF_VERSION_MAJOR);
	len = get32(start + NTP_HDR_OFF_HEADER_LEN);
	if (major > NTP_VERSION_MAJOR)
		return ntp_fail(f, -ENOTSUP,
				"format version %u is newer than this tool reads (%u)",
				major, NTP_VERSION_MAJOR);
	if (major < 1)
		return ntp_fail(f, -EBADMSG, "format version %u does not exist",
				major);
	if (len < HDR_MIN)
		return ntp_fail(f, -EBADMSG, "header length %u is too short", len);
	if (len > HDR_MAX)
		return ntp_fail(f, -EBADMSG, "header length %u is too long", len);
	if (len > f->size)
		return ntp_fail(f, -EBADMSG, "header truncated");

	buf = malloc(len);
	if (!buf)
		return ntp_fail(f, -ENOMEM, "out of memory");
	n = ntp_pread_full(f->fd, buf, len, 0);
	if (n < 0)
		ret = ntp_read_error(f, n);
	else if (n < len)
		ret = ntp_fail(f, -EBADMSG, "header truncated");
	else if (!crc_matches(crc(buf, len - HDR_CRC_SIZE),
			      get32(buf + len - HDR_CRC_SIZE)))
		ret = ntp_fail(f, -EBADMSG, "header checksum mismatch");
	else
		ret = header_parse(f, buf, len);
	free(buf);
	f->off = len;
	return ret;
}

