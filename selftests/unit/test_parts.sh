#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 'ntprof report' and 'compare' of a rotated recording (record --rotate):
# the parts, given one by one in any order or as their directory, report
# exactly as the recording in one file does (text, JSON, CSV), whatever
# the ntpgen case; the parts' drops add up and are not counted twice;
# parts removed by --keep are a note, a part lost between two others a
# warning, a part given twice an error. selftests/tools/ntpsplit cuts an
# ntpgen recording into the parts record --rotate writes (record itself
# rotates in test_agent_record.sh).
#
# usage: test_parts.sh
# Prints TAP; exits 1 if any test failed.

# shellcheck source=selftests/unit/split_env.sh disable=SC1091
. "$(dirname "${BASH_SOURCE[0]}")/split_env.sh"
D=$TMP/parts

# split K: the host's and the target's recordings in parts of K records.
split() {
	rm -rf "$D" && mkdir "$D" &&
		"$SPLIT" "$H" "$D/host" "$1" &&
		"$SPLIT" "$T" "$D/target" "$1"
}

# same NAME WHOLE PARTS: the two outputs agree once the files' names and
# the parts' note are taken out (JSON's "notes" then empty, as the
# whole's); the difference as a diagnostic if not.
same() {
	local d
	d=$(diff <(sed -e "s|$TMP/[^ \",]*|F|g" "$2") \
		<(grep -v "of a rotated recording" "$3" |
		  perl -0pe 's/\[\s*\]/[]/g' |
		  sed -e "s|$TMP/[^ \",]*|F|g"))
	[ -z "$d" ] && return 0
	ktap_diag "$1 differs:"
	ktap_diag "$(head -20 <<< "$d")"
	return 1
}

# t_case NAME ARGS...: ntpgen ARGS, cut in parts; the report of the parts
# (their directory; the files shuffled) is the whole's, in every view.
t_case() {
	local name=$1 views v
	shift
	"$NTPGEN" --quiet -n 20000 "$@" "$H" "$T" && split 2999 || {
		ktap_fail "$name: cannot generate"
		return
	}
	views=("-D" "--json" "--csv -" "--tail" "--by queue" "--timeline 0.005"
	       "--hist")
	for v in "${views[@]}"; do
		# shellcheck disable=SC2086
		"$NTPROF" report $v "$H" "$T" > "$TMP/whole" 2>&1
		# shellcheck disable=SC2086
		"$NTPROF" report $v "$D" > "$TMP/dir" 2>&1
		# $v is options, the shuffled parts' names (the test's own, no
		# spaces) one word each.
		# shellcheck disable=SC2086,SC2046
		"$NTPROF" report $v $(ls "$D"/host.* | shuf) \
			$(ls "$D"/target.* | shuf) > "$TMP/shuf" 2>&1
		same "$name: report $v of the directory" "$TMP/whole" \
			"$TMP/dir" &&
			same "$name: report $v of the shuffled parts" \
				"$TMP/whole" "$TMP/shuf" ||
			{ ktap_fail "$name: the parts report as the whole"; return; }
	done
	ktap_pass "$name: the parts (a directory, or shuffled) report as the whole: ${views[*]}"
}

ntpgen_cases t_case

t_drops() {
	"$NTPGEN" --quiet -n 5000 --seed 11 "$H" "$T" &&
		rm -rf "$D" && mkdir "$D" &&
		"$SPLIT" "$H" "$D/host" 1000 70 || return 1
	out=$("$NTPROF" report "$D"/host.* 2>&1)
	grep -q "host.0001.ntp: 70 records were dropped" <<< "$out" &&
		grep -q "host.0001.ntp: 70 commands were evicted" <<< "$out" &&
		[ "$(grep -c dropped <<< "$out")" = 1 ] &&
		"$NTPROF" report --json "$D"/host.* |
		grep -q '"drops": 70,' || { ktap_diag "$out"; return 1; }
}
ktap_check "the parts' drops and evictions add up, once: 70 over 5 parts" t_drops

t_kept() {
	"$NTPGEN" --quiet -n 5000 --seed 12 "$H" "$T" && split 1000 &&
		rm "$D"/host.0001.ntp "$D"/host.0002.ntp || return 1
	out=$("$NTPROF" report "$D" 2>&1) &&
		grep -q "host.0003.ntp: parts 3 to 5 of a rotated recording; parts 1 to 2 were removed" <<< "$out" &&
		grep -q "records: 3000 host, 5000 target; 3000 matched" <<< "$out" &&
		! grep -q WARNING <<< "$out" || { ktap_diag "$out"; return 1; }
}
ktap_check "parts removed by --keep: a note, the rest joined whole" t_kept

