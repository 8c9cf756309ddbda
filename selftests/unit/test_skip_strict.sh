#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A tool missing skips, and make check is strict: on a PATH without
# promtool, test_chain_prom (a C test, tap.h) and test_prom_rules.sh each
# say "# SKIP not installed: promtool" where they would check with it,
# and pass; ktap_need says the same of any program. run_tests.sh counts
# such a skip as a skip, and under CHECK_STRICT=1 (as make check runs it)
# as a failure that names the test.
# Prints TAP; exits 1 if a check failed.

# Each check is "checks && ... || { diag; return 1; }".
# shellcheck disable=SC2015
set -u
cd "$(dirname "$0")" || exit 1
. ../ktap.sh
ktap_header

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
make -s test_chain_prom >&2 || { echo "Bail out! cannot build test_chain_prom"; exit 1; }
# Every program of /usr/bin but promtool; /bin too where it is not /usr/bin.
mkdir "$TMP/bin" && ln -s /usr/bin/* "$TMP/bin/" && rm -f "$TMP/bin/promtool" ||
	{ echo "Bail out! cannot make a PATH without promtool"; exit 1; }
NOPROM=$TMP/bin:/usr/sbin:/sbin
[ /bin -ef /usr/bin ] || NOPROM=$NOPROM:/bin

c_skips() {
	local out

	out=$(PATH=$NOPROM ./test_chain_prom) || { echo "$out"; return 1; }
	grep -qE '^ok [0-9]+ - promtool check metrics accepts the file # SKIP not installed: promtool' <<< "$out" &&
		! grep -q '^not ok' <<< "$out" || { echo "$out"; return 1; }
}

sh_skips() {
	local out

	out=$(PATH=$NOPROM bash test_prom_rules.sh) || { echo "$out"; return 1; }
	grep -qE '^ok 1 - .* # SKIP not installed: promtool' <<< "$out" ||
		{ echo "$out"; return 1; }
}

need_skips() {
	local out

	out=$(bash -c '. ../ktap.sh; ktap_need "a check" no-such-tool-h2 ||
		echo "returned $?"; ktap_finished') || { echo "$out"; return 1; }
	grep -qx 'ok 1 a check # SKIP not installed: no-such-tool-h2 (selftests/lab/install-deps.sh installs it)' <<< "$out" &&
		grep -qx 'returned 1' <<< "$out" || { echo "$out"; return 1; }
}

# run STRICT: run_tests.sh's summary line of test_prom_rules without
# promtool, and its status, under CHECK_STRICT=STRICT.
run() {
	local out rc

	out=$(PATH=$NOPROM CHECK_STRICT=$1 CHECK_ONLY=unit \
		CHECK_TESTS=test_prom_rules bash ../run_tests.sh 2>&1)
	rc=$?
	echo "$(tail -n 1 <<< "$out") rc $rc"
	grep '^# FAILED' <<< "$out"
}

lenient() {
	local out

	out=$(run 0)
	[ "$(head -n 1 <<< "$out")" = "0 passed, 0 failed, 1 skipped rc 0" ] ||
		{ echo "$out"; return 1; }
}

strict() {
	local out

	out=$(run 1)
	[ "$(head -n 1 <<< "$out")" = "0 passed, 1 failed, 0 skipped rc 1" ] &&
		grep -q '^# FAILED unit/test_prom_rules: ok 1 - .*not installed: promtool' <<< "$out" ||
		{ echo "$out"; return 1; }
}

ktap_check "without promtool, test_chain_prom skips promtool's check, naming it, and passes" c_skips
ktap_check "without promtool, test_prom_rules.sh skips, naming it, and passes" sh_skips
ktap_check "ktap_need: a skip naming the missing program, and a failed status" need_skips
ktap_check "run_tests.sh counts a skip for a missing tool as a skip" lenient
ktap_check "under CHECK_STRICT=1, run_tests.sh counts it as a failure, named" strict
ktap_finished
