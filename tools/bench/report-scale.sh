#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# How 'ntprof report' scales: generates host and target recordings of
# 1 M and 10 M commands each with tools/ntpgen, runs 'ntprof report' on
# each pair under /usr/bin/time -v, and prints records, file sizes, CPU
# time (user + sys), wall time, peak RSS, RSS against the files' size, and
# the growth from the smallest size to the largest.
#
# The targets (issue 6): 10 M + 10 M records in under a minute of CPU on
# one core, and a peak RSS of at most twice the two files' size; (issue
# 27, with the default --stream past 1 GiB of files) 100 M + 100 M in at
# most 5 minutes of wall time with at most 2 GB resident.
#
# usage: tools/bench/report-scale.sh [DIR]
#   DIR      where the recordings go (default $TMPDIR or /tmp); 10 M records
#            are about 2.3 GB per file. They are removed at the end unless
#            KEEP=1; ones of the same size that the current ntpgen wrote
#            are reused.
# environment:
#   SIZES="1000000 10000000"   commands per file, smallest first
#   TRANSPORT=tcp              ntpgen's -t
#   REPORT_ARGS=               more options for 'ntprof report' (e.g. --json)
#   NTPGEN_ARGS=               more options for ntpgen
#   KEEP=1                     keep the recordings
#   CPU=                       pin ntprof to this CPU with taskset (default: no)
#
# Not part of 'make check': it needs minutes and ~5 GB of disk per 10 M
# (46 GB for 100 M + 100 M: check df first).

set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DIR=${1:-${TMPDIR:-/tmp}}
SIZES=${SIZES:-1000000 10000000}
TRANSPORT=${TRANSPORT:-tcp}
REPORT_ARGS=${REPORT_ARGS:-}
NTPGEN_ARGS=${NTPGEN_ARGS:-}
KEEP=${KEEP:-0}
CPU=${CPU-}
NTPROF=$TOP/tools/ntprof/ntprof
NTPGEN=$TOP/tools/ntpgen/ntpgen

[ -x /usr/bin/time ] || { echo "report-scale: /usr/bin/time is needed (apt-get install time)" >&2; exit 1; }
make -s -C "$TOP/tools/ntprof" ntprof >&2
make -s -C "$TOP/tools/ntpgen" >&2
mkdir -p "$DIR"

PIN=()
if [ -n "$CPU" ] && command -v taskset >/dev/null; then
	PIN=(taskset -c "$CPU")
fi

# field FILE NAME: a value of /usr/bin/time -v's output.
field() {
	sed -n "s/^[[:space:]]*$2: //p" "$1" | head -n 1
}

# wall_s "h:mm:ss" or "m:ss.cc" -> seconds
wall_s() {
	awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.2f", s }' <<< "$1"
}