t_lost() {
	"$NTPGEN" --quiet -n 5000 --seed 13 "$H" "$T" && split 1000 &&
		rm "$D"/target.0003.ntp || return 1
	out=$("$NTPROF" report "$D" 2>&1) &&
		grep -q "WARNING: .*target.0001.ntp: a part between 1 and 5 is missing: its commands" <<< "$out" &&
		grep -q "records: 5000 host, 4000 target; 4000 matched" <<< "$out" ||
		{ ktap_diag "$out"; return 1; }
	rm "$D"/target.0002.ntp &&
	out=$("$NTPROF" report "$D" 2>&1) &&
		grep -q "WARNING: .*target.0001.ntp: 2 parts between 1 and 5 are missing: their commands" <<< "$out" ||
		{ ktap_diag "$out"; return 1; }
}
ktap_check "a part lost between two others: a warning, the others joined" t_lost

t_twice() {
	"$NTPGEN" --quiet -n 3000 --seed 14 "$H" "$T" && split 1000 &&
		cp "$D"/host.0002.ntp "$TMP/copy.ntp" || return 1
	out=$("$NTPROF" report "$D" "$TMP/copy.ntp" 2>&1)
	[ $? = 1 ] && grep -q "host.0002.ntp and .*copy.ntp are both part 2 of one recording" <<< "$out" &&
		out=$("$NTPROF" report "$D" "$D/host.0001.ntp" 2>&1)
	[ $? = 1 ] && grep -q "host.0001.ntp is given twice" <<< "$out" ||
		{ ktap_diag "$out"; return 1; }
}
ktap_check "a part given twice, as a copy or by its name: refused, exit 1" t_twice

t_copy() {
	# A whole recording under another name: its records would count
	# twice (twice the IOPS, half of them matched), as a part's copy would.
	"$NTPGEN" --quiet -n 2000 --seed 19 "$H" "$T" &&
		cp "$H" "$TMP/copy.ntp" || return 1
	out=$("$NTPROF" report "$H" "$T" "$TMP/copy.ntp" 2>&1)
	[ $? = 1 ] && [ "$(wc -l <<< "$out")" = 1 ] &&
		grep -q "host.ntp and .*copy.ntp are one recording (same machine, boot and start)" <<< "$out" &&
		out=$("$NTPROF" compare "$H,$TMP/copy.ntp" "$H,$T" 2>&1)
	[ $? = 1 ] && grep -q "^ntprof: compare: .*host.ntp and .*copy.ntp are one recording" <<< "$out" ||
		{ ktap_diag "$out"; return 1; }
}
ktap_check "a whole recording given twice, as a copy: refused, exit 1" t_copy

t_two_recordings() {
	# Two recordings' parts in one directory: two host recordings of
	# two sessions, each joined with the target on its own.
	"$NTPGEN" --quiet -n 3000 --seed 15 "$H" "$T" && split 1000 &&
		"$NTPGEN" --quiet -n 2000 --seed 16 "$TMP/h2.ntp" "$TMP/t2.ntp" &&
		"$SPLIT" "$TMP/h2.ntp" "$D/other" 700 || return 1
	out=$("$NTPROF" report "$D" 2>&1) &&
		grep -q "records: 5000 host, 3000 target; 3000 matched" <<< "$out" &&
		grep -q "other.0001.ntp: parts 1 to 3 of a rotated recording" <<< "$out" ||
		{ ktap_diag "$out"; return 1; }
}
ktap_check "parts of two recordings in one directory: two recordings" t_two_recordings

t_compare() {
	"$NTPGEN" --quiet -n 5000 --seed 17 "$H" "$T" && split 1000 &&
		"$NTPGEN" --quiet -n 5000 --storage-us 280 --seed 18 \
			"$TMP/l-h.ntp" "$TMP/l-t.ntp" || return 1
	"$NTPROF" compare "$H,$T" "$TMP/l-h.ntp,$TMP/l-t.ntp" > "$TMP/whole"
	"$NTPROF" compare "$D" "$TMP/l-h.ntp,$TMP/l-t.ntp" > "$TMP/dir"
	[ -s "$TMP/whole" ] && same "compare" "$TMP/whole" "$TMP/dir"
}
ktap_check "compare takes a directory of parts as one run" t_compare

t_empty_dir() {
	mkdir -p "$TMP/empty"
	out=$("$NTPROF" report "$TMP/empty" 2>&1)
	[ $? = 1 ] && grep -q "no .ntp file in this directory" <<< "$out"
}
ktap_check "a directory without .ntp files: one line, exit 1" t_empty_dir

ktap_finished
