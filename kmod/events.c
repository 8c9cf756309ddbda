// SPDX-License-Identifier: GPL-2.0
/*
 * The control-path events' buffers: a ring of NTPROF_EVENTS_SIZE events
 * per role, filled by the event hooks and drained by events-get. The
 * ring is static: the module holds it whatever runs, 24 KiB a role, and
 * a session start only empties it.
 */
#include <linux/spinlock.h>
#include <linux/string.h>

#include "events.h"

struct ntprof_events {
	spinlock_t lock;	/* guards everything below */
	unsigned int head;	/* the next event to drain */
	unsigned int len;	/* events waiting */
	u64 recorded;
	u64 drops;
	struct ntprof_event ring[NTPROF_EVENTS_SIZE];
};

static struct ntprof_events ntprof_events[NTPROF_ROLE_TARGET + 1] = {
	[NTPROF_ROLE_HOST] = {
		.lock = __SPIN_LOCK_UNLOCKED(ntprof_events[NTPROF_ROLE_HOST].lock),
	},
	[NTPROF_ROLE_TARGET] = {
		.lock = __SPIN_LOCK_UNLOCKED(ntprof_events[NTPROF_ROLE_TARGET].lock),
	},
};

/**
 * ntprof_events_add() - record an event
 * @role: %NTPROF_ROLE_HOST or %NTPROF_ROLE_TARGET
 * @ev: the event, copied
 *
 * Context: Any; the hooks that call it may run in softirq context.
 */
void ntprof_events_add(enum ntprof_role role, const struct ntprof_event *ev)
{
	struct ntprof_events *e = &ntprof_events[role];
	unsigned long flags;

	spin_lock_irqsave(&e->lock, flags);
	if (e->len == NTPROF_EVENTS_SIZE) {
		e->drops++;
	} else {
		e->ring[(e->head + e->len) % NTPROF_EVENTS_SIZE] = *ev;
		e->len++;
		e->recorded++;
	}
	spin_unlock_irqrestore(&e->lock, flags);
}

/**
 * ntprof_events_reset() - empty a role's buffer, for its new session
 * @role: %NTPROF_ROLE_HOST or %NTPROF_ROLE_TARGET
 *
 * Context: Process context, under the session lock.
 */
void ntprof_events_reset(enum ntprof_role role)
{
	struct ntprof_events *e = &ntprof_events[role];
	unsigned long flags;

	spin_lock_irqsave(&e->lock, flags);
	e->head = 0;
	e->len = 0;
	e->recorded = 0;
	e->drops = 0;
	spin_unlock_irqrestore(&e->lock, flags);
}

/**
 * ntprof_events_take() - consume a role's oldest event
 * @role: %NTPROF_ROLE_HOST or %NTPROF_ROLE_TARGET
 * @ev: where to copy it
 *
 * Context: Any.
 * Return: false when none waits.
 */
bool ntprof_events_take(enum ntprof_role role, struct ntprof_event *ev)
{
	struct ntprof_events *e = &ntprof_events[role];
	unsigned long flags;
	bool any;

	spin_lock_irqsave(&e->lock, flags);
	any = e->len;
	if (any) {
		*ev = e->ring[e->head];
		e->head = (e->head + 1) % NTPROF_EVENTS_SIZE;
		e->len--;
	}
	spin_unlock_irqrestore(&e->lock, flags);
	return any;
}

/**
 * ntprof_events_count() - a role's event counters
 * @role: %NTPROF_ROLE_HOST or %NTPROF_ROLE_TARGET
 * @count: filled in
 *
 * Context: Any.
 */
void ntprof_events_count(enum ntprof_role role,
			 struct ntprof_events_count *count)
{
	struct ntprof_events *e = &ntprof_events[role];
	unsigned long flags;

	spin_lock_irqsave(&e->lock, flags);
	count->recorded = e->recorded;
	count->drops = e->drops;
	count->fill = e->len;
	spin_unlock_irqrestore(&e->lock, flags);
}
