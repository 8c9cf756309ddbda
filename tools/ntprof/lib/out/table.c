// SPDX-License-Identifier: GPL-2.0
/*
 * The report's tables. Columns line up with the tutorial's (the stage
 * table's values end at columns 49, 56 and 65; the components' at 49, 59,
 * 67, 77 and 87), and a name too long for its column pushes the values
 * right instead of touching them.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "common/names.h"
#include "common/util.h"
#include "out/table.h"

/* A bar of this many '#' is 100 % of the latency. */
#define BAR_WIDTH	24

const char *ntprof_rate_str(double r, char *buf, size_t size)
{
	if (isnan(r))
		snprintf(buf, size, "-");
	else if (r >= 1e6)
		snprintf(buf, size, "%.1fM", r / 1e6);
	else if (r >= 1e3)
		snprintf(buf, size, "%.1fk", r / 1e3);
	else
		snprintf(buf, size, "%.1f", r);
	return buf;
}

double ntprof_share_round(double share)
{
	return share > -0.5 && share < 0.5 ? 0 : share;
}

/*
 * "  name" and then @val right-aligned to end at column @end, at least
 * one space after the name.
 */
static void name_val(FILE *f, int indent, const char *name, int end,
		     const char *val)
{
	int used = indent + (int)strlen(name);
	int w = end - used;

	if (w < (int)strlen(val) + 1)
		w = (int)strlen(val) + 1;
	fprintf(f, "%*s%s%*s", indent, "", name, w, val);
}

static const char *us_str(double ns, int width, char *buf, size_t size)
{
	if (isnan(ns))
		snprintf(buf, size, "%*s", width, "-");
	else
		snprintf(buf, size, "%*.2f", width, ns / 1e3);
	return buf;
}

void ntprof_print_run(FILE *f, const struct ntprof_analysis *an)
{
	fputs("===", f);
	if (!isnan(an->duration_s))
		fprintf(f, " %.1f s,", an->duration_s);
	if (an->opts.sample > 1)
		fprintf(f, " one command in %u sampled ===\n", an->opts.sample);
	else
		fputs(" every command recorded ===\n", f);
}

/* Each op's rate and bandwidth over @secs: "read 15.0 kIOPS, 61.3 MB/s". */
static void print_rates(FILE *f, const struct ntprof_analysis *an, int side,
			double secs)
{
	const char *sep = " ";
	double iops, mbs;
	int op;

	for (op = 0; op < NTPROF_OPC_COUNT; op++) {
		if (!an->ops[side][op])
			continue;
		iops = (double)an->ops[side][op] * an->opts.sample / secs;
		mbs = (double)an->bytes[side][op] * an->opts.sample / secs /
		      1e6;
		fprintf(f, "%s%s ", sep, ntprof_opclass_name(op));
		if (iops >= 1e6)
			fprintf(f, "%.2f MIOPS", iops / 1e6);
		else if (iops >= 1e3)
			fprintf(f, "%.1f kIOPS", iops / 1e3);
		else
			fprintf(f, "%.0f IOPS", iops);
		if (mbs >= 1e3)
			fprintf(f, ", %.2f GB/s", mbs / 1e3);
		else
			fprintf(f, ", %.1f MB/s", mbs);
		sep = "; ";
	}
	if (*sep == ' ')
		fputs(" no commands", f);
	fputc('\n', f);
}

void ntprof_print_throughput(FILE *f, const struct ntprof_analysis *an)
{
	int side = an->nr_host ? 0 : 1;
	double span;

	fputs("throughput (estimated from the sampled commands):", f);
	/*
	 * A recording longer than its workload (record -d 10 beside an 8 s
	 * run, a target's recording started first and stopped last) dilutes
	 * the rate: the span that had commands gives the workload's own.
	 */
	span = an->last_ns[side] > an->first_ns[side] ?
	       (double)(an->last_ns[side] - an->first_ns[side]) / 1e9 : 0;
	/* A report's groups' rates are over that span: so is its total. */
	if (an->opts.rates_over_span && span > 0) {
		print_rates(f, an, side, span);
		if (an->duration_s > 0 && span < 0.9 * an->duration_s)
			fprintf(f, "  (over the %.*f s that had commands, of a recording of %.*f s)\n",
				span < 1 ? 3 : 1, span,
				an->duration_s < 1 ? 3 : 1, an->duration_s);
		return;
	}
	if (!(an->duration_s > 0)) {
		fputs(" unknown, without the recording's length\n", f);
		return;
	}
	print_rates(f, an, side, an->duration_s);
	if (span >= 1 && span < 0.9 * an->duration_s) {
		fprintf(f, "  over the %.1f s that had commands:", span);
		print_rates(f, an, side, span);
	}
}

