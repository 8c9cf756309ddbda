// SPDX-License-Identifier: GPL-2.0
/*
 * Chains (tools/ntprof/lib/analysis/chain.h): the links of a middle's
 * downstream records to its upstream ones on records built here, then
 * whole runs written as .ntp files of three machines (origin host h,
 * middle m with its two recordings, replicas r), each on its own clock:
 * every origin command followed to its leaves, its stages summing to
 * its end to end, the middle's own time, the critical leg, and the one
 * line that names a missing piece or a file that cannot be linked.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/chain.h"
#include "analysis/recording.h"
#include "chain_test.h"
#include "tap.h"

static char dir[256] = "/tmp/ntprof-chain-XXXXXX";

/* Part 1: ntprof_chain_link() alone. */

static void up_rec(struct ntprof_record *r, uint8_t opcode, uint64_t slba,
		   uint32_t len, uint64_t exec, uint64_t complete)
{
	chain_test_rec(r, NTPROF_ROLE_TARGET, opcode, slba, len);
	r->ts[NTPROF_PT_TARGET_RECV] = exec - 1000;
	r->ts[NTPROF_PT_TARGET_INIT] = exec - 500;
	r->ts[NTPROF_PT_TARGET_EXEC] = exec;
	r->ts[NTPROF_PT_TARGET_COMPLETE] = complete;
	r->ts[NTPROF_PT_TARGET_SEND] = complete + 500;
}

static void down_rec(struct ntprof_record *r, uint8_t opcode, uint64_t slba,
		     uint32_t len, uint64_t first, uint64_t last)
{
	chain_test_rec(r, NTPROF_ROLE_HOST, opcode, slba, len);
	r->ts[NTPROF_PT_HOST_BLK_START] = first;
	r->ts[NTPROF_PT_HOST_SEND] = first + 100;
	r->ts[NTPROF_PT_HOST_RECV] = last - 100;
	r->ts[NTPROF_PT_HOST_BLK_COMPLETE] = last;
}

