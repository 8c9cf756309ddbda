/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Matching the host's records to the target's, offline: each machine
 * recorded on its own clock, and the two clocks are not synchronized.
 */
#ifndef NTPROF_JOIN_H
#define NTPROF_JOIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uapi/linux/ntprof.h>

/* ntprof_join.match[] of a host record that has no target record. */
#define NTPROF_NO_MATCH		UINT32_MAX

struct ntprof_join_opts {
	/*
	 * A first guess of theta (the target's clock minus the host's),
	 * used only when no pair of records gives one: e.g. from both
	 * sessions' start stamps, (target mono - target real) - (host mono
	 * - host real), as good as the machines' NTP.
	 */
	bool have_hint;
	int64_t theta_hint_ns;
	int64_t hint_error_ns;		/* its uncertainty; 0: 10 ms */
	/*
	 * How far a target window may stick out of its host window beyond
	 * theta's own uncertainty; 0: 50 us.
	 */
	int64_t slack_ns;
	/*
	 * Per host record, NULL for none: not zero leaves the record out
	 * of this join (sent to another subsystem than the target's).
	 */
	const uint8_t *host_skip;
	/*
	 * Per record of each side, both or neither: the route of its
	 * command (a number for the subsystem it went to, below 65536);
	 * records of different routes are never the same command. A
	 * middle's legs on one replica machine send the same identity to
	 * two subsystems at once.
	 */
	const uint16_t *host_route;
	const uint16_t *target_route;
};

struct ntprof_join {
	/* Per host record: the index of its target record, or NO_MATCH. */
	uint32_t *match;
	size_t nr_host;
	size_t nr_target;
	size_t matched;
	/* The pairs theta was estimated from, and in how many windows. */
	size_t pairs;
	size_t windows;
	bool theta_known;	/* false: nothing could be matched */
	bool theta_from_hint;
	int64_t theta_ns;	/* its median over the recording */
	int64_t theta_min_ns;	/* its range: the clocks' drift */
	int64_t theta_max_ns;
};

/*
 * ntprof_join() - match each host record to the target record of the
 * same command. Commands are identified by (qid, cid, opcode, nsid, slba,
 * length), by the controller id when every record of both sides carries
 * one, and by the route (opts.host_route) when it is given. Cids are
 * reused, so a key can have several records on each side.
 *
 * 1. Both sides are sorted by (key, time): a radix sort of 32-byte
 *    entries by the key's 64-bit hash, then each run of one hash by
 *    time; no per-record allocation. Keys are compared in full where
 *    their hashes meet, so a hash collision costs time, not matches.
 * 2. theta is estimated from the keys that occur once on each side.
 *    Causality bounds it per pair: the target received the command after
 *    the host sent it, and answered before the host received the answer,
 *    so TARGET_END - HOST_RECV <= theta <= TARGET_RECV - HOST_SEND
 *    (ntprof_record_window()). In windows of consecutive pairs (in host
 *    time), theta is the median of the pairs' midpoints, refined to the
 *    intersection of the bounds of the pairs consistent with it; between
 *    windows it is interpolated, which follows the clocks' drift.
 * 3. A merge join over the keys gives each host record the candidate whose
 *    target window, moved by theta, fits best inside its own; a candidate
 *    sticking out by more than theta's uncertainty plus the slack is no
 *    match. The same command's records on one side cannot overlap in time
 *    (a cid is not reused while in flight), so one pass in time order
 *    suffices.
 *
 * theta only decides who matches whom; no latency ever uses it.
 * Records of the wrong role, or without a window, stay unmatched. Counts
 * must stay below NTPROF_NO_MATCH. It returns 0, -ENOMEM or -EINVAL; the
 * caller frees @j with ntprof_join_free() in any case.
 */
int ntprof_join(const struct ntprof_record *host, size_t nr_host,
		const struct ntprof_record *target, size_t nr_target,
		const struct ntprof_join_opts *opts, struct ntprof_join *j);
void ntprof_join_free(struct ntprof_join *j);

#endif /* NTPROF_JOIN_H */
