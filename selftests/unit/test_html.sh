#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ntprof report --html, as a person would see it: the page of an ntpgen
# run rendered by headless Chromium (Debian's chromium), whose DOM must
# hold each group's stage bar with a segment and a label per stage (the
# report's own stage names), the components table, a CDF line per stage
# and the end to end, the timeline and the tail; and whose screenshot is
# not blank (far larger than a blank page's). Nothing is fetched: the page
# has no script, no link and no remote source.
#
# usage: test_html.sh    Prints TAP; exits 1 if any test failed.

# shellcheck source=selftests/unit/ntpgen_env.sh disable=SC1091
. "$(dirname "${BASH_SOURCE[0]}")/ntpgen_env.sh"

chrome() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
		--hide-scrollbars --window-size=900,1400 "$@" 2> "$TMP/chromium.err"
}

"$NTPGEN" -n 20000 --gap-us 200 --slow-from 0.05:300 --seed 31 \
	"$TMP/h.ntp" "$TMP/t.ntp" > /dev/null 2>&1 &&
"$NTPROF" report "$TMP/h.ntp" "$TMP/t.ntp" > "$TMP/report.txt" &&
"$NTPROF" report --html "$TMP/r.html" "$TMP/h.ntp" "$TMP/t.ntp" > /dev/null
ktap_check "report --html writes the page" test -s "$TMP/r.html"

if ! ktap_need "report --html's page in Chromium" chromium; then
	ktap_finished
	exit
fi

# not_blank NAME FACTOR: $TMP/NAME.html's screenshot is FACTOR times the
# size of a blank page's ($TMP/blank.png), whose PNG compresses to little.
not_blank() {
	local page blank

	chrome --screenshot="$TMP/$1.png" "file://$TMP/$1.html" > /dev/null || return 1
	page=$(stat -c %s "$TMP/$1.png")
	blank=$(stat -c %s "$TMP/blank.png")
	[ "$page" -gt $((blank * $2)) ] ||
		{ echo "# the screenshot is $page bytes, a blank page's $blank"; return 1; }
}

t_dom() {
	local dom=$TMP/dom.html groups stages want got

	chrome --dump-dom "file://$TMP/r.html" > "$dom" || return 1
	# The section of the first group, read 4KiB nvme1n1.
	awk '/<h2>read 4KiB nvme1n1<\/h2>/ { on = 1 } on && /<\/section>/ { exit }
		on' "$dom" > "$TMP/read.html"
	groups=$(grep -c '^== ' "$TMP/report.txt")
	[ "$(grep -o '<section class="group">' "$dom" | wc -l)" = "$groups" ] ||
		{ echo "# not a section per group ($groups)"; return 1; }
	[ "$(grep -o '<svg class="stagebar"' "$dom" | wc -l)" = "$groups" ] &&
	[ "$(grep -o '<svg class="cdf"' "$dom" | wc -l)" = "$groups" ] &&
	[ "$(grep -o '<svg class="timeline"' "$dom" | wc -l)" = "$groups" ] &&
	[ "$(grep -o '<table class="components">' "$dom" | wc -l)" = "$groups" ] ||
		{ echo "# a chart or table missing"; return 1; }
	# The first group's stage labels are the text report's stage names.
	want=$(sed -n '/^== read 4KiB /,/largest:/p' "$TMP/report.txt" |
		sed -n 's/^  \(.*[a-z)]\) \{2,\}[0-9.]\{1,\} \{2,\}[0-9]\{1,\}% .*/\1/p')
	got=$(grep -o 'class="stage-label"[^>]*>[^<]*' "$TMP/read.html" | sed 's/.*>//')
	stages=$(echo "$want" | wc -l)
	[ -n "$want" ] && [ "$got" = "$want" ] ||
		{ echo "# stage labels: '$got', want '$want'"; return 1; }
	[ "$(grep -o '<rect class="stage"' "$TMP/read.html" | wc -l)" = "$stages" ] ||
		{ echo "# not a bar segment per stage"; return 1; }
	# A CDF per stage and one of the end to end.
	[ "$(grep -o '<polyline class="cdf-line"' "$TMP/read.html" | wc -l)" = $((stages + 1)) ] ||
		{ echo "# not a CDF line per stage and the end to end"; return 1; }
	grep -q '<table class="tail">' "$dom" ||
		{ echo "# no tail table"; return 1; }
	! grep -qiE '<script|<link|src="http|href="http' "$TMP/r.html" ||
		{ echo "# the page fetches something"; return 1; }
}
ktap_check "Chromium's DOM: bars labelled with the report's stage names, components, CDFs, timeline, tail; nothing fetched" t_dom

t_screenshot() {
	echo '<!DOCTYPE html><html><body></body></html>' > "$TMP/blank.html"
	chrome --screenshot="$TMP/blank.png" "file://$TMP/blank.html" > /dev/null &&
	not_blank r 4
}
ktap_check "Chromium's screenshot of the page is not blank" t_screenshot

# compare --html: both runs' bars, the LAD table with its largest row
# the stage made slower (storage), the answer; not blank either.
t_compare() {
	local dom=$TMP/cdom.html

	"$NTPGEN" -n 5000 --seed 32 "$TMP/bh.ntp" "$TMP/bt.ntp" > /dev/null 2>&1 &&
	"$NTPGEN" -n 5000 --storage-us 200 --seed 33 "$TMP/lh.ntp" "$TMP/lt.ntp" > /dev/null 2>&1 &&
	"$NTPROF" compare --html "$TMP/c.html" "$TMP/bh.ntp,$TMP/bt.ntp" \
		"$TMP/lh.ntp,$TMP/lt.ntp" > /dev/null || return 1
	chrome --dump-dom "file://$TMP/c.html" > "$dom" || return 1
	[ "$(grep -o '<rect class="stage base"' "$dom" | wc -l)" -gt 0 ] &&
	[ "$(grep -o '<rect class="stage base"' "$dom" | wc -l)" = \
	  "$(grep -o '<rect class="stage load"' "$dom" | wc -l)" ] ||
		{ echo "# not a base and a load segment per stage"; return 1; }
	grep -q '<tr class="largest"><td><span[^>]*>[^<]*</span> storage (target block layer, drive)</td>' "$dom" ||
		{ echo "# the largest LAD is not storage's row"; return 1; }
	grep -q '<p class="answer">' "$dom" || { echo "# no answer"; return 1; }
	not_blank c 3
}
ktap_check "compare --html: both runs' bars, the largest LAD's row, the answer; not blank" t_compare

ktap_finished
