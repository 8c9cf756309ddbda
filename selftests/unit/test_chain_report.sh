#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What 'ntprof report' says of recordings sampled by the chain rule
# (record --chain, .ntp 2.1's chain and chain_offset): nothing for the hop
# rule; one "sampling:" line when every file has the chain rule with one
# offset; a line per file, naming it, when the offsets differ (the two
# recordings of a middle machine). ntpgen writes the hop rule; the
# chain's header bytes are set here as Documentation/ntp-format.rst
# places them (after the part, before the CRC), the CRC made again.
#
# usage: test_chain_report.sh
# Prints TAP; exits 1 if any test failed.

# Each test is "checks && ... || { diag; return 1; }".
# shellcheck disable=SC2015

# shellcheck source=selftests/unit/ntpgen_env.sh disable=SC1091
. "$(dirname "${BASH_SOURCE[0]}")/ntpgen_env.sh"

# chain FILE RULE OFFSET: FILE's header says RULE (0, 1) and OFFSET.
chain() {
	python3 - "$@" <<'PY'
import struct, sys, zlib
path, rule, offset = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
b = bytearray(open(path, 'rb').read())
assert b[8:10] == b'\x02\x00' and b[10] >= 1, 'not a 2.1 or later file'
n = struct.unpack_from('<I', b, 12)[0]
b[n - 20] = rule
struct.pack_into('<Q', b, n - 12, offset)
struct.pack_into('<I', b, n - 4, zlib.crc32(bytes(b[:n - 4])))
open(path, 'wb').write(b)
PY
}

# lines: the report's "sampling:" lines, in $TMP/lines; 1 if it failed.
lines() {
	(cd "$TMP" && "$NTPROF" report host.ntp target.ntp) > "$TMP/out" 2>&1 ||
		return 1
	grep '^sampling:' "$TMP/out" > "$TMP/lines"
	return 0
}

t_hop() {
	"$NTPGEN" --quiet -n 3000 -s 10 --seed 5 "$TMP/host.ntp" "$TMP/target.ntp" &&
		lines && [ ! -s "$TMP/lines" ] ||
		{ ktap_diag "$(head -5 "$TMP/out" "$TMP/lines")"; return 1; }
}
ktap_check "the hop rule: no sampling line" t_hop

t_chain_same() {
	chain "$TMP/host.ntp" 1 0 && chain "$TMP/target.ntp" 1 0 && lines &&
		[ "$(cat "$TMP/lines")" = "sampling: 1 in 10, chain rule, offset 0" ] ||
		{ ktap_diag "$(head -5 "$TMP/out" "$TMP/lines")"; return 1; }
}
ktap_check "the chain rule in both files, offset 0: one line" t_chain_same

t_chain_each() {
	chain "$TMP/target.ntp" 1 33024 && lines &&
		[ "$(cat "$TMP/lines")" = "sampling: 1 in 10, chain rule, offset 0: host.ntp
sampling: 1 in 10, chain rule, offset 33024: target.ntp" ] ||
		{ ktap_diag "$(head -5 "$TMP/out" "$TMP/lines")"; return 1; }
}
ktap_check "other offsets: a line per file, naming it" t_chain_each

t_chain_one() {
	chain "$TMP/host.ntp" 0 0 && lines &&
		[ "$(cat "$TMP/lines")" = "sampling: 1 in 10, chain rule, offset 33024: target.ntp" ] ||
		{ ktap_diag "$(head -5 "$TMP/out" "$TMP/lines")"; return 1; }
}
ktap_check "the chain rule in one file only: that file named" t_chain_one

t_chain_bad() {
	chain "$TMP/target.ntp" 2 0
	(cd "$TMP" && "$NTPROF" report host.ntp target.ntp) > "$TMP/out" 2>&1
	[ $? = 1 ] && [ "$(cat "$TMP/out")" = "ntprof: report: target.ntp: header: sampling rule 2 is unknown (0: hop, 1: chain)" ] ||
		{ ktap_diag "$(head -5 "$TMP/out")"; return 1; }
}
ktap_check "a rule the reader does not know: refused in one line" t_chain_bad

ktap_finished
