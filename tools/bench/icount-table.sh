#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The tables of tools/bench/icount.sh, from the runs.tsv its guest left.
#
# usage: tools/bench/icount-table.sh DIR    (DIR holds runs.tsv)
#
# Under -icount shift=2 a guest instruction is 4 ns of guest time, so the
# instructions a read took are 1e9 / (4 * IOPS) at QD1 (at QD32 the same
# figure is per read of the device's throughput).
set -euo pipefail
# shellcheck source=tools/bench/lib.sh disable=SC1091
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

dir=${1:?usage: icount-table.sh DIR}
[ -s "$dir/runs.tsv" ] || { echo "icount-table: no runs in $dir" >&2; exit 1; }

awk -F'\t' "$BENCH_AWK_STATS"'
{
	key = $2 " " $3
	if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
	if (!($4 in mseen)) { mseen[$4] = 1; modes[++nm] = $4 }
	iops[$1, key, $4] = $5
	if ($7 > 0) hits[key, $4] = hits[key, $4] " " $7 / $6
	if ($8 > 0) reader[key, $4] = reader[key, $4] " " $9 / 4 / $8
	reps[$1] = 1
}
END {
	print "1. No-profiler runs: IOPS of each repetition, and their spread"
	printf "%-6s %4s  %-40s %8s\n", "xport", "QD", "IOPS", "spread"
	for (k = 1; k <= nk; k++) {
		list = ""
		for (r in reps) if ((r, keys[k], "off") in iops) list = list " " iops[r, keys[k], "off"]
		split(keys[k], kq, " ")
		if (list == "") { printf "%-6s %4s  (none)\n", kq[1], kq[2]; continue }
		m = median(list)
		printf "%-6s %4s  %-40s %7.2f%%\n", kq[1], kq[2], list, 100 * (MAX - MIN) / m
	}
	print ""
	print "2. Ratio to no profiler (IOPS), median [min, max] over the repetitions;"
	print "   instructions per read and added per read, hook hits per read, and"
	print "   the instructions ntprof record took per record it drained (medians)"
	printf "%-6s %4s %-10s %24s %10s %10s %9s %11s %11s\n", "xport", "QD", "mode", "IOPS ratio", "instr/rd", "added", "hits/rd", "added/hit", "reader/rec"
	for (k = 1; k <= nk; k++) {
		split(keys[k], kq, " ")
		offl = ""
		for (r in reps) if ((r, keys[k], "off") in iops) offl = offl " " instr(iops[r, keys[k], "off"])
		if (offl == "") continue
		off_i = median(offl)
		for (m = 1; m <= nm; m++) {
			mode = modes[m]
			rl = ""; il = ""
			for (r in reps) {
				if (!((r, keys[k], mode) in iops) || !((r, keys[k], "off") in iops)) continue
				rl = rl " " iops[r, keys[k], mode] / iops[r, keys[k], "off"]
				il = il " " instr(iops[r, keys[k], mode])
			}
			if (rl == "") continue
			rm = median(rl); rmin = MIN; rmax = MAX
			im = median(il)
			ratio[keys[k], mode] = rm
			added[keys[k], mode] = im - off_i
			hr = (keys[k], mode) in hits ? median(hits[keys[k], mode]) : 0
			if (mode == "s1000000") unsampled_hits[keys[k]] = hr
			printf "%-6s %4s %-10s %6.4f [%6.4f, %6.4f] %10.0f %10.0f", kq[1], kq[2], mode, rm, rmin, rmax, im, im - off_i
			if (hr > 0) printf " %9.2f %11.1f", hr, (im - off_i) / hr
			if ((keys[k], mode) in reader) printf " %11.0f", median(reader[keys[k], mode])
			printf "\n"
		}
	}
	print ""
	print "3. Targets (both roles recording): -s 100 >= 0.98, -s 1 >= 0.95,"
	print "   an unsampled hit <= 1.5 x the empty probe at the same sites,"
	print "   ntprof -s 100 overhead <= 0.1 x bpftrace overhead,"
	print "   --stages-only -s 100 >= 0.99"
	for (k = 1; k <= nk; k++) {
		split(keys[k], kq, " ")
		line = sprintf("%-6s QD%-3s", kq[1], kq[2])
		if ((keys[k], "s100") in ratio)
			line = line sprintf("  -s 100 %.4f %s", ratio[keys[k], "s100"], ratio[keys[k], "s100"] >= 0.98 ? "met" : "MISSED")
		if ((keys[k], "s1") in ratio)
			line = line sprintf("  -s 1 %.4f %s", ratio[keys[k], "s1"], ratio[keys[k], "s1"] >= 0.95 ? "met" : "MISSED")
		if ((keys[k], "lean100") in ratio)
			line = line sprintf("  --stages-only -s 100 %.4f %s", ratio[keys[k], "lean100"], ratio[keys[k], "lean100"] >= 0.99 ? "met" : "MISSED")
		if (((keys[k], "s1000000") in added) && ((keys[k], "empty") in added) && added[keys[k], "empty"] > 0) {
			x = added[keys[k], "s1000000"] / added[keys[k], "empty"]
			line = line sprintf("  unsampled/empty %.2fx %s", x, x <= 1.5 ? "met" : "MISSED")
		}
		if (((keys[k], "s100") in ratio) && ((keys[k], "bpf") in ratio) && ratio[keys[k], "bpf"] < 1) {
			x = (1 - ratio[keys[k], "s100"]) / (1 - ratio[keys[k], "bpf"])
			line = line sprintf("  s100/bpf %.3f %s", x, x <= 0.1 ? "met" : "MISSED")
		}
		print line
	}
}' "$dir/runs.tsv"
