#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Several hosts are several hosts: two hosts' recordings with their
# targets in one report, whose device numbers are the same (259:0,
# nvme1n1), are two groups, each named with its host and with its own
# mean (120 and 340 us), not one group of the first file's device with a
# blended 230 us. --by host groups by machine alone; --by op,size blends
# on purpose. compare pairs the groups by host when both runs hold
# several; the JSON carries each group's host and stays valid; the HTML
# names the groups as the text does.
#
# usage: test_hosts.sh    Prints TAP; exits 1 if any test failed.

# Each test is "checks && ... || { diag; return 1; }".
# shellcheck disable=SC2015

# shellcheck source=selftests/unit/ntpgen_env.sh disable=SC1091
. "$(dirname "${BASH_SOURCE[0]}")/ntpgen_env.sh"
CHECK=$TOP/selftests/json-check.py
SCHEMAS=$TOP/Documentation/schemas

# One group per host: reads of 4 KiB; host-a's end to end is 120 us (the
# default stages), host-b's 340 us (storage 300 us).
gen() {
	"$NTPGEN" --quiet -n 4000 --read-pct 100 --large-pct 0 "$@"
}
gen --hostname host-a --seed 61 "$TMP/ha.ntp" "$TMP/ta.ntp" &&
	gen --hostname host-b --storage-us 300 --seed 62 "$TMP/hb.ntp" "$TMP/tb.ntp" &&
	gen --hostname host-a --seed 63 "$TMP/la.ntp" "$TMP/lta.ntp" &&
	gen --hostname host-b --storage-us 600 --seed 64 "$TMP/lb.ntp" "$TMP/ltb.ntp" ||
	{ echo "Bail out! ntpgen"; exit 1; }
RUN="$TMP/ha.ntp $TMP/ta.ntp $TMP/hb.ntp $TMP/tb.ntp"

# mean LABEL FILE: the mean end to end (us) of group LABEL in report FILE.
mean() {
	sed -n "/^== $1: /{n;s/.*mean \([0-9.]*\),.*/\1/p}" "$2"
}

# near X Y: X within 2 % of Y.
near() {
	awk -v x="$1" -v y="$2" 'BEGIN { exit !(x != "" && x > 0.98 * y && x < 1.02 * y) }'
}

t_two_groups() {
	local a b
	# shellcheck disable=SC2086
	"$NTPROF" report $RUN > "$TMP/r.txt" || return 1
	a=$(mean "read 4KiB nvme1n1 on host-a" "$TMP/r.txt")
	b=$(mean "read 4KiB nvme1n1 on host-b" "$TMP/r.txt")
	near "$a" 120 && near "$b" 340 && [ "$(grep -c '^== ' "$TMP/r.txt")" = 2 ] ||
		{ ktap_diag "host-a $a us, host-b $b us"; ktap_diag "$(grep '^== ' "$TMP/r.txt")"; return 1; }
}
ktap_check "two hosts and their targets: two groups, 120 and 340 us, each named with its host" t_two_groups

t_host_only() {
	local a b
	"$NTPROF" report "$TMP/hb.ntp" "$TMP/ha.ntp" > "$TMP/h.txt" || return 1
	a=$(mean "read 4KiB nvme1n1 on host-a" "$TMP/h.txt")
	b=$(mean "read 4KiB nvme1n1 on host-b" "$TMP/h.txt")
	near "$a" 120 && near "$b" 340 || { ktap_diag "$(cat "$TMP/h.txt")"; return 1; }
}
ktap_check "two hosts' recordings alone: two groups, 120 and 340 us" t_host_only

t_by_host() {
	local a b blend
	# shellcheck disable=SC2086
	"$NTPROF" report --by host $RUN > "$TMP/bh.txt" &&
		"$NTPROF" report --by op,size "$TMP/ha.ntp" "$TMP/hb.ntp" > "$TMP/os.txt" ||
		return 1
	a=$(mean host-a "$TMP/bh.txt")
	b=$(mean host-b "$TMP/bh.txt")
	blend=$(mean "read 4KiB" "$TMP/os.txt")
	near "$a" 120 && near "$b" 340 && near "$blend" 230 ||
		{ ktap_diag "--by host: $a, $b; --by op,size: $blend"; return 1; }
}
ktap_check "--by host: a group per host; --by op,size: both hosts in one (230 us)" t_by_host

