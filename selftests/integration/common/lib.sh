# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Run a lab scenario for make check: boot the lab with a host and a target
# script (their TAP lines come through with a [guest] prefix), then report
# on the run itself and on every guest's kernel log, and check here what
# the guests left in the share.

. "$(dirname "${BASH_SOURCE[0]}")/../../ktap.sh"
. "$(dirname "${BASH_SOURCE[0]}")/../../lab/lib.sh"

# scenario_kernel [KERNEL]: a scenario's kernel series, its argument
# (run.sh passes one of the KERNELS of its test.sh), else KERNEL as the
# lab has it (the env's, or 6.1), exported for lab-run.
scenario_kernel() {
	KERNEL=${1:-$KERNEL}
	export KERNEL
}

# lab_scenario_boot NAME HOST_SCRIPT TARGET_SCRIPT RUN_DIR: one lab run in
# RUN_DIR (KERNEL, TOPOLOGY and LAB_NULL_BLK from the env), and TAP lines on
# its scripts and every guest's kernel log. Returns lab-run's status.
lab_scenario_boot() {
	local name=$1 host=$2 target=$3 run_dir=$4 rc

	LAB_RUN_DIR=$run_dir LAB_TIMEOUT=${LAB_TIMEOUT:-600} \
		bash "$LAB_DIR/lab-run.sh" --host "$host" --target "$target"
	rc=$?
	lab_scenario_verdict "$name" "$run_dir" "target host"
	[ $rc -eq 0 ] || ktap_diag "lab-run exited with $rc; its files are in $run_dir"
	return $rc
}

# lab_scenario_verdict NAME RUN_DIR ROLES: TAP lines on the run's scripts
# (of the guests' roles ROLES) and every guest's kernel log.
lab_scenario_verdict() {
	local name=$1 run_dir=$2 roles=$3 log role

	KTAP_PREFIX="$name: "
	for role in $roles; do
		if [ "$(cat "$run_dir/share/$role.rc" 2>/dev/null)" = 0 ]; then
			ktap_pass "the $role script finished and passed"
		else
			ktap_fail "the $role script finished and passed"
		fi
	done
	for log in "$run_dir"/share/dmesg-*.log; do
		[ -f "$log" ] || { ktap_fail "a guest saved its kernel log"; continue; }
		role=$(basename "$log" .log)
		role=${role#dmesg-}
		if lab_dmesg_unknown "$log" | grep -E "$(lab_bad_dmesg)" > /dev/null; then
			ktap_fail "no WARNING, BUG, Oops, KASAN or hung task in the kernel log of guest '$role'"
			lab_dmesg_unknown "$log" | grep -E -A3 "$(lab_bad_dmesg)" | head -n 40 | sed 's/^/# /'
		else
			ktap_pass "no WARNING, BUG, Oops, KASAN or hung task in the kernel log of guest '$role'"
		fi
	done
}

# lab_check NAME CHECK_SCRIPT SHARE...: the checks that run here after the
# guests: CHECK_SCRIPT is sourced in a subshell with the runs' shares
# (RUN_DIR/share/xfer, what the guests saw as NTPROF_LAB_SHARE) as its
# arguments, and emits TAP lines with the ktap.sh helpers, numbered on
# from the run's. Fails when one of its lines failed.
lab_check() {
	local name=$1 check=$2 counts count failed before=$KTAP_FAILED

	shift 2
	counts=$(mktemp)
	(
		KTAP_PREFIX="$name: "
		# shellcheck disable=SC1090
		. "$check" "$@"
		echo "$KTAP_COUNT $KTAP_FAILED" > "$counts"
	)
	if read -r count failed < "$counts" && [ -n "$failed" ]; then
		KTAP_COUNT=$count
		KTAP_FAILED=$failed
	else
		KTAP_PREFIX="$name: "
		ktap_fail "the check script $(basename "$check") ran to its end"
	fi
	rm -f "$counts"
	[ "$KTAP_FAILED" -eq "$before" ]
}

# lab_scenario NAME HOST_SCRIPT TARGET_SCRIPT [CHECK_SCRIPT] (KERNEL and
# TOPOLOGY from the env): boot the lab, report on the run, then run
# CHECK_SCRIPT on its share (see lab_check). The run directory is kept
# when anything failed, and with LAB_KEEP=1.
lab_scenario() {
	local name=$1 host=$2 target=$3 check=${4:-} run_dir rc

	run_dir=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-$name.XXXXXX")
	ktap_header
	lab_scenario_boot "$name" "$host" "$target" "$run_dir"
	rc=$?
	if [ -n "$check" ]; then
		lab_check "$name" "$check" "$run_dir/share/xfer" || rc=1
		[ $rc -eq 0 ] && [ "${LAB_KEEP:-0}" != 1 ] ||
			ktap_diag "the run's files are in $run_dir"
	fi
	[ $rc -ne 0 ] || [ "${LAB_KEEP:-0}" = 1 ] || rm -rf "$run_dir"
	ktap_finished
}

# lab_chain_scenario NAME HOST MIDDLE REPLICA CHECK_SCRIPT (KERNEL from
# the env): lab_scenario's run on TOPOLOGY=chain, with a script for each
# of its three guests.
lab_chain_scenario() {
	local name=$1 host=$2 middle=$3 replica=$4 check=$5 run_dir rc

	run_dir=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-$name.XXXXXX")
	ktap_header
	TOPOLOGY=chain LAB_RUN_DIR=$run_dir LAB_TIMEOUT=${LAB_TIMEOUT:-600} \
		bash "$LAB_DIR/lab-run.sh" --host "$host" --middle "$middle" \
		--replica "$replica"
	rc=$?
	lab_scenario_verdict "$name" "$run_dir" "replica middle host"
	lab_check "$name" "$check" "$run_dir/share/xfer" || rc=1
	[ $rc -eq 0 ] && [ "${LAB_KEEP:-0}" != 1 ] ||
		ktap_diag "the run's files are in $run_dir"
	[ $rc -ne 0 ] || [ "${LAB_KEEP:-0}" = 1 ] || rm -rf "$run_dir"
	ktap_finished
}
