// SPDX-License-Identifier: GPL-2.0
/*
 * test_analysis's groups of commands and what is printed of them: the
 * throughput over the recording's length, the means and shares of a
 * group, groups by device and label, passthrough commands, and the
 * tables, live lines and JSON that the report prints, row by row.
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
#include "out/live.h"
#include "out/report_json.h"
#include "out/table.h"
#include "tap.h"

/* A 10 s recording whose commands span 5 s: both rates are printed. */
void t_throughput_span(void)
{
	struct ntprof_analysis_opts opts = {
		.sample = 100, .duration_ns = 10000000000ULL,
	};
	struct ntprof_analysis *an = ntprof_analysis_new(&opts);
	struct ntprof_record h, t;
	unsigned int i;
	FILE *f;

	for (i = 0; an && i < 100; i++) {
		host_rec(&h, NTPROF_TRANSPORT_TCP, i * 50000 * US, 0);
		target_rec(&t, NTPROF_TRANSPORT_TCP, HOURS_3 + i * 50000 * US, 0);
		if (ntprof_analysis_add(an, &h, &t))
			an = NULL;
	}
	if (!ok(an && !ntprof_analysis_finish(an), "throughput: the analysis"))
		return;
	f = out_open();
	ntprof_print_throughput(f, an);
	fclose(f);
	ok(tap_has_line(out_buf,
			"throughput (estimated from the sampled commands): read 1.0 kIOPS, 4.1 MB/s") &&
	   tap_has_line(out_buf,
			"  over the 5.0 s that had commands: read 2.0 kIOPS, 8.3 MB/s"),
	   "throughput: over the recording, and over the span with commands");
	ntprof_analysis_free(an);
}

void t_group(void)
{
	struct ntprof_analysis *an = analysis_ref(1000);
	const struct ntprof_group *g;

	if (!ok(an && an->nr_groups == 1, "group: 1000 commands, one group"))
		return;
	g = &an->groups[0];
	ok(!strcmp(g->label, "read 4KiB nvme0n1") && g->n == 1000 &&
	   g->n_joined == 1000 && g->kind == NTPROF_KIND_JOINED,
	   "group: label '%s', all joined", g->label);
	ok(near(g->rate, 10000),
	   "group: rate = n x N / duration = 1000 x 100 / 10 s = 10000/s (%g)",
	   g->rate);
	ok(near(g->comp[NTPROF_COMP_E2E].mean, 61000) &&
	   near(g->comp[NTPROF_COMP_E2E].p50, 61000) &&
	   near(g->comp[NTPROF_COMP_E2E].p99, 71000),
	   "group: end to end mean 61 us, p50 61 us, p99 71 us");
	ok(near(g->stage_mean[NTPROF_STAGE_HOST_BLK], 1000) &&
	   near(g->stage_mean[NTPROF_STAGE_HOST_DRV], 2000) &&
	   near(g->stage_mean[NTPROF_STAGE_NETWORK], 14000) &&
	   near(g->stage_mean[NTPROF_STAGE_TGT_DRV], 3000) &&
	   near(g->stage_mean[NTPROF_STAGE_STORAGE], 41000),
	   "group: stage means 1, 2, 14, 3, 41 us");
	ok(near(g->stage_share[NTPROF_STAGE_STORAGE], 100.0 * 41 / 61) &&
	   near(g->stage_share[NTPROF_STAGE_NETWORK], 100.0 * 14 / 61),
	   "group: shares of the end to end mean (storage %.3f %%)",
	   g->stage_share[NTPROF_STAGE_STORAGE]);
	ok(near(g->stage_qd[NTPROF_STAGE_STORAGE], 0.41) &&
	   near(g->comp_qd[NTPROF_COMP_E2E], 0.61) &&
	   near(g->comp_qd[NTPROF_COMP_DRIVE], 0.40),
	   "group: Little's law, storage 10000/s x 41 us = 0.41");
	ok(g->largest == NTPROF_STAGE_STORAGE, "group: the largest is storage");
	ok(near(g->comp[NTPROF_COMP_DRIVE].p50, 40000) &&
	   near(g->comp[NTPROF_COMP_DRIVE].p99, 50000) &&
	   g->comp[NTPROF_COMP_DRIVE].n == 1000,
	   "group: drive p50 40 us (interpolated), p99 50 us");
	ntprof_analysis_free(an);
}

