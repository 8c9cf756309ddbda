#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# How 'ntprof report' scales on a chain (issue 37, item 5): generates
# with 'ntpgen --chain' N origin host commands through a middle (nvmet
# over md raid1) to two replicas, half reads and half writes (about 5 N
# records over the five recordings), with splits, resync and superblock
# writes and a slow leg; runs 'ntprof report' on the directory under
# /usr/bin/time -v; then checks every origin command's tree, as the
# report's chain analysis follows it (selftests/unit/chain_trees), against
# ntpgen's truth (selftests/unit/chain_trees.awk, chain_compare.awk).
#
# The targets: 1 M origin commands (about 5 M records) in at most 60 s
# of wall time and 2 GB of peak RSS, every command linked right.
#
# usage: tools/bench/chain-scale.sh [DIR]
#   DIR      where the chain goes (default $TMPDIR or /tmp): about 0.9 GB
#            for 1 M commands (its truth.csv is half of it). Removed at
#            the end unless KEEP=1.
# environment:
#   COMMANDS=1000000        origin commands
#   NTPGEN_ARGS=            more options for ntpgen
#   REPORT_ARGS=            more options for 'ntprof report'
#   KEEP=1                  keep the chain
#
# Not part of 'make check': it needs a few minutes. Prints a table, and
# exits 1 if a target is missed or a tree is wrong.

set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BASE=${1:-${TMPDIR:-/tmp}}
COMMANDS=${COMMANDS:-1000000}
NTPGEN_ARGS=${NTPGEN_ARGS:-}
REPORT_ARGS=${REPORT_ARGS:-}
KEEP=${KEEP:-0}
NTPROF=$TOP/tools/ntprof/ntprof
NTPGEN=$TOP/tools/ntpgen/ntpgen
UNIT=$TOP/selftests/unit

[ -x /usr/bin/time ] || { echo "chain-scale: /usr/bin/time is needed (apt-get install time)" >&2; exit 1; }
make -s -C "$TOP/tools/ntprof" ntprof >&2
make -s -C "$TOP/tools/ntpgen" >&2
make -s -C "$UNIT" chain_trees >&2
DIR=$BASE/chain-scale-$COMMANDS
rm -rf "$DIR"
mkdir -p "$DIR"
[ "$KEEP" = 1 ] || trap 'rm -rf "$DIR"' EXIT

# field FILE NAME: a value of /usr/bin/time -v's output.
field() {
	sed -n "s/^[[:space:]]*$2: //p" "$1" | head -n 1
}

# wall_s "h:mm:ss" or "m:ss.cc" -> seconds
wall_s() {
	awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.2f", s }' <<< "$1"
}

echo "# generating $COMMANDS origin commands through two legs in $DIR" >&2
# A span of 1 TiB: two commands in flight on the same LBAs (which the
# report rightly leaves ambiguous) are then unlikely.
# shellcheck disable=SC2086 # NTPGEN_ARGS are words
/usr/bin/time -v -o "$DIR/gen.time" "$NTPGEN" --quiet --chain -n "$COMMANDS" \
	--read-pct 50 --split-pct 10 --unlinked-pct 1 --slow-leg 1:50 \
	--span 1T --seed 42 $NTPGEN_ARGS "$DIR"
echo "# ntpgen: $(wall_s "$(field "$DIR/gen.time" 'Elapsed (wall clock) time (h:mm:ss or m:ss)')") s" >&2
size=0
for f in "$DIR"/*.ntp; do
	size=$((size + $(stat -c %s "$f")))
done
sync
cat "$DIR"/*.ntp > /dev/null

echo "# ntprof report" >&2
# shellcheck disable=SC2086 # REPORT_ARGS are words
if ! /usr/bin/time -v -o "$DIR/report.time" "$NTPROF" report $REPORT_ARGS \
		"$DIR" > "$DIR/report.out" 2> "$DIR/report.err"; then
	echo "chain-scale: ntprof report failed:" >&2
	cat "$DIR/report.err" >&2
	exit 1
fi
user=$(field "$DIR/report.time" 'User time (seconds)')
sys=$(field "$DIR/report.time" 'System time (seconds)')
rss=$(field "$DIR/report.time" 'Maximum resident set size (kbytes)')
wall=$(wall_s "$(field "$DIR/report.time" 'Elapsed (wall clock) time (h:mm:ss or m:ss)')")
chains=$(grep -m1 '^== chains:' "$DIR/report.out" || true)
middle=$(grep -m1 '^  middle ' "$DIR/report.out" | sed 's/^ *//' || true)

echo "# checking every tree against the truth" >&2
awk -F, -f "$UNIT/chain_trees.awk" "$DIR/truth.csv" > "$DIR/want.txt"
/usr/bin/time -v -o "$DIR/trees.time" "$UNIT/chain_trees" "$DIR"/*.ntp |
	sed 's#[^ :>]*/##g' > "$DIR/got.txt"
trees=$(awk -v got="$DIR/got.txt" -f "$UNIT/chain_compare.awk" "$DIR/want.txt")
# Every record is in exactly one hop row as its host or its target side.
records=$(awk -F, '$1 == "hop" { n += 2 } END { print n }' "$DIR/truth.csv")
unlinked=$(grep -c '^unlinked,' "$DIR/truth.csv" || true)
no_upstream=$(sed -n 's/.*not linked: \([0-9]*\) without one.*/\1/p' <<< "$middle")
load=$(cut -d' ' -f1-3 /proc/loadavg)

echo "ntprof report of a chain ($(nproc) CPUs, $(uname -r), $("$NTPROF" version 2>/dev/null || echo 'ntprof ?'), commit $(git -C "$TOP" rev-parse --short HEAD))"
awk -v n="$COMMANDS" -v r="$records" -v size="$size" -v u="$user" -v s="$sys" \
	-v w="$wall" -v rss="$rss" 'BEGIN {
	printf "%d origin commands, %d records, files %.1f MB\n", n, r, size / 1e6
	printf "report: wall %.2f s, user %.2f s, sys %.2f s, peak RSS %.1f MiB\n",
	       w, u, s, rss / 1024 }'
echo "load average after: $load (other work on the machine stretches the wall time)"
echo "report: $chains"
echo "report: $middle"
echo "trees: ${trees##*$'\n'}"
ok=1
awk -v w="$wall" -v rss="$rss" 'BEGIN {
	printf "target: <= 60 s wall: %.2f s, %s\n", w, w <= 60 ? "met" : "MISSED"
	printf "target: <= 2 GB peak RSS: %.0f MB, %s\n", rss * 1024 / 1e6,
	       rss * 1024 <= 2e9 ? "met" : "MISSED"
	exit !(w <= 60 && rss * 1024 <= 2e9) }' || ok=0
awk '/^trees / { printf "target: every tree the truth'"'"'s: %d of %d (%d short of a link, %d wrong), %s\n",
	$4, $2, $6, $8, $2 == $4 ? "met" : "MISSED"; exit !($2 == $4) }' <<< "$trees" || ok=0
echo "target: the middle's own commands without upstream: $no_upstream, truth $unlinked," \
	"$([ "$no_upstream" = "$unlinked" ] && echo met || echo MISSED)"
[ "$no_upstream" = "$unlinked" ] || ok=0
[ "$ok" = 1 ]
