#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 'ntprof compare' names the stage that changed, on runs of known content
# (tools/ntpgen):
#   - a stage under 0.5 us at the base (n/a) that grew by 40 us is the
#     largest change, named first with its change in us, and the stages'
#     shares account for the whole change of the end to end;
#   - --detail splits storage into the target's block layer and the
#     drive (the busy-drive use case: drive 59.5 -> 159.7 us, the block
#     layer 0.6 us either way), in text, JSON and HTML;
#   - a joined run against a host-only one (either way round) compares on
#     their common ground, the network and the target as one stage, and
#     finds the growth there;
#   - a TCP run against an RDMA run: paired by op and size across two
#     devices (or with --match op,size), each run's stages named for its
#     own transport, the saving placed; --match refuses what it cannot
#     pair by.
# Every JSON made here is valid against Documentation/schemas.
#
# usage: test_compare.sh    Prints TAP; exits 1 if any test failed.

# shellcheck source=selftests/unit/ntpgen_env.sh disable=SC1091
. "$(dirname "${BASH_SOURCE[0]}")/ntpgen_env.sh"
SCHEMA=$TOP/Documentation/schemas/ntprof-compare-2.json
CHECK=$TOP/selftests/json-check.py
OUT=$TMP/out
JSON=$TMP/c.json
N=4000

# gen NAME ARGS...: $TMP/NAME-h.ntp and $TMP/NAME-t.ntp, 4 KiB reads.
gen() {
	local name=$1

	shift
	"$NTPGEN" --quiet -n "$N" --read-pct 100 --large-pct 0 "$@" \
		"$TMP/$name-h.ntp" "$TMP/$name-t.ntp" ||
		{ echo "Bail out! ntpgen $* failed"; exit 1; }
}

# run NAME: the files of run NAME as compare takes them; NAME-h alone
# for its host's recording only.
run() {
	case $1 in
	*-h) echo "$TMP/$1.ntp" ;;
	*) echo "$TMP/$1-h.ntp,$TMP/$1-t.ntp" ;;
	esac
}

# cmp ARGS... BASE LOAD: compare's text in $OUT, then its JSON in $JSON
# (validated); the exit status of the first that fails.
cmp() {
	local n=$# base=${*: -2:1} load=${*: -1}

	set -- "${@:1:n-2}"
	"$NTPROF" compare "$@" "$(run "$base")" "$(run "$load")" > "$OUT" ||
		{ echo "compare $*: exit $?"; cat "$OUT"; return 1; }
	"$NTPROF" compare --json "$@" "$(run "$base")" "$(run "$load")" > "$JSON" ||
		{ echo "compare --json $*: exit $?"; return 1; }
	python3 "$CHECK" "$SCHEMA" "$JSON"
}

# near VALUE WANT TOL: |VALUE - WANT| <= TOL.
near() {
	awk -v v="$1" -v w="$2" -v t="$3" 'BEGIN {
		d = v - w; if (d < 0) d = -d
		if (v == "" || d > t) { print v, "is not", w, "+-", t; exit 1 } }'
}

# shares_sum: every group's stages' changes add up to its end to end's,
# and their shares to 1.
shares_sum() {
	jq -e '.groups | length > 0 and all(.[];
		([.stages[] | select(.id != "end_to_end") | .delta_us] | add) as $s |
		(.stages[] | select(.id == "end_to_end") | .delta_us) as $e |
		(($s - $e) | fabs) < 0.01 and
		(([.stages[] | select(.id != "end_to_end") | .share] | add) - 1 | fabs) < 0.001)' \
		"$JSON" > /dev/null || { echo "the stages do not add up"; jq -c '.groups[].stages' "$JSON"; return 1; }
}

gen base --host-blk-us 0.4 --storage-us 80 --seed 51
gen blk --host-blk-us 40 --storage-us 90 --seed 52

# Item: a stage too small for a LAD grew by 40 us; storage by 10 us.
t_na_stage() {
	cmp base blk || return 1
	cat "$OUT"
	shares_sum || return 1
	jq -e '.groups[0].largest | .id == "host_block_layer" and .lad == null and
		.largest_lad == false' "$JSON" > /dev/null ||
		{ echo "largest: $(jq -c '.groups[0].largest' "$JSON")"; return 1; }
	near "$(jq '.groups[0].largest.delta_us' "$JSON")" 39.6 0.8 &&
		near "$(jq '.groups[0].largest.share' "$JSON")" 0.8 0.02 || return 1
	grep -q '^  largest change: host block layer, +39\.[0-9][0-9] us (LAD n/a)$' "$OUT" &&
		grep -qE '^  answer: 1\.4[0-9]x slower end to end \(116\.[0-9]+ -> 16[0-9]\.[0-9]+ us, \+49\.[0-9]+ us\): host block layer \+39\.[0-9]+ us \(80 % of the growth, 0\.40 us at the baseline: n/a\), storage \(target block layer, drive\) \+(9|10)\.[0-9]+ us \(20 %, LAD 1\.1[0-9]\); every other stage within 1 %$' "$OUT" ||
		{ echo "not the answer"; return 1; }
	# The same answer in every form.
	[ "$(jq -r '.answer' "$JSON")" = "$(sed -n 's/^  answer: //p' "$OUT")" ]
}
ktap_check "a stage under 0.5 us that grew by 40 us is the largest change, named first; the shares add up" t_na_stage

