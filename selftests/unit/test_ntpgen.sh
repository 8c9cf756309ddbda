#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 'ntprof report' against recordings of known content: tools/ntpgen writes
# a host's and a target's .ntp files of one synthetic workload with known
# stage means, and the report must match every host record, find each
# stage's mean (within 1 % of what the generator wrote, and of the nominal
# mean), and an end to end that is the sum of the stages, whatever the
# clocks' offset and drift; it must refuse files sampled with different N.
#
# usage: test_ntpgen.sh
# Builds tools/ntprof/ntprof and tools/ntpgen/ntpgen. Prints TAP; exits 1
# if any test failed. Every JSON it makes is validated at the end against
# its schema, Documentation/schemas/*.json (selftests/json-check.py).

# shellcheck source=selftests/unit/ntpgen_env.sh disable=SC1091
. "$(dirname "${BASH_SOURCE[0]}")/ntpgen_env.sh"

H=$TMP/host.ntp
T=$TMP/target.ntp
EXP=$TMP/expect
JSON=$TMP/report.json
ERR=$TMP/report.err
SCHEMAS=$TOP/Documentation/schemas
# Every JSON made here, kept for the schema checks at the end.
KEPT=$TMP/kept
mkdir -p "$KEPT"

# keep_json KIND DESC FILE: FILE is an output of KIND --json (report,
# compare), which DESC made; kept as KEPT/KIND.N.json, DESC beside it.
# Callable in a subshell (ktap_check's).
keep_json() {
	local n

	[ -s "$3" ] || return 0
	n=$(find "$KEPT" -name '*.json' | wc -l)
	cp "$3" "$KEPT/$1.$n.json" && echo "$2" > "$KEPT/$1.$n.desc"
}

# The commands of each case: enough that every group's mean is steady.
N=20000

# flat JSON: the report's numbers as lines the checks below read:
#   records host|target|matched VALUE
#   n OP SIZE N_TABLE
#   e2e OP SIZE MEAN_US
#   stage OP SIZE ID MEAN_US
# It relies on table.c's layout: one member per line.
flat() {
	awk '
	function val(s) {
		sub(/^[^:]*: */, "", s); sub(/,$/, "", s); gsub(/"/, "", s)
		return s
	}
	{ line = $0; key = line; sub(/^ *"/, "", key); sub(/".*/, "", key) }
	key == "records" { mode = "records"; next }
	key == "groups" { mode = "groups"; next }
	mode == "records" && (key == "host" || key == "target" || key == "matched") {
		print "records", key, val(line); next
	}
	mode == "records" && line ~ /^  }/ { mode = "" }
	mode == "groups" || mode == "lat" || mode == "stages" || mode == "comps" {
		if (key == "op") op = val(line)
		else if (key == "size") size = val(line)
		else if (key == "n_table") print "n", op, size, val(line)
		else if (key == "latency_us") mode = "lat"
		else if (key == "stages") mode = "stages"
		else if (key == "components") mode = "comps"
		else if (key == "dropped") mode = "groups"
		else if (mode == "lat" && key == "mean") print "e2e", op, size, val(line)
		else if (mode == "stages" && key == "id") id = val(line)
		else if (mode == "stages" && key == "mean_us") print "stage", op, size, id, val(line)
	}' "$1"
}

# gen ARGS...: writes $H, $T and $EXP; a failure is a Bail out.
gen() {
	"$NTPGEN" --quiet -e "$EXP" "$@" "$H" "$T" ||
		{ echo "Bail out! ntpgen $* failed"; exit 1; }
}

# report [DESC]: runs ntprof report --json on $H and $T; $rc, $JSON, $ERR.
report() {
	"$NTPROF" report --json "$H" "$T" > "$JSON" 2> "$ERR"
	rc=$?
	[ "$rc" != 0 ] || keep_json report "report --json, ${1:-a case}" "$JSON"
}

# expect KEY: a value of the generator's expect file.
expect() {
	awk -v k="$1" '$1 == k { print $2 }' "$EXP"
}

# check_all_matched: the record counts are the generator's, and every
# command recorded on both sides is matched (every host record, unless
# the case drops some target records).
check_all_matched() {
	local host target matched

	[ "$rc" = 0 ] || { echo "ntprof report exited with $rc: $(cat "$ERR")"; return 1; }
	host=$(flat "$JSON" | awk '$1 == "records" && $2 == "host" { print $3 }')
	target=$(flat "$JSON" | awk '$1 == "records" && $2 == "target" { print $3 }')
	matched=$(flat "$JSON" | awk '$1 == "records" && $2 == "matched" { print $3 }')
	echo "host $host target $target matched $matched;" \
	     "generated: host $(expect host_records) target $(expect target_records)" \
	     "on both sides $(expect matchable)"
	[ "$host" = "$(expect host_records)" ] &&
		[ "$target" = "$(expect target_records)" ] &&
		[ "$matched" = "$(expect matchable)" ]
}