declare -A CPU_S RSS_KB SIZE_B WALL_S
rows=()
for n in $SIZES; do
	h=$DIR/report-scale-$TRANSPORT-$n-host.ntp
	t=$DIR/report-scale-$TRANSPORT-$n-target.ntp
	# Reused only if this ntpgen wrote them (the format may have moved).
	if [ ! -s "$h" ] || [ ! -s "$t" ] || [ -n "$NTPGEN_ARGS" ] ||
			[ "$NTPGEN" -nt "$h" ] || [ "$NTPGEN" -nt "$t" ]; then
		echo "# generating $n + $n records in $DIR" >&2
		# shellcheck disable=SC2086 # NTPGEN_ARGS are words
		/usr/bin/time -v -o "$DIR/gen.time" "$NTPGEN" --quiet -n "$n" \
			-t "$TRANSPORT" --seed 42 $NTPGEN_ARGS "$h" "$t"
		echo "# ntpgen: $(field "$DIR/gen.time" 'User time (seconds)') s user," \
			"$(field "$DIR/gen.time" 'System time (seconds)') s sys" >&2
	fi
	sync
	# Warm the page cache: the benchmark is of ntprof, not of the disk;
	# files larger than half the memory cannot stay cached: read cold.
	mem_kb=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
	if [ $(( ($(stat -c %s "$h") + $(stat -c %s "$t")) / 1024 )) -lt \
			$((mem_kb / 2)) ]; then
		cat "$h" "$t" > /dev/null
	else
		echo "# files larger than half the memory: read from disk" >&2
	fi
	echo "# ntprof report: $n + $n records" >&2
	# shellcheck disable=SC2086 # REPORT_ARGS are words
	if ! /usr/bin/time -v -o "$DIR/report.time" "${PIN[@]}" "$NTPROF" report \
			$REPORT_ARGS "$h" "$t" > "$DIR/report.out" 2> "$DIR/report.err"; then
		echo "report-scale: ntprof report failed on $n records:" >&2
		cat "$DIR/report.err" >&2
		exit 1
	fi
	user=$(field "$DIR/report.time" 'User time (seconds)')
	sys=$(field "$DIR/report.time" 'System time (seconds)')
	rss=$(field "$DIR/report.time" 'Maximum resident set size (kbytes)')
	wall=$(wall_s "$(field "$DIR/report.time" 'Elapsed (wall clock) time (h:mm:ss or m:ss)')")
	size=$(( $(stat -c %s "$h") + $(stat -c %s "$t") ))
	CPU_S[$n]=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
	RSS_KB[$n]=$rss
	SIZE_B[$n]=$size
	WALL_S[$n]=$wall
	rows+=("$(awk -v n="$n" -v size="$size" -v u="$user" -v s="$sys" \
		-v w="$wall" -v rss="$rss" 'BEGIN {
		printf "%10d + %-10d %10.1f %8.2f %8.2f %8.2f %8.2f %10.1f %8.2f",
		       n, n, size / 1e6, u, s, u + s, w, rss / 1024,
		       rss * 1024 / size }')")
	if [ "$KEEP" != 1 ]; then
		rm -f "$h" "$t"
	fi
done
rm -f "$DIR/gen.time" "$DIR/report.time" "$DIR/report.out" "$DIR/report.err"

echo "ntprof report scaling ($TRANSPORT, $(nproc) CPUs, $(uname -r), $("$NTPROF" version 2>/dev/null || echo 'ntprof ?'))"
printf '%23s %10s %8s %8s %8s %8s %10s %8s\n' "records (host + target)" \
	"files MB" "user s" "sys s" "cpu s" "wall s" "RSS MiB" "RSS/file"
for r in "${rows[@]}"; do
	echo "$r"
done

read -r -a sizes <<< "$SIZES"
first=${sizes[0]}
last=${sizes[${#sizes[@]} - 1]}
if [ "$first" != "$last" ]; then
	awk -v f="$first" -v l="$last" -v cf="${CPU_S[$first]}" \
		-v cl="${CPU_S[$last]}" -v rf="${RSS_KB[$first]}" \
		-v rl="${RSS_KB[$last]}" 'BEGIN {
		printf "growth %d -> %d (x%.0f): cpu x%.2f, RSS x%.2f\n",
		       f, l, l / f, cl / (cf > 0 ? cf : 0.01), rl / rf }'
fi
# The targets, on the largest size.
awk -v n="$last" -v c="${CPU_S[$last]}" -v rss="${RSS_KB[$last]}" \
	-v size="${SIZE_B[$last]}" 'BEGIN {
	printf "target: %d + %d in < 60 s of CPU: %.2f s, %s\n", n, n, c,
	       c < 60 ? "met" : "MISSED"
	printf "target: peak RSS <= 2 x files: %.2f x, %s\n", rss * 1024 / size,
	       rss * 1024 <= 2 * size ? "met" : "MISSED" }'
awk -v n="$last" -v w="${WALL_S[$last]}" -v rss="${RSS_KB[$last]}" 'BEGIN {
	printf "target (issue 27, 100 M + 100 M): %d + %d in <= 300 s wall: %.1f s, %s\n",
	       n, n, w, w <= 300 ? "met" : "MISSED"
	printf "target (issue 27): peak RSS <= 2 GB: %.0f MB, %s\n",
	       rss * 1024 / 1e6, rss * 1024 <= 2e9 ? "met" : "MISSED" }'
