#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The shape of selftests/integration, checked without booting a guest:
# every test that run.sh --list names is a folder with a test.sh that
# declares its KERNELS and TOPOLOGY; the guest scripts that a test.sh
# names and those that the guest scripts source exist, and no two guest
# scripts share a name (the lab copies them all into one folder); a
# wrong name exits 2; and a test whose requires() is not met skips with
# its reason, or fails under CHECK_STRICT=1 unless only a user's input
# (SPDK=) is missing.
#
# usage: test_integration_layout.sh    Prints TAP; exits 1 if any test failed.

set -u

UNIT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
INT=$(cd "$UNIT_DIR/../integration" && pwd)
# shellcheck source=selftests/ktap.sh disable=SC1091
. "$UNIT_DIR/../ktap.sh"

ktap_header
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT

# The list, and each name's folder and kernel.
if bash "$INT/run.sh" --list > "$TMP/list" 2> "$TMP/err" &&
   bash "$INT/run.sh" --guests > "$TMP/guests" 2>> "$TMP/err"; then
	ktap_pass "run.sh --list and --guests run"
else
	ktap_fail "run.sh --list and --guests run"
	sed 's/^/# /' "$TMP/err"
fi
ktap_check "run.sh --list names at least 30 tests" [ "$(wc -l < "$TMP/list")" -ge 30 ]
ktap_check "run.sh --list names each test once" \
	[ -z "$(sort "$TMP/list" | uniq -d)" ]
ktap_check "run.sh --guests names the tests of --list, in its order" \
	diff <(awk '{ print $1 }' "$TMP/guests") "$TMP/list"
ktap_check "each test boots 1, 2 or 3 guests" \
	[ -z "$(awk '$2 !~ /^[123]$/' "$TMP/guests")" ]
bad=
while read -r name; do
	found=
	for t in "$INT"/*/test.sh; do
		s=$(basename "$(dirname "$t")")
		[[ $name == test_"$s"_* ]] || continue
		kernel=${name#test_"$s"_}
		grep -qE "^KERNELS=\"([^\"]* )?${kernel//_/\\.}( [^\"]*)?\"$" "$t" && found=$t
	done
	[ -n "$found" ] || bad+=" $name"
done < "$TMP/list"
ktap_check "each name is test_SCENARIO_KERNEL of a folder whose KERNELS has KERNEL" \
	[ -z "$bad" ]
[ -z "$bad" ] || ktap_diag "no folder for:$bad"

# The guest scripts.
dups=$(for f in "$INT"/*/guest/*.sh; do basename "$f"; done | sort | uniq -d)
ktap_check "no two guest scripts share a name" [ -z "$dups" ]
[ -z "$dups" ] || ktap_diag "twice: $dups"
missing=
for t in "$INT"/*/test.sh; do
	d=$(dirname "$t")
	# shellcheck disable=SC2013 # script paths, without spaces.
	for p in $(sed 's/#.*//' "$t" | grep -oE '(\.\./common/)?guest/[A-Za-z0-9_.-]+\.sh|\./[A-Za-z0-9_-]+\.sh'); do
		[ -f "$d/$p" ] || missing+=" ${d#"$INT"/}/$p"
	done
done
ktap_check "every script that a test.sh names exists beside it or in common/" \
	[ -z "$missing" ]
[ -z "$missing" ] || ktap_diag "missing:$missing"
missing=
# shellcheck disable=SC2013 # script paths, without spaces.
for p in $(cat "$INT"/*/guest/*.sh | sed 's/#.*//' | grep -oE '/lab/tests/[A-Za-z0-9_.-]+\.sh' | sort -u); do
	compgen -G "$INT/*/guest/${p##*/}" > /dev/null || missing+=" $p"
done
ktap_check "every /lab/tests/NAME.sh that a guest script sources is a guest script" \
	[ -z "$missing" ]
[ -z "$missing" ] || ktap_diag "missing:$missing"

# A name that is no test, and the help.
bash "$INT/run.sh" test_no_such_test_6_12 > /dev/null 2> "$TMP/err"
rc=$?
ktap_check "run.sh exits 2 on a name that is no test" [ $rc -eq 2 ]
ktap_check "and says which name" grep -q "no test named 'test_no_such_test_6_12'" "$TMP/err"
ktap_check "run.sh --help says where a test's files are" \
	sh -c "bash '$INT/run.sh' --help | grep -q 'ls selftests/integration/SCENARIO/'"

# requires(): a made-up scenario beside copies of common/ and run.sh,
# whose test.sh prints "ran" if it gets past scenario_start. The lab's
# own requirements are left out: this machine may have no QEMU.
S=$TMP/selftests
mkdir -p "$S/integration/fake_scenario" "$S/lab"
cp -r "$INT/common" "$INT/run.sh" "$S/integration/"
cp "$UNIT_DIR/../ktap.sh" "$S/"
cp "$UNIT_DIR/../lab/lib.sh" "$S/lab/"
cat > "$S/integration/fake_scenario/test.sh" <<'EOF'
KERNELS="6.12"
TOPOLOGY=one
requires() {
	[ -z "${FAKE_NEED_PROGRAM:-}" ] || require_program "$FAKE_NEED_PROGRAM" fake-package
	require_env FAKE_INPUT "a made-up input"
}
. "$(dirname "$0")/../common/lib.sh"
lab_requires() { :; }
scenario_start "$@"
echo ran
EOF
# fake VAR=VALUE...: run the made-up test with these settings; strict
# only where they say so, whatever make check set (CHECK_STRICT=1).
fake() {
	out=$(env CHECK_STRICT=0 "$@" bash "$S/integration/run.sh" test_fake_scenario_6_12 2>&1)
	rc=$?
}
fake FAKE_INPUT=given
ktap_check "a test whose needs are met runs" [ "$rc $(tail -n 1 <<< "$out")" = "0 ran" ]
fake FAKE_INPUT= CHECK_STRICT=1
ktap_check "a user's input not given skips it, even with CHECK_STRICT=1" \
	grep -qx "ok 1 test_fake_scenario_6_12 # SKIP FAKE_INPUT= not given (a made-up input)" <<< "$out"
ktap_check "and it exits 0" [ $rc -eq 0 ]
fake FAKE_INPUT=given FAKE_NEED_PROGRAM=ntprof-no-such-program
ktap_check "a program missing skips it, with the program and its package" \
	grep -qx "ok 1 test_fake_scenario_6_12 # SKIP no ntprof-no-such-program (Debian's fake-package; .*)" <<< "$out"
ktap_check "and it exits 0, without running the test" \
	[ "$rc $(grep -cx ran <<< "$out")" = "0 0" ]
fake FAKE_INPUT=given FAKE_NEED_PROGRAM=ntprof-no-such-program CHECK_STRICT=1
ktap_check "with CHECK_STRICT=1 a program missing fails it" \
	grep -q "^not ok 1 test_fake_scenario_6_12" <<< "$out"
ktap_check "and it exits 1, without running the test" \
	[ "$rc $(grep -cx ran <<< "$out")" = "1 0" ]
ktap_finished
