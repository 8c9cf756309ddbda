/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The .ntp recording format: what 'ntprof record' writes, one file per
 * machine and session, and what 'ntprof report' and 'compare' read.
 * Documentation/ntp-format.rst is the normative description of the bytes;
 * this is the C interface to them.
 *
 * The writer turns records into checksummed blocks and writes each block
 * with one write(), so a recorder killed at any moment leaves a file that
 * reads back up to its last whole block. The reader checks every length
 * against its caps and the file's size before it trusts it, and reports
 * each malformed input in one line that names the file.
 */
#ifndef NTPROF_NTP_H
#define NTPROF_NTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uapi/linux/ntprof.h>

/*
 * The format this code writes (2.3: events of connect attempts). It
 * reads every minor of its major, and of major 1 (1.0 to 1.4: the same
 * header, records of a fixed size).
 */
#define NTP_VERSION_MAJOR	2
#define NTP_VERSION_MINOR	3

/*
 * The on-disk size of a record in formats 1.0 to 1.4: struct
 * ntprof_record's. From 2.0 on, blocks hold compact records (crec.h),
 * each of its own size, and the header's record_size is 0.
 */
#define NTP_RECORD_SIZE		232

/*
 * String lengths, in bytes without a terminator: the kernel's own limits
 * for the host name and release (HOST_NAME_MAX, __NEW_UTS_LEN), the length
 * of /proc/sys/kernel/random/boot_id, and room for any git describe.
 */
#define NTP_HOSTNAME_MAX	64
#define NTP_RELEASE_MAX		64
#define NTP_BOOT_ID_MAX		36
#define NTP_TOOL_VERSION_MAX	64
#define NTP_HOOK_NAME_MAX	255
/* Far more hooks than the module has; bounds what a reader allocates. */
#define NTP_HOOKS_MAX		1024
/*
 * A block device's name, as /proc/diskstats gives it (the kernel's own
 * disk names are at most 31 bytes), and far more devices than a machine
 * has: bounds what a reader allocates.
 */
#define NTP_DEV_NAME_MAX	63
#define NTP_DEVS_MAX		4096
/*
 * A controller's or a port's name, an NQN (223 bytes in the NVMe
 * specification, room for more) and a transport address as sysfs shows
 * it; far more controller entries than a machine has.
 */
#define NTP_CTRL_NAME_MAX	63
#define NTP_NQN_MAX		255
#define NTP_ADDR_MAX		255
#define NTP_CTRLS_MAX		4096

/*
 * Records per block the writer buffers: a kill loses at most this many
 * unflushed records, and the reader gets big reads (format 2.0: 80 KiB
 * of a host's TCP reads, at most 236 KiB; 1.x: 232 KiB).
 */
#define NTP_BLOCK_RECORDS	1024

/* A hook as 'ntprof probe' saw it when the recording started. */
struct ntp_hook {
	char name[NTP_HOOK_NAME_MAX + 1];
	uint8_t kind;		/* enum ntprof_hook_kind */
	uint8_t role;		/* enum ntprof_role */
	uint8_t transport;	/* enum ntprof_transport, NONE: both */
	uint8_t point;		/* enum ntprof_point */
	uint8_t required;	/* 1 if recording needs it */
	uint8_t state;		/* enum ntprof_hook_state */
};

/*
 * A name for the device number that records carry in ntprof_record.dev:
 * on a host, a namespace (the hidden path disk nvmeXcYnZ of native NVMe
 * multipath, which the records carry, is named after its head nvmeXnZ);
 * on a target, a backing device. Since format 1.1.
 */
struct ntp_dev {
	uint32_t dev;	/* new_encode_dev() as in ntprof_record.dev */
	char name[NTP_DEV_NAME_MAX + 1];
};

/*
 * Where the commands of a device go, since format 1.1: one entry per
 * controller and namespace on a host, per port, subsystem and namespace
 * on a target. A host record is tied to its entry by its dev (a path
 * disk belongs to one controller); a target record by its dev, nsid and
 * transport, and to its controller by its cntlid, unique on a target.
 */
