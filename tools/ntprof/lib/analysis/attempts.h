/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tries of one user command: a host's attempt that an outage aborted
 * (a reset or a lost connection cancelled it, nvme_core requeued it or
 * failed it over to another path) linked to the command that sent its
 * I/O again, so that the two are one command with two tries, and the
 * time before the last try is the command's outage stage
 * (Documentation/stages.rst, The outage stage).
 *
 * No record names the try before it: the kernel gives a retry a new
 * command id, and a failover a new request on another path. The link is
 * inferred: the same namespace (the head under native multipath: the
 * path disks of a namespace have its name), opcode, LBA and length, the
 * next try starting after the aborted one ended.
 */
#ifndef NTPROF_ATTEMPTS_H
#define NTPROF_ATTEMPTS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/analysis.h"
#include "analysis/ctl_events.h"

/* What the aborted tries before a command's last try add to it. */
struct ntprof_tries {
	uint16_t tries;		/* the last one included; 1: none before */
	uint64_t aborted_ns;	/* each aborted try's first to last point */
	uint64_t wait_ns;	/* each aborted try's end to the next's start */
	/* The episode that overlapped them, "loss nvme0"; "": none. */
	char episode[32];
};

/* The links of one recording's records. */
struct ntprof_attempts {
	/* Per record: of a last try after aborted ones, its tries, else 0. */
	struct ntprof_tries *of;
	uint64_t n_commands;	/* last tries with aborted ones before */
	uint64_t n_linked;	/* aborted tries linked to a next try */
	uint64_t n_unlinked;	/* aborted tries with none found */
};

/*
 * ntprof_attempts_link() - link the aborted tries of @n host records @r
 * (one recording, one machine) to their next tries. @head gives each
 * record's namespace as a number that the paths of one namespace share
 * (@head_arg is passed on); the @nev episodes @ev (ntprof_ctl_events())
 * of the recording name the outage. @out->of stays NULL when no record
 * was aborted. It returns 0 or -ENOMEM; the caller frees @out->of.
 */
int ntprof_attempts_link(const struct ntprof_record *r, size_t n,
			 uint32_t (*head)(const struct ntprof_record *r,
					  void *arg),
			 void *head_arg,
			 const char *(*ctrl_of)(const struct ntprof_record *r,
						void *arg),
			 const struct ntprof_ctl_event *ev, size_t nev,
			 struct ntprof_attempts *out);

/*
 * ntprof_tries_breakdown() - add @t's aborted tries and waits to the
 * breakdown @bd of a command's last try, as its outage stage; its end to
 * end then runs from its first try's start.
 */
void ntprof_tries_breakdown(struct ntprof_breakdown *bd,
			    const struct ntprof_tries *t);

/*
 * ntprof_tries_apply() - ntprof_tries_breakdown(), and count the command
 * and its tries in its group @g.
 */
void ntprof_tries_apply(struct ntprof_group *g, struct ntprof_breakdown *bd,
			const struct ntprof_tries *t);

#endif /* NTPROF_ATTEMPTS_H */