# A faster run: where the time was saved, the largest saving first.
t_saving() {
	cmp blk base || return 1
	shares_sum || return 1
	grep -qE '^  answer: 1\.4[0-9]x faster end to end .*: host block layer -39\.[0-9]+ us \(80 % of the saving, LAD 0\.01\), storage \(target block layer, drive\) -(9|10)\.[0-9]+ us \(20 %, LAD 0\.[89][0-9]\); every other stage within 1 %$' "$OUT" ||
		{ grep answer "$OUT"; return 1; }
}
ktap_check "a faster run: the saving placed, the largest first" t_saving

# The busy-drive use case over RDMA, at queue depth 1.
busy="-t rdma -q 1 -d 1 --host-blk-us 0.49 --target-blk-us 0.6"
# shellcheck disable=SC2086 # the options, split
gen quiet $busy --host-drv-us 1.24 --network-us 10.02 --target-drv-us 1.06 \
	--storage-us 60.1 --seed 53
# shellcheck disable=SC2086
gen busy $busy --host-drv-us 1.28 --network-us 10.08 --target-drv-us 1.09 \
	--storage-us 160.33 --seed 54

t_detail() {
	cmp --detail quiet busy || return 1
	cat "$OUT"
	# The stage table as the use case's, then the components'.
	grep -qE '^  storage \(target block layer, drive\) +60\.[0-9]+ +160\.[0-9]+ +2\.6[0-9]$' "$OUT" &&
		grep -qE '^  storage: drive +59\.[0-9]+ +159\.[0-9]+ +2\.[67][0-9]$' "$OUT" &&
		grep -qE '^  storage: target block layer +0\.60 +0\.60 +1\.0[0-9]$' "$OUT" &&
		grep -qE '^    handoff to nvme_complete_rq ' "$OUT" &&
		grep -q '^  largest LAD: storage (target block layer, drive), 2\.6[0-9]$' "$OUT" &&
		grep -qE '; within it, storage: drive \+100\.[0-9]+ us \(59\.[0-9]+ -> 159\.[0-9]+ us, LAD 2\.[67][0-9]\), storage: target block layer \+0\.00 us \(0\.60 -> 0\.60 us, LAD 1\.00\)$' "$OUT" ||
		{ echo "not the busy drive's tables and answer"; return 1; }
	jq -e '.groups[0] | .largest.id == "storage" and .largest.largest_lad and
		.largest_component.id == "storage_drive" and
		(.components[] | select(.id == "storage_drive") |
			.stage == "storage" and .lad > 2.6 and .lad < 2.8) and
		(.components[] | select(.id == "storage_target_block_layer") |
			.base_us > 0.55 and .load_us < 0.65)' "$JSON" > /dev/null ||
		{ echo "not in the JSON"; return 1; }
	"$NTPROF" compare --html "$TMP/d.html" --detail "$(run quiet)" "$(run busy)" > /dev/null &&
		grep -q '<tr class="largest"><td><span[^>]*>[^<]*</span> storage: drive</td><td>59\.[0-9]*</td><td>159\.[0-9]*</td><td>2\.[67][0-9]</td></tr>' "$TMP/d.html" ||
		{ echo "not in the HTML"; return 1; }
	# Without --detail, none of it.
	cmp quiet busy && ! grep -q 'storage: drive' "$OUT" &&
		jq -e '.groups[0] | has("components") | not' "$JSON" > /dev/null
}
ktap_check "compare --detail: the drive grew, not the target's block layer, in text, JSON and HTML" t_detail

# A host's recording alone against a joined run: the growth is in the
# network and target, which one of them did not record.
gen slow --host-blk-us 0.4 --storage-us 180 --seed 55
t_common_ground() {
	local pair

	for pair in "base slow-h" "base-h slow"; do
		# shellcheck disable=SC2086 # BASE LOAD
		cmp $pair || return 1
		cat "$OUT"
		shares_sum || return 1
		grep -q "^  (one run has the target's side and the other not: compared on their common ground, the network and the target as one stage)$" "$OUT" &&
			grep -qE '^  network and target +10[0-9]\.[0-9]+ +20[0-9]\.[0-9]+ +1\.9[0-9]$' "$OUT" &&
			grep -qE '^  host receive path +4\.[0-9]+ +4\.[0-9]+ ' "$OUT" &&
			grep -qE '^  answer: 1\.[0-9]+x slower end to end .*: network and target \+(99|100)\.[0-9]+ us \(100 % of the growth, LAD 1\.9[0-9]\); every other stage within 1 %' "$OUT" ||
			{ echo "$pair: not on the common ground"; return 1; }
		jq -e '.groups[0] | .common_ground and .largest.id == "network_and_target" and
			([.stages[].id] == ["host_block_layer", "host_driver",
				"network_host_receive_path", "network_and_target", "end_to_end"])' \
			"$JSON" > /dev/null || { echo "$pair: JSON"; return 1; }
	done
}
ktap_check "a joined run against a host-only one: compared on the common ground, the growth in the network and target" t_common_ground