/*
 * record's live table (e2e_only): the same end to end and stage shares as
 * the full analysis of the same commands, and no other component's
 * values kept.
 */
void t_e2e_only(void)
{
	struct ntprof_analysis_opts opts = {
		.sample = 100,
		.duration_ns = 10000000000ULL,
		.host_devs = host_devs,
		.nr_host_devs = 1,
		.e2e_only = true,
	};
	struct ntprof_analysis *full = analysis_ref(1000);
	struct ntprof_analysis *live = ntprof_analysis_new(&opts);
	const struct ntprof_group *f, *l;
	struct ntprof_record h, t;
	bool same = true;
	unsigned int i;
	int s;

	for (i = 0; live && i < 1000; i++) {
		host_rec(&h, NTPROF_TRANSPORT_TCP, i * 100 * US,
			 i % 2 ? 20000 : 0);
		target_rec(&t, NTPROF_TRANSPORT_TCP, HOURS_3 + i * 100 * US,
			   i % 2 ? 20000 : 0);
		if (ntprof_analysis_add(live, &h, &t))
			live = NULL;
	}
	if (!ok(full && live && !ntprof_analysis_finish(live) &&
		live->nr_groups == 1 && full->nr_groups == 1,
		"e2e only: 1000 commands, one group"))
		return;
	f = &full->groups[0];
	l = &live->groups[0];
	ok(l->n == f->n && l->n_table == f->n_table && l->kind == f->kind &&
	   near(l->rate, f->rate) &&
	   near(l->comp[NTPROF_COMP_E2E].mean, f->comp[NTPROF_COMP_E2E].mean) &&
	   near(l->comp[NTPROF_COMP_E2E].p99, f->comp[NTPROF_COMP_E2E].p99),
	   "e2e only: count, rate, end to end mean and p99 as the full analysis's");
	for (s = 0; s < NTPROF_STAGE_COUNT; s++)
		if (!(f->stage_has & (1U << s)) ? (l->stage_has & (1U << s)) :
		    !near(l->stage_share[s], f->stage_share[s]))
			same = false;
	ok(same && l->stage_has == f->stage_has,
	   "e2e only: every stage's share as the full analysis's");
	ok(!l->comp[NTPROF_COMP_DRIVE].n && f->comp[NTPROF_COMP_DRIVE].n == 1000,
	   "e2e only: no drive values kept (full: %llu)",
	   (unsigned long long)f->comp[NTPROF_COMP_DRIVE].n);
	ntprof_analysis_free(full);
	ntprof_analysis_free(live);
}

void t_groups_and_labels(void)
{
	struct ntprof_analysis_opts opts = {
		.host_devs = host_devs,
		.nr_host_devs = 1,
	};
	struct ntprof_analysis *an = ntprof_analysis_new(&opts);
	struct ntprof_record h;
	char buf[32];
	int i;

	ok(!strcmp(ntprof_size_str(512, buf, sizeof(buf)), "512B") &&
	   !strcmp(ntprof_size_str(4096, buf, sizeof(buf)), "4KiB") &&
	   !strcmp(ntprof_size_str(131072, buf, sizeof(buf)), "128KiB") &&
	   !strcmp(ntprof_size_str(1 << 20, buf, sizeof(buf)), "1MiB") &&
	   !strcmp(ntprof_size_str(1536, buf, sizeof(buf)), "1536B") &&
	   !strcmp(ntprof_size_str(0, buf, sizeof(buf)), "0B"),
	   "labels: sizes 512B 4KiB 128KiB 1MiB 1536B 0B");
	ok(!strcmp(ntprof_dev_str(259 << 8, host_devs, 1, buf, sizeof(buf)),
		   "nvme0n1") &&
	   !strcmp(ntprof_dev_str(259 << 8 | 3, host_devs, 1, buf,
				  sizeof(buf)), "dev 259:3") &&
	   !strcmp(ntprof_dev_str(8 << 8 | 0x100012, NULL, 0, buf,
				  sizeof(buf)), "dev 8:274"),
	   "labels: device names, else dev MAJ:MIN");
	ok(ntprof_opclass_of(1, 0x02) == NTPROF_OPC_READ &&
	   ntprof_opclass_of(1, 0x01) == NTPROF_OPC_WRITE &&
	   ntprof_opclass_of(1, 0x00) == NTPROF_OPC_OTHER &&
	   ntprof_opclass_of(0, 0x02) == NTPROF_OPC_OTHER,
	   "labels: opcodes 0x02 read, 0x01 write, others other; the admin queue's all other");

	/* Writes, reads, two sizes, two devices: four groups, sorted. */
	for (i = 0; an && i < 40; i++) {
		host_rec(&h, NTPROF_TRANSPORT_TCP, i * 100 * US, 0);
		h.opcode = i % 2 ? 0x01 : 0x02;
		h.length = i % 4 < 2 ? 131072 : 4096;
		h.dev = i < 20 ? 259 << 8 : 259 << 8 | 1;
		if (ntprof_analysis_add(an, &h, NULL))
			break;
	}
	if (!ok(an && !ntprof_analysis_finish(an) && an->nr_groups == 8,
		"groups: by op, size and device"))
		goto out;
	ok(!strcmp(an->groups[0].label, "read 4KiB dev 259:1") &&
	   !strcmp(an->groups[1].label, "read 4KiB nvme0n1") &&
	   !strcmp(an->groups[2].label, "read 128KiB dev 259:1") &&
	   !strcmp(an->groups[4].label, "write 4KiB dev 259:1") &&
	   an->groups[0].n == 5 && an->groups[0].kind == NTPROF_KIND_HOST,
	   "groups: sorted by op, size, device ('%s' first)",
	   an->groups[0].label);
out:
	ntprof_analysis_free(an);
}

