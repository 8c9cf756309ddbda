// SPDX-License-Identifier: GPL-2.0
/*
 * From the module's raw control-path events to episodes. The module
 * records each change asked of nvme_change_ctrl_state() at its entry,
 * with the state on entry (the kernel's enum ntprof_ctrl_state): the
 * changes its state machine refuses (a reset asked of a controller
 * already resetting, live asked of one being deleted) are left out here.
 * A move to resetting just after a reset was asked, with no change
 * between, is that reset; one without is an error recovery, a lost
 * connection. An attempt to connect belongs to the controller's open
 * episode; one without (the recording started while the controller was
 * connecting) opens a recovery.
 */
#include <errno.h>
#include <stdlib.h>

#include "analysis/ctl_events.h"

int ntprof_ctl_change_made(uint8_t old, uint8_t new_state)
{
	switch (new_state) {
	case NTPROF_CTRL_LIVE:
		return old == NTPROF_CTRL_NEW || old == NTPROF_CTRL_RESETTING ||
		       old == NTPROF_CTRL_CONNECTING;
	case NTPROF_CTRL_RESETTING:
		return old == NTPROF_CTRL_NEW || old == NTPROF_CTRL_LIVE;
	case NTPROF_CTRL_CONNECTING:
		return old == NTPROF_CTRL_NEW || old == NTPROF_CTRL_RESETTING;
	case NTPROF_CTRL_DELETING:
		return old == NTPROF_CTRL_LIVE || old == NTPROF_CTRL_RESETTING ||
		       old == NTPROF_CTRL_CONNECTING;
	case NTPROF_CTRL_DELETING_NOIO:
		return old == NTPROF_CTRL_DELETING || old == NTPROF_CTRL_DEAD;
	case NTPROF_CTRL_DEAD:
		return old == NTPROF_CTRL_DELETING;
	default:
		return 0;
	}
}

/* What is known of a controller while its events are walked. */
struct ctl_state {
	uint32_t ctrl;
	long open;		/* its episode without an end, or -1 */
	int reset_asked;
};

static struct ctl_state *ctl_find(struct ctl_state **st, size_t *n,
				  uint32_t ctrl)
{
	struct ctl_state *s;
	size_t i;

	for (i = 0; i < *n; i++)
		if ((*st)[i].ctrl == ctrl)
			return &(*st)[i];
	s = realloc(*st, (*n + 1) * sizeof(*s));
	if (!s)
		return NULL;
	*st = s;
	s = &s[(*n)++];
	s->ctrl = ctrl;
	s->open = -1;
	s->reset_asked = 0;
	return s;
}

static struct ntprof_ctl_event *ctl_add(struct ntprof_ctl_event **out,
					size_t *nout, size_t *cap,
					uint8_t kind, uint32_t ctrl,
					uint32_t file, uint64_t start)
{
	struct ntprof_ctl_event *e;

	if (*nout == *cap) {
		size_t c = *cap ? 2 * *cap : 16;

		e = realloc(*out, c * sizeof(*e));
		if (!e)
			return NULL;
		*out = e;
		*cap = c;
	}
	e = &(*out)[(*nout)++];
	*e = (struct ntprof_ctl_event) {
		.kind = kind, .ctrl = ctrl, .file = file, .start_ns = start,
	};
	return e;
}

/*
 * ctl_change() - apply a change that was made: open, continue or close the
 * episodes it concerns.
 */
static int ctl_change(struct ctl_state *s, const struct ntp_event *ev,
		      uint64_t start_ns, uint32_t file,
		      struct ntprof_ctl_event **out, size_t *nout,
		      size_t *cap)
{
	struct ntprof_ctl_event *e = s->open >= 0 ? &(*out)[s->open] : NULL;
	uint8_t kind;

	switch (ev->new_state) {
	case NTPROF_CTRL_RESETTING:
		kind = s->reset_asked ? NTPROF_CTL_RESET : NTPROF_CTL_LOSS;
		if (!ctl_add(out, nout, cap, kind, ev->ctrl, file,
			     ev->time_mono_ns))
			return -ENOMEM;
		s->open = *nout - 1;
		break;
	case NTPROF_CTRL_CONNECTING:
		if (ev->old_state == NTPROF_CTRL_NEW) {
			if (!ctl_add(out, nout, cap, NTPROF_CTL_CONNECT,
				     ev->ctrl, file, ev->time_mono_ns))
				return -ENOMEM;
			s->open = *nout - 1;
		} else if (e) {
			e->connecting_ns = ev->time_mono_ns;
		} else {
			/* Resetting since before the recording. */
			e = ctl_add(out, nout, cap, NTPROF_CTL_RECOVERY,
				    ev->ctrl, file, start_ns);
			if (!e)
				return -ENOMEM;
			e->before_start = 1;
			e->connecting_ns = ev->time_mono_ns;
			s->open = *nout - 1;
		}
		break;
	case NTPROF_CTRL_LIVE:
		if (!e && ev->old_state != NTPROF_CTRL_NEW) {
			e = ctl_add(out, nout, cap, NTPROF_CTL_RECOVERY,
				    ev->ctrl, file, start_ns);
			if (!e)
				return -ENOMEM;
			e->before_start = 1;
		}
		if (e) {
			e->end = NTPROF_CTL_END_LIVE;
			e->end_ns = ev->time_mono_ns;
		}
		s->open = -1;
		break;
	case NTPROF_CTRL_DELETING:
		if (e) {
			e->end = NTPROF_CTL_END_DELETED;
			e->end_ns = ev->time_mono_ns;
		}
		s->open = -1;
		if (!ctl_add(out, nout, cap, NTPROF_CTL_DELETE, ev->ctrl, file,
			     ev->time_mono_ns))
			return -ENOMEM;
		break;
	default:
		break;
	}
	return 0;
}