static void test_link(void)
{
	struct ntprof_record up[6], down[12];
	struct ntprof_chain_side us = { up, 6, 0 }, ds = { down, 12, 2048 };
	struct ntprof_chain_links l;
	int err;

	up_rec(&up[0], 0x01, 100, 4096, 1000, 5000);
	up_rec(&up[1], 0x02, 200, 4096, 2000, 6000);
	/* Two writes of one range at once: what they cause is ambiguous. */
	up_rec(&up[2], 0x01, 300, 4096, 10000, 20000);
	up_rec(&up[3], 0x01, 300, 4096, 10500, 21000);
	/* A long write, and a short one of its range inside it. */
	up_rec(&up[4], 0x01, 400, 4096, 30000, 50000);
	up_rec(&up[5], 0x01, 400, 4096, 31000, 32000);
	/* Two replicas of up[0], the second one started first. */
	down_rec(&down[0], 0x01, 2148, 4096, 1300, 4000);
	down_rec(&down[1], 0x01, 2148, 4096, 1200, 4500);
	down_rec(&down[2], 0x02, 2248, 4096, 2100, 5900);
	down_rec(&down[3], 0x01, 2348, 4096, 11000, 19000);
	/* Below the offset: the member's superblock. */
	down_rec(&down[4], 0x01, 8, 4096, 1300, 4000);
	/* up[0]'s range, outside its time. */
	down_rec(&down[5], 0x01, 2148, 4096, 5500, 7000);
	/* Its range and time, another op; another length. */
	down_rec(&down[6], 0x02, 2148, 4096, 1300, 4000);
	down_rec(&down[7], 0x01, 2148, 8192, 1300, 4000);
	/* A flush: no range, never linked. */
	down_rec(&down[8], 0x00, 0, 0, 1300, 4000);
	/* Write zeroes counts as a write; in up[0] exactly, at its edges. */
	down_rec(&down[9], 0x08, 2148, 4096, 1000, 5000);
	/* Past the short write's end: the long one's. */
	down_rec(&down[10], 0x01, 2448, 4096, 31500, 40000);
	/* Started before up[0] executed: not its. */
	down_rec(&down[11], 0x01, 2148, 4096, 900, 4000);

	err = ntprof_chain_link(&us, 1, &ds, 1, &l);
	ok(!err, "ntprof_chain_link() on 6 upstream, 12 downstream records");
	if (err)
		return;
	ok(l.up[0] == 0 && l.up[1] == 0 && l.up[9] == 0,
	   "both replicas of a write and a write zeroes link to it (%u %u %u)",
	   l.up[0], l.up[1], l.up[9]);
	ok(l.up[2] == 1, "the read links to the read");
	ok(l.up[10] == 4,
	   "a write ending after a write of its range links to the one that holds it");
	ok(l.state[3] == NTPROF_CHAIN_AMBIGUOUS && l.up[3] == NTPROF_CHAIN_NONE,
	   "a write inside two writes of its range is ambiguous, not linked");
	ok(l.state[4] == NTPROF_CHAIN_NO_UPSTREAM &&
	   l.state[5] == NTPROF_CHAIN_NO_UPSTREAM &&
	   l.state[6] == NTPROF_CHAIN_NO_UPSTREAM &&
	   l.state[7] == NTPROF_CHAIN_NO_UPSTREAM &&
	   l.state[11] == NTPROF_CHAIN_NO_UPSTREAM,
	   "superblock, ending or starting outside the time, another op, another length: no upstream");
	ok(l.state[8] == NTPROF_CHAIN_OUTSIDE, "a flush is outside the links");
	ok(l.linked == 5 && l.ambiguous == 1 && l.no_upstream == 5 &&
	   l.outside == 1, "counted: 5 linked, 1 ambiguous, 5 no upstream, 1 outside (%" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 ")",
	   l.linked, l.ambiguous, l.no_upstream, l.outside);
	ok(l.first[1] - l.first[0] == 3 && l.down[l.first[0]] == 9 &&
	   l.down[l.first[0] + 1] == 1 && l.down[l.first[0] + 2] == 0,
	   "the write's downstream records, by their first points: 9 1 0");
	ok(l.first[2] - l.first[1] == 1 && l.first[3] == l.first[2] &&
	   l.first[4] == l.first[3], "one for the read, none for the ambiguous");
	ntprof_chain_links_free(&l);
}

/*
 * Splits: a 128 KiB write (256 LBAs of 512 bytes) reaching two legs as
 * two 64 KiB parts each (devices 1 and 2), and another one of which a
 * leg got a single 64 KiB part, which tiles nothing.
 */
static void test_split(void)
{
	struct ntprof_record up[2], down[6];
	struct ntprof_chain_side us = { up, 2, 0 }, ds = { down, 6, 2048 };
	struct ntprof_chain_links l;
	int i, err;

	up_rec(&up[0], 0x01, 1000, 131072, 1000, 9000);
	up_rec(&up[1], 0x01, 5000, 131072, 1000, 9000);
	for (i = 0; i < 4; i++) {
		down_rec(&down[i], 0x01, 2048 + 1000 + (uint64_t)(i % 2) * 128,
			 65536, 2000 + (uint64_t)i * 100, 8000);
		down[i].dev = 1 + (uint32_t)(i / 2);
	}
	down_rec(&down[4], 0x01, 2048 + 5000, 65536, 2000, 8000);
	/* Inside the first write's range, but not at a part's place. */
	down_rec(&down[5], 0x01, 2048 + 1064, 65536, 2000, 8000);
	down[5].dev = 3;

	err = ntprof_chain_link(&us, 1, &ds, 1, &l);
	ok(!err && l.up[0] == 0 && l.up[1] == 0 && l.up[2] == 0 &&
	   l.up[3] == 0 && l.linked == 4 && l.split == 4,
	   "the parts of a split on two legs link to their write, as parts");
	ok(!err && l.state[4] == NTPROF_CHAIN_NO_UPSTREAM &&
	   l.state[5] == NTPROF_CHAIN_NO_UPSTREAM && l.no_upstream == 2,
	   "a single part, and a part out of place, tile nothing: no upstream");
	ntprof_chain_links_free(&l);
}

