#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every .ntp format version reads, and reads the same: each ntpgen case
# written as format 1.4 (records of 232 bytes) and as 2.0 (compact
# records) from the same seed must give the same report, byte for byte,
# in every view, loaded and streamed, while the 2.0 files take less than
# half the bytes; the older minors 1.0 to 1.3 the same report too (1.0,
# without a device table, names devices by number). A 2.0 file cut short
# reads up to its last whole block.
#
# usage: test_formats.sh
# Prints TAP; exits 1 if any test failed.

# shellcheck source=selftests/unit/split_env.sh disable=SC1091
. "$(dirname "${BASH_SOURCE[0]}")/split_env.sh"
VIEWS=("-D" "--json" "--csv -" "--tail" "--by queue" "--hist"
       "--stream -D" "--stream --json")

# gen VERSION ARGS...: the case in $TMP/VERSION/{host,target}.ntp.
gen() {
	local v=$1
	shift
	mkdir -p "$TMP/$v" &&
		"$NTPGEN" --quiet -n 20000 --format "$v" "$@" \
			"$TMP/$v/host.ntp" "$TMP/$v/target.ntp"
}

# view VERSION ARGS...: report ARGS of VERSION's files, by the same
# relative names whatever the version, so that the paths it prints agree.
view() {
	local v=$1
	shift
	# shellcheck disable=SC2068 # a view's words
	(cd "$TMP/$v" && "$NTPROF" report $@ host.ntp target.ntp 2>&1)
}

# same_views A B: every view of version A's files as of B's.
same_views() {
	local v d
	for v in "${VIEWS[@]}"; do
		view "$1" "$v" > "$TMP/a"
		view "$2" "$v" > "$TMP/b"
		d=$(diff "$TMP/a" "$TMP/b")
		if [ -n "$d" ] || [ ! -s "$TMP/a" ]; then
			ktap_diag "report $v of $1 and $2 differ:"
			ktap_diag "$(head -20 <<< "$d")"
			return 1
		fi
	done
}

# bytes_a_record VERSION: of the host's and the target's files together.
bytes_a_record() {
	local n
	n=$(view "$1" -D | sed -n 's/^records: \([0-9]*\) host, \([0-9]*\) target.*/\1 \2/p')
	awk -v n="$n" -v s="$(( $(stat -c %s "$TMP/$1/host.ntp") + \
				$(stat -c %s "$TMP/$1/target.ntp") ))" \
		'BEGIN { split(n, r, " "); printf "%.1f", s / (r[1] + r[2]) }'
}

# t_case NAME ARGS...: the case as 1.4 and 2.0, the same report.
t_case() {
	local name=$1 b14 b20
	shift
	if ! gen 1.4 "$@" || ! gen 2.0 "$@"; then
		ktap_fail "$name: cannot generate"
		return
	fi
	b14=$(bytes_a_record 1.4)
	b20=$(bytes_a_record 2.0)
	if same_views 1.4 2.0 &&
	   awk -v a="$b14" -v b="$b20" 'BEGIN { exit !(b < a / 2) }'; then
		ktap_pass "$name: 1.4 and 2.0 report the same, every view; $b14 -> $b20 bytes a record"
	else
		ktap_fail "$name: 1.4 and 2.0 report the same ($b14 -> $b20 bytes a record)"
	fi
}

ntpgen_cases t_case

t_minors() {
	local v
	for v in 1.0 1.1 1.2 1.3; do
		gen "$v" -t rdma --seed 21 || return 1
	done
	gen 2.0 -t rdma --seed 21 || return 1
	same_views 1.1 2.0 && same_views 1.2 2.0 && same_views 1.3 2.0 ||
		return 1
	# 1.0 has no device table: the same report, devices by number.
	diff <(view 2.0 -D | sed 's/nvme1n1/dev 259:0/; s/nullb0/dev 252:0/') \
		<(view 1.0 -D) > "$TMP/d" || { ktap_diag "$(head "$TMP/d")"; return 1; }
}
ktap_check "formats 1.0 to 1.3: the same report as 2.0" t_minors

t_cut() {
	local out n
	gen 2.0 --seed 22 || return 1
	head -c $(($(stat -c %s "$TMP/2.0/host.ntp") / 2)) "$TMP/2.0/host.ntp" \
		> "$TMP/cut.ntp"
	out=$("$NTPROF" report "$TMP/cut.ntp" 2>&1) || { ktap_diag "$out"; return 1; }
	n=$(sed -n 's/^records: \([0-9]*\) host.*/\1/p' <<< "$out")
	grep -q "cut.ntp ends early" <<< "$out" && [ "${n:-0}" -gt 0 ] &&
		[ "$n" -lt 20000 ] && [ $((n % 1024)) = 0 ] ||
		{ ktap_diag "$out"; return 1; }
	head -c 100 "$TMP/2.0/host.ntp" > "$TMP/cut.ntp"
	out=$("$NTPROF" report "$TMP/cut.ntp" 2>&1)
	[ $? = 1 ] && grep -q "cut.ntp: header truncated" <<< "$out" ||
		{ ktap_diag "$out"; return 1; }
}
ktap_check "a 2.0 file cut in half reads to its last whole block; cut in its header, refused" t_cut

t_split() {
	gen 2.3 --seed 23 || return 1
	mkdir -p "$TMP/parts" &&
		"$SPLIT" "$TMP/2.3/host.ntp" "$TMP/parts/host" 3001 || return 1
	cmp -s -n 12 "$TMP/2.3/host.ntp" "$TMP/parts/host.0001.ntp" &&
		[ "$("$NTPROF" report -D "$TMP/parts" | grep '^records:')" = \
		  "$("$NTPROF" report -D "$TMP/2.3/host.ntp" | grep '^records:')" ]
}
ktap_check "a 2.3 recording cut into parts: 2.3 parts, the same records" t_split

ktap_finished
