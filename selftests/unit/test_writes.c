// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of where a large write's data transfer lands in the stage
 * model (Documentation/stages.rst, Reads, small writes and large writes):
 * from TARGET_R2T (the R2T queued, the RDMA READ posted) to the data's
 * arrival (TARGET_EXEC over TCP, TARGET_DATA over RDMA) it is the
 * network's component "host's data", not the target driver's; reads and
 * in-capsule writes keep their parts. Records with known timestamps go
 * in; the values that must come out are worked out by hand here. Prints
 * TAP; exits 1 if any test failed.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "out/table.h"
#include "tap.h"

#define BIT(n)		(1U << (n))
#define HOURS_3		(3ULL * 3600 * 1000000000ULL)

/*
 * A 128 KiB write (a read with @read). Host: block layer 1000, queue_rq
 * 1500, send 3000, R2T 20000 (TCP writes), receive 150000, driver done
 * 151000, nvme_complete_rq 151500, end 152000.
 */
static void host_rec(struct ntprof_record *r, uint8_t transport, bool read)
{
	memset(r, 0, sizeof(*r));
	r->role = NTPROF_ROLE_HOST;
	r->transport = transport;
	r->opcode = read ? 0x02 : 0x01;
	r->qid = 1;
	r->cid = 9;
	r->nsid = 1;
	r->length = 128 * 1024;
	r->slba = 2048;
	r->ts[NTPROF_PT_HOST_BLK_START] = 1000;
	r->ts[NTPROF_PT_HOST_QUEUE_RQ] = 1500;
	r->ts[NTPROF_PT_HOST_SEND] = 3000;
	if (!read && transport == NTPROF_TRANSPORT_TCP)
		r->ts[NTPROF_PT_HOST_R2T] = 20000;
	r->ts[NTPROF_PT_HOST_RECV] = 150000;
	r->ts[NTPROF_PT_HOST_DRIVER_DONE] = 151000;
	r->ts[NTPROF_PT_HOST_NVME_COMPLETE] = 151500;
	r->ts[NTPROF_PT_HOST_BLK_COMPLETE] = 152000;
}

/*
 * Its target record, on a clock 3 hours ahead: receive 10000, parse
 * 10500, R2T 11000, data 60000 over TCP (the H2C data PDU starts) or
 * 100000 over RDMA (the READ completed), execution 120000, drive 120500
 * to 130500, complete 131000, response queued 132000, then sent 133000
 * (TCP) or its SEND done 134000 (RDMA). @r2t and @data: those points.
 */
static void target_rec(struct ntprof_record *r, uint8_t transport, bool r2t,
		       bool data)
{
	const uint64_t b = HOURS_3;
	bool tcp = transport == NTPROF_TRANSPORT_TCP;

	memset(r, 0, sizeof(*r));
	r->role = NTPROF_ROLE_TARGET;
	r->transport = transport;
	r->opcode = 0x01;
	r->qid = 1;
	r->cid = 9;
	r->nsid = 1;
	r->length = 128 * 1024;
	r->slba = 2048;
	r->ts[NTPROF_PT_TARGET_RECV] = b + 10000;
	r->ts[NTPROF_PT_TARGET_INIT] = b + 10500;
	if (r2t)
		r->ts[NTPROF_PT_TARGET_R2T] = b + 11000;
	if (data)
		r->ts[NTPROF_PT_TARGET_DATA] = b + (tcp ? 60000 : 100000);
	r->ts[NTPROF_PT_TARGET_EXEC] = b + 120000;
	r->ts[NTPROF_PT_TARGET_BLK_ISSUE] = b + 120500;
	r->ts[NTPROF_PT_TARGET_BLK_COMPLETE] = b + 130500;
	r->ts[NTPROF_PT_TARGET_COMPLETE] = b + 131000;
	r->ts[NTPROF_PT_TARGET_QUEUE_RESP] = b + 132000;
	if (tcp)
		r->ts[NTPROF_PT_TARGET_SEND] = b + 133000;
	else
		r->ts[NTPROF_PT_TARGET_SEND_DONE] = b + 134000;
}