/* Part 2: runs of files. Times are true times; each machine adds its clock. */

#define W	10000		/* each way on the wire */
#define M1	3000		/* the middle, before its leg */
#define M2	1000		/* and after */
#define OFFSET	2048		/* the replicas' data offset, LBAs */
#define N_CMDS	6

enum { MH, MM, MR };
static const uint64_t clock_of[] = { 1000000000ULL, 6000000000ULL,
				     9000000000ULL };

struct side {
	struct ntprof_record *v;
	size_t n;
};

static struct side hs, ts, ds, rs;

static struct ntprof_record *push(struct side *s)
{
	s->v = realloc(s->v, (s->n + 1) * sizeof(*s->v));
	if (!s->v)
		abort();
	memset(&s->v[s->n], 0, sizeof(*s->v));
	return &s->v[s->n++];
}

/*
 * A hop: a host record of machine @hm sent at @t0, its target record on
 * @tm with @inner ns from EXEC to COMPLETE. Returns the true EXEC.
 */
static uint64_t hop(struct ntprof_record *h, struct ntprof_record *t, int hm,
		    int tm, uint64_t t0, uint64_t inner, uint16_t qid,
		    uint16_t cid, uint8_t opcode, uint64_t slba, uint32_t dev_h,
		    uint32_t dev_t)
{
	uint64_t ch = clock_of[hm], ct = clock_of[tm], e, s;

	h->role = NTPROF_ROLE_HOST;
	t->role = NTPROF_ROLE_TARGET;
	h->transport = t->transport = NTPROF_TRANSPORT_TCP;
	h->qid = t->qid = qid;
	h->cid = t->cid = cid;
	h->opcode = t->opcode = opcode;
	h->nsid = t->nsid = 1;
	h->slba = t->slba = slba;
	h->length = t->length = 4096;
	h->flags = t->flags = NTPROF_REC_F_SAMPLED;
	h->dev = dev_h;
	t->dev = dev_t;
	h->ts[NTPROF_PT_HOST_BLK_START] = ch + t0;
	h->ts[NTPROF_PT_HOST_QUEUE_RQ] = ch + t0 + 500;
	h->ts[NTPROF_PT_HOST_SETUP] = ch + t0 + 1000;
	h->ts[NTPROF_PT_HOST_SEND] = ch + t0 + 2000;
	t->ts[NTPROF_PT_TARGET_RECV] = ct + t0 + 2000 + W;
	t->ts[NTPROF_PT_TARGET_INIT] = ct + t0 + 2500 + W;
	e = t0 + 3000 + W;
	t->ts[NTPROF_PT_TARGET_EXEC] = ct + e;
	t->ts[NTPROF_PT_TARGET_COMPLETE] = ct + e + inner;
	t->ts[NTPROF_PT_TARGET_QUEUE_RESP] = ct + e + inner + 500;
	s = e + inner + 1000;
	t->ts[NTPROF_PT_TARGET_SEND] = ct + s;
	h->ts[NTPROF_PT_HOST_RECV] = ch + s + W;
	h->ts[NTPROF_PT_HOST_DRIVER_DONE] = ch + s + W + 500;
	h->ts[NTPROF_PT_HOST_NVME_COMPLETE] = ch + s + W + 1000;
	h->ts[NTPROF_PT_HOST_BLK_COMPLETE] = ch + s + W + 1500;
	return e;
}

