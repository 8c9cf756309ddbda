#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 'ntprof report --stream' (a join in one pass, in bounded memory) against
# 'ntprof report --load' (every record in memory, the reference): on every
# ntpgen case, with chunks of a few thousand records so that every case
# has chunk boundaries, each view must be the same, byte for byte, but for
# the clock summary (--detail's "clocks:" line, JSON's pairs, windows and
# theta): the streamed join estimates theta per chunk, from the commands
# unique within it rather than within the whole run. The same over the parts of
# a rotated recording, and for one side alone. A streamed run links no
# aborted try to its retry (Documentation/stages.rst, The outage stage):
# the loaded reference is made without the links too
# (NTPROF_NO_OUTAGE_LINK), and the notes' outage line, which says which,
# is left out of the comparison.
#
# usage: test_stream.sh
# Prints TAP; exits 1 if any test failed.

# shellcheck source=selftests/unit/split_env.sh disable=SC1091
. "$(dirname "${BASH_SOURCE[0]}")/split_env.sh"
VIEWS=("-D" "--json" "--csv -" "--tail" "--by queue" "--timeline 0.005"
       "--hist" "--by op,cpu --tail=90 --json")

# clockless FILE: FILE without the streamed join's own clock summary
# and the notes' outage line.
clockless() {
	grep -v -e '^clocks: ' -e '^outage: ' -e '"outage: ' -e '"windows": ' \
		-e '"pairs": ' -e '"theta_ns": ' \
		-e '"theta_min_ns": ' -e '"theta_max_ns": ' "$1"
}

# same_views NAME FILES...: every view of FILES, streamed in chunks of
# 997 host records, as loaded.
same_views() {
	local name=$1 v d
	shift
	for v in "${VIEWS[@]}"; do
		# shellcheck disable=SC2086
		NTPROF_NO_OUTAGE_LINK=1 "$NTPROF" report --load $v "$@" \
			> "$TMP/load" 2>&1
		# shellcheck disable=SC2086
		NTPROF_STREAM_CHUNK=997 "$NTPROF" report --stream $v "$@" \
			> "$TMP/stream" 2>&1
		d=$(diff <(clockless "$TMP/load") <(clockless "$TMP/stream"))
		if [ -n "$d" ] || [ ! -s "$TMP/load" ]; then
			ktap_diag "$name: report $v differs:"
			ktap_diag "$(head -20 <<< "$d")"
			return 1
		fi
	done
}

# t_case NAME ARGS...: ntpgen ARGS; every view streamed as loaded.
t_case() {
	local name=$1
	shift
	if ! "$NTPGEN" --quiet -n 20000 "$@" "$H" "$T"; then
		ktap_fail "$name: cannot generate"
		return
	fi
	if same_views "$name" "$H" "$T"; then
		ktap_pass "$name: streamed, every view as loaded"
	else
		ktap_fail "$name: streamed, every view as loaded"
	fi
}

ntpgen_cases t_case

t_parts() {
	"$NTPGEN" --quiet -n 20000 --drift 50 --seed 13 "$H" "$T" &&
		mkdir -p "$TMP/parts" &&
		"$SPLIT" "$H" "$TMP/parts/host" 3001 &&
		"$SPLIT" "$T" "$TMP/parts/target" 2999 || return 1
	same_views "parts" "$TMP/parts"
}
ktap_check "the parts of a rotated recording: streamed as loaded" t_parts

t_reordered() {
	# Records out of time order within runs of 2,000 (2 ms of the
	# workload), as drains of per-CPU buffers leave them; and clocks
	# that drift.
	"$NTPGEN" --quiet -n 20000 --drift 200 --seed 18 "$H" "$T" &&
		mkdir -p "$TMP/shuf" &&
		"$SPLIT" "$H" "$TMP/shuf/host" 1000000 0 2000 &&
		"$SPLIT" "$T" "$TMP/shuf/target" 1000000 0 1500 || return 1
	same_views "reordered" "$TMP/shuf"
}
ktap_check "records out of time order within 2 ms, drifting clocks: streamed as loaded" t_reordered

t_one_side() {
	"$NTPGEN" --quiet -n 20000 --seed 14 "$H" "$T" || return 1
	same_views "host alone" "$H" && same_views "target alone" "$T"
}
ktap_check "one side alone: streamed as loaded" t_one_side

t_memory() {
	# 400,000 + 400,000 records (186 MB of files): streamed in the
	# default chunks, the peak RSS stays far below the files' size.
	local kb
	"$NTPGEN" --quiet -n 400000 --seed 15 "$H" "$T" || return 1
	/usr/bin/time -f %M -o "$TMP/rss" "$NTPROF" report --stream "$H" "$T" \
		> "$TMP/stream" || return 1
	kb=$(cat "$TMP/rss")
	"$NTPROF" report --load "$H" "$T" > "$TMP/load" &&
		diff <(clockless "$TMP/load") <(clockless "$TMP/stream") &&
		[ "$kb" -lt 150000 ] || { ktap_diag "peak RSS $kb KiB"; return 1; }
}
if [ -x /usr/bin/time ]; then
	ktap_check "400 k + 400 k records streamed in less than 150 MB, as loaded" t_memory
else
	ktap_skip "400 k + 400 k records streamed: no /usr/bin/time"
fi

t_auto() {
	# Several hosts with a target: loaded, whatever is asked.
	"$NTPGEN" --quiet -n 2000 --seed 16 "$H" "$T" &&
		"$NTPGEN" --quiet -n 2000 --seed 17 "$TMP/h2.ntp" "$TMP/t2.ntp" ||
		return 1
	"$NTPROF" report --stream "$H" "$TMP/h2.ntp" "$T" > "$TMP/stream" &&
		"$NTPROF" report "$H" "$TMP/h2.ntp" "$T" > "$TMP/load" &&
		cmp -s "$TMP/stream" "$TMP/load"
}
ktap_check "two hosts and a target: loaded (the join of each pair), as without --stream" t_auto

ktap_finished
