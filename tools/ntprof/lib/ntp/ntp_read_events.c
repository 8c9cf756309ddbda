// SPDX-License-Identifier: GPL-2.0
/*
 * The .ntp reader's events units (since 2.2, Documentation/ntp-format.rst,
 * "Events"): a u64 of the kernel's drops, then fixed-size events. The
 * unit's count and length must agree before anything is allocated, and
 * the events of the whole file are capped at NTP_EVENTS_MAX.
 */
#include <errno.h>
#include <stdlib.h>

#include "ntp/ntp.h"
#include "ntp/ntp_layout.h"
#include "ntp/ntp_read_priv.h"

int ntp_events_parse(struct ntp_file *f, const uint8_t *p, uint32_t count,
		     uint32_t len, uint32_t seq, uint64_t off)
{
	struct ntp_event *ev;
	uint32_t i;

	if (len < EVU_FIXED || (len - EVU_FIXED) % EV_SIZE ||
	    (len - EVU_FIXED) / EV_SIZE != count)
		return ntp_fail(f, -EBADMSG,
				"events %u at offset %llu: %u events do not make %u bytes",
				seq, (unsigned long long)off, count, len);
	if (count > NTP_EVENTS_MAX - f->nr_events)
		return ntp_fail(f, -EBADMSG,
				"events %u at offset %llu: more than %u events",
				seq, (unsigned long long)off, NTP_EVENTS_MAX);
	if (f->nr_events + count > f->events_size) {
		ev = realloc(f->events, (f->nr_events + count) * sizeof(*ev));
		if (!ev)
			return ntp_fail(f, -ENOMEM, "out of memory");
		f->events = ev;
		f->events_size = f->nr_events + count;
	}
	f->event_drops = get64(p + NTP_EVU_OFF_DROPS);
	for (i = 0; i < count; i++) {
		const uint8_t *e = p + EVU_FIXED + (size_t)i * EV_SIZE;

		ev = &f->events[f->nr_events + i];
		ev->time_mono_ns = get64(e + NTP_EV_OFF_TIME_MONO_NS);
		ev->ctrl = get32(e + NTP_EV_OFF_CTRL);
		ev->type = e[NTP_EV_OFF_TYPE];
		ev->old_state = e[NTP_EV_OFF_OLD_STATE];
		ev->new_state = e[NTP_EV_OFF_NEW_STATE];
		if (!ev->time_mono_ns)
			return ntp_fail(f, -EBADMSG,
					"events %u at offset %llu: event %u has no time",
					seq, (unsigned long long)off, i);
	}
	f->nr_events += count;
	return 1;
}
