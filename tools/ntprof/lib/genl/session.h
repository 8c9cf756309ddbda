/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The recorder's netlink operations, as 'probe' and 'record' use them:
 * the module's status with the session's start instant, the hooks, start
 * and stop, the per-CPU counters summed, and the finished records.
 */
#ifndef NTPROF_SESSION_H
#define NTPROF_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uapi/linux/ntprof.h>

#include "genl/nl.h"
#include "ntp/ntp.h"

/* The module lists six; room for a newer module's additions. */
#define SESSION_MODULES_MAX	32

/* ntp_hook.point of a hook that stamps no point (it helps another). */
#define SESSION_POINT_NONE	0xff

struct session_module {
	char name[64];
	uint32_t role;		/* enum ntprof_role */
	uint32_t transport;	/* enum ntprof_transport */
	bool present;
};

struct session_status {
	char version[64];
	char release[NTP_RELEASE_MAX + 1];
	uint32_t state;		/* enum ntprof_state */
	struct session_module modules[SESSION_MODULES_MAX];
	size_t nr_modules;
	/*
	 * The session the module describes: the host's if it records, else
	 * the target's, else the last one that ran. Valid if have_session.
	 */
	bool have_session;
	uint32_t role;
	uint32_t transport;
	uint32_t sample;
	uint64_t start_mono;
	uint64_t start_real;
	/* The recording process that owns it, 0 if none (stopped). */
	uint32_t owner_pid;
	/* NTPROF_LF bits of the module's built-in layout offsets. */
	uint64_t layout_builtin;
	/* Its sampling: the chain rule, and its LBA offset. */
	bool chain;
	uint64_t chain_offset;
};

/*
 * session_status_get() - send status-get and fill @st from the reply. It
 * returns 0 or -errno; the caller reports errors with nl_perror().
 */
int session_status_get(struct nl_sock *sock, struct session_status *st);

/*
 * The context of session_status_reply(), the parser of status-get's
 * reply: an mnl callback that fills a zeroed @st. session_status_get()
 * uses it, and so do tests that build replies themselves. A second reply
 * to one request fails with -EPROTO (set in errno).
 */
struct session_status_ctx {
	struct session_status *st;
	int replies;
};

int session_status_reply(const struct nlmsghdr *nlh, void *data);
/*
 * session_module_find() - return the module of @role and @transport
 * (NONE stands for the role's core module), or NULL.
 */
const struct session_module *
session_module_find(const struct session_status *st, uint32_t role,
		    uint32_t transport);

struct session_hook {
	struct ntp_hook h;	/* point: SESSION_POINT_NONE if it has none */
	uint64_t hits;
	/* 1 << enum ntprof_layout_field: those it reads, those of no offset */
	uint64_t fields;
	uint64_t fields_missing;
	/* probe: those neither BTF nor the module gives (the hook is missing) */
	uint64_t lacking;
	/* It only splits a stage: a stages-only session leaves it out. */
	bool detail;
};

struct session_hooks {
	struct session_hook *v;
	size_t n;
};

/*
 * session_hooks_get() - send probe-get and collect the hooks that a
 * session of @role and @transport attaches: those of the role's transport
 * and those of both transports, in the module's order. It returns 0 or
 * -errno. The caller frees @hooks with session_hooks_free() in any case.
 */
int session_hooks_get(struct nl_sock *sock, uint32_t role, uint32_t transport,
		      struct session_hooks *hooks);
/* session_hooks_free() - free what session_hooks_get() collected. */
void session_hooks_free(struct session_hooks *hooks);
/*
 * session_hooks_busy() - tell whether any hook of @role is attached,
 * which means that a session of that role is running.
 */
bool session_hooks_busy(struct nl_sock *sock, uint32_t role);

/*
 * A fetch of a userspace site (Documentation/ntprof.rst, Fetches): it
 * starts from an argument register, follows @nr_derefs pointers, adds
 * @offset and reads @width bytes there, or takes the address itself when
 * @width is 0.
 */
struct session_fetch {
	bool set;
	uint32_t reg;
	unsigned int nr_derefs;
	int32_t derefs[NTPROF_FETCH_DEREFS_MAX];
	int32_t offset;
	uint32_t width;
};

/* The fetches of a site, in uapi order from NTPROF_A_USITE_KEY on. */
enum session_usite_field {
	SESSION_F_KEY, SESSION_F_QID, SESSION_F_CID, SESSION_F_OPCODE,
	SESSION_F_NSID, SESSION_F_SLBA, SESSION_F_NLB, SESSION_F_LENGTH,
	SESSION_F_COUNT,
};

/*
 * A uprobe site of a start request. @path must outlive the request, and
 * @fd, the binary open for reading, must stay open while the request is
 * sent: the module probes the file that @fd refers to, whose offsets the
 * tool computed.
 */
