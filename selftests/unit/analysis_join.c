// SPDX-License-Identifier: GPL-2.0
/*
 * test_analysis's join of host and target records: a whole recording
 * with the target's clock ahead and drifting, keys that repeat, and both
 * transports, each command matched to its own other side.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/join.h"
#include "analysis/stats.h"
#include "analysis_test.h"
#include "tap.h"

void t_join(void)
{
	const size_t n = 40000, extra = 2000;
	struct ntprof_record *h, *t;
	struct ntprof_join j;
	size_t i, wrong = 0, dropped = 0, kept = 0, nt = n + extra;
	uint32_t *t2h;
	int64_t dtheta;
	int err;

	if (!ok(!gen(n, extra, &h, &t, &t2h), "join: generate records"))
		return;
	err = ntprof_join(h, n, t, nt, NULL, &j);
	ok(!err && j.matched == n,
	   "join: cids reused, keys repeated, target 3 h ahead: %zu of %zu matched",
	   j.matched, n);
	for (i = 0; i < n; i++)
		if (j.match[i] >= nt || t2h[j.match[i]] != i)
			wrong++;
	ok(!wrong, "join: every host record matched its own command (%zu wrong)",
	   wrong);
	dtheta = j.theta_ns - (int64_t)HOURS_3;
	ok(j.theta_known && dtheta > 0 && dtheta < 2000000 &&
	   j.theta_max_ns - j.theta_min_ns > 10000,
	   "join: theta 3 h + %lld ns, drift %lld ns seen, from %zu pairs",
	   (long long)dtheta, (long long)(j.theta_max_ns - j.theta_min_ns),
	   j.pairs);
	ntprof_join_free(&j);

	/* Every 97th command's target record lost. */
	for (i = 0; i < nt; i++) {
		if (t2h[i] != NTPROF_NO_MATCH && t2h[i] % 97 == 0)
			continue;
		t[kept] = t[i];
		t2h[kept++] = t2h[i];
	}
	err = ntprof_join(h, n, t, kept, NULL, &j);
	ok(!err, "join: with lost target records");
	wrong = 0;
	for (i = 0; !err && i < n; i++) {
		if (i % 97 == 0) {
			dropped++;
			if (j.match[i] != NTPROF_NO_MATCH)
				wrong++;
		} else if (j.match[i] >= kept || t2h[j.match[i]] != i) {
			wrong++;
		}
	}
	ok(!wrong && j.matched == n - dropped,
	   "join: the %zu host records without a target record stay unmatched, the rest match (%zu wrong)",
	   dropped, wrong);
	ntprof_join_free(&j);
	free(h);
	free(t);
	free(t2h);
}

void t_join_repeats(void)
{
	struct ntprof_record h[100], t[100];
	struct ntprof_join j;
	size_t i;

	/* One LBA, one cid, over and over: no key is unique. */
	for (i = 0; i < 100; i++) {
		host_rec(&h[i], NTPROF_TRANSPORT_TCP, i * 100 * US, 0);
		target_rec(&t[i], NTPROF_TRANSPORT_TCP,
			   HOURS_3 + i * 100 * US, 0);
	}
	ok(!ntprof_join(h, 100, t, 100, NULL, &j) && !j.theta_known &&
	   j.matched == 0,
	   "join: no unique key and no hint: theta unknown, nothing matched");
	ntprof_join_free(&j);
	ok(!ntprof_join(h, 6, t, 6, NULL, &j) && j.theta_known &&
	   j.matched == 6,
	   "join: six repeats of one key, in the same order on both sides");
	for (i = 0; i < 6; i++)
		if (j.match[i] != i)
			break;
	ok(i == 6, "join: ... each to its own");
	ntprof_join_free(&j);

	/* A wrong role never matches. */
	t[0].role = NTPROF_ROLE_HOST;
	ok(!ntprof_join(h, 1, t, 1, NULL, &j) && j.matched == 0,
	   "join: a record of the wrong role is not matched");
	ntprof_join_free(&j);
}

/*
 * A recording of both transports: every command has a twin of the other
 * transport with the same identity, 3 us later, their windows
 * overlapping. Each joins its own transport's target record; a target
 * that could not tell the transport (NONE) still joins every command;
 * and the groups are each transport's, labelled and named for it.
 */
