// SPDX-License-Identifier: GPL-2.0
/*
 * The names of a chained group's stages (chain_names.h), as the text
 * report (out/report_chain.c) gives them: one place for the views that
 * came after it, so that a page and a comparison name a stage the way
 * the report does.
 */
#include "analysis/chain.h"
#include "analysis/chain_names.h"
#include "analysis/recording.h"
#include "common/names.h"
#include "common/util.h"

const int ntprof_chain_path_order[] = {
	NTPROF_STAGE_HOST_BLK, NTPROF_STAGE_HOST_DRV, NTPROF_STAGE_NETWORK,
	NTPROF_STAGE_TGT_DRV, NTPROF_CHAIN_STAGE_MIDDLE, NTPROF_STAGE_STORAGE,
	NTPROF_STAGE_NET_TARGET,
};
const size_t ntprof_chain_path_len = ARRAY_SIZE(ntprof_chain_path_order);

const char *ntprof_chain_hop_stage_name(const struct ntprof_chain_group *cg,
					int h, int s)
{
	if (s == NTPROF_CHAIN_STAGE_MIDDLE)
		return cg->middle[h][0] ? cg->middle[h] : "middle";
	return ntprof_stage_name(s, cg->hop[h].transport, NTPROF_KIND_JOINED,
				 0);
}

const char *ntprof_chain_stage_id(int s)
{
	return s == NTPROF_CHAIN_STAGE_MIDDLE ? "middle" : ntprof_stage_id(s);
}

const struct ntprof_chain_group *
ntprof_chain_group_of(const struct recording_run *run,
		      const struct ntprof_group *g)
{
	const struct ntprof_chain_stats *cs;
	size_t i;

	if (!run->chain || !run->chain->stats)
		return NULL;
	cs = run->chain->stats;
	for (i = 0; i < cs->nr; i++)
		if (cs->g[i].group == g && cs->g[i].leg < 0)
			return &cs->g[i];
	return NULL;
}