/*
 * Passthrough commands of a namespace go to a group of their own, named
 * after its char device; their target records are ordinary commands.
 */
void t_passthru(void)
{
	static const struct ntprof_devname devs[] = {
		{ 259 << 8, "nvme0n1", 0 }, { 259 << 8 | 1, "nvme12n3", 0 },
		{ 259 << 8 | 2, "sda", 0 },
	};
	struct ntprof_analysis_opts opts = {
		.host_devs = devs,
		.nr_host_devs = 3,
	};
	struct ntprof_analysis *an = ntprof_analysis_new(&opts);
	struct ntprof_record h, t;
	char buf[64];
	int i;

	ok(!strcmp(ntprof_passthru_dev_str(259 << 8, devs, 3, buf, sizeof(buf)),
		   "ng0n1") &&
	   !strcmp(ntprof_passthru_dev_str(259 << 8 | 1, devs, 3, buf,
					   sizeof(buf)), "ng12n3") &&
	   !strcmp(ntprof_passthru_dev_str(259 << 8 | 2, devs, 3, buf,
					   sizeof(buf)), "sda passthrough") &&
	   !strcmp(ntprof_passthru_dev_str(259 << 8 | 3, devs, 3, buf,
					   sizeof(buf)), "dev 259:3 passthrough"),
	   "passthrough: nvmeXnY's char device ngXnY, else NAME passthrough");

	/* Every third command passthrough, without a block layer start. */
	for (i = 0; an && i < 30; i++) {
		host_rec(&h, NTPROF_TRANSPORT_TCP, i * 100 * US, 0);
		target_rec(&t, NTPROF_TRANSPORT_TCP, HOURS_3 + i * 100 * US, 0);
		if (i % 3 == 0) {
			h.flags |= NTPROF_REC_F_PASSTHRU;
			h.ts[NTPROF_PT_HOST_BLK_START] = 0;
		}
		if (ntprof_analysis_add(an, &h, &t))
			break;
	}
	if (!ok(an && !ntprof_analysis_finish(an) && an->nr_groups == 2,
		"passthrough: a group of its own"))
		goto out;
	ok(!strcmp(an->groups[0].label, "read 4KiB ng0n1") &&
	   an->groups[0].passthru && an->groups[0].n == 10 &&
	   an->groups[0].n_joined == 10 &&
	   !strcmp(an->groups[1].label, "read 4KiB nvme0n1") &&
	   !an->groups[1].passthru && an->groups[1].n == 20,
	   "passthrough: 'read 4KiB ng0n1' (10, joined) beside 'read 4KiB nvme0n1' (20)");
	ok(near(an->groups[0].comp[NTPROF_COMP_E2E].mean,
		an->groups[1].comp[NTPROF_COMP_E2E].mean -
		an->groups[1].comp[NTPROF_COMP_HOST_BLK_SUB].mean) &&
	   !an->groups[0].comp[NTPROF_COMP_HOST_BLK_SUB].n,
	   "passthrough: no block layer start, an end to end from queue_rq");
	ntprof_analysis_free(an);
	/* Not grouped by device: one group of both. */
	opts.by = NTPROF_BY_OP | NTPROF_BY_SIZE;
	an = ntprof_analysis_new(&opts);
	for (i = 0; an && i < 30; i++) {
		host_rec(&h, NTPROF_TRANSPORT_TCP, i * 100 * US, 0);
		if (i % 3 == 0)
			h.flags |= NTPROF_REC_F_PASSTHRU;
		if (ntprof_analysis_add(an, &h, NULL))
			break;
	}
	ok(an && !ntprof_analysis_finish(an) && an->nr_groups == 1 &&
	   an->groups[0].n == 30 && !strcmp(an->groups[0].label, "read 4KiB"),
	   "passthrough: grouped by op and size only, one group");
out:
	ntprof_analysis_free(an);
}

