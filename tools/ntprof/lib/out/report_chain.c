// SPDX-License-Identifier: GPL-2.0
/*
 * The chains of a report (Documentation/report.rst, "Chains"): what the
 * middles linked, then per group of origin commands a hops table (the
 * stages of each hop along the critical path, in path order, adding up
 * to the end to end) and a legs table (each replica device: its
 * commands, how often it completed last, by how much it held the
 * writes, its own stages); in JSON the same as a group's "hops" and
 * "legs" and the run's "chain".
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/chain.h"
#include "analysis/recording.h"
#include "common/names.h"
#include "common/util.h"
#include "out/report_chain.h"
#include "out/report_chain_detail.h"
#include "out/table.h"

/*
 * A middle, or a note (a piece missing, a file not linked): a run of one
 * hop recorded with the chain rule, whole, reports as any hop.
 */
bool report_chain_shown(const struct recording_run *run)
{
	return run->chain && (run->chain->nr_mid || run->chain->nr_notes);
}

/* A hop's stage's name: the middle's own, or the stage's. */
static const char *hop_stage_name(const struct ntprof_chain_group *cg, int h,
				  int s)
{
	const struct ntprof_chain_hop_stats *hs = &cg->hop[h];

	if (s == NTPROF_CHAIN_STAGE_MIDDLE)
		return cg->middle[h][0] ? cg->middle[h] : "middle";
	return ntprof_stage_name(s, hs->transport, NTPROF_KIND_JOINED, 0);
}

static const char *hop_stage_id(int s)
{
	return s == NTPROF_CHAIN_STAGE_MIDDLE ? "middle" : ntprof_stage_id(s);
}

/* The stages in path order: the middle's own after the target driver. */
static const int chain_stage_order[] = {
	NTPROF_STAGE_HOST_BLK, NTPROF_STAGE_HOST_DRV, NTPROF_STAGE_NETWORK,
	NTPROF_STAGE_TGT_DRV, NTPROF_CHAIN_STAGE_MIDDLE, NTPROF_STAGE_STORAGE,
	NTPROF_STAGE_NET_TARGET,
};

/* "h -> m", "m -> r, ..." when the group's commands went several ways. */
static const char *hop_machines(const struct ntprof_chain_hop_stats *hs,
				char *buf, size_t size)
{
	snprintf(buf, size, "%s%s -> %s%s", hs->host,
		 hs->several_hosts ? ", ..." : "",
		 hs->target ? hs->target : "-",
		 hs->several_targets ? ", ..." : "");
	return buf;
}

static void print_middles(FILE *f, const struct recording_run *run)
{
	const struct ntprof_chain *ch = run->chain;
	const struct ntprof_chain_middle *m;
	const struct ntprof_chain_links *l;
	size_t i;

	fputs("\n== chains", f);
	if (ch->stats)
		fprintf(f, ": %" PRIu64 " origin commands, %" PRIu64 " followed to a leaf",
			ch->stats->origin, ch->stats->followed);
	fputc('\n', f);
	for (i = 0; i < ch->nr_mid; i++) {
		m = &ch->mid[i];
		l = &m->links;
		if (!m->linked) {
			fprintf(f, "  middle %s: not linked\n", m->label);
			continue;
		}
		fprintf(f, "  middle %s: %zu downstream commands, %" PRIu64 " linked to the command that caused them",
			m->label, l->nr_down, l->linked);
		if (l->split)
			fprintf(f, " (%" PRIu64 " as parts of a split)", l->split);
		fprintf(f, "; not linked: %" PRIu64 " without one (resync, superblock, bitmap), %" PRIu64 " ambiguous, %" PRIu64 " neither a read nor a write\n",
			l->no_upstream, l->ambiguous, l->outside);
	}
	for (i = 0; i < ch->nr_notes; i++)
		fprintf(f, "  %s\n", ch->notes[i]);
}

