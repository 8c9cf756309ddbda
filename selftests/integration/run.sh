#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run integration tests by name, as make check does:
#   run.sh test_recorder_one_guest_6_1 [NAME...]
# Each NAME is a line of ./tests: its scenario runs with its kernel
# (bash scenarios/SCENARIO.sh KERNEL), and prints its TAP. run.sh --list
# prints the names in the table's order; run.sh --guests prints each
# name with the number of guests its scenario boots at once, which
# make check's scheduler counts against its budget (selftests/run_tests.sh).
# Exits with a failed test's status, or 2 when a NAME is not in the table.
set -u
cd "$(dirname "$0")" || exit 1

# The table without its comments and blank lines.
table() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' tests
}

if [ $# -eq 0 ]; then
	echo "usage: $0 NAME... | --list | --guests (the names are in $(pwd)/tests)" >&2
	exit 2
fi
# guests SCENARIO: how many guests scenarios/SCENARIO.sh boots at once,
# read from its code (comments left out): three for the chain
# (lab_chain_scenario or TOPOLOGY=chain), two for TOPOLOGY=two, one for
# TOPOLOGY=one, and two, lab-run's default topology, where it names none.
# A scenario that boots the lab several times boots it one after another.
guests() {
	local code

	code=$(sed 's/#.*//' "scenarios/$1.sh")
	if grep -qE 'lab_chain_scenario|TOPOLOGY=chain' <<< "$code"; then
		echo 3
	elif grep -qE 'TOPOLOGY=two' <<< "$code"; then
		echo 2
	elif grep -qE 'TOPOLOGY=one' <<< "$code"; then
		echo 1
	else
		echo 2
	fi
}

if [ "$1" = --list ]; then
	table | awk '{ print $1 }'
	exit
fi
if [ "$1" = --guests ]; then
	table | while read -r name scenario _; do
		echo "$name $(guests "$scenario")"
	done
	exit
fi

status=0
for want in "$@"; do
	want=$(basename "$want" .sh)
	read -r name scenario kernel < <(table | awk -v t="$want" '$1 == t')
	if [ -z "${name:-}" ]; then
		echo "$0: no test $want in $(pwd)/tests" >&2
		status=2
		continue
	fi
	bash "scenarios/$scenario.sh" "$kernel"
	rc=$?
	[ $rc -eq 0 ] || status=$rc
	unset name
done
exit $status