static bool comp_is(const struct ntprof_breakdown *bd, int c, int64_t v)
{
	return (bd->has & BIT(c)) && bd->comp[c] == v;
}

/* Each component in a stage, and the stages, add up to the end to end. */
static bool sums_hold(const struct ntprof_breakdown *bd)
{
	int64_t comps = 0, stages = 0;
	int c, s;

	for (c = 0; c < NTPROF_COMP_COUNT; c++)
		if ((bd->has & BIT(c)) && ntprof_comp_stage(c) >= 0)
			comps += bd->comp[c];
	for (s = 0; s < NTPROF_STAGE_COUNT; s++)
		stages += bd->stage[s];
	return comps == bd->comp[NTPROF_COMP_E2E] &&
	       stages == bd->comp[NTPROF_COMP_E2E];
}

static bool none_merged(const struct ntprof_breakdown *bd)
{
	int c;

	for (c = 0; c < NTPROF_COMP_COUNT; c++)
		if (bd->merged[c])
			return false;
	return true;
}

static void t_tcp(void)
{
	struct ntprof_record h, t;
	struct ntprof_breakdown bd;

	host_rec(&h, NTPROF_TRANSPORT_TCP, false);
	target_rec(&t, NTPROF_TRANSPORT_TCP, true, true);
	ok(!ntprof_breakdown(&h, &t, &bd) &&
	   comp_is(&bd, NTPROF_COMP_TGT_DRV_SUB, 1000) &&
	   comp_is(&bd, NTPROF_COMP_HOST_DATA, 109000) &&
	   comp_is(&bd, NTPROF_COMP_WIRE, 24000) && none_merged(&bd),
	   "tcp: R2T -> EXEC is the host's data (109 us), the target driver's submission RECV -> R2T (1 us)");
	ok(bd.stage[NTPROF_STAGE_NETWORK] == 24000 + 109000 + 1000 &&
	   bd.stage[NTPROF_STAGE_TGT_DRV] == 1000 + 2000 &&
	   bd.stage[NTPROF_STAGE_STORAGE] == 11000 &&
	   comp_is(&bd, NTPROF_COMP_E2E, 151000) && sums_hold(&bd),
	   "tcp: the network stage holds it, the stages add up to the end to end");

	/* Without the H2C data PDU's stamp the transfer is the same. */
	target_rec(&t, NTPROF_TRANSPORT_TCP, true, false);
	ok(!ntprof_breakdown(&h, &t, &bd) &&
	   comp_is(&bd, NTPROF_COMP_HOST_DATA, 109000) && none_merged(&bd) &&
	   sums_hold(&bd),
	   "tcp: TARGET_DATA is inside the transfer: without it nothing merges");
}

static void t_rdma(void)
{
	struct ntprof_record h, t;
	struct ntprof_breakdown bd;

	host_rec(&h, NTPROF_TRANSPORT_RDMA, false);
	target_rec(&t, NTPROF_TRANSPORT_RDMA, true, true);
	ok(!ntprof_breakdown(&h, &t, &bd) &&
	   comp_is(&bd, NTPROF_COMP_HOST_DATA, 89000) &&
	   comp_is(&bd, NTPROF_COMP_TGT_DRV_SUB, 1000 + 20000) &&
	   comp_is(&bd, NTPROF_COMP_TGT_DRV_COMP, 1000) &&
	   comp_is(&bd, NTPROF_COMP_WIRE, 25000) &&
	   comp_is(&bd, NTPROF_COMP_DATA_XFER, 2000) && none_merged(&bd),
	   "rdma: the READ, R2T -> DATA, is the host's data (89 us); the target's work before and after it its own (21 us)");
	ok(bd.stage[NTPROF_STAGE_NETWORK] == 25000 + 89000 + 1000 &&
	   bd.stage[NTPROF_STAGE_TGT_DRV] == 21000 + 1000 && sums_hold(&bd),
	   "rdma: the stages add up to the end to end");

	/* Without the READ's post: the transfer stays in the target driver. */
	target_rec(&t, NTPROF_TRANSPORT_RDMA, false, true);
	ok(!ntprof_breakdown(&h, &t, &bd) &&
	   comp_is(&bd, NTPROF_COMP_TGT_DRV_SUB, 110000) &&
	   !(bd.has & BIT(NTPROF_COMP_HOST_DATA)) &&
	   bd.merged[NTPROF_COMP_TGT_DRV_SUB] == BIT(NTPROF_COMP_HOST_DATA) &&
	   sums_hold(&bd),
	   "rdma: without TARGET_R2T the host's data is merged into the target driver's submission");
	/* Without the READ's completion: the transfer runs to EXEC. */
	target_rec(&t, NTPROF_TRANSPORT_RDMA, true, false);
	ok(!ntprof_breakdown(&h, &t, &bd) &&
	   comp_is(&bd, NTPROF_COMP_HOST_DATA, 109000) &&
	   comp_is(&bd, NTPROF_COMP_TGT_DRV_SUB, 1000) &&
	   bd.merged[NTPROF_COMP_HOST_DATA] == BIT(NTPROF_COMP_TGT_DRV_SUB) &&
	   sums_hold(&bd),
	   "rdma: without TARGET_DATA the target's work after the READ is merged into the host's data");
}

