# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The checks of report_delays/test.sh, on the machine that ran the lab,
# after the guests: sourced by lab_check with the runs' shares as its
# arguments. The guest scripts report-host.sh and report-target.sh left,
# per step PHASE-TRANSPORT: STEP-host.ntp, STEP-target.ntp and
# STEP-fio.json (fio's psync 4 KiB random reads at queue depth 1).
#
# Per step, ntprof report --json host.ntp target.ntp:
#   - matches every host record, and the host recorded each of fio's reads;
#   - the stage means add up to the end to end mean;
#   - the end to end mean is below fio's mean clat, and within 2 % of it
#     for reads of 75 ms and more (the delayed phases): under TCG clat
#     holds 0.5 to 1.5 ms per read outside the block layer (the system
#     call, the wakeup: the host's guest shows what a local null_blk
#     read takes besides the drive).
# Per pair of steps, ntprof compare --json BASE LOAD, against what the
# lab put in:
#   netem vs base  the network grows by what netem added, within 5 % (a
#                  read's command crosses the host's delayed egress once;
#                  netem adds REPORT_NETEM_US and its timer's lateness,
#                  measured by the growth of ping's round trip);
#   slow vs base   storage grows by REPORT_DRIVE_DELAY_US, within 5 %;
#   busy vs slow   storage grows by at least half REPORT_DRIVE_DELAY_US;
# the other stages move by less than 5 % of what was put in (busy: of
# storage's growth), compare names the stage as the largest, and its
# numbers are the reports'.
# Every --json above, and report's views in JSON, validate against their
# schemas, Documentation/schemas (selftests/json-check.py, here: the
# guests need no python3-jsonschema).

ntprof=$TOP_DIR/tools/ntprof/ntprof
shares=("$@")
# The share of the time that tasks of this machine waited for a CPU while
# the guests ran (the test's PSI reading): above REPORT_MAX_CPU_PRESSURE
# %, other work took the guests' CPUs for milliseconds at a time, and
# each stage's mean holds those waits, so the checks of the delays' sizes
# are skipped, saying so (their numbers are still shown).
pressure=${REPORT_CPU_PRESSURE:-0}
max_pressure=${REPORT_MAX_CPU_PRESSURE:-25}

# timed OK DESC: the verdict of a check that measures time.
timed() {
	if [ "$pressure" -gt "$max_pressure" ]; then
		ktap_skip "$2" "this machine was busy: tasks waited for a CPU $pressure % of the time"
	elif [ "$1" -eq 0 ]; then
		ktap_pass "$2"
	else
		ktap_fail "$2"
	fi
}
work=$(mktemp -d)
netem=${REPORT_NETEM_US:-10000}
drive=${REPORT_DRIVE_DELAY_US:-10000}

# step_file STEP SUFFIX: the step's file, from whichever run has it.
step_file() {
	local s

	for s in "${shares[@]}"; do
		[ -f "$s/$1-$2" ] && { echo "$s/$1-$2"; return 0; }
	done
	return 1
}

# The one group of the report or compare in $1: fio's 4 KiB reads.
READS='[.groups[] | select(.op == "read" and .size == 4096)]'

# num FILE FILTER: a number out of a JSON file, or nothing.
num() {
	jq -er "$2 | numbers" "$1" 2>/dev/null
}

