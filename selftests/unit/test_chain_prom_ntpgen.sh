#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# record -r host,target --prom's chain against ntpgen --chain's truth and
# against 'ntprof report' of the same recordings: the middle's two files,
# replayed through the chain window by window in the order their records
# ended (chain_prom_replay.c), at windows of 1 ms and 100 ms of their
# clock (a slow leg of 500 us: a window longer than the time between a
# write's two legs' ends, as the recorder's seconds are). Every link of
# the truth is made and every command without upstream counted; each
# leg's reads, writes and critical commands are the report's; each
# group's middle stage has the report's mean; the slow leg is the
# writes' critical one.
#
# usage: test_chain_prom_ntpgen.sh    Prints TAP; exits 1 if any test failed.

# shellcheck source=selftests/unit/ntpgen_env.sh disable=SC1091
. "$(dirname "${BASH_SOURCE[0]}")/ntpgen_env.sh"
REPLAY=$UNIT_DIR/chain_prom_replay
make -s -C "$UNIT_DIR" chain_prom_replay >&2 ||
	{ echo "Bail out! cannot build chain_prom_replay"; exit 1; }

D=$TMP/chain
"$NTPGEN" --quiet -n 2000 --seed 5 --chain --slow-leg 1:500 \
	--unlinked-pct 2 "$D" ||
	{ echo "Bail out! ntpgen --chain failed"; exit 1; }
"$NTPROF" report --json "$D"/*.ntp > "$D/report.json" 2> "$D/report.err" ||
	{ echo "Bail out! ntprof report failed: $(head -n 3 "$D/report.err")"; exit 1; }

# legs FILE: per op, each leg's "op n critical", sorted, from the
# report's JSON (its legs are the replicas' devices).
report_legs() {
	jq -r '.groups[] | select(.hops != null) | .op as $op |
		.legs[] | "\($op) \(.label) \(.n) \(.critical)"' "$1" |
		awk '{ n[$1 " " $2 " " $3] += $(NF - 1); c[$1 " " $2 " " $3] += $NF }
			END { for (k in n) { split(k, a, " "); print a[1], n[k], c[k] } }' |
		sort
}

# prom_legs FILE: the same from the chain's file (its legs are the
# middle's devices).
prom_legs() {
	awk '/^ntprof_chain_leg_(commands|critical)_total\{/ {
			match($0, /op="[^"]*"/); op = substr($0, RSTART + 4, RLENGTH - 5)
			match($0, /leg="[^"]*"/); leg = substr($0, RSTART, RLENGTH)
			k = op SUBSEP leg
			if (index($0, "_commands_total{")) n[k] += $NF; else c[k] += $NF
		}
		END { for (k in n) { split(k, a, SUBSEP); print a[1], n[k], c[k] } }' "$1" |
		sort
}

# state FILE STATE: the downstream commands of one state.
state() {
	awk -v s="state=\"$2\"" '/^ntprof_chain_downstream_commands_total\{/ && index($0, s) { print $NF }' "$1"
}

# prom_middle FILE, report_middle JSON: per group "op size mean_us" of
# the middle stage.
prom_middle() {
	awk '/^ntprof_chain_stage_latency_seconds_(sum|count)\{/ && /stage="middle"/ {
			match($0, /op="[^"]*"/); op = substr($0, RSTART + 4, RLENGTH - 5)
			match($0, /size_bytes="[^"]*"/); sz = substr($0, RSTART + 12, RLENGTH - 13)
			if (index($0, "_sum{")) s[op " " sz] += $NF; else n[op " " sz] += $NF
		}
		END { for (k in s) printf "%s %.3f\n", k, s[k] / n[k] * 1e6 }' "$1" | sort
}

report_middle() {
	jq -r '.groups[] | select(.hops != null) |
		"\(.op) \(.size) \(.hops[0].stages[] | select(.id == "middle") | .mean_us)"' "$1" |
		awk '{ printf "%s %s %.3f\n", $1, $2, $3 }' | sort
}

links=$(awk -F, '$1 == "link"' "$D/truth.csv" | wc -l)
unlinked=$(awk -F, '$1 == "unlinked"' "$D/truth.csv" | wc -l)
want_legs=$(report_legs "$D/report.json")
want_middle=$(report_middle "$D/report.json")

for w in 1000000 100000000; do
	P=$D/m$w.prom
	"$REPLAY" "$P" "$w" "$D/middle-target.ntp" "$D/middle-host.ntp" ||
		{ echo "Bail out! chain_prom_replay failed"; exit 1; }

	got_l=$(state "$P" linked) got_u=$(state "$P" no_upstream)
	[ "$got_l" = "$links" ] && [ "$got_u" = "$unlinked" ] &&
		[ "$(state "$P" ambiguous)" = 0 ] &&
		ktap_pass "window $w ns: the truth's $links links made, its $unlinked commands without upstream counted" ||
		ktap_fail "window $w ns: the truth's $links links made (${got_l:-?}), its $unlinked commands without upstream counted (${got_u:-?})"

	got=$(prom_legs "$P")
	if [ -n "$want_legs" ] && [ "$got" = "$want_legs" ]; then
		ktap_pass "window $w ns: each leg's reads and writes, and its critical ones, are the report's"
	else
		ktap_fail "window $w ns: each leg's reads and writes, and its critical ones, are the report's"
		echo "$want_legs" | sed 's/^/# report: /'
		echo "$got" | sed 's/^/# prom:   /'
	fi

	got=$(prom_middle "$P")
	if [ -n "$want_middle" ] && [ "$got" = "$want_middle" ]; then
		ktap_pass "window $w ns: each group's middle stage has the report's mean"
	else
		ktap_fail "window $w ns: each group's middle stage has the report's mean"
		echo "$want_middle" | sed 's/^/# report: /'
		echo "$got" | sed 's/^/# prom:   /'
	fi
done

# The slow leg (leg 1, 500 us more) completed last for every write.
writes=$(awk -F, '$1 == "link" && $14 == "write" && $10 == 1' "$D/truth.csv" | wc -l)
crit=$(prom_legs "$D/m1000000.prom" | awk '$1 == "write" { if ($3 > m) m = $3 } END { print m + 0 }')
[ "$writes" -gt 0 ] && [ "$crit" = "$writes" ] &&
	ktap_pass "the slow leg is critical for each of the $writes writes" ||
	ktap_fail "the slow leg is critical for each of the ${writes:-?} writes (${crit:-?})"

ktap_finished
