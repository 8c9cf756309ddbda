#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The charts of report --html and compare --html as a browser shows them
# (Debian's chromium, headless): in the DOM it builds, every chart has
# its axes with ticks in units (µs, ms, s, %) and a title, a legend, a
# hover title with a value and unit on every bar and point; the CDFs have
# the end to end's p50, p99 and p99.9 marked with the values of report
# --json; compare's figure has a base and a load bar per transport, the
# storage stage outlined as the largest LAD, the LAD tables; where a stage
# too small for a LAD made the largest change, the page names it as
# compare --json does (outlined, legend, row, line) and carries the same
# answer, and --detail's table marks the component that changed. The pages
# are well formed and fetch nothing, Chromium logs no console message
# about them (it logs an SVG attribute it cannot read, such as a NaN
# width, as a console error), and their screenshots are not blank. The
# checks must reject a page whose axes are taken out.
#
# usage: test_html_browser.sh    Prints TAP; exits 1 if any test failed.

# shellcheck source=selftests/unit/ntpgen_env.sh disable=SC1091
. "$(dirname "${BASH_SOURCE[0]}")/ntpgen_env.sh"
CHECK="python3 $UNIT_DIR/html-dom-check.py"
# Pillow (python3-pil) is Debian's, for Debian's python3.
PIL_PYTHON=${PIL_PYTHON:-/usr/bin/python3}

if ! ktap_need "the charts of report --html and compare --html in Chromium" \
		chromium; then
	ktap_finished
	exit
fi
if ! "$PIL_PYTHON" -c 'import PIL' 2> /dev/null; then
	ktap_skip_missing "the charts of report --html and compare --html in Chromium" \
		"python3-pil (selftests/lab/install-deps.sh installs it)"
	ktap_finished
	exit
fi

# chrome NAME ARG...: Chromium on $TMP/NAME.html, its log in
# $TMP/NAME.log; bounded, as a hung browser must not hang the tests.
chrome() {
	local name=$1

	shift
	timeout 90 chromium --headless --no-sandbox --disable-gpu \
		--disable-dev-shm-usage --hide-scrollbars --enable-logging=stderr \
		--v=0 --window-size=1280,2000 "$@" "file://$TMP/$name.html" \
		2> "$TMP/$name.log"
}

# A drive 300 us slower from 0.05 s on: a CDF with a tail, a timeline
# with a step. Two runs over both transports, the second with a slower
# drive, for compare.
gen() {
	"$NTPGEN" "$@" > /dev/null 2>&1
}
gen -n 20000 --gap-us 200 --slow-from 0.05:300 --seed 41 "$TMP/h.ntp" "$TMP/t.ntp" &&
"$NTPROF" report --json "$TMP/h.ntp" "$TMP/t.ntp" > "$TMP/r.json" &&
"$NTPROF" report --html "$TMP/r.html" "$TMP/h.ntp" "$TMP/t.ntp" > /dev/null &&
gen -n 4000 -t tcp --seed 42 "$TMP/b1h.ntp" "$TMP/b1t.ntp" &&
gen -n 4000 -t rdma --seed 43 "$TMP/b2h.ntp" "$TMP/b2t.ntp" &&
gen -n 4000 -t tcp --storage-us 200 --seed 44 "$TMP/l1h.ntp" "$TMP/l1t.ntp" &&
gen -n 4000 -t rdma --storage-us 200 --seed 45 "$TMP/l2h.ntp" "$TMP/l2t.ntp" &&
"$NTPROF" compare --html "$TMP/c.html" \
	"$TMP/b1h.ntp,$TMP/b1t.ntp,$TMP/b2h.ntp,$TMP/b2t.ntp" \
	"$TMP/l1h.ntp,$TMP/l1t.ntp,$TMP/l2h.ntp,$TMP/l2t.ntp" > /dev/null
ktap_check "report --html and compare --html write their pages" \
	test -s "$TMP/r.html" -a -s "$TMP/c.html"

t_wellformed() {
	$CHECK wellformed "$TMP/r.html" && $CHECK wellformed "$TMP/c.html"
}
ktap_check "both pages well formed, no script, nothing fetched" t_wellformed

t_report() {
	chrome r --dump-dom > "$TMP/r.dom" && $CHECK report "$TMP/r.dom" "$TMP/r.json"
}
ktap_check "report: axes with ticks in units, legends, p50/p99/p99.9 marks, hover titles" t_report

t_compare() {
	chrome c --dump-dom > "$TMP/c.dom" && $CHECK compare "$TMP/c.dom"
}
ktap_check "compare: base and load bars per transport, storage outlined as largest LAD, LAD tables" t_compare

