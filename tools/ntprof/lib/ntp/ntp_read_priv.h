/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the .ntp reader's files share: the open file, the cursor that
 * walks a header or a trailer, and the helpers that fail with a message.
 * ntp_read_header.c reads the header and the tables that the header and
 * the trailer have alike; ntp_read.c the units after it. Not for use
 * outside lib/ntp.
 */
#ifndef NTPROF_NTP_READ_PRIV_H
#define NTPROF_NTP_READ_PRIV_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ntp/ntp.h"
#include "ntp/ntp_layout.h"

struct ntp_file {
	int fd;
	int err;		/* sticky: the first failure */
	bool fast;		/* the disk records are our struct's bytes */
	bool compact;		/* 2.x: compact records (crec.h) */
	bool at_end;
	bool has_trailer;
	uint64_t size;		/* as fstat() saw it at ntp_open() */
	uint64_t off;		/* the next unit */
	uint32_t seq;		/* ... and its number */
	uint64_t records;	/* records handed out */
	uint64_t discarded;
	struct ntp_header hdr;
	struct ntp_hook *hooks;
	struct ntp_dev *devs;
	struct ntp_dev *late_devs;	/* the trailer's (since 1.2) */
	struct ntp_hook *late_hooks;	/* the trailer's (since 1.3) */
	struct ntp_ctrl *ctrls;
	struct ntp_trailer trailer;
	uint8_t *buf;		/* a block's payload */
	size_t buf_size;
	struct ntp_event *events;	/* the events units' (since 2.2) */
	size_t nr_events;
	size_t events_size;
	uint64_t event_drops;
	struct ntprof_record *recs;	/* a decoded block, when not fast */
	size_t recs_size;
	char msg[PATH_MAX + 256];	/* room for any path and the why */
	char path[];
};

/* A cursor that walks the variable part of the header or the trailer. */
struct cursor {
	const uint8_t *p;
	size_t left;
};

/*
 * take() - return the next @n bytes at @c and move past them, or NULL if
 * fewer than @n bytes are left.
 */
static inline const uint8_t *take(struct cursor *c, size_t n)
{
	const uint8_t *p = c->p;

	if (n > c->left)
		return NULL;
	c->p += n;
	c->left -= n;
	return p;
}

/*
 * ntp_file_since() - tell whether @f's version has what version
 * @major.@minor brought (see ntp_since()).
 */
static inline bool ntp_file_since(const struct ntp_file *f,
				  unsigned int major, unsigned int minor)
{
	return ntp_since(f->hdr.version_major, f->hdr.version_minor, major,
			 minor);
}

/*
 * ntp_fail() - set f->msg to the path and the message, and return @err.
 * The error sticks: later reads of @f fail with it.
 */
__attribute__((format(printf, 3, 4)))
int ntp_fail(struct ntp_file *f, int err, const char *fmt, ...);
/*
 * ntp_pread_full() - read up to @len bytes at @off; it returns fewer only
 * at the end of the file.
 */
ssize_t ntp_pread_full(int fd, void *buf, size_t len, uint64_t off);
/*
 * ntp_read_error() - fail @f with the read error @err, a -errno that
 * ntp_pread_full() returned.
 */
int ntp_read_error(struct ntp_file *f, ssize_t err);

/*
 * ntp_header_read() - read the header from offset 0, and leave f->off at
 * the first unit.
 */
int ntp_header_read(struct ntp_file *f);

/* What a table holds: the header's hooks, devices and controllers. */
struct ntp_table;
extern const struct ntp_table ntp_hook_table, ntp_dev_table;

/*
 * ntp_table_parse() - parse the table at @c, in the header or in the
 * trailer (which has devices since 1.2 and hooks since 1.3); @where names
 * the table in messages. It returns the entries in a new array and their
 * count in *@nr_out. It returns NULL when there are no entries or on a
 * failure, which f->err then holds.
 */
void *ntp_table_parse(struct ntp_file *f, struct cursor *c, const char *where,
		      const struct ntp_table *t, uint32_t *nr_out);

/*
 * ntp_events_parse() - parse the payload @p of an events unit, @len bytes
 * holding @count events, of the unit numbered @seq at @off, and append its
 * events to f->events. It returns 1 or an error (ntp_read_events.c).
 */
int ntp_events_parse(struct ntp_file *f, const uint8_t *p, uint32_t count,
		     uint32_t len, uint32_t seq, uint64_t off);

#endif /* NTPROF_NTP_READ_PRIV_H */