/* A hop's host end to end for a target's @inner. */
static uint64_t hop_e2e(uint64_t inner)
{
	return inner + 2 * W + 5500;
}

/*
 * Leg 0's replica is fast, leg 1's slow (writes: the critical one), and
 * for one write (command 4) 400 us slower still: the tail.
 */
static const uint64_t leg_inner[2] = { 20000, 50000 };

static void build(void)
{
	uint64_t t0, e, inner, d0, slow;
	struct ntprof_record *h, *t, *d, *r;
	int i, j, legs;
	uint8_t op;

	for (i = 0; i < N_CMDS; i++) {
		/* Writes, and every third command a read served by leg 0. */
		op = i % 3 == 2 ? 0x02 : 0x01;
		legs = op == 0x01 ? 2 : 1;
		slow = i == 4 ? 400000 : 0;
		inner = M1 + hop_e2e(leg_inner[legs - 1] + slow) + M2;
		t0 = 1000000 + (uint64_t)i * 1000000;
		h = push(&hs);
		t = push(&ts);
		e = hop(h, t, MH, MM, t0, inner, 1, (uint16_t)i, op,
			100 + 8 * (uint64_t)i, 0x10300000, 0x900001);
		for (j = 0; j < legs; j++) {
			d = push(&ds);
			r = push(&rs);
			d0 = e + M1;
			hop(d, r, MM, MR, d0, leg_inner[j] + (j ? slow : 0), 2,
			    (uint16_t)(100 + 2 * i + j), op,
			    OFFSET + 100 + 8 * (uint64_t)i,
			    0x10300001 + (uint32_t)j, 0x1100000 + (uint32_t)j);
		}
	}
	/* A resync write of the middle's own: no upstream. */
	d = push(&ds);
	r = push(&rs);
	hop(d, r, MM, MR, 30000000, 20000, 2, 999, 0x01, 8, 0x10300001,
	    0x1100000);
}

static const char *names[] = { "h.ntp", "mt.ntp", "mh.ntp", "rt.ntp" };
/* The -s of the middle's host recording: 1 as every other file's. */
static uint32_t mh_sample = 1;

static void write_file(const char *name, const char *host, uint8_t role,
		       int machine, uint8_t chain, uint64_t offset,
		       const struct side *s, const struct ntp_dev *devs,
		       uint32_t nr_devs, const struct ntp_ctrl *ctrls,
		       uint32_t nr_ctrls)
{
	struct ntp_header hdr = {
		.role = role, .transport = NTPROF_TRANSPORT_TCP,
		.sample = !strcmp(name, names[2]) ? mh_sample : 1,
		.nr_cpus = 2, .start_mono_ns = clock_of[machine],
		.start_real_ns = 1700000000000000000ULL,
		.chain = chain, .chain_offset = offset,
		.devs = devs, .nr_devs = nr_devs,
		.ctrls = ctrls, .nr_ctrls = nr_ctrls,
	};
	struct ntp_trailer tr = { .end_mono_ns = clock_of[machine] + 40000000,
				  .end_real_ns = 1700000000040000000ULL };
	struct ntp_writer *w;

	snprintf(hdr.hostname, sizeof(hdr.hostname), "%s", host);
	snprintf(hdr.boot_id, sizeof(hdr.boot_id), "boot-of-%s", host);
	snprintf(hdr.kernel_release, sizeof(hdr.kernel_release), "6.12.0");
	snprintf(hdr.tool_version, sizeof(hdr.tool_version), "test");
	if (ntp_writer_open(tap_path(dir, name), &hdr, &w) ||
	    ntp_writer_append(w, s->v, s->n) || ntp_writer_close(w, &tr)) {
		printf("Bail out! cannot write %s\n", name);
		exit(1);
	}
}

