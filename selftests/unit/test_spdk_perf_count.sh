#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The SPDK lab tests' count of perf's reads (selftests/integration/common/
# guest/spdk-perf-lib.sh): check_reads passes when the host's recording has
# exactly the reads spdk_nvme_perf completed, the sum of its -LL latency
# histogram, and fails on one read more or less, or without a histogram.
# perf's output is written here with the format strings of its
# print_performance() and print_bucket() (SPDK's app/spdk_nvme_perf/perf.c);
# the numbers are those of the run in which IOPS times 5 s fell short of
# the reads perf had completed (issue 40): 6695 reads at 1337.28 IOPS.
#
# usage: test_spdk_perf_count.sh    Prints TAP; exits 1 if any test failed.

set -u

UNIT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=selftests/ktap.sh disable=SC1091
. "$UNIT_DIR/../ktap.sh"
# shellcheck source=selftests/integration/common/guest/spdk-perf-lib.sh disable=SC1091
. "$UNIT_DIR/../integration/common/guest/spdk-perf-lib.sh"

ktap_header
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT

# perf_output FILE BUCKET_COUNT...: perf's output of a QD1 run at 1337.28
# IOPS, with a latency histogram of these buckets' counts (none: without
# -LL).
perf_output() {
	local f=$1 so_far=0 total=0 c start=700

	shift
	for c in "$@"; do
		total=$((total + c))
	done
	{
		printf 'Initializing NVMe Controllers\n'
		printf 'Attached to NVMe over Fabrics controller at 127.0.0.1:4420: nqn.2016-06.io.spdk:cnode1\n\n'
		printf '========================================================\n'
		printf '%*s\n' 80 'Latency(us)'
		printf '%-*s: %10s %10s %10s %10s %10s\n' 33 'Device Information' \
			IOPS MiB/s Average min max
		printf '%-*.*s from core %2u: %10.2f %10.2f %10.2f %10.2f %10.2f\n' \
			20 20 'TCP (127.0.0.1) NSID 1' 1 1337.28 5.22 747.45 512.10 9816.33
		printf '========================================================\n'
		printf '%-*s: %10.2f %10.2f %10.2f %10.2f %10.2f\n\n' 33 Total \
			1337.28 5.22 747.45 512.10 9816.33
		[ $# -gt 0 ] || return 0
		printf 'Summary latency data for %-43.43s from core %u:\n' 'TCP (127.0.0.1) NSID 1' 1
		printf '=================================================================================\n'
		printf '%9.5f%% : %9.3fus\n' 50.00000 745.935 99.00000 1200.500
		printf '\n'
		printf 'Latency histogram for %-43.43s from core %u:\n' 'TCP (127.0.0.1) NSID 1' 1
		printf '==============================================================================\n'
		printf '       Range in us     Cumulative    IO count\n'
		for c in "$@"; do
			so_far=$((so_far + c))
			printf '%9.3f - %9.3f: %9.4f%%  (%9ju)\n' "$start" "$((start + 4))" \
				"$(awk -v s="$so_far" -v t="$total" 'BEGIN { printf "%.4f", s * 100 / t }')" "$c"
			start=$((start + 4))
		done
		printf '\n'
	} > "$f"
}

# report FILE READS: a report whose read group has READS commands.
report() {
	{
		echo "records: $2 host, $2 target; $2 matched (100 % of the host's)"
		echo
		echo "== read 4KiB nvme0n1: $2 commands sampled (from about 1.3k commands/s), all with the target's side"
	} > "$1"
}

# 6695 reads in all: 1 + 6000 + 694.
perf_output "$TMP/perf.out" 1 6000 694
perf_output "$TMP/nohist.out"
# same DESC GOT WANT: a pass when GOT is WANT.
same() {
	if [ "$2" = "$3" ]; then
		ktap_pass "$1 ($3)"
	else
		ktap_fail "$1 (got '$2', not '$3')"
	fi
}

same "perf_field reads IOPS from the Total line, with the histogram after it" \
	"$(perf_field 1 "$TMP/perf.out")" 1337.28
same "perf_count sums the histogram's buckets" "$(perf_count "$TMP/perf.out")" 6695
same "perf_count says nothing without a histogram" "$(perf_count "$TMP/nohist.out")" ""
same "perf_summary ends at the Total line" \
	"$(perf_summary "$TMP/perf.out" | grep -v '^$' | tail -n 1 | cut -d: -f1 | tr -d ' ')" Total

# expect PASS|FAIL DESC CHECK_READS_ARGS...: check_reads prints one line,
# a pass or a failure as wanted.
expect() {
	local want=$1 desc=$2 line

	shift 2
	line=$(KTAP_COUNT=0 KTAP_FAILED=0 check_reads "$@")
	case "$want:$line" in
	PASS:"ok "* | FAIL:"not ok "*) ktap_pass "$desc: $line" ;;
	*) ktap_fail "$desc: $line" ;;
	esac
}

report "$TMP/r6695.txt" 6695
report "$TMP/r6694.txt" 6694
report "$TMP/r6696.txt" 6696
expect PASS "all of perf's reads, more than IOPS x 5 s" t "$TMP/r6695.txt" "$TMP/perf.out"
expect FAIL "one read lost" t "$TMP/r6694.txt" "$TMP/perf.out"
expect FAIL "one read of another run" t "$TMP/r6696.txt" "$TMP/perf.out"
expect FAIL "perf printed no histogram" t "$TMP/r6695.txt" "$TMP/nohist.out"
expect FAIL "the report has no read group" t "$TMP/perf.out" "$TMP/perf.out"
ktap_finished