void t_join_transports(void)
{
	const size_t n = 4000;
	struct ntprof_analysis_opts opts = {
		.host_devs = host_devs, .nr_host_devs = 1, .transports = true,
	};
	struct ntprof_record *h, *t;
	struct ntprof_analysis *an;
	struct ntprof_join j;
	uint32_t *t2h, *h2t;
	size_t i, wrong = 0, a, b;
	uint8_t tr;
	int err;

	if (!ok(!gen(n, 0, &h, &t, &t2h), "transports: generate records"))
		return;
	h2t = calloc(n, sizeof(*h2t));
	if (!ok(h2t != NULL, "transports: memory"))
		goto out;
	for (i = 0; i < n; i++)
		h2t[t2h[i]] = i;
	for (i = 0; i < n; i++) {
		tr = i % 2 ? NTPROF_TRANSPORT_RDMA : NTPROF_TRANSPORT_TCP;
		h[i].transport = tr;
		t[h2t[i]].transport = tr;
		if (!(i % 2))
			continue;
		/* The twin: record i - 1's identity. */
		a = h2t[i];
		b = h2t[i - 1];
		h[i].qid = h[i - 1].qid;
		h[i].cid = h[i - 1].cid;
		h[i].opcode = h[i - 1].opcode;
		h[i].slba = h[i - 1].slba;
		h[i].length = h[i - 1].length;
		t[a].qid = t[b].qid;
		t[a].cid = t[b].cid;
		t[a].opcode = t[b].opcode;
		t[a].slba = t[b].slba;
		t[a].length = t[b].length;
	}
	err = ntprof_join(h, n, t, n, NULL, &j);
	ok(!err && j.matched == n,
	   "transports: every command of either joined (%zu of %zu)",
	   j.matched, n);
	for (i = 0; i < n; i++)
		if (j.match[i] >= n || t2h[j.match[i]] != i)
			wrong++;
	ok(!wrong, "transports: each to its own transport's record (%zu wrong)",
	   wrong);
	ntprof_join_free(&j);

	/* Without twins, whose keys were all pairs. */
	free(h);
	free(t);
	free(t2h);
	if (!ok(!gen(n, 0, &h, &t, &t2h), "transports: generate records"))
		goto out;
	for (i = 0; i < n; i++) {
		h[i].transport = i % 2 ? NTPROF_TRANSPORT_RDMA :
					 NTPROF_TRANSPORT_TCP;
		t[i].transport = NTPROF_TRANSPORT_NONE;
	}
	err = ntprof_join(h, n, t, n, NULL, &j);
	for (i = 0, wrong = 0; !err && i < n; i++)
		if (j.match[i] >= n || t2h[j.match[i]] != i)
			wrong++;
	ok(!err && j.matched == n && !wrong,
	   "transports: a target that could not tell them joins every command (%zu of %zu, %zu wrong)",
	   j.matched, n, wrong);
	ntprof_join_free(&j);

	an = ntprof_analysis_new(&opts);
	for (i = 0; an && i < 20; i++) {
		host_rec(&h[0], i % 2 ? NTPROF_TRANSPORT_RDMA :
					NTPROF_TRANSPORT_TCP, i * 100 * US, 0);
		target_rec(&t[0], h[0].transport, HOURS_3 + i * 100 * US, 0);
		if (ntprof_analysis_add(an, &h[0], &t[0]))
			break;
	}
	if (ok(an && !ntprof_analysis_finish(an) && an->nr_groups == 2,
	       "transports: a group per transport (%zu)",
	       an ? an->nr_groups : 0))
		ok(!strcmp(an->groups[0].label, "read 4KiB nvme0n1 tcp") &&
		   !strcmp(an->groups[1].label, "read 4KiB nvme0n1 rdma") &&
		   an->groups[0].n == 10 &&
		   !strcmp(ntprof_stage_name(NTPROF_STAGE_NETWORK,
					     an->groups[1].transport,
					     an->groups[1].kind, 0),
			   "network (RDMA, NICs, wire)"),
		   "transports: labelled '%s' and '%s', stages named for each",
		   an->groups[0].label, an->groups[1].label);
	ntprof_analysis_free(an);
out:
	free(h2t);
	free(h);
	free(t);
	free(t2h);
}