# check_report STEP: the report of one step against fio.
check_report() {
	local step=$1 host target fio json n_host matched n_fio e2e clat sum sys

	if ! host=$(step_file "$step" host.ntp) ||
	   ! target=$(step_file "$step" target.ntp) ||
	   ! fio=$(step_file "$step" fio.json); then
		ktap_fail "$step: the guests left the recordings and fio's output"
		return 1
	fi
	json=$work/$step.json
	if ! "$ntprof" report --json "$host" "$target" > "$json" 2> "$work/err" ||
	   [ "$(jq -r ".schema, ($READS | length), ${READS}[0].kind" "$json" | tr '\n' ' ')" != \
	     "ntprof-report/1 1 joined " ]; then
		ktap_fail "$step: report --json: one joined group of 4 KiB reads"
		sed 's/^/# /' "$work/err"
		return 1
	fi
	n_host=$(num "$json" .records.sampled)
	matched=$(num "$json" .records.matched)
	n_fio=$(num "$fio" '.jobs[0].read.total_ios')
	if [ -n "$n_host" ] && [ "$n_host" -gt 0 ] && [ "$n_fio" = "$n_host" ]; then
		ktap_pass "$step: the host recorded each of fio's $n_fio reads once"
	else
		ktap_fail "$step: the host recorded each of fio's reads once" \
			"(host ${n_host:-?}, fio ${n_fio:-?})"
	fi
	if [ -n "$matched" ] && [ -n "$n_host" ] && [ "$n_host" -gt 0 ] &&
	   [ "$matched" = "$n_host" ]; then
		ktap_pass "$step: report matches every host record ($matched of $n_host)"
	else
		ktap_fail "$step: report matches every host record" \
			"(${matched:-?} of ${n_host:-?})"
	fi

	e2e=$(num "$json" "${READS}[0].latency_us.mean")
	sum=$(num "$json" "${READS}[0].stages | map(.mean_us) | add")
	if awk -v e="$e2e" -v s="$sum" 'BEGIN {
		d = s - e; if (d < 0) d = -d; exit !(e > 0 && d <= 0.001 * e) }'; then
		ktap_pass "$step: the stage means add up to the end to end mean ($e2e us)"
	else
		ktap_fail "$step: the stage means add up to the end to end mean" \
			"(${sum:-?} us vs ${e2e:-?} us)"
	fi

	# The same recordings as CSV: a row per host record, each joined,
	# whose mean end to end (of the 4 KiB reads) is the report's.
	if "$ntprof" report --csv - "$host" "$target" > "$work/$step.csv" &&
	   awk -F, -v n="$n_host" -v e="$e2e" 'NR == 1 {
		for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["target_file"] != "" { j++ }
		$col["opcode"] == 2 && $col["length"] == 4096 { k++; s += $col["end_to_end_ns"] }
		END { d = s / k / 1000 - e; if (d < 0) d = -d
		      exit !(NR - 1 == n && j == n && d <= 0.01) }' "$work/$step.csv"; then
		ktap_pass "$step: report --csv has a joined row per host record, the report's mean"
	else
		ktap_fail "$step: report --csv has a joined row per host record, the report's mean"
	fi

	# The other views, on the same real recordings: they run, and hold
	# what they are for.
	if "$ntprof" report --tail --hist --timeline 1 "$host" "$target" \
		> "$work/$step.views" 2>&1 &&
	   grep -qE '^== read 4KiB .*: the ([0-9]+ commands|command) above p99 ' "$work/$step.views" &&
	   grep -q '^  the tail grows most in ' "$work/$step.views" &&
	   grep -qE '^ +usecs : count +distribution$' "$work/$step.views" &&
	   grep -qE '^== read 4KiB .*, every 1 s$' "$work/$step.views" &&
	   "$ntprof" report --by queue "$host" "$target" > "$work/$step.by" 2>&1 &&
	   grep -q '^== queue [0-9]*: ' "$work/$step.by"; then
		ktap_pass "$step: report --tail, --hist, --timeline and --by queue on the lab's recordings"
	else
		ktap_fail "$step: report --tail, --hist, --timeline and --by queue on the lab's recordings"
		sed 's/^/# /' "$work/$step.views" "$work/$step.by" 2>/dev/null | head -40
	fi
	# And in JSON, for the schema checks at the end.
	if ! "$ntprof" report --json --tail --hist=network_wire --timeline 1 \
		"$host" "$target" > "$work/$step-views.json" 2> "$work/err" ||
	   ! "$ntprof" report --json --by queue,cpu,ccpu "$host" "$target" \
		> "$work/$step-by.json" 2>> "$work/err"; then
		ktap_fail "$step: report --json with --tail, --hist, --timeline, --by"
		sed 's/^/# /' "$work/err"
	fi

	# psync's clat is the whole pread(): the end to end, and the system
	# call's entry and exit and the wakeup besides. Those take tens of
	# microseconds on hardware and hundreds under TCG, where the host's
	# guest measures them on a local null_blk of 100 us (sys, below).
	clat=$(num "$fio" '.jobs[0].read.clat_ns.mean / 1000')
	sys=$(num "$(step_file local fio.json)" '.jobs[0].read.clat_ns.mean / 1000 - 100')
	ktap_diag "$(awk -v s="$step" -v e="$e2e" -v c="$clat" -v y="${sys:-}" 'BEGIN {
		printf "%s: end to end %.1f us, fio clat %.1f us: %+.1f us, %+.2f %%", \
			s, e, c, e - c, 100 * (e - c) / c
		if (y != "")
			printf "; system call and wakeup (local null_blk) %.1f us", y }')"
	if awk -v e="$e2e" -v c="$clat" 'BEGIN { exit !(c > 0 && e > 0 && e <= c) }'; then
		ktap_pass "$step: the end to end mean is below fio's clat mean"
	else
		ktap_fail "$step: the end to end mean is below fio's clat mean"
	fi
	# Under TCG, clat holds 0.5 to 1.5 ms per read outside the block
	# layer, where ntprof's end to end starts and ends (the system call,
	# multipath's bio path, the wakeup; a local null_blk accounts for only
	# some 200 us of it): within 2 % only for reads of 75 ms and more,
	# the delayed phases'; 15 to 25 % of a base read.
	if awk -v c="$clat" 'BEGIN { exit !(c >= 75000) }'; then
		awk -v e="$e2e" -v c="$clat" 'BEGIN {
			d = e - c; if (d < 0) d = -d; exit !(d <= 0.02 * c) }'
		timed $? "$step: the end to end mean is within 2 % of fio's clat mean"
	else
		ktap_skip "$step: the end to end mean is within 2 % of fio's clat mean" \
			"$(awk -v c="$clat" 'BEGIN { printf "a read of %.0f us: under TCG, clat holds 0.5 to 1.5 ms outside the block layer", c }')"
	fi
}

