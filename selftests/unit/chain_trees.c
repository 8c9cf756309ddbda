// SPDX-License-Identifier: GPL-2.0
/*
 * chain_trees: prints each origin command's tree as the report's chain
 * analysis follows it (ntprof_chain_cmd_print(), one line a command, in
 * the origin files' order), for test_ntpgen_chain.sh and
 * tools/bench/chain-scale.sh to compare with ntpgen --chain's truth
 * (chain_trees.awk prints the truth's lines).
 *
 * usage: chain_trees FILE.ntp...
 * Exits 1 after a one-line error if the run cannot be loaded.
 */
#include <stdio.h>

#include "analysis/chain.h"
#include "analysis/recording.h"

static int print_tree(const struct ntprof_chain_cmd *c, void *arg)
{
	struct recording_run *run = arg;

	ntprof_chain_cmd_print(stdout, run, c);
	return 0;
}

int main(int argc, char *argv[])
{
	struct recording_run run;
	int ret;

	if (argc < 2) {
		fputs("usage: chain_trees FILE.ntp...\n", stderr);
		return 2;
	}
	ret = recording_run_load(&run, "chain_trees", argv + 1,
				 (size_t)argc - 1, 0);
	if (!ret && !ntprof_chain_present(&run)) {
		fputs("chain_trees: no chain in these files: no machine recorded both roles\n",
		      stderr);
		ret = 1;
	}
	if (!ret)
		ret = ntprof_chain_each(&run, print_tree, &run);
	recording_run_free(&run);
	if (fflush(stdout) || ret)
		return 1;
	return 0;
}
