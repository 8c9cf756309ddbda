#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The options every C unit test takes (selftests/unit/tap.h): -l lists
# each program's cases, one name a line, none twice; -t NAME runs that
# case alone, so that test_crec's and test_ntp's cases, each run by
# itself, add up to exactly the checks of a whole run; two -t run both;
# a name that is no case's is a one-line error, exit 2. The Makefile's
# lists name every test_*.c here, so none is left unrun, and 'make check'
# here is run_tests.sh's unit group.
# Prints TAP; exits 1 if a check failed.
# Each check is "checks && ... || { diag; return 1; }".
# shellcheck disable=SC2015
set -u
cd "$(dirname "$0")" || exit 1
. ../ktap.sh

ktap_header
make -s all >&2 || { echo "Bail out! cannot build the C unit tests"; exit 1; }
programs=$(make -s --no-print-directory list-tests list-agent-tests | tr '\n' ' ') ||
	{ echo "Bail out! make list-tests list-agent-tests"; exit 1; }

# lists PROGRAM: -l prints names (lower case, digits, '_'), none twice.
lists() {
	local names

	names=$(./"$1" -l) || return 1
	[ -n "$names" ] || { echo "no case"; return 1; }
	echo "$names" | grep -qvE '^[a-z0-9_]+$' && { echo "$names"; return 1; }
	[ -z "$(echo "$names" | sort | uniq -d)" ] || { echo "$names"; return 1; }
}

# oks OUTPUT: its TAP's ok lines.
oks() {
	grep -cE '^ok [0-9]+' <<< "$1"
}

# one_by_one PROGRAM: each case alone passes, with at least one check and
# fewer than a whole run; together they make a whole run's count.
one_by_one() {
	local all n sum=0 out c

	out=$(./"$1") || { echo "$1 fails"; return 1; }
	all=$(oks "$out")
	for c in $(./"$1" -l); do
		out=$(./"$1" -t "$c") || { echo "$1 -t $c fails"; return 1; }
		n=$(oks "$out")
		[ "$n" -ge 1 ] && [ "$n" -lt "$all" ] ||
			{ echo "$1 -t $c: $n checks of $all"; return 1; }
		sum=$((sum + n))
	done
	[ "$sum" -eq "$all" ] || { echo "$1: the cases make $sum checks, a run $all"; return 1; }
}

# two_cases: -t A -t B runs both, no other.
two_cases() {
	local a b out

	a=$(oks "$(./test_ntp -t damaged)")
	b=$(oks "$(./test_ntp -t layout)")
	out=$(./test_ntp -t damaged -t layout) || return 1
	[ "$(oks "$out")" -eq $((a + b)) ] ||
		{ echo "$(oks "$out") checks, not $a + $b"; return 1; }
}

# unknown: -t with a name that is no case's: exit 2, one line naming it.
unknown() {
	local err rc

	err=$(./test_ntp -t no_such_case 2>&1 >/dev/null)
	rc=$?
	[ "$rc" = 2 ] && [ "$(echo "$err" | wc -l)" = 1 ] &&
		[[ $err == *no_such_case* ]] || { echo "rc $rc: $err"; return 1; }
}

# listed: every test_*.c is a program of the Makefile's lists.
listed() {
	local c missing=

	for c in test_*.c; do
		[[ " $programs " == *" ${c%.c} "* ]] || missing="$missing ${c%.c}"
	done
	[ -z "$missing" ] || { echo "not in TESTS or AGENT_TESTS:$missing"; return 1; }
}

# same_runner: make check runs run_tests.sh with CHECK_ONLY=unit.
same_runner() {
	make -n -s check | grep -qxE '[[:space:]]*CHECK_ONLY=unit bash \.\./run_tests\.sh' ||
		{ make -n -s check; return 1; }
}

ktap_check "every test_*.c is in the Makefile's TESTS or AGENT_TESTS" listed
ktap_check "make check runs CHECK_ONLY=unit selftests/run_tests.sh" same_runner
for p in $programs; do
	ktap_check "$p -l lists its cases, none twice" lists "$p"
done
ktap_check "test_crec: each case alone, the cases' checks those of a whole run" \
	one_by_one test_crec
ktap_check "test_ntp: each case alone, the cases' checks those of a whole run" \
	one_by_one test_ntp
ktap_check "test_ntp -t damaged -t layout runs those two cases" two_cases
ktap_check "test_ntp -t no_such_case: exit 2, one line naming it" unknown
ktap_finished
