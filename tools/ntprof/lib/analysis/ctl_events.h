/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Control-path events as a report shows them: the module's raw events
 * (state changes asked of a controller, resets asked) made into what
 * happened, with a duration where a start pairs with an end: a connect
 * (new to live), a reset (asked, resetting to live), a lost connection
 * (resetting without a reset asked, to live), a delete.
 */
#ifndef NTPROF_CTL_EVENTS_H
#define NTPROF_CTL_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "ntp/ntp.h"

enum ntprof_ctl_kind {
	NTPROF_CTL_CONNECT,	/* new to connecting, then live */
	NTPROF_CTL_RESET,	/* a reset asked: resetting, then live */
	NTPROF_CTL_LOSS,	/* resetting by itself: an error recovery */
	/*
	 * A controller already resetting or connecting when the recording
	 * started: from the start, it is not known since when.
	 */
	NTPROF_CTL_RECOVERY,
	NTPROF_CTL_DELETE,	/* to deleting: an instant */
	/*
	 * Target: a controller's life, from its creation (its admin queue
	 * connected) until it was freed; from the recording's start when
	 * it was created before.
	 */
	NTPROF_CTL_NVMET_CTRL,
};

/* Why an episode ended. */
enum ntprof_ctl_end {
	NTPROF_CTL_END_NONE,	/* not within the recording */
	NTPROF_CTL_END_LIVE,
	NTPROF_CTL_END_DELETED,	/* deleted before it was live again */
	NTPROF_CTL_END_FREED,	/* a target's controller freed */
};

/*
 * The attempts to connect an episode keeps the time of: the first ones,
 * of a controller that keeps failing for minutes with a short reconnect
 * delay, are what an operator reads; the count is of all of them.
 */
#define NTPROF_CTL_ATTEMPTS_MAX	32

struct ntprof_ctl_event {
	uint8_t kind;		/* enum ntprof_ctl_kind */
	uint8_t end;		/* enum ntprof_ctl_end */
	uint8_t before_start;	/* under way when the recording started */
	uint32_t ctrl;		/* N of nvmeN; a target's: its cntlid */
	uint32_t file;		/* the run's file it comes from */
	uint64_t start_ns;	/* CLOCK_MONOTONIC */
	uint64_t end_ns;	/* 0 without an end */
	/* Loss, reset: when it went on to connecting; 0 if it did not. */
	uint64_t connecting_ns;
	/*
	 * Connect, reset, loss, recovery: the attempts to connect it made
	 * (NTPROF_EVENT_CTRL_ATTEMPT), and when the first
	 * NTPROF_CTL_ATTEMPTS_MAX of them began. Every attempt but the last
	 * failed; the last one's result is the episode's end.
	 */
	uint32_t attempts;
	uint64_t attempt_ns[NTPROF_CTL_ATTEMPTS_MAX];
};

/*
 * ntprof_ctl_change_made() - tell whether Linux's
 * nvme_change_ctrl_state() makes the change from @old to @new_state (the
 * state machine of 5.10 to 7.3); it refuses any other change.
 */
int ntprof_ctl_change_made(uint8_t old, uint8_t new_state);

/*
 * ntprof_ctl_events() - append the episodes of @n raw events of one
 * recording (in time order, as the file has them), which started at
 * @start_ns, to *@out. *@out holds *@nout episodes and has room for *@cap;
 * it grows with realloc(). Each episode stores @file. It returns 0 or
 * -ENOMEM.
 */
int ntprof_ctl_events(const struct ntp_event *ev, size_t n, uint64_t start_ns,
		      uint32_t file, struct ntprof_ctl_event **out,
		      size_t *nout, size_t *cap);

/*
 * ntprof_ctl_kind_name() - return the name that reports use for an
 * episode's kind: "connect", "reset", "loss", ...
 */
const char *ntprof_ctl_kind_name(uint8_t kind);
const char *ntprof_ctl_end_name(uint8_t end);

/*
 * ntprof_ctl_attempt_result() - return the result of attempt @i of
 * episode @e: "failed" for any but its last, the last one's from the
 * episode's end: "live", "deleted", or "unknown" (the recording stopped
 * first).
 */
const char *ntprof_ctl_attempt_result(const struct ntprof_ctl_event *e,
				      uint32_t i);

#endif /* NTPROF_CTL_EVENTS_H */