# check_means: per group (op, size), n_table is the commands recorded on
# both sides, each stage's mean is within 1 % of the mean of the written
# points and of the nominal one (weighted over the groups), and the end
# to end is the sum of the stages (to the rounding of the JSON's 3
# decimals). Prints the comparisons.
check_means() {
	[ "$rc" = 0 ] || { echo "ntprof report exited with $rc: $(cat "$ERR")"; return 1; }
	flat "$JSON" | awk -v tol=0.01 '
	FNR == NR {
		if ($1 == "group") {
			g = $2 " " $3
			for (i = 4; i < NF; i += 2) want[g, $i] = $(i + 1)
			groups[g] = 1
		} else if ($1 == "nominal") {
			for (i = 2; i < NF; i += 2) nominal[$i] = $(i + 1)
		}
		next
	}
	$1 == "n" { n[$2 " " $3] = $4 }
	$1 == "e2e" { got[$2 " " $3, "e2e"] = $4 }
	$1 == "stage" { got[$2 " " $3, $4] = $5; sum[$2 " " $3] += $5 }
	function near(a, b) { return b != 0 && (a - b) / b <= tol && (b - a) / b <= tol }
	END {
		bad = 0
		split("host_block_layer host_driver network target_driver storage e2e", ids, " ")
		for (g in groups) {
			if (n[g] != want[g, "n"]) {
				printf "%s: n_table %s, generated %s\n", g, n[g], want[g, "n"]
				bad = 1
			}
			for (k = 1; k <= 6; k++) {
				id = ids[k]
				if (!near(got[g, id], want[g, id])) {
					printf "%s %s: %s us, generated %s us\n", g, id, got[g, id], want[g, id]
					bad = 1
				}
				wsum[id] += got[g, id] * n[g]
			}
			ntot += n[g]
			if ((sum[g] - got[g, "e2e"]) > 0.005 * 6 || (got[g, "e2e"] - sum[g]) > 0.005 * 6) {
				printf "%s: the stages sum to %.3f us, the end to end is %s us\n", g, sum[g], got[g, "e2e"]
				bad = 1
			}
		}
		if (!ntot) { print "no group in the report"; exit 1 }
		for (k = 1; k <= 6; k++) {
			id = ids[k]
			printf "%s: %.3f us (nominal %s)\n", id, wsum[id] / ntot, nominal[id]
			if (!near(wsum[id] / ntot, nominal[id])) bad = 1
		}
		exit bad
	}' "$EXP" -
}

# t_case NAME ARGS...: generates with ARGS, reports, checks the matches
# and the means.
t_case() {
	local name=$1 out

	shift
	gen -n "$N" "$@"
	report "$name"
	if out=$(check_all_matched 2>&1); then
		ktap_pass "$name: all records of both sides matched"
	else
		ktap_fail "$name: all records of both sides matched"
		printf '%s\n' "$out" "$(head -c 2000 "$ERR")" | sed 's/^/# /'
	fi
	if out=$(check_means 2>&1); then
		ktap_pass "$name: stage means within 1 %, end to end = sum"
	else
		ktap_fail "$name: stage means within 1 %, end to end = sum"
		printf '%s\n' "$out" | sed 's/^/# /'
	fi
}

t_help() {
	local out

	out=$("$NTPGEN" --help) &&
		grep -q -- '--storage-us' <<< "$out" &&
		grep -q -- '--theta' <<< "$out" &&
		grep -q -- '--target-sample' <<< "$out" &&
		! "$NTPGEN" --bogus "$H" "$T" 2> /dev/null &&
		! "$NTPGEN" -t udp "$H" "$T" 2> /dev/null
}

t_mismatched_n() {
	gen -n 5000 -s 10 --target-sample 25
	report
	echo "rc=$rc stdout: $(head -c 200 "$JSON")"
	echo "stderr: $(cat "$ERR")"
	[ "$rc" = 1 ] && [ ! -s "$JSON" ] && [ -s "$ERR" ] &&
		[ "$(wc -l < "$ERR")" -le 2 ] &&
		grep -q '10' "$ERR" && grep -q '25' "$ERR"
}