static void write_all(uint8_t mh_chain)
{
	static const struct ntp_dev hdevs[] = { { 0x10300000, "nvme0n1" } };
	static const struct ntp_dev mtdevs[] = { { 0x900001, "md0" } };
	static const struct ntp_dev mhdevs[] = { { 0x10300001, "nvme1n1" },
						 { 0x10300002, "nvme2n1" } };
	static const struct ntp_dev rdevs[] = { { 0x1100000, "nullb0" },
						{ 0x1100001, "nullb1" } };

	write_file(names[0], "h", NTPROF_ROLE_HOST, MH, 1, 0, &hs, hdevs, 1,
		   NULL, 0);
	write_file(names[1], "m", NTPROF_ROLE_TARGET, MM, 1, 0, &ts, mtdevs, 1,
		   NULL, 0);
	write_file(names[2], "m", NTPROF_ROLE_HOST, MM, mh_chain, OFFSET, &ds,
		   mhdevs, 2, NULL, 0);
	write_file(names[3], "r", NTPROF_ROLE_TARGET, MR, 1, OFFSET, &rs,
		   rdevs, 2, NULL, 0);
}

static int load(struct recording_run *run, int skip)
{
	char *paths[4];
	int i, n = 0;

	for (i = 0; i < 4; i++)
		if (i != skip)
			paths[n++] = (char *)tap_path(dir, names[i]);
	return recording_run_load(run, "report", paths, (size_t)n, 0);
}

struct walk {
	const struct recording_run *run;
	int n, followed, sums, middle_ok, critical_ok, hops_ok;
	char first_line[1024];
};

static int walk_cmd(const struct ntprof_chain_cmd *c, void *arg)
{
	struct walk *w = arg;
	const struct ntprof_record *leaf;
	int64_t sum = 0, middle = -1;
	size_t k;

	if (!w->n++) {
		FILE *f = fmemopen(w->first_line, sizeof(w->first_line), "w");

		if (f) {
			ntprof_chain_cmd_print(f, w->run, c);
			fclose(f);
		}
	}
	if (!c->followed)
		return 0;
	w->followed++;
	for (k = 0; k < c->nr_stages; k++) {
		sum += c->stages[k].ns;
		if (c->stages[k].stage == NTPROF_CHAIN_STAGE_MIDDLE)
			middle = c->stages[k].ns;
	}
	w->sums += sum == c->e2e_ns;
	w->middle_ok += middle == M1 + M2;
	w->hops_ok += c->hops == 2 && c->stages[c->nr_stages - 1].hop == 2 &&
		      c->stages[c->nr_stages - 1].stage == NTPROF_STAGE_STORAGE;
	/* The critical leaf's replica: the slow one for a write. */
	leaf = &w->run->files[c->node[c->critical_leaf].target.file]
			.recs[c->node[c->critical_leaf].target.idx];
	w->critical_ok += leaf->dev == (c->nr == 3 ? 0x1100001U : 0x1100000U);
	return 0;
}

static bool has_note(const struct recording_run *run, const char *words)
{
	size_t i;

	for (i = 0; run->chain && i < run->chain->nr_notes; i++)
		if (strstr(run->chain->notes[i], words))
			return true;
	return false;
}