static void print_group_head(FILE *f, const struct ntprof_group *g)
{
	char rate[32];

	fprintf(f, "== %s: %" PRIu64 " commands sampled", g->label, g->n);
	if (!isnan(g->rate))
		fprintf(f, " (from about %s commands/s)",
			ntprof_rate_str(g->rate, rate, sizeof(rate)));
	switch (g->kind) {
	case NTPROF_KIND_JOINED:
		if (g->n_joined == g->n)
			fputs(", all with the target's side\n", f);
		else
			fprintf(f,
				", %" PRIu64 " with the target's side (the tables show those)\n",
				g->n_joined);
		break;
	case NTPROF_KIND_HOST:
		fputs(", host side only\n", f);
		break;
	case NTPROF_KIND_TARGET:
		fputs(", target side only\n", f);
		break;
	}
}

static void print_stages(FILE *f, const struct ntprof_group *g)
{
	char val[64], bar[BAR_WIDTH + 1];
	const char *name;
	double share;
	size_t i;
	int s, n;

	fprintf(f, "  %-38s%9s%7s%9s\n", "stage", "mean us", "share",
		"avg QD");
	for (i = 0; i < NTPROF_STAGE_COUNT; i++) {
		s = ntprof_stage_order[i];
		if (!(g->stage_has & BIT(s)))
			continue;
		share = ntprof_share_round(g->stage_share[s]);
		n = isnan(share) ? 0 : (int)(share * BAR_WIDTH / 100 + 0.5);
		if (n < 0)
			n = 0;
		if (n > BAR_WIDTH)
			n = BAR_WIDTH;
		memset(bar, '#', n);
		bar[n] = '\0';
		name = ntprof_stage_name(s, g->transport, g->kind, g->stacks);
		us_str(g->stage_mean[s], 0, val, sizeof(val));
		name_val(f, 2, name, 49, val);
		if (isnan(share))
			fprintf(f, "%7s", "-");
		else
			fprintf(f, "%6.0f%%", share);
		if (isnan(g->stage_qd[s]))
			fprintf(f, "%9s", "-");
		else
			fprintf(f, "%9.2f", g->stage_qd[s]);
		if (n)
			fprintf(f, "  %s", bar);
		fputc('\n', f);
	}
	if (g->largest >= 0)
		fprintf(f, "  largest: %s, %.0f %% of the latency\n",
			ntprof_stage_name(g->largest, g->transport, g->kind,
					  g->stacks),
			ntprof_share_round(g->stage_share[g->largest]));
}

/* A component's name in @g's tables. */
static const char *comp_name(const struct ntprof_group *g, int c)
{
	return ntprof_comp_name(c, g->transport, g->stacks);
}

static void print_comp(FILE *f, const struct ntprof_group *g, int c,
		       bool sub)
{
	const struct ntprof_stats *st = &g->comp[c];
	char val[32];
	int owner;

	snprintf(val, sizeof(val), "%" PRIu64, st->n);
	if (!st->n) {
		owner = ntprof_group_merged_into(g, c);
		if (owner < 0)
			return;	/* not on this path */
		name_val(f, sub ? 4 : 2, comp_name(g, c), 49, val);
		fprintf(f, "      merged into %s\n", comp_name(g, owner));
		return;
	}
	name_val(f, sub ? 4 : 2, comp_name(g, c), 49, val);
	fprintf(f, "%10.2f", st->mean / 1e3);
	if (isnan(g->comp_qd[c]))
		fprintf(f, "%8s", "-");
	else
		fprintf(f, "%8.2f", g->comp_qd[c]);
	fprintf(f, "%10.2f%10.2f\n", st->p50 / 1e3, st->p99 / 1e3);
}

static void print_components(FILE *f, const struct ntprof_group *g)
{
	bool wire = g->comp[NTPROF_COMP_WIRE].n;

	fputs("  components, in path order (L: commands in each, by Little's law)\n",
	      f);
	fprintf(f, "  %-41s%6s%10s%8s%10s%10s   (us)\n", "component", "n",
		"mean", "L", "p50", "p99");
	print_comp(f, g, NTPROF_COMP_ABORTED_TRIES, false);
	print_comp(f, g, NTPROF_COMP_OUTAGE_WAIT, false);
	print_comp(f, g, NTPROF_COMP_HOST_BLK_SUB, false);
	print_comp(f, g, NTPROF_COMP_HOST_DRV_SUB, false);
	print_comp(f, g, NTPROF_COMP_WIRE, false);
	/* Under the wire it belongs to for reads; else after the target. */
	if (wire)
		print_comp(f, g, NTPROF_COMP_DATA_XFER, true);
	print_comp(f, g, NTPROF_COMP_NET_TARGET, false);
	print_comp(f, g, NTPROF_COMP_TGT_DRV_SUB, false);
	print_comp(f, g, NTPROF_COMP_HOST_DATA, false);
	print_comp(f, g, NTPROF_COMP_STORAGE_BLK, false);
	print_comp(f, g, NTPROF_COMP_DRIVE, false);
	print_comp(f, g, NTPROF_COMP_TGT_DRV_COMP, false);
	if (!wire)
		print_comp(f, g, NTPROF_COMP_DATA_XFER, true);
	print_comp(f, g, NTPROF_COMP_HOST_RECV, false);
	print_comp(f, g, NTPROF_COMP_HOST_DRV_COMP, false);
	print_comp(f, g, NTPROF_COMP_HANDOFF, true);
	print_comp(f, g, NTPROF_COMP_HOST_BLK_COMP, false);
	print_comp(f, g, NTPROF_COMP_E2E, false);
}