struct ntp_ctrl {
	/*
	 * Host: the namespace's disk behind the controller (its hidden
	 * path disk with native multipath), as ntprof_record.dev; target:
	 * the namespace's backing device. 0: none or not a block device.
	 */
	uint32_t dev;
	uint32_t nsid;		/* the namespace; 0: none */
	uint16_t cntlid;	/* host: the controller's; target: 0 */
	uint8_t transport;	/* enum ntprof_transport, NONE: another */
	char name[NTP_CTRL_NAME_MAX + 1];	/* "nvme1"; target: "port 2" */
	char subsysnqn[NTP_NQN_MAX + 1];
	/*
	 * Host: the target's, as /sys/class/nvme/nvmeN/address has it
	 * ("traddr=10.0.0.1,trsvcid=4420"); target: the port's own.
	 */
	char address[NTP_ADDR_MAX + 1];
};

/*
 * What a recording is: the machine, the session and the hooks. The
 * strings are NUL-terminated; the reader's, here and in the tables, are
 * printable ASCII, the file's other bytes escaped as \xHH (escape.h in
 * lib/common). Values of the enums come as the module sent them, and a
 * reader must expect ones it does not know.
 */
struct ntp_header {
	/* Filled by the reader; the writer writes its own. */
	uint16_t version_major;
	uint16_t version_minor;
	uint32_t record_size;	/* bytes of one record on disk; 0 from 2.0 */

	uint8_t role;		/* enum ntprof_role */
	uint8_t transport;	/* enum ntprof_transport */
	uint32_t sample;	/* one command in N */
	uint32_t nr_cpus;
	/* The session's start, one instant on two clocks. */
	uint64_t start_mono_ns;	/* CLOCK_MONOTONIC, the records' clock */
	uint64_t start_real_ns;	/* CLOCK_REALTIME */
	char hostname[NTP_HOSTNAME_MAX + 1];
	char kernel_release[NTP_RELEASE_MAX + 1];
	char boot_id[NTP_BOOT_ID_MAX + 1];	/* "" when unknown */
	char tool_version[NTP_TOOL_VERSION_MAX + 1];
	/* The writer's are the caller's; the reader's belong to the file. */
	uint32_t nr_hooks;
	const struct ntp_hook *hooks;
	/* Names of the devices when the recording started; 0 in 1.0 files. */
	uint32_t nr_devs;
	const struct ntp_dev *devs;
	/* Their controllers, subsystems and addresses; 0 in 1.0 files. */
	uint32_t nr_ctrls;
	const struct ntp_ctrl *ctrls;
	/*
	 * Since 1.4: a part of a rotated recording (record --rotate), 1 for
	 * the first; 0 for a recording in one file (and every file before
	 * 1.4). The parts of one recording share the rest of the header:
	 * the session's start, role and machine identify the recording.
	 */
	uint32_t part;
	/* Since 1.4: where a part's records start; 0 when not a part. */
	uint64_t part_start_mono_ns;
	/*
	 * Since 2.1: 1 when the session sampled read, write and write-zeroes
	 * commands by the chain rule (ntprof_chain_hash() of the uapi
	 * header, record --chain), so that every machine along a chain of
	 * NVMe-oF hops picks the same commands; 0 for the hop rule (and
	 * every file before 2.1).
	 */
	uint8_t chain;
	/*
	 * Since 2.1: the LBAs the chain rule subtracted from a command's
	 * SLBA before hashing (md's data_offset, in the device's LBAs); 0
	 * without the chain rule.
	 */
	uint64_t chain_offset;
};

/* How a recording ended, written by ntp_writer_close(). */
struct ntp_trailer {
	uint64_t records;	/* in the blocks; the writer counts them */
	uint64_t drops;		/* records the kernel's buffer dropped */
	uint64_t evictions;	/* in-flight commands evicted, table full */
	uint64_t end_mono_ns;
	uint64_t end_real_ns;
	/*
	 * Since 1.2: the devices that appeared after the start, named when
	 * their first records came; the writer keeps those that fit.
	 */
	const struct ntp_dev *late_devs;
	uint32_t nr_late_devs;
	/*
	 * Since 1.3: the hooks of processes found after the start (an SPDK
	 * program started with the agent while record ran); those that fit.
	 */
	const struct ntp_hook *late_hooks;
	uint32_t nr_late_hooks;
};