# TCP on nvme1n1 against RDMA on nvme2n1 (another controller): each op and
# size once in each run, so they pair by op and size.
gen tcp --read-pct 60 --large-pct 30 --network-us 40 --host-drv-us 8 \
	--target-drv-us 12 --seed 56
"$NTPGEN" --quiet -n "$N" --read-pct 60 --large-pct 30 -t rdma --network-us 10 \
	--host-drv-us 2 --target-drv-us 3 --host-dev nvme2n1 --seed 57 \
	"$TMP/rdma-h.ntp" "$TMP/rdma-t.ntp" || { echo "Bail out! ntpgen failed"; exit 1; }
t_transports() {
	cmp tcp rdma || return 1
	cat "$OUT"
	shares_sum || return 1
	[ "$(grep -c '^== .* nvme1n1 -> nvme2n1: baseline' "$OUT")" = 4 ] &&
		[ "$(grep -c '^  (paired by op and size: nvme1n1 in the base run, nvme2n1 in the loaded)$' "$OUT")" = 4 ] &&
		[ "$(grep -c '^  host driver (nvme-tcp -> nvme-rdma) ' "$OUT")" = 4 ] &&
		[ "$(grep -c '^  network (TCP/IP -> RDMA, NICs, wire) ' "$OUT")" = 4 ] &&
		[ "$(grep -c '^  target driver (nvmet-tcp -> nvmet-rdma) ' "$OUT")" = 4 ] &&
		grep -qE '^  answer: 1\.[0-9]+x faster end to end .*: network \(TCP/IP -> RDMA, NICs, wire\) -30\.[0-9]+ us \(6[0-9] % of the saving, LAD 0\.2[0-9]\), target driver \(nvmet-tcp -> nvmet-rdma\) -9\.[0-9]+ us' "$OUT" ||
		{ echo "not paired and named by transport"; return 1; }
	jq -e '(.groups | length == 4) and all(.groups[];
		.matched_by == ["op", "size"] and .device == "nvme1n1" and
		.load_device == "nvme2n1" and .base_transport == "tcp" and
		.load_transport == "rdma" and .largest.id == "network" and
		(.stages[] | select(.id == "host_driver") |
			.base_name == "host driver (nvme-tcp)" and
			.load_name == "host driver (nvme-rdma)"))' "$JSON" > /dev/null ||
		{ echo "not in the JSON"; return 1; }
	# --match op,size says it; op,size,dev finds nothing in common.
	cmp --match op,size tcp rdma &&
		[ "$(grep -c '^== .* nvme1n1 -> nvme2n1: baseline' "$OUT")" = 4 ] || return 1
	"$NTPROF" compare --match op,size,dev "$(run tcp)" "$(run rdma)" > "$OUT"
	[ $? = 1 ] && grep -q '^no group of commands (op, size, device) is in both runs' "$OUT" &&
		[ "$(grep -c 'only in the' "$OUT")" = 8 ]
}
ktap_check "TCP against RDMA on another controller: paired by op and size, each run's transport in its names, the saving placed" t_transports

# The same device name over both transports: each run named for its own.
gen rdma1 -t rdma --network-us 10 --seed 58
t_same_name() {
	cmp base rdma1 || return 1
	grep -q '^  host driver (nvme-tcp -> nvme-rdma) ' "$OUT" &&
		grep -q '^  (the base run over tcp, the loaded over rdma: each run.s stages are named for its own)$' "$OUT" &&
		! grep -q 'paired by' "$OUT"
}
ktap_check "TCP against RDMA on one device name: each run's stages named for its own transport" t_same_name

# --match: bad parts, and two groups of one op and size in a run.
t_match_errors() {
	local err=$TMP/err

	"$NTPROF" compare --match op,queue "$(run base)" "$(run blk)" > "$OUT" 2> "$err"
	[ $? = 1 ] && [ ! -s "$OUT" ] &&
		grep -q "^ntprof: compare: --match takes op, size and dev, comma-separated, not 'op,queue'$" "$err" ||
		{ cat "$err"; return 1; }
	"$NTPROF" compare --match op,size "$TMP/tcp-h.ntp,$TMP/rdma-h.ntp" "$(run blk)" > "$OUT" 2> "$err"
	[ $? = 1 ] && [ ! -s "$OUT" ] && [ "$(wc -l < "$err")" = 1 ] &&
		grep -q '^ntprof: compare: --match: the base run has more than one group of read 4KiB; match by more parts$' "$err" ||
		{ cat "$OUT" "$err"; return 1; }
}
ktap_check "--match: an unknown part, or two groups of one key in a run: one line, exit 1" t_match_errors

ktap_finished
