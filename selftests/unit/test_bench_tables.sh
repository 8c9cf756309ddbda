#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The benchmark tables' medians (tools/bench/lib.sh's BENCH_AWK_STATS,
# the one median every table uses): of odd and even counts, unsorted,
# with their extremes; bench_hit_table's cost a hit; and overhead-table.sh's
# ratios, median [min, max] over three alternations, from a made-up run.
# Prints TAP; exits 1 if any test failed.

set -u

UNIT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$UNIT_DIR/../.." && pwd)
# shellcheck source=selftests/ktap.sh
. "$UNIT_DIR/../ktap.sh"
# shellcheck source=tools/bench/lib.sh
. "$TOP/tools/bench/lib.sh"
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT

ktap_header
for c in "3 1 2:2 1 3" "40 10 30 20:25 10 40" "7:7 7 7" "1e3 900 1100 2:950 2 1100"; do
	got=$(awk -v L="${c%%:*}" "$BENCH_AWK_STATS"'BEGIN { m = median(L); print m, MIN, MAX }')
	[ "$got" = "${c#*:}" ] &&
		ktap_pass "median, min and max of ${c%%:*}: $got" ||
		ktap_fail "median, min and max of ${c%%:*}: $got, not ${c#*:}"
done

# Three repetitions of off and s1: 100, 101, 99 and 130, 125, 128
# instructions an iteration; the medians differ by 28, over 3 hits 9.3.
printf 'rep\tmode\tcommands\tns\trecords\n' > "$TMP/runs.tsv"
printf '%s\t%s\t100\t%s\t0\n' 1 off 40000 1 s1 52000 2 off 40400 2 s1 50000 \
	3 off 39600 3 s1 51200 >> "$TMP/runs.tsv"
got=$(bench_hit_table "$TMP/runs.tsv" off 3 | awk '$1 == "s1" { print $(NF - 1), $NF }')
[ "$got" = "28.0 9.3" ] &&
	ktap_pass "bench_hit_table: s1 adds 28.0 instructions, 9.3 a hit" ||
	ktap_fail "bench_hit_table: s1 adds 28.0 instructions, 9.3 a hit (got $got)"

# overhead-table.sh: three alternations of base and s1 over TCP at QD1,
# s1's IOPS at 0.5, 1.0 and 0.9 of base's: median 0.900 [0.500, 1.000].
k=0
for a in 1 2 3; do
	for m in base s1; do
		k=$((k + 1))
		iops=1000
		[ "$m" = s1 ] && iops=$(echo "$a" | awk '{ print ($1 == 1 ? 500 : $1 == 2 ? 1000 : 900) }')
		printf '%s\t%s\ttcp\t%s\t1\t%s\t%s\n' "$k" "$a" "$m" $((2 * k)) $((2 * k + 1)) >> "$TMP/runs.tsv.o"
		# fio's terse line: field 6 the KiB, 8 the IOPS, 40 the mean latency.
		awk -v iops="$iops" 'BEGIN { for (i = 1; i <= 40; i++) f[i] = 0
			f[6] = 4000; f[8] = iops; f[40] = 100
			for (i = 1; i <= 40; i++) printf "%s%s", f[i], i < 40 ? ";" : "\n" }' \
			> "$TMP/fio-$k-1.fio"
		for side in host target; do
			printf '%s\t%s\t0\t0\t0\t0\n%s\t%s\t10\t0\t1000\t1\n' \
				"$k" $((2 * k)) "$k" $((2 * k + 1)) >> "$TMP/$side.tsv"
		done
	done
done
mv "$TMP/runs.tsv.o" "$TMP/runs.tsv"
got=$(bash "$TOP/tools/bench/overhead-table.sh" "$TMP" 2>&1 |
	awk '$1 == "tcp" && $2 == 1 && $4 == "-s" { print $7, $8, $9; exit }')
[ "$got" = "0.900 [0.500, 1.000]" ] &&
	ktap_pass "overhead-table.sh: -s 1's IOPS ratio, median [min, max] over 3 alternations" ||
	ktap_fail "overhead-table.sh: -s 1's IOPS ratio, median [min, max] over 3 alternations (got '$got')"
ktap_finished
