# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Small KTAP helpers for ntprof's shell tests, in the output format of the
# kernel's kselftest: "TAP version 13", "ok N desc", "not ok N desc",
# "ok N desc # SKIP why", and the plan "1..N" at the end.

KTAP_COUNT=0
KTAP_FAILED=0
KTAP_PREFIX=${KTAP_PREFIX:-}

ktap_header() { echo "TAP version 13"; }

ktap_pass() {
	KTAP_COUNT=$((KTAP_COUNT + 1))
	echo "ok $KTAP_COUNT ${KTAP_PREFIX}$*"
}

ktap_fail() {
	KTAP_COUNT=$((KTAP_COUNT + 1))
	KTAP_FAILED=$((KTAP_FAILED + 1))
	echo "not ok $KTAP_COUNT ${KTAP_PREFIX}$*"
}

# ktap_skip DESC WHY
ktap_skip() {
	KTAP_COUNT=$((KTAP_COUNT + 1))
	echo "ok $KTAP_COUNT ${KTAP_PREFIX}$1 # SKIP $2"
}

# ktap_skip_missing DESC WHAT: check DESC cannot run, for WHAT is not
# installed. Alone, a test says what to install instead of failing;
# run_tests.sh counts such a skip as a failure under CHECK_STRICT=1, as
# make check runs it (Documentation/lab.rst, "The tests").
ktap_skip_missing() {
	ktap_skip "$1" "not installed: $2"
}

# ktap_need DESC PROGRAM...: whether every PROGRAM is in PATH; if one is
# not, check DESC is skipped, naming those missing, and this fails.
ktap_need() {
	local desc=$1 p missing=

	shift
	for p in "$@"; do
		command -v "$p" > /dev/null || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	ktap_skip_missing "$desc" "${missing# } (selftests/lab/install-deps.sh installs it)"
	return 1
}

ktap_diag() { echo "# $*"; }

# ktap_check DESC COMMAND...: pass if COMMAND succeeds; show its output on failure.
ktap_check() {
	local desc=$1 out

	shift
	if out=$("$@" 2>&1); then
		ktap_pass "$desc"
	else
		ktap_fail "$desc"
		printf '%s\n' "$out" | tail -n 20 | sed 's/^/# /'
	fi
}

# ktap_finished: the plan, and an exit status that says whether all passed.
ktap_finished() {
	echo "1..$KTAP_COUNT"
	[ "$KTAP_FAILED" -eq 0 ]
}
