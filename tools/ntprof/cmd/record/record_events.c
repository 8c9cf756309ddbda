// SPDX-License-Identifier: GPL-2.0
/*
 * The session's control-path events: taken from the module at each
 * drain, after its records, and written to the file as an events unit
 * (Documentation/ntp-format.rst, "Events") and given to --prom's
 * control-path series. A module older than the events has no
 * events-get: the recording goes on without them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "genl/session_events.h"
#include "cmd/record/record.h"

int record_events(struct recorder *rec, struct nl_sock *sock)
{
	struct session_events ev = { 0 };
	int err;

	if (!rec->kernel || rec->no_events)
		return 0;
	err = session_events_get(sock, rec->o->cfg.role, &ev);
	if (err == -EOPNOTSUPP) {
		rec->no_events = true;
		return 0;
	}
	if (!err && (ev.n || ev.drops != rec->event_drops) && rec->w) {
		err = ntp_writer_events(rec->w, ev.ev, ev.n, ev.drops);
		if (err)
			rec->write_err = err;
	}
	if (!err) {
		rec->events += ev.n;
		rec->event_drops = ev.drops;
	}
	/* --prom's control-path series, from the same events as the file. */
	if (!err && rec->prom &&
	    prom_events(rec->prom, ev.ev, ev.n, ev.drops, rec->start_mono)) {
		prom_free(rec->prom);
		rec->prom = NULL;
		fprintf(stderr, "ntprof: record: out of memory for --prom: %s is no longer rewritten\n",
			rec->o->prom);
	}
	free(ev.ev);
	return err;
}
