# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Run a lab scenario for make check: boot the lab with a host and a target
# script (their TAP lines come through with a [guest] prefix), then report
# on the run itself and on every guest's kernel log, and check here what
# the guests left in the share.

. "$(dirname "${BASH_SOURCE[0]}")/../../ktap.sh"
. "$(dirname "${BASH_SOURCE[0]}")/../../lab/lib.sh"

# The folder of the script that sources this file: a test's, where its
# guest/ and check.sh are (scenario_start goes there). Taken now, while
# $0 is still relative to the directory it was started from.
SCENARIO_DIR=$(cd "$(dirname "$0")" && pwd)

# scenario_kernel [KERNEL]: a scenario's kernel series, its argument
# (run.sh passes one of the KERNELS of its test.sh), else KERNEL as the
# lab has it (the env's, or 6.1), exported for lab-run.
scenario_kernel() {
	KERNEL=${1:-$KERNEL}
	export KERNEL
}

# scenario_start [KERNEL]: begin a test; every test.sh calls it first.
# It sets the kernel series (scenario_kernel), then checks what the test
# needs on this machine: the lab's programs (lab_requires) and what the
# test's requires() asks for, if it defines one, with require_program,
# require_python and require_env. A test whose needs are not met prints
# one TAP line, "ok 1 test_SCENARIO_KERNEL # SKIP" and the reasons, and
# exits 0.
# With CHECK_STRICT=1, as make check runs, a missing program fails it
# instead (not ok, exit 1): make check installs what its tests need
# (selftests/lab/install-deps.sh), so there a missing one is a fault.
# What only a user can give (SPDK=DIR, an SPDK build) skips it in both.
scenario_start() {
	local name reason

	cd "$SCENARIO_DIR" || exit 1
	scenario_kernel "$@"
	export TOPOLOGY
	name=test_$(basename "$PWD")_${KERNEL//./_}
	# A note on stderr: TAP wants its version line first on stdout.
	[[ " ${KERNELS:-} " == *" $KERNEL "* ]] ||
		echo "$name: kernel $KERNEL is not one of this test's KERNELS (${KERNELS:-none})" >&2
	SCENARIO_MISSING=()
	SCENARIO_NOT_GIVEN=()
	lab_requires
	if declare -F requires > /dev/null; then
		requires
	fi
	[ ${#SCENARIO_MISSING[@]} -gt 0 ] || [ ${#SCENARIO_NOT_GIVEN[@]} -gt 0 ] ||
		return 0
	ktap_header
	if [ ${#SCENARIO_MISSING[@]} -gt 0 ] && [ "${CHECK_STRICT:-0}" = 1 ]; then
		ktap_fail "$name: what it needs is installed (CHECK_STRICT=1)"
		for reason in "${SCENARIO_MISSING[@]}"; do
			ktap_diag "$reason"
		done
		ktap_finished
		exit 1
	fi
	reason=$(printf '%s; ' "${SCENARIO_MISSING[@]}" "${SCENARIO_NOT_GIVEN[@]}")
	reason=${reason%; }
	ktap_skip "$name" "$reason"
	ktap_finished
	exit 0
}

# require_program PROGRAM PACKAGE: for requires(); PROGRAM must be on
# PATH, or in the sbin folders that a user's PATH may lack. PACKAGE is
# the Debian package that brings it, which selftests/lab/install-deps.sh
# installs.
require_program() {
	PATH=$PATH:/usr/sbin:/sbin command -v "$1" > /dev/null 2>&1 ||
		SCENARIO_MISSING+=("no $1 (Debian's $2; selftests/lab/install-deps.sh installs it)")
}

# require_python MODULE PACKAGE: for requires(); python3 must import
# MODULE, which the Debian package PACKAGE brings.
require_python() {
	python3 -c "import $1" > /dev/null 2>&1 ||
		SCENARIO_MISSING+=("no python3 module $1 (Debian's $2; selftests/lab/install-deps.sh installs it)")
}

# require_env VARIABLE WHAT: for requires(); VARIABLE must be given, not
# empty, WHAT saying what it is. make check gives none of these itself,
# so their absence skips a test even with CHECK_STRICT=1.
require_env() {
	if [ -n "${!1:-}" ]; then
		# shellcheck disable=SC2163 # the variable named by $1.
		export "$1"
	else
		SCENARIO_NOT_GIVEN+=("$1= not given ($2)")
	fi
}

# require_spdk: the SPDK tests' need, a user's SPDK build (SPDK=DIR),
# which the project never builds.
require_spdk() {
	require_env SPDK "an SPDK build's directory; never built here"
}

# lab_requires: what every lab test needs on this machine: QEMU, and the
# programs that build-guest.sh copies into every guest (those that
# Debian's base system may lack).
lab_requires() {
	require_program qemu-system-x86_64 qemu-system-x86
	require_program /bin/busybox busybox-static
	require_program fio fio
	require_program nvme nvme-cli
	require_program rdma iproute2
	require_program mdadm mdadm
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
