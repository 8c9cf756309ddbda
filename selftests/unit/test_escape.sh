#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A recording's strings reach no terminal raw: tools/ntpgen
# --hostile-strings writes files whose host name, kernel release, tool
# version, device, controller and hook names hold ESC sequences, BEL, CR,
# the C1 control CSI and bytes that are not UTF-8, as a crafted file
# would. Every output of 'ntprof report' (text, --detail, --by path,
# --hist, --tail, --timeline, --json, --html, --csv) and of 'ntprof
# compare' (text, --json, --html), stdout and stderr, must hold no
# control byte but the newline and the tab, no C1 control and nothing
# that is not UTF-8; the strings must be there, escaped ("\x1b"); the
# JSON must parse and give the strings back as the same escaped text.
#
# usage: test_escape.sh
# Builds tools/ntprof/ntprof and tools/ntpgen/ntpgen. Prints TAP; exits 1
# if any test failed.

# shellcheck source=selftests/unit/ntpgen_env.sh disable=SC1091
. "$(dirname "${BASH_SOURCE[0]}")/ntpgen_env.sh"

H=$TMP/host.ntp
T=$TMP/target.ntp
# A second run, as hostile, for compare (whose groups are by device).
CH=$TMP/base-host.ntp
CT=$TMP/base-target.ntp

# printable FILE [WANT]: FILE is UTF-8 with no control byte but the
# newline and the tab, no DEL and no C1 control; with WANT, FILE holds
# that text (the hostile strings, escaped), so the check is not passed
# by an output that left them out.
printable() {
	python3 - "$@" <<'EOF'
import re, sys
data = open(sys.argv[1], "rb").read()
try:
    text = data.decode("utf-8")
except UnicodeDecodeError as e:
    sys.exit("# not UTF-8: %s" % e)
bad = re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", text)
if bad:
    at = bad.start()
    sys.exit("# control character %r at %d: %r" % (bad.group(), at, text[max(0, at - 40):at + 10]))
if len(sys.argv) > 2 and sys.argv[2] not in text:
    sys.exit("# %r is not in it" % sys.argv[2])
EOF
}

# run_clean DESC WANT CMD...: CMD's stdout and stderr are printable and
# hold WANT; CMD succeeds.
run_clean() {
	local desc=$1 want=$2 out=$TMP/out

	shift 2
	if ! "$@" > "$out" 2>&1; then
		ktap_fail "$desc: runs"
		sed 's/^/# /' "$out" | head -n 5 | cat -v
		return
	fi
	if printable "$out" "$want"; then
		ktap_pass "$desc: no raw control byte, the strings escaped"
	else
		ktap_fail "$desc: no raw control byte, the strings escaped"
	fi
}

# file_clean DESC FILE WANT: as run_clean, for a file an option wrote.
file_clean() {
	if [ -s "$2" ] && printable "$2" "$3"; then
		ktap_pass "$1: no raw control byte, the strings escaped"
	else
		ktap_fail "$1: no raw control byte, the strings escaped"
	fi
}

"$NTPGEN" --hostile-strings -n 500 --seed 3 --quiet "$H" "$T" &&
	"$NTPGEN" --hostile-strings -n 500 --seed 4 --storage-us 160 \
		--quiet "$CH" "$CT" ||
	{ echo "Bail out! ntpgen"; exit 1; }
ktap_check "ntpgen --hostile-strings wrote ESC, BEL, CR, C1 and non-UTF-8 bytes" \
	bash -c "! LC_ALL=C grep -qaP '\\x1b\\[2J\\x1b\\]0;pwned\\x07\\r\\xc2\\x9b31m\\xff\\xc3\\(' '$H' || exit 0; exit 1"

# The escaped forms, as the tool prints them. The kernel release's is
# too long for its field: cut, with "...".
ESC='ntpgen-host\x1b[2J\x1b]0;pwned\x07\x0d\xc2\x9b31m\xff\xc3('
CUT='6.12.12+bpo-amd64\x1b[2J\x1b]0;pwned\x07\x0d\xc2\x9b31m\xff\xc3(\x1b[2J\x1b]'

run_clean "report" "$ESC" "$NTPROF" report "$H" "$T"
run_clean "report, the release cut" "${CUT:0:45}" "$NTPROF" report "$H" "$T"
run_clean "report --detail (the hook's note)" 'block_rq_issue\x1b[2J' \
	"$NTPROF" report --detail "$H" "$T"
run_clean "report --by op,size,path --detail" 'nvme1\x1b[2J' \
	"$NTPROF" report --by op,size,path --detail "$H" "$T"
run_clean "report --hist --tail --timeline 1" "$ESC" \
	"$NTPROF" report --hist --tail --timeline 1 "$H" "$T"
run_clean "report of the host alone" "$ESC" "$NTPROF" report -D "$H"
run_clean "report --json" 'ntpgen-host\\x1b[2J' "$NTPROF" report --json "$H" "$T"
"$NTPROF" report --json "$H" "$T" > "$TMP/r.json" 2> /dev/null
ktap_check "report --json parses, the host name back as the escaped text" \
	python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
s = json.dumps(j)
sys.exit(0 if sys.argv[2] in s and "\x1b" not in str(j) else 1)' \
	"$TMP/r.json" 'ntpgen-host\\x1b[2J'
"$NTPROF" report --html "$TMP/r.html" --csv "$TMP/r.csv" -D "$H" "$T" > /dev/null 2>&1
file_clean "report --html" "$TMP/r.html" 'nvme1n1\x1b[2J'
# The CSV holds no string of the recording (paths and numbers).
file_clean "report --csv" "$TMP/r.csv" ''
# compare names no machine: its groups' devices are the strings it shows.
run_clean "compare" 'nvme1n1\x1b[2J' "$NTPROF" compare "$CH,$CT" "$H,$T"
run_clean "compare --json" 'nvme1n1\\x1b[2J' \
	"$NTPROF" compare --json "$CH,$CT" "$H,$T"
ktap_check "compare --json parses" \
	bash -c "'$NTPROF' compare --json '$CH,$CT' '$H,$T' | python3 -m json.tool > /dev/null"
"$NTPROF" compare --html "$TMP/c.html" "$CH,$CT" "$H,$T" > /dev/null 2>&1
file_clean "compare --html" "$TMP/c.html" 'nvme1n1\x1b[2J'

# Paths are the user's, not the recording's, but a JSON output stays
# valid whatever they hold (RFC 8259: controls as \u00XX, UTF-8 text): a
# directory named with ESC, BEL and a byte that is not UTF-8.
D=$TMP/$'dir\x1b[31m\x07\xff'
mkdir -p "$D" && cp "$H" "$T" "$D/" || { echo "Bail out! mkdir"; exit 1; }
run_clean "report --json, a path with control bytes" 'dir\u001b[31m\u0007\\xff' \
	"$NTPROF" report --json "$D/host.ntp" "$D/target.ntp"
"$NTPROF" report --json "$D/host.ntp" "$D/target.ntp" > "$TMP/p.json" 2> /dev/null
ktap_check "report --json, a path with control bytes: parses" \
	python3 -m json.tool "$TMP/p.json"
ktap_finished