/*
 * A control-path event, since 2.2: what happened to a controller while
 * the session recorded (include/uapi/linux/ntprof.h, events-get).
 */
struct ntp_event {
	uint64_t time_mono_ns;	/* CLOCK_MONOTONIC, the records' clock */
	uint32_t ctrl;		/* host: N of nvmeN */
	uint8_t type;		/* enum ntprof_event_type */
	uint8_t old_state;	/* enum ntprof_ctrl_state, of CTRL_STATE */
	uint8_t new_state;	/* ... the state asked for */
};

/* Far more events than a recording has; bounds what a reader allocates. */
#define NTP_EVENTS_MAX		(1U << 20)

/* The writer. Each function that returns an int returns 0 or -errno. */
struct ntp_writer;

/*
 * ntp_writer_open() - create (or truncate) @path and write the header.
 * It returns -EINVAL when a string of @hdr is too long, when @hdr has more
 * than NTP_HOOKS_MAX hooks, NTP_DEVS_MAX devices or NTP_CTRLS_MAX
 * controller entries, or when all of them make a header of more than
 * 1 MiB.
 */
int ntp_writer_open(const char *path, const struct ntp_header *hdr,
		    struct ntp_writer **wp);
/*
 * ntp_writer_open_format() - do what ntp_writer_open() does, in format
 * @major.@minor. The format is 2.0, or an older one for the tests that
 * keep files of every version (1.0 to 1.4). An older format leaves out
 * what its version did not have yet: devices and controllers before 1.1,
 * the trailer's devices before 1.2 and its hooks before 1.3, and the part
 * before 1.4. It returns -EINVAL for a version that it does not write.
 */
int ntp_writer_open_format(const char *path, const struct ntp_header *hdr,
			   unsigned int major, unsigned int minor,
			   struct ntp_writer **wp);
/* ntp_writer_path() - return the path that @w writes, for messages. */
const char *ntp_writer_path(const struct ntp_writer *w);
/*
 * ntp_writer_size() - return the size in bytes that the file will have
 * once the records buffered so far are flushed: the header, the units
 * written and the block being filled.
 */
uint64_t ntp_writer_size(const struct ntp_writer *w);
/*
 * ntp_writer_records() - return the number of records appended so far,
 * including the buffered ones.
 */
uint64_t ntp_writer_records(const struct ntp_writer *w);
/*
 * ntp_writer_append() - copy @n records into the current block and write
 * each block that fills up. After a failed write, every later call fails
 * the same way, because a reader could not read what follows a partial
 * block. In format 2.0, it returns -ERANGE for a record whose points lie
 * 2^63 ns or more apart, which the compact form cannot hold (crec_size()
 * is 0); the records before that one are appended, and the writer
 * remains usable.
 */
int ntp_writer_append(struct ntp_writer *w, const struct ntprof_record *recs,
		      size_t n);

/*
 * ntp_writer_takes_crec() - tell whether @w takes records as the module
 * sends them, compact and in host byte order. It does for a file of
 * format 2.0 on a little-endian host, where those bytes are the file's
 * bytes.
 */
bool ntp_writer_takes_crec(const struct ntp_writer *w);

/*
 * ntp_writer_append_crec() - append the compact record at @crec, as
 * ntp_writer_append() does, with @cntlid in place of the record's own
 * unless @cntlid is 0. The caller must have checked that crec_decode()
 * reads the record from the module's reply without complaint, and may
 * call this only if ntp_writer_takes_crec() is true.
 */
int ntp_writer_append_crec(struct ntp_writer *w, const void *crec,
			   uint16_t cntlid);
/*
 * ntp_writer_events() - flush the records buffered so far, then write @n
 * events and @drops, the kernel's count of events dropped so far, as one
 * events unit. It returns -EINVAL in a format before 2.2, or for more
 * than NTP_EVENTS_MAX events. A file of 2.2 gets none of the event types
 * that 2.3 brought (NTPROF_EVENT_CTRL_ATTEMPT): they are left out.
 */