# check_schemas: each JSON of ntprof's in $work against the schema its
# "schema" member names, a line per schema.
check_schemas() {
	local f name files out

	for name in ntprof-report/1 ntprof-compare/2; do
		files=()
		for f in "$work"/*.json; do
			[ "$(jq -r '.schema?' "$f" 2>/dev/null)" = "$name" ] && files+=("$f")
		done
		if [ ${#files[@]} -eq 0 ]; then
			ktap_skip "the JSON of $name validates against its schema" "no such JSON"
		elif out=$(python3 "$TOP_DIR/selftests/json-check.py" \
			   "$TOP_DIR/Documentation/schemas/${name//\//-}.json" "${files[@]}" 2>&1); then
			ktap_pass "the JSON of $name validates against its schema (${#files[@]} files)"
		else
			ktap_fail "the JSON of $name validates against its schema"
			printf '%s\n' "$out" | head -n 20 | sed "s|$work/||; s/^/# /"
		fi
	done
}

# stage_table FILE: compare's stages, one diagnostic line each.
stage_table() {
	jq -r "${READS}[0].stages[] |
		\"\\(.id) \\(.base_us) \\(.load_us) \\(.delta_us) \\(.lad)\"" "$1" |
		awk '{ printf "#   %-18s %10.1f -> %10.1f us  %+10.1f us  LAD %s\n",
			$1, $2, $3, $4, $5 }'
}

# check_compare BASE LOAD STAGE DELAY WHAT [TOL [MIN]]: LOAD against BASE,
# where STAGE was made DELAY us slower: it grew by DELAY within TOL %
# (default 5); DELAY 0: by at least MIN us. The other stages move by less
# than 5 % of DELAY, or of STAGE's growth.
check_compare() {
	local base=$1 load=$2 stage=$3 delay=$4 what=$5 tol=${6:-5} min=${7:-0}
	local json
	local pair="$base -> $load" b l grown limit others largest s

	json=$work/$base-$load.json
	for s in "$base" "$load"; do
		[ -f "$work/$s.json" ] || { ktap_skip "$pair: compare" "no report of $s"; return; }
	done
	b="$(step_file "$base" host.ntp),$(step_file "$base" target.ntp)"
	l="$(step_file "$load" host.ntp),$(step_file "$load" target.ntp)"
	if ! "$ntprof" compare --json "$b" "$l" > "$json" 2> "$work/err" ||
	   [ "$(jq -r ".schema, ($READS | length)" "$json" | tr '\n' ' ')" != "ntprof-compare/2 1 " ]; then
		ktap_fail "$pair: compare --json pairs the 4 KiB reads of both runs"
		sed 's/^/# /' "$work/err"
		return
	fi
	ktap_diag "$pair ($what): stage, base -> load, difference, LAD"
	stage_table "$json"
	ktap_diag "$(jq -rn --slurpfile b "$work/$base.json" --slurpfile l "$work/$load.json" "
		(\$b[0] | ${READS}[0].latency_us.p50) as \$x |
		(\$l[0] | ${READS}[0].latency_us.p50) as \$y |
		\"  median end to end \(\$x) -> \(\$y) us (\(\$y - \$x | floor) us)\"")"

	# Its numbers are the reports'.
	if jq -ne --slurpfile c "$json" --slurpfile b "$work/$base.json" \
		--slurpfile l "$work/$load.json" "
		def reads: ${READS}[0];
		def stages(f): f | reads | .stages | map({(.id): .mean_us}) | add;
		(\$c[0] | reads | .stages | map(select(.id != \"end_to_end\"))) as \$cs |
		(\$cs | length) == (stages(\$b[0]) | length) and
		all(\$cs[]; .base_us == stages(\$b[0])[.id] and .load_us == stages(\$l[0])[.id])
		" > /dev/null; then
		ktap_pass "$pair: compare's stage means are the reports'"
	else
		ktap_fail "$pair: compare's stage means are the reports'"
	fi

	grown=$(num "$json" "${READS}[0].stages[] | select(.id == \"$stage\") | .delta_us")
	if [ "$delay" -gt 0 ]; then
		awk -v g="$grown" -v d="$delay" -v t="$tol" 'BEGIN {
			e = g - d; if (e < 0) e = -e; exit !(g != "" && e <= t / 100 * d) }'
		timed $? "$pair: $stage grows by $delay us within $tol % (${grown:-?} us)"
		limit=$(awk -v d="$delay" 'BEGIN { print 0.05 * d }')
	else
		awk -v g="$grown" -v m="$min" 'BEGIN { exit !(g != "" && g >= m) }'
		timed $? "$pair: $stage grows by at least $min us (${grown:-?} us)"
		limit=$(awk -v g="${grown:-0}" 'BEGIN { print 0.05 * (g > 0 ? g : 0) }')
	fi
	others=$(jq -r --arg s "$stage" --argjson lim "$limit" "${READS}[0].stages[] |
		select(.id != \$s and .id != \"end_to_end\") |
		select(.delta_us > \$lim or .delta_us < -\$lim) |
		\"\\(.id) \\(.delta_us)\"" "$json" | tr '\n' ' ')
	[ -z "$others" ]
	timed $? "$pair: every other stage moves by less than $limit us${others:+ ($others)}"
	largest=$(jq -r "${READS}[0].largest.id" "$json")
	[ "$largest" = "$stage" ]
	timed $? "$pair: compare names $stage as the largest LAD (it names $largest)"
	jq -r '.answer' "$json" | sed 's/^/#   /'
}

if ! command -v jq > /dev/null; then
	ktap_fail "jq is installed (selftests/lab/install-deps.sh)"
else
	for t in tcp rdma; do
		for p in base netem slow busy; do
			check_report "$p-$t"
		done
		# What netem really added, by ping: its round trip with netem
		# less without (netem's timer fires up to 1 ms late here).
		added=$netem
		if b=$(step_file "base-$t" ping) && l=$(step_file "netem-$t" ping); then
			read -r b < "$b"
			read -r l < "$l"
			added=$((l - b))
			ktap_diag "netem-$t: ping's round trip $b -> $l us: netem added $added us for $netem"
		fi
		check_compare "base-$t" "netem-$t" network "$added" \
			"the host's egress delayed by $netem us, $added us by ping"
		check_compare "base-$t" "slow-$t" storage "$drive" "the drive $drive us slower"
		check_compare "slow-$t" "busy-$t" storage 0 "a writer on the drive" 0 $((drive / 2))
		f=$(step_file "busy-$t" writer.json) &&
			ktap_diag "busy-$t: the writer's $(jq -r '.jobs[0].write |
				"\(.iops | floor) writes/s, mean \(.lat_ns.mean / 1000 | floor) us"' "$f")"
	done
	if python3 -c 'from jsonschema import Draft202012Validator' 2> /dev/null; then
		check_schemas
	else
		ktap_fail "python3-jsonschema is installed (selftests/lab/install-deps.sh)"
	fi
fi
rm -rf "$work"