static void print_hops(FILE *f, const struct ntprof_chain_group *cg)
{
	char mach[160], val[32];
	double mean, share;
	int h, s, w = 22, lead;
	size_t k;
	bool first;

	/* The machines' column as wide as its widest, two spaces after. */
	for (h = 0; h < cg->hops; h++)
		if ((int)strlen(hop_machines(&cg->hop[h], mach, sizeof(mach))) + 2 > w)
			w = (int)strlen(mach) + 2;
	lead = 4 + w + 10;
	fprintf(f, "  %-4s%-*s%-10s%-40s%10s%7s\n", "hop", w, "machines",
		"transport", "stage", "mean us", "share");
	for (h = 0; h < cg->hops; h++) {
		first = true;
		for (k = 0; k < ARRAY_SIZE(chain_stage_order); k++) {
			s = chain_stage_order[k];
			if (!(cg->hop[h].stage_has & (1U << s)))
				continue;
			mean = ntprof_chain_stage_mean(cg, h, s);
			share = ntprof_share_round(100 * mean / cg->e2e_mean);
			snprintf(val, sizeof(val), "%.2f", mean / 1e3);
			if (first)
				fprintf(f, "  %-4d%-*s%-10s", h + 1, w,
					hop_machines(&cg->hop[h], mach,
						     sizeof(mach)),
					ntprof_transport_id(cg->hop[h].transport) ?: "-");
			else
				fprintf(f, "  %*s", lead, "");
			fprintf(f, "%-40s%10s%6.0f%%\n",
				hop_stage_name(cg, h, s), val, share);
			first = false;
		}
	}
	fprintf(f, "  %*s%-40s%10.2f\n", lead, "", "end to end",
		cg->e2e_mean / 1e3);
}

/* Short heads of the legs' stage columns. */
static const char *const leg_head[NTPROF_STAGE_COUNT] = {
	[NTPROF_STAGE_HOST_BLK] = "host blk",
	[NTPROF_STAGE_HOST_DRV] = "host drv",
	[NTPROF_STAGE_NETWORK] = "network",
	[NTPROF_STAGE_NET_TARGET] = "net+tgt",
	[NTPROF_STAGE_TGT_DRV] = "tgt drv",
	[NTPROF_STAGE_STORAGE] = "storage",
	[NTPROF_STAGE_OUTAGE] = "outage",
};

static void print_legs(FILE *f, const struct recording_run *run,
		       const struct ntprof_chain_group *cg)
{
	const struct ntprof_chain_leg_stats *ls;
	uint32_t has = 0;
	size_t i, k;
	int s, w = 28;

	for (i = 0; i < cg->nr_legs; i++) {
		has |= cg->legs[i].stage_has;
		if ((int)strlen(run->chain->legs[cg->legs[i].leg].label) + 2 > w)
			w = (int)strlen(run->chain->legs[cg->legs[i].leg].label) + 2;
	}
	fprintf(f, "  %-*s%4s%8s%9s%9s%10s", w, "leg", "hop", "n", "critical",
		"held us", "mean us");
	for (k = 0; k < NTPROF_STAGE_COUNT; k++)
		if (has & (1U << ntprof_stage_order[k]))
			fprintf(f, "%10s", leg_head[ntprof_stage_order[k]]);
	fputc('\n', f);
	for (i = 0; i < cg->nr_legs; i++) {
		ls = &cg->legs[i];
		fprintf(f, "  %-*s%4u%8" PRIu64 "%9" PRIu64, w,
			run->chain->legs[ls->leg].label, ls->hop, ls->n,
			ls->critical);
		if (ls->held_n)
			fprintf(f, "%9.2f", ls->held_sum / (double)ls->held_n / 1e3);
		else
			fprintf(f, "%9s", "-");
		if (ls->n_stages)
			fprintf(f, "%10.2f", ls->e2e_sum / (double)ls->n_stages / 1e3);
		else
			fprintf(f, "%10s", "-");
		for (k = 0; k < NTPROF_STAGE_COUNT; k++) {
			s = ntprof_stage_order[k];
			if (!(has & (1U << s)))
				continue;
			if (ls->n_stages && (ls->stage_has & (1U << s)))
				fprintf(f, "%10.2f", ls->stage_sum[s] /
					(double)ls->n_stages / 1e3);
			else
				fprintf(f, "%10s", "-");
		}
		fputc('\n', f);
	}
	if (cg->legs_dropped)
		fprintf(f, "  (and %" PRIu64 " downstream commands of more legs than the table holds)\n",
			cg->legs_dropped);
}

