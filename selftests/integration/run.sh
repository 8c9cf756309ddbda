#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run integration tests by name, as make check does:
#   run.sh test_recorder_one_guest_6_1 [NAME...]
# Each folder SCENARIO/ here that has a test.sh is one scenario, run once
# for each kernel series its test.sh names in KERNELS: test_SCENARIO_KERNEL,
# the dots of KERNEL made underscores (test_configs_faults_6_12 runs
# configs_faults/test.sh 6.12). Its TOPOLOGY (one, two or chain) says how
# many guests it boots at once. run.sh --list prints the names, the
# folders in alphabetical order and each folder's kernels in the order of
# its KERNELS; run.sh --guests prints each name with its number of
# guests, which make check's scheduler counts against its budget
# (selftests/run_tests.sh). Exits with a failed test's status, or 2 when
# a NAME names no test.
set -u
cd "$(dirname "$0")" || exit 1

usage() {
	cat <<EOF
usage: run.sh NAME...    run the tests NAME, printing TAP
       run.sh --list     print the name of every test
       run.sh --guests   print each name and how many guests it boots at once
       run.sh --help     print this text

A test named test_SCENARIO_KERNEL (test_configs_faults_6_12) is the folder
selftests/integration/SCENARIO/ run on kernel KERNEL (6.12). To see it:
  ls selftests/integration/SCENARIO/
test.sh runs on this machine: at its top, what it checks, its KERNELS and
its TOPOLOGY. guest/ holds the scripts that run in the guests, and check.sh,
where there is one, checks on this machine what the guests left. Helpers
that several tests use are in selftests/integration/common/.
EOF
}

# declared SCENARIO VARIABLE: the value that SCENARIO/test.sh gives
# VARIABLE on a line of its own at its top (VARIABLE=VALUE or
# VARIABLE="VALUE"), read without running test.sh.
declared() {
	sed -n -E "s/^$2=\"?([^\"]*)\"?\$/\1/p" "$1/test.sh" | head -n 1
}

# tests: every test, one a line: NAME SCENARIO KERNEL GUESTS. Fails with
# a message when a test.sh lacks its KERNELS or TOPOLOGY.
tests() {
	local scenario kernels topology guests kernel

	for scenario in $(printf '%s\n' */test.sh | LC_ALL=C sort); do
		scenario=${scenario%/test.sh}
		kernels=$(declared "$scenario" KERNELS)
		topology=$(declared "$scenario" TOPOLOGY)
		case $topology in
		one) guests=1 ;;
		two) guests=2 ;;
		chain) guests=3 ;;
		*)
			echo "$0: $scenario/test.sh declares no TOPOLOGY=one, two or chain" >&2
			return 1 ;;
		esac
		if [ -z "$kernels" ]; then
			echo "$0: $scenario/test.sh declares no KERNELS=\"...\"" >&2
			return 1
		fi
		for kernel in $kernels; do
			echo "test_${scenario}_${kernel//./_} $scenario $kernel $guests"
		done
	done
}

if [ $# -eq 0 ]; then
	usage >&2
	exit 2
fi
case $1 in
-h | --help)
	usage
	exit 0 ;;
--list | --guests)
	list=$(tests) || exit 1
	if [ "$1" = --list ]; then
		awk '{ print $1 }' <<< "$list"
	else
		awk '{ print $1, $4 }' <<< "$list"
	fi
	exit 0 ;;
esac

list=$(tests) || exit 1
status=0
for want in "$@"; do
	want=$(basename "$want" .sh)
	read -r name scenario kernel _ < <(awk -v t="$want" '$1 == t' <<< "$list")
	if [ -z "${name:-}" ]; then
		echo "$0: no test named '$want' ($0 --list names them all)" >&2
		status=2
		continue
	fi
	bash "$scenario/test.sh" "$kernel"
	rc=$?
	[ $rc -eq 0 ] || status=$rc
	unset name
done
exit $status
