#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make shellcheck as a part of make check: ShellCheck finds nothing in
# the tree's shell scripts (selftests/shellcheck.sh, policy in
# .shellcheckrc), the scripts it checks include those known only by their
# shebang, and in a scratch git tree it finds a new script's unquoted
# variable, so that the check cannot pass by checking nothing.
# Prints TAP; exits 1 if any test failed.

set -u

UNIT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$UNIT_DIR/../.." && pwd)
# shellcheck source=selftests/ktap.sh
. "$UNIT_DIR/../ktap.sh"
CHECK=$TOP/selftests/shellcheck.sh

ktap_header
if ! command -v shellcheck > /dev/null; then
	ktap_skip "make shellcheck is clean" "shellcheck is not installed (selftests/lab/install-deps.sh)"
	ktap_finished
	exit
fi
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT

if out=$(bash "$CHECK" "$TOP" 2>&1); then
	ktap_pass "make shellcheck is clean ($(tail -n 1 <<< "$out"))"
else
	ktap_fail "make shellcheck is clean"
	head -n 40 <<< "$out" | sed 's/^/# /'
fi

list=$(bash "$CHECK" --list "$TOP")
if grep -qx '.ci/run' <<< "$list" && grep -qx 'debian/ntprof.postinst' <<< "$list" &&
   grep -qx 'selftests/ktap.sh' <<< "$list" && ! grep -q '\.py$' <<< "$list"; then
	ktap_pass "the scripts checked include those named by their shebang alone, and no Python ($(wc -l <<< "$list") scripts)"
else
	ktap_fail "the scripts checked include those named by their shebang alone, and no Python"
fi

# A scratch tree with one clean script committed and a new one, not yet
# committed, that expands a variable unquoted: the new one is found.
# shellcheck disable=SC2016 # the scripts' text, $1 as it stands.
mkdir "$TMP/tree" && cd "$TMP/tree" && git init -q . &&
	cp "$TOP/.shellcheckrc" . &&
	printf '#!/bin/sh\necho "$1"\n' > clean &&
	git add clean .shellcheckrc &&
	printf '#!/bin/bash\nrm -rf $1/x\n' > new-script
out=$(bash "$CHECK" "$TMP/tree" 2>&1)
rc=$?
if [ "$rc" = 1 ] && grep -q '^new-script:2:.*\[SC2086\]' <<< "$out" &&
   ! grep -q '^clean:' <<< "$out"; then
	ktap_pass "a new script's unquoted variable is found, before it is committed"
else
	ktap_fail "a new script's unquoted variable is found, before it is committed (rc $rc)"
	sed 's/^/# /' <<< "$out"
fi
ktap_finished
