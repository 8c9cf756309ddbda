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

/* Walks the variable part of the header or the trailer. */
struct cursor {
	const uint8_t *p;
	size_t left;
};

static inline const uint8_t *take(struct cursor *c, size_t n)
{
	const uint8_t *p = c->p;

	if (n > c->left)
		return NULL;
	c->p += n;
	c->left -= n;
	return p;
}

/* Whether @f's version has what @major.@minor brought (ntp_since()). */
static inline bool ntp_file_since(const struct ntp_file *f,
				  unsigned int major, unsigned int minor)
{
	return ntp_since(f->hdr.version_major, f->hdr.version_minor, major,
			 minor);
}

/* Sets f->msg to the path and the message and returns @err, sticky. */
__attribute__((format(printf, 3, 4)))
int ntp_fail(struct ntp_file *f, int err, const char *fmt, ...);
/* Reads up to @len bytes at @off: fewer only at the end of the file. */
ssize_t ntp_pread_full(int fd, void *buf, size_t len, uint64_t off);
int ntp_read_error(struct ntp_file *f, ssize_t err);

/* The header, from offset 0; leaves f->off at the first unit. */
int ntp_header_read(struct ntp_file *f);

/* What a table holds: the header's hooks, devices and controllers. */
struct ntp_table;
extern const struct ntp_table ntp_hook_table, ntp_dev_table;

/*
 * A table at @c, of the header or the trailer (devices since 1.2, hooks
 * since 1.3): @where names it in messages. Returns its entries in a new
 * array, their count in *@nr_out; NULL when there are none or on a
 * failure, which f->err then has.
 */
void *ntp_table_parse(struct ntp_file *f, struct cursor *c, const char *where,
		      const struct ntp_table *t, uint32_t *nr_out);

/*
 * The payload of an events unit, @len bytes holding @count events, the
 * unit numbered @seq at @off: its events after f->events. Returns 1 or
 * an error (ntp_read_events.c).
 */
int ntp_events_parse(struct ntp_file *f, const uint8_t *p, uint32_t count,
		     uint32_t len, uint32_t seq, uint64_t off);

#endif /* NTPROF_NTP_READ_PRIV_H */
