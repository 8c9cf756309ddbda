#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The table of tools/bench/spdk-icount.sh, from the runs.tsv its guest left.
#
# usage: tools/bench/spdk-icount-table.sh DIR    (DIR holds runs.tsv)
#
# Under -icount shift=2 guest time advances 4 ns per instruction that
# either vCPU executes, and both poll all the time: a read at QD1 took
# 1e9 / (4 * IOPS) instructions of the two vCPUs together. What a mode
# adds per read, divided by the uprobe hits per read (both sides), is the
# cost of one hit in those instructions: the trap on one vCPU, and what
# the other executed while it waited for it. The last column: how far
# ntprof's read mean (column 8 of runs.tsv, the joined recordings') is
# below perf's Average, median over the repetitions, in %.
set -euo pipefail
# shellcheck source=tools/bench/lib.sh disable=SC1091
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

dir=${1:?usage: spdk-icount-table.sh DIR}
[ -s "$dir/runs.tsv" ] || { echo "spdk-icount-table: no runs in $dir" >&2; exit 1; }

awk -F'\t' "$BENCH_AWK_STATS"'
NR == 1 { next }
$4 + 0 <= 0 { next }
{
	if (!($2 in xseen)) { xseen[$2] = 1; xports[++nx] = $2 }
	if (!($3 in mseen)) { mseen[$3] = 1; modes[++nm] = $3 }
	iops[$1, $2, $3] = $4
	reps[$1] = 1
	if ($6 + $7 > 0) hits[$2, $3] = hits[$2, $3] " " ($6 + $7)
	iol[$2, $3] = iol[$2, $3] " " $4
	if ($8 + 0 > 0 && $5 + 0 > 0)
		gaps[$2, $3] = gaps[$2, $3] " " 100 * ($5 - $8) / $5
}
END {
	printf "%-6s %-6s %-36s %22s %10s %10s %9s %10s %9s\n", "xport", "mode", "IOPS",
		"ratio to off", "instr/rd", "added", "hits/rd", "added/hit",
		"mean gap"
	for (x = 1; x <= nx; x++) {
		t = xports[x]
		offl = ""
		for (r in reps) if ((r, t, "off") in iops) offl = offl " " instr(iops[r, t, "off"])
		if (offl == "") continue
		off_i = median(offl)
		for (m = 1; m <= nm; m++) {
			mode = modes[m]
			rl = ""; il = ""
			for (r in reps) {
				if (!((r, t, mode) in iops) || !((r, t, "off") in iops)) continue
				rl = rl " " iops[r, t, mode] / iops[r, t, "off"]
				il = il " " instr(iops[r, t, mode])
			}
			if (rl == "") continue
			ratio = median(rl); rmin = MIN; rmax = MAX
			ins = median(il)
			added = ins - off_i
			# Hits per read: the hits over the reads of a run of
			# SECONDS (IOPS x SECONDS); the runs.tsv has the IOPS.
			hpr = "-"; aph = "-"
			if ((t, mode) in hits) {
				h = median(hits[t, mode])
				n = median(iol[t, mode]) * SECS
				if (n > 0) {
					hpr = sprintf("%.2f", h / n)
					if (h / n > 0) aph = sprintf("%.0f", added / (h / n))
				}
			}
			gap = "-"
			if ((t, mode) in gaps)
				gap = sprintf("%.2f %%", median(gaps[t, mode]))
			printf "%-6s %-6s %-36s %8.3f [%.3f, %.3f] %10.0f %10.0f %9s %10s %9s\n",
				t, mode, substr(iol[t, mode], 2), ratio, rmin, rmax, ins,
				added, hpr, aph, gap
		}
	}
}' SECS="${SECONDS_PER_RUN:-5}" "$dir/runs.tsv"
