// SPDX-License-Identifier: GPL-2.0
/*
 * record -i's live lines: a legend, column heads, and a row per group
 * every interval, with the rate and share formats of the report's tables
 * (table.c).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "common/util.h"
#include "out/live.h"
#include "out/table.h"

void ntprof_print_live_header(FILE *f, unsigned int interval_s)
{
	fprintf(f,
		"every %u s, per group: sampled commands, rate, latency, and each stage's share of the mean\n",
		interval_s);
	fputs("(*: network and target together; the target's side is not recorded)\n",
	      f);
	fprintf(f, "%78s%25s\n", "host", "target");
	fprintf(f, "%8s  %-22s%7s%9s%10s%10s%8s%8s%8s%8s%8s\n", "time",
		"group", "n", "cmds/s", "mean us", "p99 us", "block", "driver",
		"network", "driver", "storage");
}

/* A stage's share for a live row, "" when the group has no such stage. */
static const char *live_share(const struct ntprof_group *g, uint32_t stages,
			      char *buf, size_t size)
{
	double share = 0;
	int s;

	if (!(g->stage_has & stages))
		return "";
	for (s = 0; s < NTPROF_STAGE_COUNT; s++)
		if ((stages & BIT(s)) && (g->stage_has & BIT(s)))
			share += g->stage_share[s];
	if (isnan(share))
		return "-";
	snprintf(buf, size, "%.0f%%", ntprof_share_round(share));
	return buf;
}

void ntprof_print_live(FILE *f, const struct ntprof_analysis *an,
		       double elapsed_s)
{
	static const uint32_t cols[5] = {
		BIT(NTPROF_STAGE_HOST_BLK),
		BIT(NTPROF_STAGE_HOST_DRV),
		BIT(NTPROF_STAGE_NETWORK) | BIT(NTPROF_STAGE_NET_TARGET),
		BIT(NTPROF_STAGE_TGT_DRV),
		BIT(NTPROF_STAGE_STORAGE),
	};
	const struct ntprof_group *g;
	char line[256], rate[32], buf[5][16];
	const char *s[5];
	size_t i;
	int len, c;

	for (i = 0; i < an->nr_groups; i++) {
		g = &an->groups[i];
		if (!g->n_table)
			continue;
		for (c = 0; c < 5; c++)
			s[c] = live_share(g, cols[c], buf[c], sizeof(buf[c]));
		ntprof_rate_str(g->rate, rate, sizeof(rate));
		/* The '*' after the network's share: no target's side. */
		len = snprintf(line, sizeof(line),
			       "%7.1fs  %-22s%7" PRIu64 "%9s%10.2f%10.2f%8s%8s%7s%c%8s%8s",
			       elapsed_s, g->label, g->n, rate,
			       g->comp[NTPROF_COMP_E2E].mean / 1e3,
			       g->comp[NTPROF_COMP_E2E].p99 / 1e3, s[0], s[1],
			       s[2], g->kind == NTPROF_KIND_HOST ? '*' : ' ',
			       s[3], s[4]);
		if (len >= (int)sizeof(line))
			len = sizeof(line) - 1;
		while (len > 0 && line[len - 1] == ' ')
			line[--len] = '\0';
		fprintf(f, "%s\n", line);
	}
}