static void print_group(FILE *f, const struct recording_run *run,
			const struct ntprof_chain_group *cg)
{
	fprintf(f, "\n== %s", cg->group->label);
	if (cg->leg >= 0)
		fprintf(f, ", critical leg %s", run->chain->legs[cg->leg].label);
	else if (run->chain->stats->by_leg)
		fputs(", no leg", f);
	fprintf(f, " through the chain: %" PRIu64 " command%s, %" PRIu64 " followed to a leaf\n",
		cg->n, cg->n == 1 ? "" : "s", cg->followed);
	if (cg->followed)
		print_hops(f, cg);
	if (cg->nr_legs)
		print_legs(f, run, cg);
	report_chain_detail_print(f, run, cg);
}

int report_chain_print(FILE *f, const struct recording_run *run)
{
	const struct ntprof_chain_stats *cs;
	size_t i;

	if (!report_chain_shown(run))
		return 0;
	print_middles(f, run);
	cs = run->chain->stats;
	for (i = 0; cs && i < cs->nr; i++)
		print_group(f, run, &cs->g[i]);
	return 0;
}

static void json_hops(struct ntprof_json *js, const struct recording_run *run,
		      const struct ntprof_chain_group *cg)
{
	const struct ntprof_chain_hop_stats *hs;
	double mean;
	size_t k;
	int h, s;

	ntprof_json_arr_start(js, "hops");
	for (h = 0; h < cg->hops; h++) {
		hs = &cg->hop[h];
		ntprof_json_obj_start(js, NULL);
		ntprof_json_u64(js, "hop", (uint64_t)h + 1);
		ntprof_json_arr_start(js, "machines");
		ntprof_json_str(js, NULL, hs->host);
		ntprof_json_str(js, NULL, hs->target);
		ntprof_json_arr_end(js);
		ntprof_json_bool(js, "several_machines",
				 hs->several_hosts || hs->several_targets);
		ntprof_json_str(js, "transport", hs->transports_differ ? NULL :
				ntprof_transport_id(hs->transport));
		ntprof_json_u64(js, "n", hs->n);
		ntprof_json_arr_start(js, "stages");
		for (k = 0; k < ARRAY_SIZE(chain_stage_order); k++) {
			s = chain_stage_order[k];
			if (!(hs->stage_has & (1U << s)))
				continue;
			mean = ntprof_chain_stage_mean(cg, h, s);
			ntprof_json_obj_start(js, NULL);
			ntprof_json_str(js, "id", hop_stage_id(s));
			ntprof_json_str(js, "name", hop_stage_name(cg, h, s));
			ntprof_json_num(js, "mean_us", mean / 1e3, 3);
			ntprof_json_num(js, "share_pct",
					100 * mean / cg->e2e_mean, 2);
			report_chain_detail_json(js, run, cg, h, -1, s);
			ntprof_json_obj_end(js);
		}
		ntprof_json_arr_end(js);
		ntprof_json_obj_end(js);
	}
	ntprof_json_arr_end(js);
}