/* ctl_attempt() - count an attempt to connect in the episode it is part of. */
static int ctl_attempt(struct ctl_state *s, const struct ntp_event *ev,
		       uint64_t start_ns, uint32_t file,
		       struct ntprof_ctl_event **out, size_t *nout,
		       size_t *cap)
{
	struct ntprof_ctl_event *e;

	if (s->open < 0) {
		e = ctl_add(out, nout, cap, NTPROF_CTL_RECOVERY, ev->ctrl,
			    file, start_ns);
		if (!e)
			return -ENOMEM;
		e->before_start = 1;
		s->open = *nout - 1;
	}
	e = &(*out)[s->open];
	if (e->attempts < NTPROF_CTL_ATTEMPTS_MAX)
		e->attempt_ns[e->attempts] = ev->time_mono_ns;
	e->attempts++;
	return 0;
}

/*
 * ctl_target() - a target's controller created or freed: the life of
 * controller @ev->ctrl, from its creation to its free. One freed with
 * none created before it lived since before the recording.
 */
static int ctl_target(struct ctl_state *s, const struct ntp_event *ev,
		      uint64_t start_ns, uint32_t file,
		      struct ntprof_ctl_event **out, size_t *nout,
		      size_t *cap)
{
	struct ntprof_ctl_event *e;

	if (ev->type == NTPROF_EVENT_TARGET_CTRL_CREATED) {
		if (!ctl_add(out, nout, cap, NTPROF_CTL_NVMET_CTRL, ev->ctrl,
			     file, ev->time_mono_ns))
			return -ENOMEM;
		s->open = *nout - 1;
		return 0;
	}
	if (s->open < 0) {
		e = ctl_add(out, nout, cap, NTPROF_CTL_NVMET_CTRL, ev->ctrl,
			    file, start_ns);
		if (!e)
			return -ENOMEM;
		e->before_start = 1;
	} else {
		e = &(*out)[s->open];
	}
	e->end = NTPROF_CTL_END_FREED;
	e->end_ns = ev->time_mono_ns;
	s->open = -1;
	return 0;
}

/* A target's controller ids and a host's instances apart. */
#define CTL_TARGET_KEY	0x80000000U

int ntprof_ctl_events(const struct ntp_event *ev, size_t n, uint64_t start_ns,
		      uint32_t file, struct ntprof_ctl_event **out,
		      size_t *nout, size_t *cap)
{
	struct ctl_state *st = NULL, *s;
	size_t nst = 0, i;
	int err = 0;

	for (i = 0; i < n && !err; i++) {
		int target = ev[i].type == NTPROF_EVENT_TARGET_CTRL_CREATED ||
			     ev[i].type == NTPROF_EVENT_TARGET_CTRL_FREED;

		s = ctl_find(&st, &nst,
			     ev[i].ctrl | (target ? CTL_TARGET_KEY : 0));
		if (!s) {
			err = -ENOMEM;
			break;
		}
		if (target) {
			err = ctl_target(s, &ev[i], start_ns, file, out, nout,
					 cap);
			continue;
		}
		if (ev[i].type == NTPROF_EVENT_CTRL_RESET) {
			s->reset_asked = 1;
			continue;
		}
		if (ev[i].type == NTPROF_EVENT_CTRL_ATTEMPT) {
			err = ctl_attempt(s, &ev[i], start_ns, file, out, nout,
					  cap);
			continue;
		}
		if (ev[i].type != NTPROF_EVENT_CTRL_STATE ||
		    !ntprof_ctl_change_made(ev[i].old_state, ev[i].new_state))
			continue;
		err = ctl_change(s, &ev[i], start_ns, file, out, nout, cap);
		s->reset_asked = 0;
	}
	free(st);
	return err;
}

const char *ntprof_ctl_kind_name(uint8_t kind)
{
	static const char *const names[] = {
		[NTPROF_CTL_CONNECT] = "connect",
		[NTPROF_CTL_RESET] = "reset",
		[NTPROF_CTL_LOSS] = "loss",
		[NTPROF_CTL_RECOVERY] = "recovery",
		[NTPROF_CTL_DELETE] = "delete",
		[NTPROF_CTL_NVMET_CTRL] = "nvmet-ctrl",
	};

	return kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "unknown";
}

const char *ntprof_ctl_end_name(uint8_t end)
{
	static const char *const names[] = {
		[NTPROF_CTL_END_NONE] = "none",
		[NTPROF_CTL_END_LIVE] = "live",
		[NTPROF_CTL_END_DELETED] = "deleted",
		[NTPROF_CTL_END_FREED] = "freed",
	};

	return end < sizeof(names) / sizeof(names[0]) ? names[end] : "unknown";
}

const char *ntprof_ctl_attempt_result(const struct ntprof_ctl_event *e,
				      uint32_t i)
{
	if (i + 1 < e->attempts)
		return "failed";
	switch (e->end) {
	case NTPROF_CTL_END_LIVE:
		return "live";
	case NTPROF_CTL_END_DELETED:
		return "deleted";
	default:
		return "unknown";
	}
}
