#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The recording rules of Documentation/prometheus/ntprof.rules.yml: promtool
# (Debian's prometheus package) checks them, and runs their unit tests,
# ntprof.rules.test.yml, which evaluate them on series of known stage times.
# Prints TAP; exits 1 if a check failed.

set -u
DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../Documentation/prometheus" && pwd)
n=0
failed=0

check() {
	local name=$1 out

	shift
	n=$((n + 1))
	if out=$("$@" 2>&1); then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name"
		echo "$out" | sed 's/^/# /'
		failed=$((failed + 1))
	fi
}

if ! command -v promtool > /dev/null; then
	echo "ok 1 - the recording rules # SKIP not installed: promtool (selftests/lab/install-deps.sh installs it)"
	echo "1..1"
	exit 0
fi
check "promtool check rules ntprof.rules.yml" \
	promtool check rules "$DIR/ntprof.rules.yml"
# promtool test rules reads the rule files relative to the test file.
check "promtool test rules ntprof.rules.test.yml" \
	promtool test rules "$DIR/ntprof.rules.test.yml"
echo "1..$n"
echo "test_prom_rules: $((n - failed)) passed, $failed failed"
[ $failed -eq 0 ]