/*
 * The commands that waited through an outage: their tries, the outage
 * stage's time over them alone, and the episodes that overlapped it.
 */
static void print_outage(FILE *f, const struct ntprof_group *g)
{
	const struct ntprof_stats *a = &g->comp[NTPROF_COMP_ABORTED_TRIES];
	const struct ntprof_stats *w = &g->comp[NTPROF_COMP_OUTAGE_WAIT];

	if (!g->n_outage)
		return;
	fprintf(f, "  outage: %" PRIu64 " commands waited through an outage, %" PRIu64 " tries",
		g->n_outage, g->outage_tries);
	if (w->n)
		fprintf(f, "; aborted tries mean %.2f us, wait mean %.2f us, max %.2f us",
			a->mean / 1e3, w->mean / 1e3, w->max / 1e3);
	fprintf(f, " (%s)\n", g->outage_events[0] ? g->outage_events :
		"no control-path event recorded");
}

static void print_notes(FILE *f, const struct ntprof_group *g)
{
	const char *sep;
	int c, k;

	for (c = 0; c < NTPROF_COMP_COUNT; c++) {
		if (!g->merged_n[c])
			continue;
		fprintf(f, "  merged: %s includes", comp_name(g, c));
		sep = " ";
		for (k = 0; k < NTPROF_COMP_COUNT; k++) {
			if (!(g->merged[c] & BIT(k)))
				continue;
			fprintf(f, "%s%s", sep, comp_name(g, k));
			sep = " and ";
		}
		fprintf(f,
			" in %" PRIu64 " commands: a point between them was not recorded\n",
			g->merged_n[c]);
	}
	if (g->dropped)
		fprintf(f,
			"  note: %" PRIu64 " commands had a point out of order on its clock, or a target receive before the host sent, dropped as if not recorded\n",
			g->dropped);
	if (g->wire_negative)
		fprintf(f,
			"  note: %" PRIu64 " commands had a negative computed wire time, kept as measured in the means\n",
			g->wire_negative);
	if (g->n_unusable)
		fprintf(f,
			"  note: %" PRIu64 " commands lacked the points for an end to end and are left out\n",
			g->n_unusable);
	print_outage(f, g);
}

void ntprof_print_group(FILE *f, const struct ntprof_analysis *an,
			const struct ntprof_group *g, bool detail)
{
	const struct ntprof_stats *e2e = &g->comp[NTPROF_COMP_E2E];

	(void)an;
	print_group_head(f, g);
	if (!g->n_table) {
		print_notes(f, g);
		return;
	}
	fprintf(f,
		"  latency%s (us): mean %.2f, p50 %.2f, p99 %.2f, p99.9 %.2f\n",
		g->kind == NTPROF_KIND_TARGET ? " at the target" : "",
		e2e->mean / 1e3, e2e->p50 / 1e3, e2e->p99 / 1e3,
		e2e->p999 / 1e3);
	print_stages(f, g);
	if (detail)
		print_components(f, g);
	print_notes(f, g);
}

void ntprof_print_groups(FILE *f, const struct ntprof_analysis *an,
			 bool detail)
{
	size_t i;

	for (i = 0; i < an->nr_groups; i++) {
		fputc('\n', f);
		ntprof_print_group(f, an, &an->groups[i], detail);
	}
}

void ntprof_print_records(FILE *f, uint64_t nr_host, uint64_t nr_target,
			  uint64_t matched)
{
	unsigned int pct;

	if (nr_host && nr_target) {
		/* Rounded down: 100 % only when every record matched. */
		pct = (unsigned int)(100 * (double)matched / (double)nr_host);
		fprintf(f,
			"records: %" PRIu64 " host, %" PRIu64 " target; %" PRIu64 " matched (%u %% of the host's)\n",
			nr_host, nr_target, matched, pct);
	} else if (nr_target) {
		fprintf(f, "records: %" PRIu64 " target\n", nr_target);
	} else {
		fprintf(f, "records: %" PRIu64 " host\n", nr_host);
	}
}
