#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The table of tools/bench/hookcost.sh, from the costs.tsv its guest part
# wrote: per transport, every hook that ran, its hits per read and the
# instructions a hit took (guest ns over hits, less the bracket, over 4
# ns an instruction), in each mode, and the sums per read.
#
# usage: tools/bench/hookcost-table.sh DIR   (DIR holds costs.tsv)
set -euo pipefail
f=${1:?usage: hookcost-table.sh DIR}/costs.tsv
[ -s "$f" ] || { echo "hookcost-table: no $f" >&2; exit 1; }

awk -F'\t' '
{
	t = $1; m = $2; k = t SUBSEP $5 SUBSEP $6 SUBSEP $7
	if (!(k in seen)) { seen[k] = 1; order[++n] = k }
	if (!(m in mseen)) { mseen[m] = 1; modes[++nm] = m }
	hits[k, m] = $8; reads[t, m] = $3
	ins[k, m] = ($9 / $8 - $4) / 4
}
END {
	printf "instructions per hit of each hook (guest ns / hits, less the bracket, / 4)\n"
	printf "%-5s %-30s %-5s %-6s", "xport", "hook", "kind", "role"
	for (j = 1; j <= nm; j++) printf " %10s %9s", modes[j] " hits/rd", "instr/hit"
	printf "\n"
	for (i = 1; i <= n; i++) {
		split(order[i], p, SUBSEP)
		printf "%-5s %-30s %-5s %-6s", p[1], p[2], substr(p[3], 1, 5), p[4]
		for (j = 1; j <= nm; j++) {
			m = modes[j]
			if ((order[i], m) in hits) {
				r = hits[order[i], m] / reads[p[1], m]
				printf " %10.2f %9.0f", r, ins[order[i], m]
				sum[p[1], m] += r * ins[order[i], m]
				nh[p[1], m] += r
			} else {
				printf " %10s %9s", "-", "-"
			}
		}
		printf "\n"
		xp[p[1]] = 1
	}
	for (x in xp) {
		printf "%-5s %-30s %-5s %-6s", x, "all hooks, per read", "", ""
		for (j = 1; j <= nm; j++)
			printf " %10.2f %9.0f", nh[x, modes[j]], sum[x, modes[j]]
		printf "\n"
	}
}' "$f"