# flat_compare JSON: compare's numbers as lines:
#   delta GROUP_OP GROUP_SIZE ID DELTA_US
#   largest GROUP_OP GROUP_SIZE ID
flat_compare() {
	awk '
	function val(s) {
		sub(/^[^:]*: */, "", s); sub(/,$/, "", s); gsub(/"/, "", s)
		return s
	}
	{ line = $0; key = line; sub(/^ *"/, "", key); sub(/".*/, "", key) }
	key == "groups" { ingroups = 1; next }
	!ingroups { next }
	key == "op" { op = val(line) }
	key == "size" { size = val(line) }
	key == "stages" { where = "stages" }
	key == "largest" { where = "largest" }
	key == "id" { id = val(line); if (where == "largest") print "largest", op, size, id }
	key == "delta_us" && where == "stages" { print "delta", op, size, id, val(line) }
	' "$1"
}

# t_compare NAME STAGE DELTA_US BASE_ARGS -- LOAD_ARGS: two generated runs
# whose only difference is STAGE's mean, DELTA_US larger in the second;
# compare must name STAGE the largest LAD in every group, find it grown by
# DELTA_US within 2 %, and every other stage moved by less than 2 % of it.
t_compare() {
	local name=$1 stage=$2 delta=$3 base=() load=() out

	shift 3
	while [ $# -gt 0 ] && [ "$1" != -- ]; do base+=("$1"); shift; done
	shift
	load=("$@")
	"$NTPGEN" --quiet -n "$N" "${base[@]}" "$TMP/b-h.ntp" "$TMP/b-t.ntp" &&
		"$NTPGEN" --quiet -n "$N" "${load[@]}" "$TMP/l-h.ntp" "$TMP/l-t.ntp" ||
		{ echo "Bail out! ntpgen failed"; exit 1; }
	"$NTPROF" compare --json "$TMP/b-h.ntp,$TMP/b-t.ntp" \
		"$TMP/l-h.ntp,$TMP/l-t.ntp" > "$TMP/compare.json" 2> "$ERR"
	rc=$?
	keep_json compare "compare --json, $name" "$TMP/compare.json"
	if out=$(flat_compare "$TMP/compare.json" | awk -v stage="$stage" -v d="$delta" '
		$1 == "largest" { groups++; if ($4 != stage) { print "largest in", $2, $3, "is", $4; bad = 1 } }
		$1 == "delta" && $4 == stage {
			if ($5 < d * 0.98 || $5 > d * 1.02) { print $2, $3, stage, "grew by", $5; bad = 1 }
		}
		$1 == "delta" && $4 != stage && $4 != "end_to_end" {
			v = $5 < 0 ? -$5 : $5
			if (v > d * 0.02) { print $2, $3, $4, "moved by", $5; bad = 1 }
		}
		END { if (groups < 4) { print "only", groups + 0, "groups compared"; bad = 1 } exit bad }') &&
		[ "$rc" = 0 ]; then
		ktap_pass "compare, $name: $stage has the largest LAD, +$delta us within 2 %, the rest flat"
	else
		ktap_fail "compare, $name: $stage has the largest LAD, +$delta us within 2 %, the rest flat"
		printf '%s\n' "rc=$rc" "$out" "$(cat "$ERR")" | sed 's/^/# /'
	fi
}

# --csv: a row per host record with its target's points, each row's
# stages summing to its end to end, and the joined rows' mean end to end
# of the 4 KiB reads the report's own; a column per point, stage and
# component.
t_csv() {
	local csv=$TMP/run.csv rows want got

	"$NTPGEN" -n 5000 --no-target-pct 2 --seed 21 "$H" "$T" > /dev/null || return 1
	"$NTPROF" report --csv "$csv" --json "$H" "$T" > "$JSON" 2> "$ERR" || return 1
	keep_json report "report --csv --json" "$JSON"
	rows=$(($(wc -l < "$csv") - 1))
	want=$(flat "$JSON" | awk '$1 == "records" && $2 == "host" { print $3 }')
	[ "$rows" = "$want" ] || { echo "# $rows rows for $want host records"; return 1; }
	awk -F, 'NR == 1 {
		for (i = 1; i <= NF; i++) col[$i] = i
		if (!("host_send_ns" in col) || !("target_exec_ns" in col) ||
		    !("stage_storage_ns" in col) || !("storage_drive_ns" in col))
			{ print "# missing columns"; exit 1 }
		next
	}
	$col["usable"] != 1 { next }
	{
		s = 0
		for (c in col) if (c ~ /^stage_/) s += $col[c]
		if (s != $col["end_to_end_ns"]) { print "# row " NR ": stages " s " != " $col["end_to_end_ns"]; bad = 1 }
		if ($col["target_file"] != "") joined++; else lone++
		# The tables of a report are of the joined commands of a group.
		if ($col["opcode"] == 2 && $col["length"] == 4096 &&
		    $col["target_file"] != "") { n++; e2e += $col["end_to_end_ns"] }
	}
	END {
		if (bad || !joined || !lone) { print "# joined " joined ", alone " lone; exit 1 }
		printf "%.2f\n", e2e / n / 1000
	}' "$csv" > "$TMP/csv.mean" || { cat "$TMP/csv.mean"; return 1; }
	got=$(cat "$TMP/csv.mean")
	want=$(flat "$JSON" | awk '$1 == "e2e" && $2 == "read" && $3 == 4096 { printf "%.2f\n", $4 }')
	[ "$got" = "$want" ] || { echo "# csv mean $got us, report $want us"; return 1; }
	"$NTPROF" report --csv - "$H" "$T" | head -n 1 | grep -q '^file,role,' ||
		{ echo "# --csv - does not write the rows to standard output"; return 1; }
	! "$NTPROF" report --csv /nonexistent/dir/x.csv "$H" "$T" > /dev/null 2> "$ERR" &&
		grep -q 'cannot write /nonexistent/dir/x.csv' "$ERR" ||
		{ echo "# an unwritable --csv FILE is not an error"; return 1; }
}

# --hist: without jitter every command's end to end is the sum of the
# stage means (120 us: one bucket) and its storage 300 us (another).
t_hist() {
	local out=$TMP/hist.out n

	"$NTPGEN" -n 3000 --jitter 0 --seed 22 "$H" "$T" > /dev/null || return 1
	"$NTPROF" report --hist "$H" "$T" > "$out" || return 1
	n=$(sed -nE 's/^== read 4KiB [^:]*: ([0-9]+) commands sampled.*/\1/p' "$out")
	grep -A3 '^== read 4KiB .*: end to end, ' "$out" |
		grep -qE "^ +64 -> 127 : $n +\|\*{40}\|$" ||
		{ echo "# no bucket 64 -> 127 of all $n reads"; sed 's/^/# /' "$out"; return 1; }
	"$NTPGEN" -n 3000 --jitter 0 --storage-us 300 --seed 23 "$H" "$T" > /dev/null || return 1
	"$NTPROF" report --hist=storage "$H" "$T" > "$out" || return 1
	grep -A3 '^== read 4KiB .*: storage (target block layer, drive), ' "$out" |
		grep -qE '^ +256 -> 511 : [0-9]+ +\|\*{40}\|$' ||
		{ echo "# no bucket 256 -> 511 of storage"; sed 's/^/# /' "$out"; return 1; }
	! "$NTPROF" report --hist=nothing "$H" "$T" > /dev/null 2> "$ERR" &&
		grep -q "no stage or component 'nothing'" "$ERR" ||
		{ echo "# --hist=nothing is not refused"; return 1; }
}

# --tail: with each stage's jitter in proportion to its mean, the slow
# commands are slow in the largest stage: the network, then the storage.
t_tail() {
	local out=$TMP/tail.out n k

	"$NTPGEN" -n 20000 --network-us 200 --storage-us 20 --jitter 0.5 \
		--seed 24 "$H" "$T" > /dev/null || return 1
	"$NTPROF" report --tail "$H" "$T" > "$out" || return 1
	n=$(sed -nE 's/^== read 4KiB [^:]*: ([0-9]+) commands sampled.*/\1/p' "$out")
	k=$(sed -nE 's/^== read 4KiB [^:]*: the ([0-9]+) commands above p99 .*/\1/p' "$out")
	# Above the table's p99, which interpolates between ranks
	# (n - 1) * 0.99 and the next: the commands of the higher ranks.
	[ "$k" = $((n - 1 - 99 * (n - 1) / 100)) ] ||
		{ echo "# $k commands above p99 of $n"; return 1; }
	grep -A9 '^== read 4KiB .* above p99' "$out" |
		grep -q '^  the tail grows most in network (TCP/IP, NICs, wire): ' ||
		{ echo "# the network is not named"; sed 's/^/# /' "$out"; return 1; }
	"$NTPGEN" -n 20000 --network-us 10 --storage-us 300 --jitter 0.5 \
		--seed 25 "$H" "$T" > /dev/null || return 1
	"$NTPROF" report --tail=99.9 "$H" "$T" > "$out" || return 1
	grep -A9 '^== read 4KiB .* above p99.9 ' "$out" |
		grep -q '^  the tail grows most in storage (target block layer, drive): ' ||
		{ echo "# the storage is not named at p99.9"; sed 's/^/# /' "$out"; return 1; }
	! "$NTPROF" report --tail=100 "$H" "$T" > /dev/null 2>&1 ||
		{ echo "# --tail=100 is not refused"; return 1; }
	# Fewer than 100 commands: the p99 tail is still the slowest one.
	"$NTPGEN" -n 100 --seed 29 "$H" "$T" > /dev/null || return 1
	"$NTPROF" report --tail "$H" "$T" > "$out" || return 1
	grep -q '^== read 4KiB .*: the command above p99 ' "$out" &&
		grep -q '^  the tail grows most in ' "$out" ||
		{ echo "# no tail of one in a small group"; sed 's/^/# /' "$out"; return 1; }
}

# --by queue: one queue whose drive is 200 us slower stands out, in its
# storage stage alone; the other queues look alike.
t_by() {
	local out=$TMP/by.out

	"$NTPGEN" -n 8000 --slow-queue 3:200 --seed 26 "$H" "$T" > /dev/null || return 1
	"$NTPROF" report --by queue "$H" "$T" > "$out" || return 1
	[ "$(grep -c '^== queue [1-4]: ' "$out")" = 4 ] ||
		{ echo "# not four queue groups"; sed 's/^/# /' "$out"; return 1; }
	awk '/^== queue / { q = $3; sub(/:/, "", q) }
		/^  latency \(us\): mean/ { m = $4; sub(/,/, "", m); mean[q] = m }
		/^  storage / { st[q] = $(NF - 3) }
		END {
			for (q = 1; q <= 4; q++) if (q != 3 && (mean[q] > 130 || mean[q] < 110)) exit 1
			exit !(mean[3] > 310 && mean[3] < 330 && st[3] > 270 && st[1] < 90)
		}' "$out" || { echo "# queue 3 does not stand out"; sed 's/^/# /' "$out"; return 1; }
	"$NTPROF" report --json --by op,queue "$H" "$T" > "$JSON" &&
		keep_json report "report --json --by op,queue" "$JSON" &&
		grep -q '"label": "read queue 3"' "$JSON" ||
		{ echo "# --by op,queue has no group 'read queue 3' in JSON"; return 1; }
	! "$NTPROF" report --by queue,nothing "$H" "$T" > /dev/null 2>&1 ||
		{ echo "# --by queue,nothing is not refused"; return 1; }
}

# Failed commands outside the sample (the host keeps them all): a line
# of their own, and out of the groups, the rates and the unmatched note.
t_failed() {
	local out=$TMP/failed.out nh nf sum

	"$NTPGEN" -n 40000 -s 10 --failed-pct 0.2 --seed 27 "$H" "$T" > /dev/null || return 1
	"$NTPROF" report "$H" "$T" > "$out" || return 1
	nh=$(sed -nE 's/^records: ([0-9]+) host, .*/\1/p' "$out")
	nf=$(sed -nE 's/^failed: ([0-9]+) host commands outside the sample, kept out of the numbers above: status 0x100 \(([0-9]+)\); mean latency [0-9.]+ us$/\1 \2/p' "$out")
	# shellcheck disable=SC2086 # two numbers, or none.
	set -- $nf
	[ -n "${1:-}" ] && [ "$1" -gt 0 ] && [ "$1" = "${2:-}" ] ||
		{ echo "# no failed line"; sed 's/^/# /' "$out"; return 1; }
	sum=$(sed -nE 's/^== [^:]*: ([0-9]+) commands sampled.*/\1/p' "$out" |
		awk '{ s += $1 } END { print s + 0 }')
	[ "$sum" = $((nh - $1)) ] ||
		{ echo "# groups hold $sum commands of $nh host records and $1 failed"; return 1; }
	! grep -q 'host records have no target record' "$out" ||
		{ echo "# the failed commands are counted as unmatched"; return 1; }
}

# Passthrough commands (NVMe ioctls, io_uring commands), as 6.12 records
# them: flagged, without a block layer start. Each op and size has a
# group of its char device, ng1n1, beside nvme1n1's, the records split
# as generated, every one joined, each group's stages summing to its end
# to end, and the passthrough groups' host block layer its completion
# alone (nvme1n1's holds the submission too, the same mean again).
t_passthru() {
	local np

	"$NTPGEN" --quiet -e "$EXP" -n 20000 --passthru-pct 40 --seed 31 "$H" "$T" || return 1
	report "passthrough commands among others"
	[ "$rc" = 0 ] || { echo "# report exited with $rc: $(cat "$ERR")"; return 1; }
	np=$(expect host_passthru)
	jq -e --argjson np "$np" --argjson nh "$(expect host_records)" '
		[.groups[] | select(.side == "host")] as $g |
		($g | map(select(.device == "ng1n1")) | length) == 4 and
		($g | map(select(.device == "nvme1n1")) | length) == 4 and
		($g | length) == 8 and
		($g | map(select(.device == "ng1n1") | .n) | add) == $np and
		($g | map(.n) | add) == $nh and
		.records.matched == $nh and
		all($g[]; ((.stages | map(.mean_us) | add) - .latency_us.mean |
			fabs) < 0.01) and
		([$g[] | select(.op == "read" and .size == 4096) |
		  {(.device): (.stages[] | select(.id == "host_block_layer") |
			       .mean_us)}] | add) as $hb |
		($hb.ng1n1 > 1.9 and $hb.ng1n1 < 2.1 and
		 $hb.nvme1n1 > 3.9 and $hb.nvme1n1 < 4.1)' "$JSON" > /dev/null ||
		{ echo "# host_passthru $np; groups:"
		  jq -r '.groups[] | "# \(.side) \(.label) \(.n)"' "$JSON"; return 1; }
}

# Aborted attempts (a reset's: status 0x371, requeued, each followed by
# the command's retry, which both sides record): a line of their own
# with their count and status, out of the groups and the join, and
# every completed command joined, in text and in JSON.
t_aborted() {
	local out=$TMP/aborted.out n nh sum

	gen -n 8000 --aborted-pct 3 --seed 29
	n=$(expect aborted)
	[ "${n:-0}" -gt 0 ] || { echo "# ntpgen wrote no aborted attempt"; return 1; }
	"$NTPROF" report "$H" "$T" > "$out" || return 1
	grep -qx "aborted: $n host commands without a response or sent again ($n requeued: retried or failed over; $n of the sample), kept out of the numbers above: status 0x371 ($n); mean latency [0-9.]* us" "$out" ||
		{ echo "# no aborted line for $n"; sed 's/^/# /' "$out"; return 1; }
	nh=$(sed -nE 's/^records: ([0-9]+) host, .*/\1/p' "$out")
	sum=$(sed -nE 's/^== [^:]*: ([0-9]+) commands sampled.*/\1/p' "$out" |
		awk '{ s += $1 } END { print s + 0 }')
	[ "$sum" = $((nh - n)) ] ||
		{ echo "# groups hold $sum commands of $nh host records and $n aborted"; return 1; }
	! grep -q 'host records have no target record' "$out" ||
		{ echo "# the aborted commands are counted as unmatched"; return 1; }
	report "aborted attempts"
	# JSON counts the records as the text does; the sample apart.
	[ "$(jq -r '"\(.records.host) \(.records.sampled) \(.records.matched) \(.aborted.n) \(.aborted.requeued) \(.aborted.statuses[0].status) \(.failed.n)"' "$JSON")" = \
	  "$nh $(expect matchable) $(expect matchable) $n $n 881 0" ] ||
		{ echo "# JSON: $(jq -c '.records, .aborted' "$JSON")"; return 1; }
}

# Native multipath (--paths 2): the groups are the namespace's, its path
# disks named after it; --by path splits each by controller, with its
# name and the target's address, and the paths' counts add up.
t_paths() {
	local out=$TMP/paths.out

	gen -n 8000 --paths 2 --seed 30
	report "two paths"
	[ "$(jq -r '[.groups[] | .device] | unique | join(" ")' "$JSON")" = nvme1n1 ] &&
	[ "$(jq '[.groups[] | "\(.op) \(.size)"] | (length == (unique | length))' "$JSON")" = true ] ||
		{ echo "# the default groups are not one per op and size of nvme1n1: $(jq -c '[.groups[].label]' "$JSON")"; return 1; }
	"$NTPROF" report --json --by op,size,path "$H" "$T" > "$TMP/paths.json" &&
		keep_json report "report --json --by op,size,path" "$TMP/paths.json" || return 1
	[ "$(jq -r '[.groups[] | .path.controller] | unique | join(" ")' "$TMP/paths.json")" = "nvme1 nvme2" ] &&
	[ "$(jq '[.groups[] | .n] | add' "$TMP/paths.json")" = "$(jq '[.groups[] | .n] | add' "$JSON")" ] &&
	[ "$(jq '[.groups[] | .n_joined] | add' "$TMP/paths.json")" = "$(expect matchable)" ] ||
		{ echo "# --by op,size,path: $(jq -c '[.groups[] | [.label, .n]]' "$TMP/paths.json")"; return 1; }
	"$NTPROF" report --by path "$H" "$T" > "$out" || return 1
	[ "$(grep -c '^== path nvme[12] 10.0.0.2:442[01]: ' "$out")" = 2 ] ||
		{ echo "# --by path: not two paths"; grep '^==' "$out" | sed 's/^/# /'; return 1; }
	"$NTPROF" report --json --by path "$T" > "$TMP/tpaths.json" &&
		keep_json report "report --json --by path, a target alone" "$TMP/tpaths.json" &&
	[ "$(jq -r '[.groups[] | .label] | join(",")' "$TMP/tpaths.json")" = "path cntlid 1,path cntlid 2" ] ||
		{ echo "# a target by path: $(jq -c '[.groups[].label]' "$TMP/tpaths.json")"; return 1; }
}

# --timeline: the drive 300 us slower from 0.05 s on shows in the slices
# from then on, in their storage column alone.
t_timeline() {
	local out=$TMP/timeline.out

	"$NTPGEN" -n 40000 --gap-us 200 --slow-from 0.05:300 --seed 28 "$H" "$T" > /dev/null || return 1
	"$NTPROF" report --timeline 0.01 "$H" "$T" > "$out" || return 1
	sed -n '/^== read 4KiB .*, every 0.01 s$/,/^$/p' "$out" | awk '
		$1 ~ /s$/ && $1 != "time" {
			t = $1; sub(/s$/, "", t); st = $NF; net = $(NF - 2)
			if (net < 18 || net > 22) bad = 1
			if (t + 0 < 0.035) { early++; if (st > 90) bad = 1 }
			if (t + 0 > 0.055) { late++; if (st < 370) bad = 1 }
		}
		END { exit !(!bad && early >= 3 && late >= 5) }' ||
		{ echo "# the slow slices do not show"; sed 's/^/# /' "$out" | head -30; return 1; }
	! "$NTPROF" report --timeline 0 "$H" "$T" > /dev/null 2>&1 ||
		{ echo "# --timeline 0 is not refused"; return 1; }
}

# --data-us: the 128 KiB writes' data transfer (R2T and H2C data, the
# RDMA READ) is a component of their network stage alone, of its mean,
# in every one of them; their target driver keeps its nominal mean, as
# every group's.
t_data() {
	local t

	for t in tcp rdma; do
		"$NTPGEN" --quiet -n 20000 -t "$t" --data-us 50 --seed 35 \
			"$H" "$T" || return 1
		"$NTPROF" report --json "$H" "$T" > "$JSON" || return 1
		keep_json report "report --json, --data-us 50 over $t" "$JSON"
		jq -e '[.groups[] | select(.op == "write" and .size == 131072)] as $w |
			($w | length) == 1 and
			($w[0].components[] | select(.id == "network_host_data_transfer") |
				.n == $w[0].n_table and .mean_us > 49.5 and .mean_us < 50.5) and
			([.groups[] | .components[] | select(.id == "network_host_data_transfer")] |
				length) == 1 and
			(.groups[] | .stages[] | select(.id == "target_driver") |
				.mean_us > 9.9 and .mean_us < 10.1)' "$JSON" > /dev/null ||
			{ echo "# $t: the host's data is not where it should be"; return 1; }
	done
}

# The views in JSON: members of the report's object, the same answers.
t_views_json() {
	local json=$TMP/views.json

	"$NTPGEN" -n 20000 --network-us 200 --storage-us 20 --jitter 0.5 \
		--seed 24 "$H" "$T" > /dev/null || return 1
	"$NTPROF" report --json --tail --hist --timeline 0.01 "$H" "$T" > "$json" || return 1
	keep_json report "report --json --tail --hist --timeline 0.01" "$json"
	jq -e '.schema == "ntprof-report/1" and
		(.tail.groups[] | select(.label == "read 4KiB nvme1n1") | .largest == "network") and
		(.histograms.groups[] | select(.label == "read 4KiB nvme1n1") |
			([.buckets[].count] | add) + .below_zero == .n) and
		(.timeline.groups[0].slices | length > 0) and
		([.timeline.groups[0].slices[].n] | add) == .groups[0].n_table' \
		"$json" > /dev/null ||
		{ echo "# the views' JSON does not hold the answers"; return 1; }
}

# The views and groupings in JSON, for the schema checks at the end: each
# --by part, --hist of a stage, of a component and of the computed wire
# (with a clock that drifts and stale receive stamps), --tail=P,
# --timeline; a host's and a target's files alone; RDMA; compare across
# kinds (a host alone against a joined run) and of targets alone.
t_json_views() {
	local out=$TMP/views.json b=$TMP/vb

	"$NTPGEN" -n 4000 -t rdma --drift 300 --stale-recv-pct 1 --jitter 0.9 \
		--no-target-pct 5 --seed 31 "$H" "$T" > /dev/null &&
		"$NTPGEN" -n 4000 -t rdma --storage-us 200 --seed 32 \
			"$b-h.ntp" "$b-t.ntp" > /dev/null || return 1
	for by in queue op,cpu ccpu,pid size,dev op,size,dev,queue,cpu,ccpu,pid; do
		"$NTPROF" report --json --by "$by" "$H" "$T" > "$out" &&
			keep_json report "report --json --by $by" "$out" || return 1
	done
	set -- "--hist=network_wire --tail=99.9 --timeline 0.002 $H $T" \
	       "--hist=storage_drive --tail=50 --by queue $H $T" \
	       "--hist=network_and_target --tail --timeline 0.001 $H" \
	       "--hist=storage --tail=99.99 --timeline 1 $T" \
	       "$H" "$T"
	for args in "$@"; do
		# shellcheck disable=SC2086 # the options and files, split
		"$NTPROF" report --json $args > "$out" &&
			keep_json report "report --json ${args//$TMP\//}" "$out" ||
			{ echo "# report --json $args failed"; return 1; }
	done
	"$NTPROF" compare --json "$H" "$b-h.ntp,$b-t.ntp" > "$out" &&
		keep_json compare "compare --json, a host alone against a joined run" "$out" &&
		"$NTPROF" compare --json "$T" "$b-t.ntp" > "$out" &&
		keep_json compare "compare --json, targets alone" "$out" ||
		{ echo "# compare --json failed"; return 1; }
	# Nulls: slices without a command (3 ms apart, 1 ms slices), a
	# stage too small for a LAD (0.2 us).
	"$NTPGEN" -n 100 -q 1 -d 1 --gap-us 3000 --host-blk-us 0.2 --seed 33 \
		"$H" "$T" > /dev/null &&
		"$NTPGEN" -n 100 -q 1 -d 1 --gap-us 3000 --host-blk-us 0.2 \
			--storage-us 200 --seed 34 "$b-h.ntp" "$b-t.ntp" > /dev/null &&
		"$NTPROF" report --json --timeline 0.001 "$H" "$T" > "$out" &&
		keep_json report "report --json --timeline 0.001, slices without a command" "$out" &&
		"$NTPROF" compare --json "$H,$T" "$b-h.ntp,$b-t.ntp" > "$out" &&
		keep_json compare "compare --json, a stage too small for a LAD" "$out" ||
		{ echo "# the runs with nulls failed"; return 1; }
}

# What the JSON kept covers: each view, each --by member, each kind and
# transport, compare, a null number in each schema; else the schema checks
# miss a part.
t_json_covered() {
	jq -se '
		(map(select(.timeline) | .timeline.groups[].slices[] |
		     select(.mean_us == null)) | length > 0) and
		(map(.groups[]? | .stages[]? | select(has("lad") and .lad == null)) |
		 length > 0) and
		(map(select(.schema == "ntprof-report/1")) | length > 0) and
		(map(select(.schema == "ntprof-compare/2")) | length >= 2) and
		(map(.tail // empty) | length > 0) and
		(map(.histograms // empty) | length > 0) and
		(map(.timeline // empty) | length > 0) and
		([.[] | .groups[]?] as $g |
			(["queue", "cpu", "completion_cpu", "pid"] |
			 all(. as $k | $g | any(has($k)))) and
			(["joined", "host", "target"] |
			 all(. as $k | $g | any(.kind == $k))) and
			(["tcp", "rdma"] |
			 all(. as $t | $g | any(.transport == $t))))' \
		"$KEPT"/*.json > /dev/null
}

# Every JSON made above against its schema (selftests/json-check.py,
# python3-jsonschema): a line each.
# The schema is the one the document names ("ntprof-compare/2": the file
# ntprof-compare-2.json).
check_kept() {
	local f name out

	for f in "$KEPT"/*.json; do
		name=$(jq -r '.schema' "$f")
		if out=$(python3 "$TOP/selftests/json-check.py" \
			 "$SCHEMAS/${name//\//-}.json" "$f" 2>&1); then
			ktap_pass "schema $name: $(cat "${f%.json}.desc")"
		else
			ktap_fail "schema $name: $(cat "${f%.json}.desc")"
			printf '%s\n' "$out" | head -n 20 | sed 's/^/# /'
		fi
	done
}

ktap_check "ntpgen --help documents it; bad options fail" t_help
ktap_check "report --csv: a row per host record, stages summing to the end to end, the report's mean" t_csv
ktap_check "report --hist: log2 buckets of the end to end, of a stage; an unknown id refused" t_hist
ktap_check "report --tail: the commands above p99, the stage they grow in named" t_tail
ktap_check "report --by queue: the one slow queue stands out, in storage" t_by
ktap_check "report --timeline: the slices after a slow-down show it, in storage alone" t_timeline
ktap_check "failed commands outside the sample: their own line, out of the groups" t_failed
ktap_check "aborted and requeued attempts: their own line and count, out of the groups and the join" t_aborted
ktap_check "native multipath: one group per namespace, --by path splits it by controller" t_paths
ktap_check "report --json with --tail, --hist, --timeline: the same answers" t_views_json
ktap_check "--data-us: the large writes' data is their network's, not the target driver's" t_data
t_case "tcp" -t tcp --seed 1
t_case "rdma" -t rdma --seed 2
t_case "theta +3 s, drift +200 ppm" -t tcp --theta 3s --drift 200 \
	-q 1 -d 8 --gap-us 500 --seed 3
t_case "theta -3 s, drift -200 ppm" -t rdma --theta -3s --drift -200 \
	-q 1 -d 8 --gap-us 500 --seed 4
t_case "cids reused, small LBA span" --no-genctr --span 1M -q 2 -d 64 \
	--seed 5
t_case "1 in 10 sampled" -s 10 -n 100000 --seed 6
t_case "commands missing on one side" --no-target-pct 10 --no-host-pct 5 \
	--seed 7
t_case "other stage means" -t rdma --host-blk-us 2 --host-drv-us 15 \
	--network-us 7 --target-drv-us 30 --storage-us 400 --jitter 0.5 --seed 8
# As once in many thousands in the lab: a target receive stamped by an
# earlier, empty read, before the host sent. The command still matches,
# without that point.
t_case "stale receive stamps" -t tcp --stale-recv-pct 0.5 --seed 9
# Passthrough commands only, as on 6.12 (no block layer start): the
# host block layer holds its completion alone, the end to end starts at
# queue_rq (the nominal means say so).
t_case "passthrough commands" -t rdma --passthru-pct 100 --seed 10
ktap_check "passthrough among block I/O: groups of the char device, ng1n1" t_passthru
ktap_check "a different N on the two sides is refused, exit 1" t_mismatched_n
t_compare "storage delay" storage 200 --storage-us 80 --seed 11 -- \
	--storage-us 280 --seed 12
t_compare "network delay" network 100 -t rdma --seed 13 -- \
	-t rdma --network-us 120 --seed 14
# The host block layer quadruples (LAD 4) but holds 3 us of the 203 us
# that the read grew by: storage (LAD 3.5) is where the time went.
t_compare "a tiny stage quadrupled" storage 200 --host-blk-us 1 \
	--storage-us 80 --seed 15 -- --host-blk-us 4 --storage-us 280 --seed 16
ktap_check "report and compare --json of every view, grouping, kind, transport" t_json_views
ktap_check "the JSON made here covers each view, --by member, kind and transport" t_json_covered
check_kept

ktap_finished
