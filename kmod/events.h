/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Control-path events: a small buffer per role, apart from the records
 * of commands. Events come from hooks off the I/O path (hooks_events.c)
 * at a rate of a few a second at most, so one spinlock guards each
 * buffer; a full buffer counts what it drops.
 */
#ifndef _NTPROF_EVENTS_H
#define _NTPROF_EVENTS_H

#include <linux/types.h>

#include <uapi/linux/ntprof.h>

/* Room for the events of a session that nobody drains for a while. */
#define NTPROF_EVENTS_SIZE	1024

/**
 * struct ntprof_event - one control-path event
 * @ts: when, CLOCK_MONOTONIC ns (the records' clock)
 * @type: enum ntprof_event_type
 * @ctrl: host: the controller's instance, N of nvmeN; target: its cntlid
 * @old_state: %NTPROF_EVENT_CTRL_STATE: the state on entry
 * @new_state: %NTPROF_EVENT_CTRL_STATE: the state asked for
 */
struct ntprof_event {
	u64 ts;
	u32 type;
	u32 ctrl;
	u32 old_state;
	u32 new_state;
};

/**
 * struct ntprof_events_count - a role's event counters
 * @recorded: events put in the buffer since its session started
 * @drops: events lost, the buffer being full
 * @fill: events waiting to be drained
 */
struct ntprof_events_count {
	u64 recorded;
	u64 drops;
	u64 fill;
};

void ntprof_events_add(enum ntprof_role role, const struct ntprof_event *ev);
void ntprof_events_reset(enum ntprof_role role);
bool ntprof_events_take(enum ntprof_role role, struct ntprof_event *ev);
void ntprof_events_count(enum ntprof_role role,
			 struct ntprof_events_count *count);

#endif /* _NTPROF_EVENTS_H */