/* Reads and in-capsule writes: no transfer, nothing merged. */
static void t_no_transfer(void)
{
	struct ntprof_record h, t;
	struct ntprof_breakdown bd;

	host_rec(&h, NTPROF_TRANSPORT_TCP, true);
	target_rec(&t, NTPROF_TRANSPORT_TCP, false, false);
	t.opcode = 0x02;
	ok(!ntprof_breakdown(&h, &t, &bd) &&
	   comp_is(&bd, NTPROF_COMP_TGT_DRV_SUB, 110000) &&
	   !(bd.has & BIT(NTPROF_COMP_HOST_DATA)) && none_merged(&bd) &&
	   sums_hold(&bd),
	   "a read: the target driver's submission RECV -> EXEC, no host's data");
	/* nvmet-tcp stamps TARGET_DATA for in-capsule data too. */
	host_rec(&h, NTPROF_TRANSPORT_TCP, false);
	h.ts[NTPROF_PT_HOST_R2T] = 0;
	target_rec(&t, NTPROF_TRANSPORT_TCP, false, true);
	ok(!ntprof_breakdown(&h, &t, &bd) &&
	   comp_is(&bd, NTPROF_COMP_TGT_DRV_SUB, 110000) &&
	   !(bd.has & BIT(NTPROF_COMP_HOST_DATA)) && none_merged(&bd) &&
	   sums_hold(&bd),
	   "an in-capsule write over TCP: its data's receive stays the target driver's");
	host_rec(&h, NTPROF_TRANSPORT_RDMA, false);
	target_rec(&t, NTPROF_TRANSPORT_RDMA, false, false);
	ok(!ntprof_breakdown(&h, &t, &bd) &&
	   !(bd.has & BIT(NTPROF_COMP_HOST_DATA)) && none_merged(&bd) &&
	   sums_hold(&bd),
	   "an inline write over RDMA: no host's data, nothing merged");
}

/* One side alone. */
static void t_one_side(void)
{
	struct ntprof_record h, t;
	struct ntprof_breakdown bd;

	target_rec(&t, NTPROF_TRANSPORT_TCP, true, true);
	ok(!ntprof_breakdown(NULL, &t, &bd) &&
	   comp_is(&bd, NTPROF_COMP_HOST_DATA, 109000) &&
	   bd.stage[NTPROF_STAGE_NETWORK] == 109000 &&
	   bd.stage[NTPROF_STAGE_TGT_DRV] == 3000 &&
	   comp_is(&bd, NTPROF_COMP_E2E, 123000) && sums_hold(&bd),
	   "target alone: its window is the target driver, the host's data and storage");
	ok(!strcmp(ntprof_stage_name(NTPROF_STAGE_NETWORK,
				     NTPROF_TRANSPORT_TCP, NTPROF_KIND_TARGET,
				     0), "network (the host's data)"),
	   "target alone: the network stage's name");
	/* The host alone: its wait holds the R2T's round trip, unsplit. */
	host_rec(&h, NTPROF_TRANSPORT_TCP, false);
	ok(!ntprof_breakdown(&h, NULL, &bd) &&
	   comp_is(&bd, NTPROF_COMP_NET_TARGET, 147000) &&
	   !(bd.has & BIT(NTPROF_COMP_HOST_DATA)) && none_merged(&bd) &&
	   sums_hold(&bd),
	   "host alone: the host's data is inside network and target");
}