static void test_run(void)
{
	struct recording_run run;
	struct walk w = { .run = &run };
	char want[1024];
	size_t g;
	int err;

	build();
	write_all(1);
	err = load(&run, -1);
	ok(!err, "a run of h, m (target and host) and r loads");
	if (err)
		return;
	ok(ntprof_chain_present(&run) && run.chain->nr_mid == 1 &&
	   run.files[2].leg && !run.files[0].leg,
	   "m is a middle, its host recording a leg");
	ok(run.chain->linked == 10 && run.chain->no_upstream == 1 &&
	   run.chain->ambiguous == 0,
	   "10 downstream commands linked, the resync has no upstream (%" PRIu64 ", %" PRIu64 ")",
	   run.chain->linked, run.chain->no_upstream);
	for (g = 0; g < run.an->nr_groups; g++)
		if (run.an->groups[g].dev != 0x10300000)
			break;
	ok(run.an->nr_groups && g == run.an->nr_groups,
	   "only the origin host's commands make groups");
	ntprof_chain_each(&run, walk_cmd, &w);
	ok(w.n == N_CMDS && w.followed == N_CMDS,
	   "every origin command followed to its leaf (%d of %d)", w.followed,
	   w.n);
	ok(w.sums == N_CMDS, "the stages sum to the end to end");
	ok(w.middle_ok == N_CMDS, "the middle's own time, before and after its leg");
	ok(w.hops_ok == N_CMDS, "two hops, the replica's storage last");
	ok(w.critical_ok == N_CMDS,
	   "the critical leg: the slow replica for writes, the read's one");
	snprintf(want, sizeof(want),
		 "1:%s#0>%s#0* 2:%s#0>%s#0 2:%s#1>%s#1*\n",
		 tap_path(dir, names[0]), tap_path(dir, names[1]),
		 tap_path(dir, names[2]), tap_path(dir, names[3]),
		 tap_path(dir, names[2]), tap_path(dir, names[3]));
	ok(!strcmp(w.first_line, want), "the first command's tree: %s",
	   w.first_line);
	ok(run.chain->nr_notes == 0, "no note for a whole chain");
	recording_run_free(&run);

	/* Without the replicas: what joins, and one line for what not. */
	err = load(&run, 3);
	ok(!err && has_note(&run, "missing: the replicas' target recordings") &&
	   run.chain->nr_notes == 1,
	   "without the replicas: one line names what is missing");
	recording_run_free(&run);

	/* Without the middle's host side: r's commands came from nowhere. */
	err = load(&run, 2);
	ok(!err && !ntprof_chain_present(&run) &&
	   has_note(&run, "missing: the host recording that sent") &&
	   run.chain->nr_notes == 1,
	   "without the middle's host side: one line names what is missing");
	recording_run_free(&run);

	/* The middle's host side without the chain rule: never linked. */
	write_all(0);
	err = load(&run, -1);
	ok(!err && has_note(&run, "not linked: ") && run.chain->linked == 0,
	   "a middle's file without --chain is not linked, and named");
	w = (struct walk){ .run = &run };
	ntprof_chain_each(&run, walk_cmd, &w);
	ok(w.n == N_CMDS && w.followed == 0,
	   "and no command is followed past it");
	recording_run_free(&run);

	/* The middle's host side at another -s: never linked, named. */
	mh_sample = 2;
	write_all(1);
	mh_sample = 1;
	err = load(&run, -1);
	ok(!err && has_note(&run, "sampled one command in 1") &&
	   has_note(&run, "one in 2") && run.chain->linked == 0 &&
	   run.an->nr_host == N_CMDS,
	   "a middle's file of another -s is not linked, and named; the run reports");
	recording_run_free(&run);

	/*
	 * Without the chain rule anywhere, a machine's two roles are a hop
	 * over loopback: its host records make groups, as ever.
	 */
	write_file(names[1], "m", NTPROF_ROLE_TARGET, MM, 0, 0, &ts, NULL, 0,
		   NULL, 0);
	write_file(names[2], "m", NTPROF_ROLE_HOST, MM, 0, OFFSET, &ds, NULL,
		   0, NULL, 0);
	write_file(names[3], "r", NTPROF_ROLE_TARGET, MR, 0, OFFSET, &rs, NULL,
		   0, NULL, 0);
	err = load(&run, 0);
	ok(!err && !ntprof_chain_present(&run) && !run.files[1].leg &&
	   run.an->nr_host == 11 && run.an->nr_groups > 0,
	   "without the chain rule, a machine's two roles are no middle");
	recording_run_free(&run);

	/* A chain's host recording alone: its groups, and no note. */
	write_all(1);
	{
		char *one = (char *)tap_path(dir, names[0]);

		err = recording_run_load(&run, "report", &one, 1, 0);
	}
	ok(!err && run.an->nr_host == N_CMDS && run.chain->nr_notes == 0,
	   "the origin host's recording alone reports, with no note");
	recording_run_free(&run);
	/* KEEP_TMP keeps the whole chain, to report by hand. */
	write_all(1);
}