t_one_host() {
	# One host: its groups keep their names, without the host's.
	"$NTPROF" report "$TMP/ha.ntp" "$TMP/ta.ntp" > "$TMP/one.txt" &&
		grep -q '^== read 4KiB nvme1n1: ' "$TMP/one.txt" ||
		{ ktap_diag "$(grep '^== ' "$TMP/one.txt")"; return 1; }
}
ktap_check "one host: groups named as before, without the host" t_one_host

t_json() {
	# shellcheck disable=SC2086
	"$NTPROF" report --json $RUN > "$TMP/r.json" &&
		python3 "$CHECK" "$SCHEMAS/ntprof-report-1.json" "$TMP/r.json" &&
		[ "$(jq -r '[.groups[].host] | join(",")' "$TMP/r.json")" = host-a,host-b ] &&
		near "$(jq '.groups[] | select(.host == "host-b") | .latency_us.mean' "$TMP/r.json")" 340 ||
		{ ktap_diag "$(jq -c "[.groups[] | .label]" "$TMP/r.json")"; return 1; }
}
ktap_check "--json: each group's host; valid against ntprof-report/1" t_json

t_compare() {
	# host-b's storage doubles, host-a stays: each host against its own.
	local out
	"$NTPROF" compare "$TMP/ha.ntp,$TMP/ta.ntp,$TMP/hb.ntp,$TMP/tb.ntp" \
		"$TMP/lb.ntp,$TMP/ltb.ntp,$TMP/la.ntp,$TMP/lta.ntp" > "$TMP/c.txt"
	"$NTPROF" compare --json "$TMP/ha.ntp,$TMP/ta.ntp,$TMP/hb.ntp,$TMP/tb.ntp" \
		"$TMP/lb.ntp,$TMP/ltb.ntp,$TMP/la.ntp,$TMP/lta.ntp" > "$TMP/c.json" &&
		python3 "$CHECK" "$SCHEMAS/ntprof-compare-2.json" "$TMP/c.json" || return 1
	out=$(jq -r '.groups[] | "\(.host) \(.stages[] | select(.id == "end_to_end") | "\(.base_us) \(.load_us)")"' "$TMP/c.json")
	awk '$1 == "host-a" && $2 > 115 && $2 < 125 && $3 > 115 && $3 < 125 { a = 1 }
	     $1 == "host-b" && $2 > 330 && $2 < 350 && $3 > 620 && $3 < 660 { b = 1 }
	     END { exit !(a && b && NR == 2) }' <<< "$out" &&
		grep -q '^== read 4KiB nvme1n1 on host-b: ' "$TMP/c.txt" ||
		{ ktap_diag "$out"; return 1; }
}
ktap_check "compare: each host's group against the same host's; valid against ntprof-compare/2" t_compare

t_html() {
	# shellcheck disable=SC2086
	"$NTPROF" report --html "$TMP/r.html" $RUN > /dev/null &&
		grep -q 'read 4KiB nvme1n1 on host-a' "$TMP/r.html" &&
		grep -q 'read 4KiB nvme1n1 on host-b' "$TMP/r.html"
}
ktap_check "--html: the groups named with their hosts, as in the text" t_html

t_html_browser() {
	# As a browser builds the page: a section per host, headed with it.
	local heads
	timeout 90 chromium --headless --no-sandbox --disable-gpu \
		--disable-dev-shm-usage --dump-dom "file://$TMP/r.html" \
		> "$TMP/dom.html" 2> /dev/null || return 1
	heads=$(grep -o '<h2>[^<]*</h2>' "$TMP/dom.html")
	grep -qx '<h2>read 4KiB nvme1n1 on host-a</h2>' <<< "$heads" &&
		grep -qx '<h2>read 4KiB nvme1n1 on host-b</h2>' <<< "$heads" ||
		{ ktap_diag "$heads"; return 1; }
}
if ktap_need "--html in Chromium's DOM: a group's heading per host" chromium; then
	ktap_check "--html in Chromium's DOM: a group's heading per host" t_html_browser
fi

ktap_finished