static void t_names(void)
{
	ok(!strcmp(ntprof_comp_name(NTPROF_COMP_HOST_DATA,
				    NTPROF_TRANSPORT_TCP, 0),
		   "network: host's data (R2T, H2C data)") &&
	   !strcmp(ntprof_comp_name(NTPROF_COMP_HOST_DATA,
				    NTPROF_TRANSPORT_RDMA, 0),
		   "network: host's data (RDMA READ)") &&
	   !strcmp(ntprof_comp_name(NTPROF_COMP_HOST_DATA,
				    NTPROF_TRANSPORT_NONE, 0),
		   "network: host's data (write)") &&
	   !strcmp(ntprof_comp_id(NTPROF_COMP_HOST_DATA),
		   "network_host_data_transfer") &&
	   ntprof_comp_stage(NTPROF_COMP_HOST_DATA) == NTPROF_STAGE_NETWORK,
	   "the component's names per transport, id and stage");
}

/* Four RDMA writes in a group: the tables of --detail. */
static void t_group(void)
{
	struct ntprof_analysis_opts opts = { .duration_ns = 1000000000ULL };
	struct ntprof_analysis *an = ntprof_analysis_new(&opts);
	const struct ntprof_group *g;
	struct ntprof_record h, t;
	char *out = NULL, want[256];
	size_t len;
	FILE *f;
	int i;

	if (!ok(an != NULL, "group: an analysis"))
		return;
	for (i = 0; i < 4; i++) {
		host_rec(&h, NTPROF_TRANSPORT_RDMA, false);
		target_rec(&t, NTPROF_TRANSPORT_RDMA, true, true);
		h.cid = t.cid = i;
		ntprof_analysis_add(an, &h, &t);
	}
	ntprof_analysis_finish(an);
	g = &an->groups[0];
	ok(an->nr_groups == 1 && g->comp[NTPROF_COMP_HOST_DATA].n == 4 &&
	   g->stage_mean[NTPROF_STAGE_TGT_DRV] == 22000 &&
	   g->stage_mean[NTPROF_STAGE_NETWORK] == 115000 &&
	   g->largest == NTPROF_STAGE_NETWORK,
	   "group: the target driver 22 us, the network 115 us with the READ, the largest");
	f = open_memstream(&out, &len);
	if (!f) {
		ok(false, "group: its tables printed");
		ntprof_analysis_free(an);
		return;
	}
	ntprof_print_group(f, an, g, true);
	fclose(f);
	snprintf(want, sizeof(want), "  %-41s%6d%10.2f%8.2f%10.2f%10.2f",
		 "network: host's data (RDMA READ)", 4, 89.0,
		 g->comp_qd[NTPROF_COMP_HOST_DATA], 89.0, 89.0);
	ok(tap_has_line(out, want), "group: --detail's row of the host's data");
	ok(strstr(out, "  target driver, submission") <
	   strstr(out, "  network: host's data (RDMA READ)") &&
	   strstr(out, "  network: host's data (RDMA READ)") <
	   strstr(out, "  storage: target block layer"),
	   "group: the row after the target driver's submission, in path order");
	if (failed)
		printf("# output:\n%s", out);
	free(out);
	ntprof_analysis_free(an);
}

static const struct tap_case cases[] = {
	{ "tcp", t_tcp },
	{ "rdma", t_rdma },
	{ "no_transfer", t_no_transfer },
	{ "one_side", t_one_side },
	{ "names", t_names },
	{ "group", t_group },
};

int main(int argc, char *argv[])
{
	return tap_main(argc, argv, "test_writes", cases, TAP_NR_CASES(cases));
}