void t_print(void)
{
	struct ntprof_analysis *an = analysis_ref(1000);
	const struct ntprof_group *g;
	char want[256];
	FILE *f;

	if (!ok(an, "print: the reference analysis"))
		return;
	g = &an->groups[0];
	f = out_open();
	ntprof_print_run(f, an);
	ntprof_print_throughput(f, an);
	ntprof_print_groups(f, an, true);
	ntprof_print_records(f, 1000, 1500, 1000);
	fclose(f);

	ok(tap_has_line(out_buf, "=== 10.0 s, one command in 100 sampled ==="),
	   "print: the run's header");
	ok(tap_has_line(out_buf,
			"throughput (estimated from the sampled commands): read 10.0 kIOPS, 41.0 MB/s"),
	   "print: throughput = n x N / duration, in IOPS and MB/s");
	ok(tap_has_line(out_buf,
			"== read 4KiB nvme0n1: 1000 commands sampled (from about 10.0k commands/s), all with the target's side"),
	   "print: the group's header");
	ok(tap_has_line(out_buf,
			"  latency (us): mean 61.00, p50 61.00, p99 71.00, p99.9 71.00"),
	   "print: the latency line");
	snprintf(want, sizeof(want), "  %-38s%9s%7s%9s", "stage", "mean us",
		 "share", "avg QD");
	ok(tap_has_line(out_buf, want), "print: the stage table's head");
	snprintf(want, sizeof(want), "  %-38s%9.2f%6.0f%%%9.2f  %s",
		 "storage (target block layer, drive)", 41.0, 67.0, 0.41,
		 "################");
	ok(tap_has_line(out_buf, want),
	   "print: storage row, 41 us, 67 %%, QD 0.41, 16 of 24 #");
	snprintf(want, sizeof(want), "  %-38s%9.2f%6.0f%%%9.2f  %s",
		 "network (TCP/IP, NICs, wire)", 14.0, 23.0, 0.14, "######");
	ok(tap_has_line(out_buf, want), "print: network row");
	ok(tap_has_line(out_buf,
			"  largest: storage (target block layer, drive), 67 % of the latency"),
	   "print: the largest stage");
	snprintf(want, sizeof(want), "  %-41s%6s%10s%8s%10s%10s   (us)",
		 "component", "n", "mean", "L", "p50", "p99");
	ok(tap_has_line(out_buf, want), "print: the component table's head");
	snprintf(want, sizeof(want), "  %-41s%6d%10.2f%8.2f%10.2f%10.2f",
		 "storage: drive", 1000, 40.0, 0.40, 40.0, 50.0);
	ok(tap_has_line(out_buf, want), "print: the drive's row");
	snprintf(want, sizeof(want), "    %-39s%6d%10.2f%8.2f%10.2f%10.2f",
		 "handoff to nvme_complete_rq", 1000, 0.5,
		 g->comp_qd[NTPROF_COMP_HANDOFF], 0.5, 0.5);
	ok(tap_has_line(out_buf, want) &&
	   near(g->comp_qd[NTPROF_COMP_HANDOFF], 0.005),
	   "print: the handoff sub-row");
	snprintf(want, sizeof(want), "  %-41s%6d%10.2f%8.2f%10.2f%10.2f",
		 "end to end", 1000, 61.0, 0.61, 61.0, 71.0);
	ok(tap_has_line(out_buf, want), "print: end to end row");
	ok(tap_has_line(out_buf,
			"records: 1000 host, 1500 target; 1000 matched (100 % of the host's)"),
	   "print: the records line");
	if (failed)
		printf("# output:\n%s", out_buf);

	f = out_open();
	ntprof_print_records(f, 1000, 1500, 999);
	ntprof_print_records(f, 2999, 0, 0);
	ntprof_print_records(f, 0, 4509, 0);
	fclose(f);
	ok(tap_has_line(out_buf,
			"records: 1000 host, 1500 target; 999 matched (99 % of the host's)") &&
	   tap_has_line(out_buf, "records: 2999 host") &&
	   tap_has_line(out_buf, "records: 4509 target"),
	   "print: records lines of one side, and 99.9 %% shows as 99");

	f = out_open();
	ntprof_print_live_header(f, 10);
	ntprof_print_live(f, an, 10);
	fclose(f);
	snprintf(want, sizeof(want),
		 "%7.1fs  %-22s%7d%9s%10.2f%10.2f%8s%8s%7s%c%8s%8s", 10.0,
		 g->label, 1000, "10.0k", 61.0, 71.0, "2%", "3%", "23%", ' ',
		 "5%", "67%");
	ok(tap_has_line(out_buf, want), "print: a live row");
	ok(tap_has_line(out_buf,
			"    time  group                       n   cmds/s   mean us    p99 us   block  driver network  driver storage"),
	   "print: the live column heads");
	ntprof_analysis_free(an);
}

