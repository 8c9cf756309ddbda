#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# json-check.py's checks of report --json numbers (selftests/report_checks.py),
# which the lab's checkers use: each passes a report made to pass it and
# fails the same report with one number wrong.
# Prints TAP; exits 1 if any test failed.

set -u

UNIT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=selftests/ktap.sh
. "$UNIT_DIR/../ktap.sh"
CHECK=$UNIT_DIR/../json-check.py
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT

# A report of two host groups (4 KiB reads and writes) and a target's,
# two files, and aborted attempts with a path's and the host's status.
cat > "$TMP/good.json" <<'JSON'
{"schema": "ntprof-report/1",
 "files": [{"role": "host", "drops": 0, "evictions": 0},
           {"role": "target", "drops": 0, "evictions": 0}],
 "groups": [
  {"side": "host", "label": "read 4096", "op": "read", "size": 4096,
   "n": 10, "n_table": 10, "latency_us": {"mean": 100.0},
   "stages": [{"id": "host_block", "mean_us": 10.0, "share_pct": 10},
              {"id": "network", "mean_us": 40.0, "share_pct": 40},
              {"id": "target_driver", "mean_us": 50.04, "share_pct": 50}],
   "components": [{"id": "network_host_data_transfer", "n": 10, "merged_n": 0}]},
  {"side": "host", "label": "write 4096", "op": "write", "size": 4096,
   "n": 5, "n_table": 5, "latency_us": {"mean": 200.0},
   "stages": [{"id": "network", "mean_us": 120.0, "share_pct": 60},
              {"id": "target_driver", "mean_us": 80.0, "share_pct": 40}],
   "components": [{"id": "network_host_data_transfer", "n": 5, "merged_n": 0}]},
  {"side": "target", "label": "target", "op": "read", "size": 512,
   "n": 1, "latency_us": {"mean": 1.0}, "stages": []}],
 "aborted": {"n": 3, "statuses": [{"status": 880, "n": 2}, {"status": 2817, "n": 1}]}}
JSON

# check NAME EXPECTED-RC JQ-EDIT CHECK ARGS...: json-check.py CHECK ARGS
# on good.json edited by the jq program JQ-EDIT ('.' for none) exits
# EXPECTED-RC.
check() {
	local name=$1 want=$2 edit=$3 out rc

	shift 3
	jq "$edit" "$TMP/good.json" > "$TMP/r.json" || { ktap_fail "$name: jq"; return; }
	out=$(python3 "$CHECK" "$@" "$TMP/r.json" 2>&1)
	rc=$?
	out=${out//$'\n'/; }
	if [ "$rc" = "$want" ]; then
		ktap_pass "$name (exit $rc: $out)"
	else
		ktap_fail "$name (exit $rc, not $want: $out)"
	fi
}

ktap_header
if ! command -v jq > /dev/null; then
	ktap_skip "json-check.py's report checks" "jq is not installed (selftests/lab/install-deps.sh)"
	ktap_finished
	exit
fi
check "stage-sums: the stages add up within 0.1 %" 0 . stage-sums --need-group
check "stage-sums: a stage off by 0.2 % of the mean" 1 \
	'.groups[0].stages[2].mean_us = 50.2' stage-sums
check "stage-sums: no host group, with --need-group" 1 \
	'.groups |= map(select(.side != "host"))' stage-sums --need-group
check "stage-sums: no host group, without --need-group" 0 \
	'.groups |= map(select(.side != "host"))' stage-sums
check "no-loss: two files without a drop" 0 . no-loss --files 2
check "no-loss: one eviction" 1 '.files[1].evictions = 1' no-loss
check "no-loss: one drop" 1 '.files[0].drops = 1' no-loss
check "no-loss: one file where two are due" 1 '.files |= .[:1]' no-loss --files 2
check "groups: one per op and size, all asked for" 0 . groups --ops "read write" --sizes 4096
check "groups: an op not asked for" 1 . groups --ops read --sizes 4096
check "groups: a size not asked for" 1 '.groups[1].size = 8192' groups --ops "read write" --sizes 4096
check "groups: one op and size twice" 1 '.groups[1].op = "read"' groups --ops "read write" --sizes 4096
check "write-data: the host's data in every command, target driver < 60 %" 0 . \
	write-data --max-target-pct 60
check "write-data: the target driver at 60 %" 1 '.groups[1].stages[1].share_pct = 60' \
	write-data --max-target-pct 60
check "write-data: the host's data in 4 of 5" 1 '.groups[1].components[0].n = 4' \
	write-data --max-target-pct 60
check "write-data: a merged component" 1 '.groups[0].components[0].merged_n = 1' \
	write-data --max-target-pct 60
check "write-data: no host group" 1 '.groups |= map(select(.side != "host"))' \
	write-data --max-target-pct 60
check "aborted: a path's error and the host's abort with DNR" 0 . aborted
check "aborted: a status of another kind (0x2)" 1 '.aborted.statuses[1].status = 2' aborted
check "an unknown option: exit 2" 2 '.' aborted --bogus
echo '{' > "$TMP/bad.json"
if python3 "$CHECK" no-loss "$TMP/bad.json" > "$TMP/out" 2>&1; [ $? = 2 ] &&
   grep -q "^json-check.py: $TMP/bad.json: " "$TMP/out"; then
	ktap_pass "a file that is not JSON: one line, exit 2"
else
	ktap_fail "a file that is not JSON: one line, exit 2 ($(cat "$TMP/out"))"
fi
ktap_finished
