#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The files report and compare write never cost a recording: an output
# named after a recording (the page's name forgotten: "report --html
# host.ntp target.ntp"), after a part of a rotated one, or after an input
# is refused with one line, exit 1, the file untouched; an output is
# written whole under its name (through a temporary file, renamed), and
# over an older output of its own.
#
# usage: test_outputs.sh    Prints TAP; exits 1 if any test failed.

# Each test is "checks && ... || { diag; return 1; }".
# shellcheck disable=SC2015

# shellcheck source=selftests/unit/split_env.sh disable=SC1091
. "$(dirname "${BASH_SOURCE[0]}")/split_env.sh"

"$NTPGEN" --quiet -n 2000 --seed 41 "$H" "$T" || { echo "Bail out! ntpgen"; exit 1; }
cp "$H" "$TMP/h.orig" && cp "$T" "$TMP/t.orig" || exit 1

# no_temp: no temporary output file left in $TMP.
no_temp() {
	local f
	for f in "$TMP"/*.tmp.*; do
		[ -e "$f" ] && { ktap_diag "left: $f"; return 1; }
	done
	return 0
}

# refused WANT ARGS...: ntprof ARGS fails with one line matching WANT on
# stderr and nothing on stdout, and both recordings are as they were.
# shellcheck disable=SC2053 # $want is a pattern.
refused() {
	local want=$1 out err rc
	shift
	out=$("$NTPROF" "$@" 2> "$TMP/err")
	rc=$?
	err=$(<"$TMP/err")
	[ "$rc" = 1 ] && [ -z "$out" ] && [ "$(wc -l <<< "$err")" = 1 ] &&
		[[ $err == $want ]] && cmp -s "$H" "$TMP/h.orig" &&
		cmp -s "$T" "$TMP/t.orig" && no_temp ||
		{ ktap_diag "ntprof $* (rc $rc)"; ktap_diag "$err"; return 1; }
}

t_html_forgotten() {
	refused "ntprof: report: --html $H: that is a recording: refusing to write over it*" \
		report --html "$H" "$T"
}
ktap_check "report --html host.ntp target.ntp (the page's name forgotten): refused, host.ntp intact" t_html_forgotten

t_csv_forgotten() {
	refused "ntprof: report: --csv $T: that is a recording: refusing*" \
		report --csv "$T" "$H" &&
	refused "ntprof: report: --csv $H: that is also given as a recording: refusing*" \
		report --json --csv "$H" "$H" "$T"
}
ktap_check "report --csv over a recording, or over an input: refused, both intact" t_csv_forgotten

t_not_named_ntp() {
	# What counts is the magic, not the name: a recording renamed.
	cp "$H" "$TMP/host.bak" || return 1
	refused "ntprof: report: --html $TMP/host.bak: that is a recording: refusing*" \
		report --html "$TMP/host.bak" "$H" "$T" &&
		cmp -s "$TMP/host.bak" "$H"
}
ktap_check "report --html over a recording named otherwise (its magic): refused" t_not_named_ntp

t_part() {
	mkdir -p "$TMP/parts" && "$SPLIT" "$H" "$TMP/parts/host" 700 &&
		cp "$TMP/parts/host.0002.ntp" "$TMP/p2.orig" || return 1
	refused "ntprof: report: --csv $TMP/parts/host.0002.ntp: that is a recording: refusing*" \
		report --csv "$TMP/parts/host.0002.ntp" "$TMP/parts/host.0001.ntp" "$T" &&
		cmp -s "$TMP/parts/host.0002.ntp" "$TMP/p2.orig"
}
ktap_check "report --csv over a part of a rotated recording: refused, the part intact" t_part

t_compare() {
	refused "ntprof: compare: --html $H: that is also given as a recording: refusing*" \
		compare --html "$H" "$H,$T" "$H,$T" &&
	cp "$H" "$TMP/other.ntp" &&
	refused "ntprof: compare: --html $TMP/other.ntp: that is a recording: refusing*" \
		compare --html "$TMP/other.ntp" "$H,$T" "$H,$T"
}
ktap_check "compare --html over an input or a recording: refused, intact" t_compare

t_record_prom() {
	# record checks its options before it asks for the module.
	refused "ntprof: record: --prom $H: that is a recording: refusing*" \
		record -r host -t tcp -o "$TMP/new.ntp" --prom "$H" &&
	refused "ntprof: record: --prom $TMP/new.ntp: that is also given as a recording: refusing*" \
		record -r host -t tcp -o "$TMP/new.ntp" --prom "$TMP/new.ntp"
}
ktap_check "record --prom over a recording, or over its own -o: refused" t_record_prom

t_written() {
	# Written whole under its name, again over its own older output,
	# with nothing left beside it.
	echo old > "$TMP/r.html" && echo old > "$TMP/r.csv" || return 1
	"$NTPROF" report --html "$TMP/r.html" --csv "$TMP/r.csv" "$H" "$T" \
		> /dev/null &&
		grep -q '</html>' "$TMP/r.html" &&
		[ "$(head -c 4 "$TMP/r.csv")" != old ] &&
		[ "$(wc -l < "$TMP/r.csv")" -gt 1000 ] &&
		"$NTPROF" compare --html "$TMP/c.html" "$H,$T" "$H,$T" > /dev/null &&
		grep -q '</html>' "$TMP/c.html" &&
		no_temp ||
		{ ktap_diag "$(ls "$TMP")"; return 1; }
}
ktap_check "report --html, --csv and compare --html write whole files, over older outputs" t_written

t_cannot_write() {
	# A directory that is not there: one line, and no file anywhere.
	local out
	out=$("$NTPROF" report --html "$TMP/none/r.html" "$H" "$T" 2>&1 >/dev/null)
	[ $? = 1 ] && [[ $out == "ntprof: report: cannot write $TMP/none/r.html: "* ]] ||
		{ ktap_diag "$out"; return 1; }
}
ktap_check "an output that cannot be written: one line, exit 1" t_cannot_write

ktap_finished