void t_print_host_only(void)
{
	struct ntprof_analysis_opts opts = {
		.sample = 1,
		.duration_ns = 1000000000ULL,
	};
	struct ntprof_analysis *an = ntprof_analysis_new(&opts);
	struct ntprof_record h;
	char want[256];
	FILE *f;
	int i;

	for (i = 0; an && i < 100; i++) {
		host_rec(&h, NTPROF_TRANSPORT_TCP, i * 100 * US, 0);
		h.ts[NTPROF_PT_HOST_SEND] = 0;
		if (ntprof_analysis_add(an, &h, NULL))
			break;
	}
	if (!ok(an && !ntprof_analysis_finish(an),
		"host only: 100 commands without HOST_SEND"))
		goto out;
	f = out_open();
	ntprof_print_groups(f, an, true);
	fclose(f);
	ok(tap_has_line(out_buf,
			"== read 4KiB dev 259:0: 100 commands sampled (from about 100.0 commands/s), host side only"),
	   "host only: the group's header");
	snprintf(want, sizeof(want), "  %-38s%9.2f%6.0f%%%9.2f  %s",
		 "network and target (not recorded)", 48.5, 95.0, 0.00485,
		 "#######################");
	ok(tap_has_line(out_buf, want),
	   "host only: network and target (not recorded), with the merged driver time");
	snprintf(want, sizeof(want), "  %-41s%6d      merged into %s",
		 "host driver, submission", 0,
		 "network and target (not recorded)");
	ok(tap_has_line(out_buf, want),
	   "host only: the merged component's row says where it went");
	ok(strstr(out_buf,
		  "  merged: network and target (not recorded) includes host driver, submission in 100 commands"),
	   "host only: a note on the merge");
	if (failed)
		printf("# output:\n%s", out_buf);
out:
	ntprof_analysis_free(an);
}

void t_json(void)
{
	struct ntprof_analysis *an = analysis_ref(10);
	struct ntprof_report_meta meta = {
		.hostname = "host\"1",
		.kernel = "6.1.0",
	};
	FILE *f;

	if (!ok(an, "json: the reference analysis"))
		return;
	f = out_open();
	ntprof_print_json(f, an, NULL, &meta);
	fclose(f);
	ok(json_balanced(out_buf), "json: balanced");
	ok(strstr(out_buf, "\"schema\": \"ntprof-report/1\"") &&
	   strstr(out_buf, "\"hostname\": \"host\\\"1\"") &&
	   strstr(out_buf, "\"label\": \"read 4KiB nvme0n1\"") &&
	   strstr(out_buf, "\"id\": \"storage\"") &&
	   strstr(out_buf, "\"mean_us\": 41.000") &&
	   strstr(out_buf, "\"largest\": \"storage (target block layer, drive)\""),
	   "json: schema, escaped strings, groups, stages");
	if (failed)
		printf("# output:\n%s", out_buf);
	ntprof_analysis_free(an);
}