# A host block layer of 0.4 us (n/a) that grew by 40 us, storage by 10
# us: the page names the block layer, as compare --json does, and carries
# its answer; --detail's table marks the submission or completion. The
# check must reject the page with another stage's row marked.
t_compare_answer() {
	gen -n 4000 --read-pct 100 --large-pct 0 --host-blk-us 0.4 --seed 46 \
		"$TMP/nb-h.ntp" "$TMP/nb-t.ntp" &&
	gen -n 4000 --read-pct 100 --large-pct 0 --host-blk-us 40 --storage-us 90 \
		--seed 47 "$TMP/nl-h.ntp" "$TMP/nl-t.ntp" &&
	"$NTPROF" compare --detail --json "$TMP/nb-h.ntp,$TMP/nb-t.ntp" \
		"$TMP/nl-h.ntp,$TMP/nl-t.ntp" > "$TMP/n.json" &&
	"$NTPROF" compare --detail --html "$TMP/n.html" "$TMP/nb-h.ntp,$TMP/nb-t.ntp" \
		"$TMP/nl-h.ntp,$TMP/nl-t.ntp" > /dev/null &&
	jq -e '.groups[0].largest.id == "host_block_layer"' "$TMP/n.json" > /dev/null &&
	$CHECK wellformed "$TMP/n.html" &&
	chrome n --dump-dom > "$TMP/n.dom" &&
	$CHECK compare-answer "$TMP/n.dom" "$TMP/n.json" || return 1
	perl -pe 's{<tr class="largest">}{<tr>}; s{(<tr)(><td><span[^>]*>[^<]*</span> storage \(target)}{$1 class="largest"$2}' \
		"$TMP/n.dom" > "$TMP/moved.dom" &&
	! $CHECK compare-answer "$TMP/moved.dom" "$TMP/n.json" > /dev/null &&
	sed 's/of the growth/of the change/' "$TMP/n.dom" > "$TMP/moved.dom" &&
	! $CHECK compare-answer "$TMP/moved.dom" "$TMP/n.json" > /dev/null
}
ktap_check "compare: a stage too small for a LAD that grew most is outlined and named, the answer line the JSON's" t_compare_answer

# A chain (ntpgen --chain: origin, middle, two replicas, one slow): the
# chained groups' bar per hop and legs' chart with their axes, legends
# and hover titles; not without the hops' axes.
t_chain() {
	"$NTPGEN" --quiet --chain -n 2000 --slow-leg 1:50 --seed 48 "$TMP/chain" &&
	"$NTPROF" report --json "$TMP/chain" > "$TMP/ch.json" &&
	"$NTPROF" report --html "$TMP/ch.html" "$TMP/chain" > /dev/null &&
	$CHECK wellformed "$TMP/ch.html" &&
	chrome ch --dump-dom > "$TMP/ch.dom" &&
	$CHECK chain "$TMP/ch.dom" "$TMP/ch.json" || return 1
	perl -0pe 's{(<svg class="chain-hops".*?)<g class="axis axis-x">.*?</g>}{$1}gs' \
		"$TMP/ch.dom" > "$TMP/bare.dom" &&
	! $CHECK chain "$TMP/bare.dom" "$TMP/ch.json" > /dev/null
}
ktap_check "report of a chain: a bar per hop and the legs, with axes, legends, titles" t_chain

# The checks are worth something only if a page without axes fails them.
t_no_axes() {
	perl -0pe 's{<g class="axis axis-[xy]">.*?</g>}{}gs' "$TMP/r.dom" > "$TMP/bare.dom" &&
	! $CHECK report "$TMP/bare.dom" "$TMP/r.json" > /dev/null &&
	perl -0pe 's{<g class="axis axis-[xy]">.*?</g>}{}gs' "$TMP/c.dom" > "$TMP/bare.dom" &&
	! $CHECK compare "$TMP/bare.dom" > /dev/null
}
ktap_check "the checks reject the pages with their axes taken out" t_no_axes

t_console() {
	local name

	for name in r c n ch; do
		! grep -E ':CONSOLE|Uncaught' "$TMP/$name.log" | sed 's/^/# /' | grep . ||
			return 1
	done
}
ktap_check "Chromium logs no console message for any page" t_console

# screenshot NAME: a 1280x2000 PNG with some ink and many colours (the
# stages' and the text's anti-aliasing), not a blank or a one-colour page.
screenshot() {
	chrome "$1" --screenshot="$TMP/$1.png" > /dev/null &&
	"$PIL_PYTHON" - "$TMP/$1.png" << 'EOF'
import sys
from PIL import Image

im = Image.open(sys.argv[1]).convert("RGB")
colours = im.getcolors(maxcolors=1 << 24)
white = sum(n for n, c in colours if c == (255, 255, 255))
ink = 1 - white / (im.width * im.height)
print(f"# {im.width}x{im.height}, {len(colours)} colours, {ink:.1%} not white")
sys.exit(0 if im.size == (1280, 2000) and len(colours) > 64 and ink > 0.03 else 1)
EOF
}
t_screenshots() {
	screenshot r && screenshot c
}
ktap_check "screenshots are 1280x2000 PNGs, not blank (Pillow)" t_screenshots

ktap_finished
