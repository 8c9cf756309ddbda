# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# What the checkers of the lab's tests share (configs/check.sh,
# configs_faults/check.sh, chain/check.sh, report_delays/check.sh), on
# the machine that ran the lab: reading numbers out of report --json,
# and the checks of a step's report that the configurations and the
# faults make alike. The arithmetic is json-check.py's (its checks are in
# selftests/report_checks.py, tested by selftests/unit/test_json_check.sh).
# The caller sets work, a scratch folder.

JSON_CHECK=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/json-check.py
# shellcheck disable=SC2034 # the checkers' jq filter of the host groups.
HOST_GROUPS='[.groups[] | select(.side == "host")]'

# num FILE FILTER: a number out of a JSON file, or nothing.
num() {
	jq -er "$2 | numbers" "$1" 2>/dev/null
}

# check_no_loss STEP JSON [FILES]: neither side of STEP's report JSON
# dropped or evicted a record, and it has FILES files if given.
check_no_loss() {
	local got

	if got=$(python3 "$JSON_CHECK" no-loss ${3:+--files "$3"} "$2" 2>&1); then
		ktap_pass "$1: no drop, no eviction on either side"
	else
		ktap_fail "$1: no drop, no eviction on either side (role drops evictions: $got)"
	fi
}

# check_stage_sums STEP JSON [NONE]: in each host group of STEP's report
# JSON, the stage means add up to the end to end mean. NONE, when given,
# says why the step has nothing to check (none sampled), and passes;
# given empty, the report needs a host group.
check_stage_sums() {
	local what="$1: in each group the stage means add up to the end to end mean" got

	if [ -n "${3:-}" ]; then
		ktap_pass "$what ($3)"
	elif got=$(python3 "$JSON_CHECK" stage-sums ${3+--need-group} "$2" 2>&1); then
		ktap_pass "$what"
	else
		ktap_fail "$what"
		echo "$got" | sed 's/^/# /'
	fi
}