static void json_legs(struct ntprof_json *js, const struct recording_run *run,
		      const struct ntprof_chain_group *cg)
{
	const struct ntprof_chain_leg_stats *ls;
	double d;
	size_t i, k;
	int s;

	ntprof_json_arr_start(js, "legs");
	for (i = 0; i < cg->nr_legs; i++) {
		ls = &cg->legs[i];
		d = ls->n_stages ? (double)ls->n_stages : NAN;
		ntprof_json_obj_start(js, NULL);
		ntprof_json_str(js, "label", run->chain->legs[ls->leg].label);
		ntprof_json_u64(js, "hop", ls->hop);
		ntprof_json_str(js, "transport",
				ntprof_transport_id(ls->transport));
		ntprof_json_u64(js, "n", ls->n);
		ntprof_json_u64(js, "critical", ls->critical);
		ntprof_json_u64(js, "held_n", ls->held_n);
		ntprof_json_num(js, "held_us", ls->held_n ?
				ls->held_sum / (double)ls->held_n / 1e3 : NAN, 3);
		ntprof_json_num(js, "mean_us", ls->e2e_sum / d / 1e3, 3);
		ntprof_json_arr_start(js, "stages");
		for (k = 0; k < NTPROF_STAGE_COUNT; k++) {
			s = ntprof_stage_order[k];
			if (!(ls->stage_has & (1U << s)))
				continue;
			ntprof_json_obj_start(js, NULL);
			ntprof_json_str(js, "id", ntprof_stage_id(s));
			ntprof_json_str(js, "name",
					ntprof_stage_name(s, ls->transport,
							  ls->kind, 0));
			ntprof_json_num(js, "mean_us",
					ls->stage_sum[s] / d / 1e3, 3);
			report_chain_detail_json(js, run, cg, 0, (int)i, s);
			ntprof_json_obj_end(js);
		}
		ntprof_json_arr_end(js);
		ntprof_json_obj_end(js);
	}
	ntprof_json_arr_end(js);
}

void report_chain_json_group(struct ntprof_json *js,
			     const struct ntprof_group *g, void *arg)
{
	const struct recording_run *run = arg;
	const struct ntprof_chain_stats *cs;
	const struct ntprof_chain_group *cg = NULL;
	size_t i;

	if (!ntprof_chain_present(run) || !run->chain->stats)
		return;
	cs = run->chain->stats;
	for (i = 0; i < cs->nr && !cg; i++)
		if (cs->g[i].group == g)
			cg = &cs->g[i];
	if (!cg)
		return;
	ntprof_json_u64(js, "n_followed", cg->followed);
	json_hops(js, run, cg);
	json_legs(js, run, cg);
}

void report_chain_json(struct ntprof_json *js, const struct recording_run *run)
{
	const struct ntprof_chain *ch = run->chain;
	const struct ntprof_chain_middle *m;
	size_t i;

	if (!report_chain_shown(run))
		return;
	ntprof_json_obj_start(js, "chain");
	ntprof_json_u64(js, "origin", ch->stats ? ch->stats->origin : 0);
	ntprof_json_u64(js, "followed", ch->stats ? ch->stats->followed : 0);
	ntprof_json_arr_start(js, "middles");
	for (i = 0; i < ch->nr_mid; i++) {
		m = &ch->mid[i];
		ntprof_json_obj_start(js, NULL);
		ntprof_json_str(js, "machine", m->label);
		ntprof_json_bool(js, "linked", m->linked);
		ntprof_json_u64(js, "downstream", m->links.nr_down);
		ntprof_json_u64(js, "linked_n", m->links.linked);
		ntprof_json_u64(js, "split", m->links.split);
		ntprof_json_u64(js, "no_upstream", m->links.no_upstream);
		ntprof_json_u64(js, "ambiguous", m->links.ambiguous);
		ntprof_json_u64(js, "outside", m->links.outside);
		ntprof_json_obj_end(js);
	}
	ntprof_json_arr_end(js);
	ntprof_json_arr_start(js, "notes");
	for (i = 0; i < ch->nr_notes; i++)
		ntprof_json_str(js, NULL, ch->notes[i]);
	ntprof_json_arr_end(js);
	ntprof_json_obj_end(js);
}
