#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034 # run.sh reads KERNELS and TOPOLOGY here.
# The hot path's cost, guarded: one short run of tools/bench/icount.sh's
# guest part under QEMU's icount mode (guest time counts instructions, so
# the ratio repeats from run to run, unlike timings), kernel KERNEL, one
# guest holding both roles, one vCPU, fio 4 KiB random reads at QD1 over
# loopback NVMe/TCP: with ntprof record -s 100 as host and as target, the
# IOPS must be at least GUARD_MIN (0.97) of those without a profiler:
# above what the hooks kept before their gates (0.9697), below what they
# keep now (0.980) by more than runs differ (0.15 %), on 6.12.
# Documentation/benchmarks.rst has the full benchmark.
KERNELS="6.12"
TOPOLOGY=one
. "$(dirname "$0")/../common/lib.sh"
scenario_start "$@"
export LAB_ONE_SMP=1 LAB_ACCEL=icount
GUARD_MIN=${GUARD_MIN:-0.97}
name=icount-guard-$KERNEL

dir=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-$name.XXXXXX")
# Rotated once: no profiler first. The target's script only lets the
# host's start: one that waits would poll beside fio.
{
	echo "REPS=1 READS=3000 QDS=1 TRANSPORTS=tcp MODES='s100 off'"
	cat ../../../tools/bench/record-both.sh ../../../tools/bench/icount-guest.sh
} > "$dir/host.sh"
echo lab-ready > "$dir/target.sh"

ktap_header
rc=0
lab_scenario_boot "$name" "$dir/host.sh" "$dir/target.sh" "$dir/run" || rc=1
runs=$dir/run/share/xfer/icount/runs.tsv
ratio=$(awk -F'\t' '$4 == "off" { off = $5 } $4 == "s100" { s = $5 }
	END { if (off > 0 && s > 0) printf "%.4f", s / off }' "$runs" 2>/dev/null)
if [ -z "$ratio" ]; then
	ktap_fail "icount: the runs with and without ntprof finished"
	rc=1
elif awk -v r="$ratio" -v m="$GUARD_MIN" 'BEGIN { exit !(r >= m) }'; then
	ktap_pass "icount: -s 100 on both roles keeps $ratio of the IOPS (at least $GUARD_MIN), QD1, TCP"
else
	ktap_fail "icount: -s 100 on both roles keeps $ratio of the IOPS (at least $GUARD_MIN), QD1, TCP"
	rc=1
fi
[ -n "$ratio" ] && sed 's/^/# /' "$runs"
if [ $rc -eq 0 ]; then
	rm -rf "$dir"
else
	ktap_diag "the run's files are in $dir"
fi
ktap_finished