struct session_usite {
	const char *func;	/* the function's name, for messages */
	const char *path;
	int fd;
	/* The function's symbol as linked, where the agent patches it. */
	uint64_t vaddr;
	uint64_t size;
	uint64_t offset;
	uint32_t point;		/* enum ntprof_point */
	uint32_t flags;		/* NTPROF_USITE_F_* */
	struct session_fetch f[SESSION_F_COUNT];
	/* Its commands' transport, or NONE: @trtype's, or the session's. */
	uint32_t transport;
	struct session_fetch trtype;	/* NVMe-oF transport type */
};

/*
 * The offset and size of a private kernel field (enum
 * ntprof_layout_field) that the module is to use instead of its own.
 */
struct session_layout_field {
	uint32_t field;
	uint32_t offset;
	uint32_t size;
	uint32_t st_size;	/* its struct's */
};

/* What to record; the has_* say which filters to send. */
struct session_config {
	uint32_t role;
	uint32_t transport;
	uint32_t sample;
	uint32_t dev;		/* new_encode_dev() */
	uint32_t ops;		/* NTPROF_OP_* */
	uint32_t min_len;
	uint32_t max_len;
	bool has_dev;
	bool has_ops;
	bool has_min_len;
	bool has_max_len;
	/* The role's struct layouts (from BTF); none: the module's own. */
	const struct session_layout_field *layout;
	size_t nr_layout;
	/* Userspace sites (SPDK), sent after the kernel hooks' settings. */
	const struct session_usite *usites;
	size_t nr_usites;
	/* The usites fire in this process only, or in all if 0. */
	uint32_t pid;
	/* A second socket that drains the session's records, or 0. */
	uint32_t drain_portid;
	/* Only the kernel hooks the five stages need (NTPROF_HOOK_SET_STAGES). */
	bool stages_only;
	/*
	 * Read, write and write-zeroes commands sampled by the chain rule
	 * (ntprof_chain_hash()), with this LBA offset; kernel hooks only.
	 */
	bool chain;
	uint64_t chain_offset;
};

/*
 * session_start() - start a session as @cfg says; session_stop() stops
 * @role's session. Both return 0 or -errno, with the kernel's reason in
 * nl_extack().
 */
int session_start(struct nl_sock *sock, const struct session_config *cfg);
int session_stop(struct nl_sock *sock, uint32_t role);

/*
 * The counters of @role's session (its own counters, summed over the
 * CPUs), which session_stats_get() gets with stats-get.
 */
struct session_stats {
	uint64_t records;
	uint64_t drops;
	uint64_t fill;
	uint64_t sampled;
	uint64_t seen;
	uint64_t evicted;
	unsigned int cpus;
};

int session_stats_get(struct nl_sock *sock, uint32_t role,
		      struct session_stats *st);

/*
 * A callback that gets the records in batches. It returns 0 or -errno; an
 * error (returned as -errno) ends the request, and the records that the
 * kernel had already put in its reply are lost. @crecs, when not NULL,
 * holds each record's compact bytes as the kernel sent them (in host byte
 * order, already checked by the decoder), valid during the call, so that
 * a writer of format 2.0 can take them as they are instead of encoding
 * @recs again.
 */
typedef int (*session_records_fn)(const struct ntprof_record *recs,
				  const void *const *crecs, size_t n,
				  void *data);

/*
 * session_records_get() - send records-get, which takes the finished
 * records of @role's session out of the kernel's buffers (each role has
 * its own), and hand the records to @fn. *@count, if @count is not NULL,
 * gets how many there were. It returns -EPROTO for a malformed record,
 * which nl_perror() on @sock then explains.
 */
int session_records_get(struct nl_sock *sock, uint32_t role,
			session_records_fn fn, void *data, uint64_t *count);

/*
 * The context of session_records_reply(), the parser of records-get's
 * reply, an mnl callback. session_records_get() uses it, and so do tests
 * that build replies themselves. NTPROF_A_RECORDS_DATA holds compact
 * records back to back (struct ntprof_crec in host byte order,
 * lib/ntp/crec.h). The parser decodes them into @batch and hands them to
 * @fn in batches. A malformed record fails with -EPROTO (set in errno),
 * with its reason in @why; the batches before it in the reply have
 * reached @fn.
 */
#define SESSION_RECORDS_BATCH	64

struct session_records_ctx {
	uint32_t role;
	session_records_fn fn;
	void *data;
	uint64_t count;
	char why[192];
	struct ntprof_record batch[SESSION_RECORDS_BATCH];
	const void *crecs[SESSION_RECORDS_BATCH];
};

int session_records_reply(const struct nlmsghdr *nlh, void *data);

/*
 * session_transports() - put in @t the transports whose modules a session
 * of @transport uses, the role's core (NONE) first, and return how many
 * there are.
 */
#define SESSION_TRANSPORTS	3
int session_transports(uint32_t transport, uint32_t t[SESSION_TRANSPORTS]);

#endif /* NTPROF_SESSION_H */
