#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The tables of tools/bench/chain-icount.sh, from the runs.tsv and the
# hooks-ROUND-OP-MODE.txt files its guest left.
#
# usage: tools/bench/chain-icount-table.sh DIR    (DIR holds runs.tsv)
#
# Under -icount shift=2 a guest instruction is 4 ns of guest time: at QD1
# a command took 1e9 / (4 * IOPS) instructions, the whole chain's.
set -euo pipefail
# shellcheck source=tools/bench/lib.sh disable=SC1091
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

dir=${1:?usage: chain-icount-table.sh DIR}
[ -s "$dir/runs.tsv" ] || { echo "chain-icount-table: no runs in $dir" >&2; exit 1; }

awk -F'\t' "$BENCH_AWK_STATS"'
{
	if (!($2 in oseen)) { oseen[$2] = 1; ops[++no] = $2 }
	if (!($3 in mseen)) { mseen[$3] = 1; modes[++nm] = $3 }
	iops[$1, $2, $3] = $4
	if ($6 > 0) hits[$2, $3] = hits[$2, $3] " " $6 / $5
	if ($7 > 0) reader[$2, $3] = reader[$2, $3] " " $8 / 4 / $7
	if ($7 > 0) recs[$2, $3] = recs[$2, $3] " " $7 / $5
	rounds[$1] = 1
}
END {
	print "1. No-profiler runs: IOPS of each round, and their spread"
	printf "%-10s  %-40s %8s\n", "op", "IOPS", "spread"
	for (o = 1; o <= no; o++) {
		list = ""
		for (r in rounds) if ((r, ops[o], "off") in iops) list = list " " iops[r, ops[o], "off"]
		if (list == "") { printf "%-10s  (none)\n", ops[o]; continue }
		m = median(list)
		printf "%-10s  %-40s %7.2f%%\n", ops[o], list, 100 * (MAX - MIN) / m
	}
	print ""
	print "2. Ratio to no profiler (IOPS, the same round), median [min, max] over"
	print "   the rounds; instructions per command and added per command, hook"
	print "   hits and records per command, and the instructions ntprof record"
	print "   took per record it drained (medians)"
	printf "%-10s %-12s %24s %6s %10s %8s %8s %9s %10s %10s\n", "op", "mode", "IOPS ratio", "rounds", "instr/op", "added", "hits/op", "added/hit", "recs/op", "reader/rec"
	for (o = 1; o <= no; o++) {
		offl = ""
		for (r in rounds) if ((r, ops[o], "off") in iops) offl = offl " " instr(iops[r, ops[o], "off"])
		if (offl == "") continue
		off_i = median(offl)
		for (m = 1; m <= nm; m++) {
			mode = modes[m]
			rl = ""; il = ""; n = 0
			for (r in rounds) {
				if (!((r, ops[o], mode) in iops) || !((r, ops[o], "off") in iops)) continue
				rl = rl " " iops[r, ops[o], mode] / iops[r, ops[o], "off"]
				il = il " " instr(iops[r, ops[o], mode])
				n++
			}
			if (rl == "") continue
			rm = median(rl); rmin = MIN; rmax = MAX
			im = median(il)
			ratio[ops[o], mode] = rm
			printf "%-10s %-12s %6.4f [%6.4f, %6.4f] %6d %10.0f %8.0f", ops[o], mode, rm, rmin, rmax, n, im, im - off_i
			if ((ops[o], mode) in hits) {
				hr = median(hits[ops[o], mode])
				printf " %8.2f %9.1f", hr, (im - off_i) / hr
			}
			if ((ops[o], mode) in reader)
				printf " %10.4f %10.0f", median(recs[ops[o], mode]), median(reader[ops[o], mode])
			printf "\n"
		}
	}
	print ""
	print "3. Target (issue 37, item 6): both roles at -s 100 keep >= 0.97 of the IOPS"
	for (o = 1; o <= no; o++)
		if ((ops[o], "s100") in ratio)
			printf "%-10s -s 100 %.4f %s\n", ops[o], ratio[ops[o], "s100"], ratio[ops[o], "s100"] >= 0.97 ? "met" : "MISSED"
}' "$dir/runs.tsv"

# Hits per command of each hook, per op and mode: all rounds' hits over
# all rounds' commands.
echo
echo "4. Hook hits per command (all rounds), per op and mode"
for f in "$dir"/hooks-*.txt; do
	[ -e "$f" ] || continue
	b=${f##*/hooks-}
	b=${b%.txt}
	rest=${b#*-}
	awk -v op="${rest%%-*}" -v mode="${rest#*-}" \
		'{ print op, mode, $1, $2, $3, $4, $5 }' "$f"
done | awk -F'\t' '
	# runs.tsv first: the commands of each op and mode, all rounds.
	NR == FNR { n[$2 " " $3] += $5; next }
	{
		split($0, a, " ")
		k = a[1] " " a[2] " " a[3] " " a[4] " " a[5] " " a[6]
		h[k] += a[7]
		if (!(k in seen)) { seen[k] = 1; keys[++nk] = k }
	}
	END {
		for (i = 1; i <= nk; i++) {
			split(keys[i], a, " ")
			printf "%-10s %-12s %-34s %-10s %-7s %-5s %8.2f\n", a[1], a[2],
				a[3], a[4], a[5], a[6], h[keys[i]] / n[a[1] " " a[2]]
		}
	}' "$dir/runs.tsv" - | sort -k1,1 -k2,2 -k3,3 |
	{
		printf '%-10s %-12s %-34s %-10s %-7s %-5s %8s\n' op mode hook \
			kind role xport hits/op
		cat
	}