int ntp_writer_events(struct ntp_writer *w, const struct ntp_event *ev,
		      size_t n, uint64_t drops);
/*
 * ntp_writer_flush() - write the records buffered so far as a (short)
 * block. It does not call fsync().
 */
int ntp_writer_flush(struct ntp_writer *w);
/*
 * ntp_writer_close() - flush, write the trailer @t and close the file.
 * The records field of @t is ignored, because the writer counts the
 * records itself. @w is freed in any case. A NULL @t closes the file
 * without a trailer, as a killed recorder would; error paths use this.
 */
int ntp_writer_close(struct ntp_writer *w, const struct ntp_trailer *t);

/* The reader. */
struct ntp_file;

/*
 * ntp_open() - open a recording and read its header. On failure, it
 * returns -errno and puts a one-line message naming @path in @errbuf:
 * -ENOENT and the like from the system, -EBADMSG for a damaged or
 * foreign file, -ENOTSUP for a newer format. The reader reads the file
 * only up to the size it had when ntp_open() opened it.
 */
int ntp_open(const char *path, struct ntp_file **fp, char *errbuf,
	     size_t errlen);
/* ntp_header() - return the header that ntp_open() read. */
const struct ntp_header *ntp_header(const struct ntp_file *f);
/*
 * ntp_is_recording() - tell whether @path starts with the .ntp magic,
 * that is, whether it is a recording or a part of one, whatever its
 * state. It returns false when the file cannot be read.
 */
bool ntp_is_recording(const char *path);
/*
 * ntp_next_block() - read the next block's records, which stay valid
 * until the next call on @f. It returns 1 for a block, 0 at the end (at
 * the trailer, or where a recording was cut short), or -errno with the
 * message in ntp_error(). Errors stick: later calls return the same
 * error.
 */
int ntp_next_block(struct ntp_file *f, const struct ntprof_record **recs,
		   size_t *n);
/*
 * ntp_read_all() - read all the remaining records into one array, which
 * is allocated once (its size comes from the file's size); the caller
 * frees *recs. On error, *recs and *n hold the records of the blocks
 * before the bad one.
 */
int ntp_read_all(struct ntp_file *f, struct ntprof_record **recs, size_t *n);
/*
 * ntp_trailer() - return the trailer, once the reader has reached the
 * end, or NULL if the recording ended early, without a trailer.
 */
const struct ntp_trailer *ntp_trailer(const struct ntp_file *f);
/*
 * ntp_events() - return the events of the units read so far (all of them
 * at the end), in the file's order, and in @drops the drops that the last
 * unit counted. It returns NULL and 0 for a file before 2.2 or a file
 * without events.
 */
const struct ntp_event *ntp_events(const struct ntp_file *f, size_t *n,
				   uint64_t *drops);
/*
 * ntp_discarded() - return, once the reader has reached the end, the
 * number of bytes after the last whole block of a file that was cut
 * short.
 */
uint64_t ntp_discarded(const struct ntp_file *f);
/*
 * ntp_error() - return the message of the last error, in the form
 * "<path>: <what is wrong>".
 */
const char *ntp_error(const struct ntp_file *f);
/* ntp_close() - close the file and free @f. */
void ntp_close(struct ntp_file *f);

/*
 * ntp_records_bound() - return an upper bound on the number of records
 * in the rest of the file (the most that ntp_read_all() can return),
 * computed from the sizes of its blocks without reading them. Callers
 * use it to size their memory before reading.
 */
uint64_t ntp_records_bound(const struct ntp_file *f);

/*
 * ntp_record_encode() - encode @rec in its 1.x form of NTP_RECORD_SIZE
 * bytes; ntp_record_decode() decodes that form.
 */
void ntp_record_encode(void *buf, const struct ntprof_record *rec);
void ntp_record_decode(struct ntprof_record *rec, const void *buf);

#endif /* NTPROF_NTP_H */