/*
 * A host and its target on one machine, both recorded with the chain
 * rule, the host's controller naming the target's subsystem: a hop over
 * loopback, as the lab's one guest runs it. Its host records join the
 * target's and make groups; no middle, no note.
 */
static void test_loopback(void)
{
	static const struct ntp_ctrl hc[] = { { .dev = 0x10300000, .nsid = 1,
						.subsysnqn = "nqn.lo" } };
	static const struct ntp_ctrl tc[] = { { .dev = 0x900001, .nsid = 1,
						.subsysnqn = "nqn.lo" } };
	static const struct ntp_ctrl other[] = { { .dev = 0x10300000,
						   .nsid = 1,
						   .subsysnqn = "nqn.far" } };
	struct side lh = { NULL, 0 }, lt = { NULL, 0 };
	struct recording_run run;
	char *paths[2];
	int i, err;

	for (i = 0; i < N_CMDS; i++)
		hop(push(&lh), push(&lt), MM, MM, 1000000 + i * 1000000ULL,
		    20000, 1, (uint16_t)i, 0x02, 100 + 8 * (uint64_t)i,
		    0x10300000, 0x900001);
	write_file(names[1], "m", NTPROF_ROLE_TARGET, MM, 1, 0, &lt, NULL, 0,
		   tc, 1);
	write_file(names[2], "m", NTPROF_ROLE_HOST, MM, 1, 0, &lh, NULL, 0,
		   hc, 1);
	paths[0] = strdup(tap_path(dir, names[2]));
	paths[1] = strdup(tap_path(dir, names[1]));
	err = recording_run_load(&run, "report", paths, 2, 0);
	ok(!err && !ntprof_chain_present(&run) && !run.files[0].leg &&
	   run.matched == N_CMDS && run.an->nr_groups > 0 &&
	   run.chain->nr_notes == 0,
	   "one machine's host over loopback to its own target, with the chain rule: a hop, every record joined, no middle");
	recording_run_free(&run);

	/* The same machine's host naming another machine's subsystem. */
	write_file(names[2], "m", NTPROF_ROLE_HOST, MM, 1, 0, &lh, NULL, 0,
		   other, 1);
	err = recording_run_load(&run, "report", paths, 2, 0);
	ok(!err && ntprof_chain_present(&run) && run.files[0].leg,
	   "the same files, the host naming a subsystem its machine does not export: a middle");
	recording_run_free(&run);
	free(paths[0]);
	free(paths[1]);
	free(lh.v);
	free(lt.v);
}

/*
 * test_chain --write DIR: the whole chain's four files in DIR (which
 * must exist), for test_chain_views.sh to report; no test.
 */
static int write_to(const char *path)
{
	snprintf(dir, sizeof(dir), "%s", path);
	build();
	write_all(1);
	return 0;
}

static const struct tap_case cases[] = {
	{ "link", test_link },
	{ "split", test_split },
	{ "run", test_run },
	{ "loopback", test_loopback },
};

int main(int argc, char *argv[])
{
	if (argc == 3 && !strcmp(argv[1], "--write"))
		return write_to(argv[2]);
	if (tap_args(argc, argv, cases, TAP_NR_CASES(cases)) != argc)
		tap_usage("test_chain");
	printf("TAP version 13\n");
	if (!mkdtemp(dir)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	tap_run(cases, TAP_NR_CASES(cases));
	tap_rmdir(dir, names, 4);
	free(hs.v);
	free(ts.v);
	free(ds.v);
	free(rs.v);
	return tap_done("test_chain");
}
