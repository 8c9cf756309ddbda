#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034 # run.sh reads KERNELS and TOPOLOGY here.
# Ground truth for ntprof report and compare, two guests, kernel KERNEL:
# known delays put into one stage at a time, on NVMe/TCP and NVMe/RDMA.
# Two boots, the guests' null_blk the only difference between them:
#   1: a 10 us drive; phases base (nothing added) and netem (the host's
#      link delayed by REPORT_NETEM_US);
#   2: the same drive REPORT_DRIVE_DELAY_US slower; phases slow (nothing
#      added) and busy (a local writer on the drive).
# Then check.sh, here, checks each run's report against fio and
# each phase's compare against what was put in.
# See Documentation/lab.rst, "Delays with a known answer".
KERNELS="6.12 7.3"
TOPOLOGY=two
# jq and jsonschema: check.sh reads the reports and validates
# them against Documentation/schemas.
requires() {
	require_program jq jq
	require_python jsonschema python3-jsonschema
}

. "$(dirname "$0")/../common/lib.sh"
scenario_start "$@"
# Under TCG the stages that were not delayed move by up to 3 ms between
# phases, and up to 10 ms while the drive is slow (Documentation/lab.rst),
# which must stay within 5 % of the delay.
export REPORT_NETEM_US=100000 REPORT_DRIVE_DELAY_US=300000 REPORT_SECONDS=10
name=report-delays-$KERNEL
# One request at a time, completed by a timer: a drive that a writer keeps
# busy. The same in both boots but for the drive's time.
drive=irqmode=2,hw_queue_depth=1,completion_nsec
base_ns=10000

# script DIR ROLE PHASES: a script for lab-run that runs the guest's
# report-ROLE.sh with these phases.
script() {
	{
		echo "export REPORT_PHASES='$3' REPORT_SECONDS=$REPORT_SECONDS"
		echo "export REPORT_NETEM_US=$REPORT_NETEM_US"
		echo ". /lab/tests/report-$2.sh"
	} > "$1/$2.sh"
}

dir=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-$name.XXXXXX")
mkdir -p "$dir/1" "$dir/2"
script "$dir/1" host "base netem"
script "$dir/1" target "base netem"
script "$dir/2" host "slow busy"
script "$dir/2" target "slow busy"
# cpu_waiting: microseconds that some task of this machine waited for a
# CPU (PSI), and the time; cpu_pressure OLD: the share since OLD. Other
# work competing with the guests shows here, and in every stage.
cpu_waiting() {
	echo "$(sed -n 's/^some .*total=//p' /proc/pressure/cpu 2>/dev/null) $(date +%s%N)"
}
cpu_pressure() {
	echo "$1 $(cpu_waiting)" | awk 'NF == 4 && $4 > $2 {
		printf "%.0f", 100 * ($3 - $1) * 1000 / ($4 - $2) }'
}

ktap_header
rc=0
psi=$(cpu_waiting)
LAB_NULL_BLK=$drive=$base_ns lab_scenario_boot "$name/1" "$dir/1/host.sh" \
	"$dir/1/target.sh" "$dir/1/run" || rc=1
p1=$(cpu_pressure "$psi")
psi=$(cpu_waiting)
LAB_NULL_BLK=$drive=$((base_ns + REPORT_DRIVE_DELAY_US * 1000)) \
	lab_scenario_boot "$name/2" "$dir/2/host.sh" "$dir/2/target.sh" "$dir/2/run" || rc=1
p2=$(cpu_pressure "$psi")
ktap_diag "tasks of this machine waited for a CPU ${p1:-?} % of the time in boot 1, ${p2:-?} % in boot 2"
# The larger, for check.sh (no PSI: 0).
export REPORT_CPU_PRESSURE=$(( ${p1:-0} > ${p2:-0} ? ${p1:-0} : ${p2:-0} ))
lab_check "$name" ./check.sh "$dir/1/run/share/xfer" \
	"$dir/2/run/share/xfer" || rc=1
[ $rc -eq 0 ] && rm -rf "$dir" || ktap_diag "the runs' files are in $dir"
ktap_finished
