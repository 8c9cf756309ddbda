# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The checks of chain/test.sh, on the machine that ran the lab, after
# the guests: sourced by lab_check with the run's share as its argument.
# The guest scripts chain-*.sh left, per phase PHASE (s1, s100: -s 1 and
# -s 100, every machine with the chain rule): PHASE-host.ntp,
# PHASE-middle-target.ntp, PHASE-middle-host.ntp, PHASE-replica.ntp,
# fio's PHASE-fio-RW-QD.json, and the middle's block layer counters of
# md and of each leg's path disk over its recordings' span
# (PHASE-stat-DISK.0 and .1); md-offset (md's data offset in the legs'
# LBAs) and legs ("fast|slow HEAD PATHDISK MAJ:MIN").
#
# Per phase:
#   - each hop joins: the host's records with the middle's target
#     records, the middle's host records with the replica's, >= 99 %;
#   - the chain rule's samples agree across the three machines, counted
#     by (op, LBA in the volume's coordinates, length) alone, without the
#     report's link rule: >= 99 % of the host's commands have their
#     downstream records on the middle (one for a read, one on each leg
#     for a write), each joined to a replica record; and >= 95 % of the
#     middle's reads and writes are a host command's;
#   - the report of all four recordings follows >= 99 % of the host's
#     commands to their leaf, its hops' stages add up to each group's end
#     to end, and its legs are what the lab built: the slow leg's storage
#     is the fast one's and its null_blk's delay, it is the critical leg
#     of most writes (not of all: under TCG each leg's network varies by
#     more than the delay), and the critical leg of >= 99 % of the writes
#     of a unique LBA is the one the middle's own records say completed
#     last; at -s 1,
#     md0's counters count the chain's reads and writes, the reads of
#     each leg are those of its path disk's counters, and each leg has
#     every write;
#   - the report's JSON validates against its schema.
# At -s 1: the host recorded each of fio's commands once, and the end to
# end mean of the queue depth 1 jobs lies within 5 % of fio's: no more
# than fio's lat mean (each command's end to end lies inside its lat:
# from inside io_submit() to the completion) and no less than 95 % of
# its clat mean (from io_submit()'s return). At queue depth 16 fio's clat
# holds the time a completed command waits for fio to reap it, which on
# the host's one TCG vCPU was 7 to 25 ms more than an end to end of 34 to
# 117 ms, so there only the lat bound is checked.

ntprof=$TOP_DIR/tools/ntprof/ntprof
share=$1
work=$(mktemp -d)
offset=$(cat "$share/md-offset" 2>/dev/null)
slow_ns=${CHAIN_SLOW_NS:-2000000}

# num FILE FILTER: a number out of a JSON file, or nothing.
num() {
	jq -er "$2 | numbers" "$1" 2>/dev/null
}

# ratio_ok A B MIN: A / B >= MIN, B > 0.
ratio_ok() {
	awk -v a="$1" -v b="$2" -v m="$3" 'BEGIN { exit !(b > 0 && a / b >= m) }'
}

# A leg's path disk's number as its records carry it (new_encode_dev),
# or its name, whose counters count its commands.
leg() {
	awk -v l="$1" -v f="$2" '$1 == l {
		if (f != "dev") { print $3; exit }
		for (i = 4; i <= NF; i++) {
			split($i, d, ":")
			printf "%s%d", (i > 4 ? "," : ""), d[2] % 256 + d[1] * 256 + int(d[2] / 256) * 1048576
		}
		print "" }' "$share/legs" 2>/dev/null
}
fast_dev=$(leg fast dev) slow_dev=$(leg slow dev)
fast_disk=$(leg fast disk) slow_disk=$(leg slow disk)
if [ -n "$offset" ] && [ -n "$fast_dev" ] && [ -n "$slow_dev" ]; then
	ktap_pass "the middle left md's data offset ($offset LBAs) and its legs"
else
	ktap_fail "the middle left md's data offset and its legs"
fi

# stat_delta PHASE DISK FIELD: DISK's counter FIELD (1 reads, 5 writes)
# over PHASE's recordings.
stat_delta() {
	paste "$share/$1-stat-$2.0" "$share/$1-stat-$2.1" 2>/dev/null |
		awk -v f="$3" '{ n = NF / 2; print $(n + f) - $(f) }'
}

# fio_sum PHASE RW QD KEY: fio's total_ios, or the mean of clat_ns or
# lat_ns in us, of one job.
fio_stat() {
	local side=read

	[ "$2" = randwrite ] && side="write"
	case "$4" in
	total_ios) num "$share/$1-fio-$2-$3.json" ".jobs[0].$side.total_ios" ;;
	*) num "$share/$1-fio-$2-$3.json" ".jobs[0].$side.$4.mean / 1000" ;;
	esac
}

# hop_join PHASE NAME HOST TARGET: a TAP line on the join of one hop, its
# CSV in $work/PHASE-NAME.csv.
hop_join() {
	local phase=$1 name=$2 host=$share/$1-$3.ntp target=$share/$1-$4.ntp json

	json=$work/$phase-$name.json
	if ! "$ntprof" report --json "$host" "$target" > "$json" 2> "$work/err" ||
	   ! "$ntprof" report --csv "$work/$phase-$name.csv" "$host" "$target" \
		> /dev/null 2>> "$work/err"; then
		ktap_fail "$phase: report of hop $name"
		sed 's/^/# /' "$work/err"
		return 1
	fi
	local n m
	n=$(num "$json" .records.sampled)
	m=$(num "$json" .records.matched)
	if ratio_ok "${m:-0}" "${n:-0}" 0.99; then
		ktap_pass "$phase: hop $name: $m of the $n $3 records joined (>= 99 %)"
	else
		ktap_fail "$phase: hop $name: ${m:-?} of the ${n:-?} $3 records joined (>= 99 %)"
	fi
}

# samples_agree PHASE: the chain rule's samples across the machines, by
# counting (op, volume LBA, length) in the two hops' CSV rows: a host
# command's key, joined on hop 1, needs as many keys downstream, joined
# on hop 2 (on each leg for a write).
samples_agree() {
	local phase=$1 r

	r=$(awk -F, -v off="$offset" -v fast="$fast_dev" -v slow="$slow_dev" '
		BEGIN {
			n = split(fast, a, ","); for (i = 1; i <= n; i++) leg[a[i]] = "f"
			n = split(slow, a, ","); for (i = 1; i <= n; i++) leg[a[i]] = "s"
		}
		FNR == 1 { f++; for (i = 1; i <= NF; i++) c[f, $i] = i; next }
		{ op = $(c[f, "opcode"]) }
		op != 1 && op != 2 { next }
		f == 1 {
			k = op " " $(c[f, "slba"]) " " $(c[f, "length"])
			host++
			if ($(c[f, "target_file"]) != "") up[k]++
			next
		}
		{
			k = op " " ($(c[f, "slba"]) - off) " " $(c[f, "length"])
			down++
			if ($(c[f, "target_file"]) == "") next
			if (leg[$(c[f, "dev"])] == "f") df[k]++
			else if (leg[$(c[f, "dev"])] == "s") ds[k]++
			all[k]++
		}
		END {
			for (k in up) {
				split(k, a, " ")
				d = a[1] == 2 ? df[k] + ds[k] : (df[k] < ds[k] ? df[k] : ds[k])
				followed += d < up[k] ? d : up[k]
			}
			for (k in all)
				if (!(k in up))
					others += all[k]
			printf "%d %d %d %d\n", host, followed, down, others
		}' "$work/$phase-hop1.csv" "$work/$phase-hop2.csv")
	# shellcheck disable=SC2086,SC2046 # the words of a line.
	set -- $r
	if ratio_ok "${2:-0}" "${1:-0}" 0.99; then
		ktap_pass "$phase: $2 of the host's $1 commands have their downstream records at the replica (>= 99 %)"
	else
		ktap_fail "$phase: ${2:-?} of the host's ${1:-?} commands have their downstream records at the replica (>= 99 %)"
	fi
	if [ -n "${3:-}" ] && [ "$3" -gt 0 ] && ratio_ok "$(( $3 - $4 ))" "$3" 0.95; then
		ktap_pass "$phase: $(( $3 - $4 )) of the middle's $3 downstream reads and writes are a host command's (>= 95 %)"
	else
		ktap_fail "$phase: of the middle's ${3:-?} downstream reads and writes, ${4:-?} are no host command's (<= 5 %)"
	fi
}

# lab_critical PHASE: "PAIRS SLOW AGREE": of the host's writes whose
# volume LBA is unique in the phase and that have one write on each leg,
# how many; in how many the slow leg's completed last (the middle's block
# layer completion of each, on its clock); and for how many the chain's
# CSV ($work/PHASE-chain.csv) names the same critical leg.
lab_critical() {
	awk -F, -v off="$offset" -v fast="$fast_dev" -v slow="$slow_dev" '
		BEGIN {
			n = split(fast, a, ","); for (i = 1; i <= n; i++) leg[a[i]] = "f"
			n = split(slow, a, ","); for (i = 1; i <= n; i++) leg[a[i]] = "s"
		}
		FNR == 1 { f++; for (i = 1; i <= NF; i++) c[f, $i] = i; next }
		$(c[f, "opcode"]) != 1 { next }
		f == 1 { up[$(c[f, "slba"]) " " $(c[f, "length"])]++; next }
		f == 3 {
			k = $(c[f, "slba"]) " " $(c[f, "length"])
			crit[k] = $(c[f, "critical_leg"]) ~ /nullb1/ ? "s" : "f"
			next
		}
		{
			k = ($(c[f, "slba"]) - off) " " $(c[f, "length"])
			l = leg[$(c[f, "dev"])]
			if (l == "") next
			cnt[k, l]++
			t[k, l] = $(c[f, "host_blk_complete_ns"])
		}
		END {
			for (k in up) {
				if (up[k] != 1 || cnt[k, "f"] != 1 || cnt[k, "s"] != 1)
					continue
				pairs++
				last = t[k, "s"] > t[k, "f"] ? "s" : "f"
				if (last == "s") slowlast++
				if (crit[k] == last) agree++
			}
			printf "%d %d %d\n", pairs, slowlast, agree
		}' "$work/$1-hop1.csv" "$work/$1-hop2.csv" "$work/$1-chain.csv"
}

# chain_report PHASE: the report of all four recordings (chains).
chain_report() {
	local phase=$1 json=$work/$1-chain.json origin followed out

	if ! "$ntprof" report --json "$share/$phase-host.ntp" \
		"$share/$phase-middle-target.ntp" "$share/$phase-middle-host.ntp" \
		"$share/$phase-replica.ntp" > "$json" 2> "$work/err" ||
	   ! "$ntprof" report --csv "$work/$phase-chain.csv" "$share/$phase-host.ntp" \
		"$share/$phase-middle-target.ntp" "$share/$phase-middle-host.ntp" \
		"$share/$phase-replica.ntp" > /dev/null 2>> "$work/err"; then
		ktap_fail "$phase: report --json of the chain's four recordings"
		sed 's/^/# /' "$work/err"
		return 1
	fi
	"$ntprof" report "$share/$phase-host.ntp" "$share/$phase-middle-target.ntp" \
		"$share/$phase-middle-host.ntp" "$share/$phase-replica.ntp" 2>&1 |
		sed -n '/^== chains/,$p' | sed 's/^/# /'
	if out=$(python3 "$TOP_DIR/selftests/json-check.py" \
		"$TOP_DIR/Documentation/schemas/ntprof-report-1.json" "$json" 2>&1); then
		ktap_pass "$phase: the chain's report --json validates against its schema"
	else
		ktap_fail "$phase: the chain's report --json validates against its schema"
		echo "$out" | head -5 | sed 's/^/# /'
	fi
	origin=$(num "$json" .chain.origin)
	followed=$(num "$json" .chain.followed)
	if ratio_ok "${followed:-0}" "${origin:-0}" 0.99; then
		ktap_pass "$phase: report follows $followed of the host's $origin commands to their leaf (>= 99 %)"
	else
		ktap_fail "$phase: report follows ${followed:-?} of the host's ${origin:-?} commands to their leaf (>= 99 %)"
		jq -r '.chain.notes[]?' "$json" 2>/dev/null | sed 's/^/# /'
	fi

	# Each chained group: two hops, host to middle to replica, whose
	# stages add up to its end to end.
	local bad
	bad=$(jq -r '.groups[] | select(.hops != null) |
		(.hops | map(.stages | map(.mean_us) | add) | add) as $sum |
		select((.hops | length) != 2 or
		       (.hops[0].machines | join(" ")) != "lab-host lab-middle" or
		       (.hops[1].machines | join(" ")) != "lab-middle lab-replica" or
		       ([.hops[0].stages[] | select(.id == "middle") | .name] != ["middle (md0)"]) or
		       ($sum - .latency_us.mean | fabs) > 0.001 * .latency_us.mean) |
		"\(.label): \(.hops | length) hops, \([.hops[].machines | join("->")] | join(", ")), stages \($sum) us, end to end \(.latency_us.mean) us"' \
		"$json" 2>&1)
	if [ -z "$bad" ] && [ "$(jq '[.groups[] | select(.hops != null)] | length' "$json")" -ge 2 ]; then
		ktap_pass "$phase: the reads' and writes' hops run host -> middle (md0) -> replica, their stages adding up to the end to end"
	else
		ktap_fail "$phase: the reads' and writes' hops run host -> middle (md0) -> replica, their stages adding up to the end to end"
		echo "$bad" | sed 's/^/# /'
	fi

	# The writes' legs. The slow leg's storage (its null_blk's time, on
	# the replica's clock) is the fast one's and the timer's delay, which
	# fires late, never early. The critical one, the leg that completed
	# last, is the slow one for most writes; not for every one, as each
	# leg's network varies under TCG by more than the delay (tens of
	# milliseconds with three guests on two busy CPUs). Which leg
	# completed last is also read here from the middle's own records,
	# pairing the two legs' writes by their volume LBA where that is
	# unique, without the report's link rule: both must agree.
	local w='[.groups[] | select(.hops != null and .op == "write")][0]'
	local slow_leg="$w.legs[] | select(.label | test(\"nullb1\"))"
	local fast_leg="$w.legs[] | select(.label | test(\"nullb0\"))"
	local crit n held fs ss pairs
	crit=$(num "$json" "$slow_leg | .critical")
	n=$(num "$json" "$w.n_followed")
	held=$(num "$json" "$slow_leg | .held_us")
	fs=$(num "$json" "$fast_leg | .stages[] | select(.id == \"storage\") | .mean_us")
	ss=$(num "$json" "$slow_leg | .stages[] | select(.id == \"storage\") | .mean_us")
	if awk -v f="${fs:-0}" -v s="${ss:-0}" -v d="$slow_ns" \
		'BEGIN { exit !(s > 0 && (s - f) * 1000 >= 0.95 * d) }'; then
		ktap_pass "$phase: the slow leg's storage is the fast one's and its delay ($ss us, $fs us; $((slow_ns / 1000)) us)"
	else
		ktap_fail "$phase: the slow leg's storage is the fast one's and its delay (${ss:-?} us, ${fs:-?} us; $((slow_ns / 1000)) us)"
	fi
	pairs=$(lab_critical "$phase")
	# shellcheck disable=SC2086,SC2046 # the words of a line.
	set -- $pairs
	ktap_diag "$phase: the slow leg completed last in ${2:-?} of the ${1:-?} writes whose LBA is unique; report: critical in ${crit:-?} of ${n:-?}, holding them by ${held:-?} us"
	if ratio_ok "${crit:-0}" "${n:-0}" 0.5; then
		ktap_pass "$phase: the slow leg is the critical one of most writes ($crit of $n)"
	else
		ktap_fail "$phase: the slow leg is the critical one of most writes (${crit:-?} of ${n:-?})"
		jq -c "$w.legs" "$json" 2>/dev/null | sed 's/^/# /'
	fi
	if ratio_ok "${3:-0}" "${1:-0}" 0.99; then
		ktap_pass "$phase: the report's critical leg is the one the middle's records say completed last ($3 of the $1 writes of a unique LBA)"
	else
		ktap_fail "$phase: the report's critical leg is the one the middle's records say completed last (${3:-?} of the ${1:-?} writes of a unique LBA)"
	fi
	[ "$phase" = s1 ] || return 0

	# md's own counters: a 4 KiB command of the host is one of md0's.
	local r='[.groups[] | select(.hops != null and .op == "read")][0]'
	local mr mw hr hw
	mr=$(stat_delta "$phase" md0 1)
	mw=$(stat_delta "$phase" md0 5)
	hr=$(num "$json" "$r.n")
	hw=$(num "$json" "$w.n")
	if [ -n "$mr" ] && [ "$mr" = "$hr" ] && [ "$mw" = "$hw" ]; then
		ktap_pass "$phase: md0 served the chain's $hr reads and $hw writes, as its counters say"
	else
		ktap_fail "$phase: md0 served the chain's ${hr:-?} reads and ${hw:-?} writes, as its counters say (${mr:-?}, ${mw:-?})"
	fi

	# Every command is recorded at -s 1: the reads of each leg are its
	# path disk's, and each leg has every write.
	local l want got writes ok=1 diag=
	writes=$(num "$json" "$w.n")
	for l in fast:nullb0:$fast_disk slow:nullb1:$slow_disk; do
		IFS=: read -r l nb disk <<< "$l"
		want=$(stat_delta "$phase" "$disk" 1)
		got=$(num "$json" "[$r.legs[] | select(.label | test(\"$nb\")) | .n] | add // 0")
		[ -n "$want" ] && [ "$got" = "$want" ] || ok=0
		n=$(num "$json" "$w.legs[] | select(.label | test(\"$nb\")) | .n")
		[ -n "$writes" ] && [ "$n" = "$writes" ] || ok=0
		diag="$diag $l: reads ${got:-?} (${disk:-?}: ${want:-?}), writes ${n:-?} of ${writes:-?};"
	done
	if [ $ok = 1 ]; then
		ktap_pass "$phase: the legs' reads are md's, as its legs' counters say, and each leg has every write:$diag"
	else
		ktap_fail "$phase: the legs' reads are md's, as its legs' counters say, and each leg has every write:$diag"
	fi
}

# fio_vs_e2e PHASE: the host recorded each of fio's commands, and its end
# to end means against fio's, per job: the host's commands of one op in
# time order are the jobs' in the order they ran.
fio_vs_e2e() {
	local phase=$1 rw qd n total=0 sampled e2e clat lat

	for rw in randread randwrite; do
		for qd in 1 16; do
			n=$(fio_stat "$phase" $rw $qd total_ios)
			total=$((total + ${n:-0}))
		done
	done
	sampled=$(num "$work/$phase-hop1.json" .records.sampled)
	if [ "$total" -gt 0 ] && [ "$sampled" = "$total" ]; then
		ktap_pass "$phase: the host recorded each of fio's $total commands once"
	else
		ktap_fail "$phase: the host recorded each of fio's $total commands once (${sampled:-?})"
		return 1
	fi
	for rw in randread randwrite; do
		local op=2 skip=0
		[ $rw = randwrite ] && op=1
		for qd in 1 16; do
			n=$(fio_stat "$phase" $rw $qd total_ios)
			clat=$(fio_stat "$phase" $rw $qd clat_ns)
			lat=$(fio_stat "$phase" $rw $qd lat_ns)
			e2e=$(awk -F, -v op=$op -v skip="$skip" -v n="$n" '
				NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
				$(c["opcode"]) == op {
					print $(c["host_blk_start_ns"]), $(c["end_to_end_ns"])
				}' "$work/$phase-hop1.csv" | sort -n |
				awk -v skip="$skip" -v n="$n" 'NR > skip && NR <= skip + n {
					s += $2; k++ } END { if (k == n && k) printf "%.2f", s / k / 1000 }')
			skip=$((skip + n))
			ktap_diag "$phase: $rw at queue depth $qd: end to end ${e2e:-?} us; fio: clat ${clat:-?} us, lat ${lat:-?} us"
			if [ "$qd" = 1 ]; then
				awk -v e="${e2e:-0}" -v c="${clat:-0}" -v l="${lat:-0}" \
					'BEGIN { exit !(e > 0 && e >= 0.95 * c && e <= l) }'
			else
				awk -v e="${e2e:-0}" -v l="${lat:-0}" 'BEGIN { exit !(e > 0 && e <= l) }'
			fi && ktap_pass "$phase: $rw at queue depth $qd: the end to end is within fio's" ||
				ktap_fail "$phase: $rw at queue depth $qd: the end to end is within fio's"
		done
	done
}

# prom_sum FILE METRIC FILTER...: the sum of METRIC's samples in FILE
# whose labels hold every FILTER (a label="value" string).
prom_sum() {
	local file=$1 metric=$2

	shift 2
	awk -v m="$metric" -v f="$*" '
		BEGIN { n = split(f, want, " ") }
		index($0, m "{") == 1 {
			for (i = 1; i <= n; i++) if (!index($0, want[i])) next
			s += $NF; k++
		}
		END { if (k) print s + 0 }' "$file" 2>/dev/null
}

# leg_wait FILE LEG: the mean of leg LEG's writes' remote_wait in FILE,
# in whole us, or nothing.
leg_wait() {
	local s n

	s=$(prom_sum "$1" ntprof_chain_stage_latency_seconds_sum 'op="write"' \
		"leg=\"$2\"" 'stage="remote_wait"')
	n=$(prom_sum "$1" ntprof_chain_stage_latency_seconds_count 'op="write"' \
		"leg=\"$2\"" 'stage="remote_wait"')
	awk -v s="$s" -v n="$n" 'BEGIN { if (n > 0) printf "%.0f", s / n * 1e6 }'
}

# chain_prom PHASE: the middle recorded both roles in one process with
# --prom (chain-middle.sh, at -s 1): its file has the middle stage of
# md0, and each leg's commands and critical counts are the report's
# (the report's legs are the replica's devices, nullb0 fast and nullb1
# slow; the middle's are its own head or path disk); the slow leg's
# wait, which holds its replica's storage, is the longer.
chain_prom() {
	local phase=$1 prom=$share/$1-middle.prom json=$work/$1-chain.json
	local mid l nb head disk name op want got ok=1 diag='' fw sw

	if ! [ -s "$prom" ] || ! [ -s "$share/$phase-middle-target.prom" ] ||
	   ! [ -s "$share/$phase-middle-host.prom" ]; then
		ktap_fail "$phase: record -r host,target --prom left the chain's file and each role's"
		return 1
	fi
	if ! command -v promtool > /dev/null; then
		ktap_diag "$phase: no promtool: the middle's chain file is not checked by it"
	elif promtool check metrics < "$prom" > "$work/promtool" 2>&1; then
		ktap_pass "$phase: promtool check metrics accepts the middle's chain file"
	else
		ktap_fail "$phase: promtool check metrics accepts the middle's chain file"
		sed 's/^/# /' "$work/promtool"
	fi
	# md0 is bio-based: nvmet's records have no disk, its namespace
	# names it (and its subsystem).
	mid=$(prom_sum "$prom" ntprof_chain_stage_latency_seconds_count \
		'stage="middle"' 'device="md0"' 'subnqn="nqn.' 'hop="1"')
	if [ "${mid:-0}" -gt 0 ]; then
		ktap_pass "$phase: the middle's file has md0's middle stage, with its subsystem ($mid commands)"
	else
		ktap_fail "$phase: the middle's file has md0's middle stage, with its subsystem"
		grep -m5 chain_ "$prom" | sed 's/^/# /'
	fi
	for l in fast:nullb0 slow:nullb1; do
		IFS=: read -r l nb <<< "$l"
		read -r head disk <<< "$(awk -v l="$l" '$1 == l { print $2, $3 }' "$share/legs")"
		# The middle names a leg as its records' device does.
		name=$head
		grep -q "leg=\"$disk\"" "$prom" && name=$disk
		for op in read write; do
			want=$(num "$json" "[.groups[] | select(.hops != null and .op == \"$op\") | .legs[] | select(.label | test(\"$nb\")) | .n] | add // 0")
			got=$(prom_sum "$prom" ntprof_chain_leg_commands_total \
				"op=\"$op\"" "leg=\"$name\"" 'hop="2"')
			[ -n "$want" ] && [ "${got:-0}" = "$want" ] || ok=0
			diag="$diag $l $name $op: ${got:-0} (report ${want:-?});"
		done
		want=$(num "$json" "[.groups[] | select(.hops != null and .op == \"write\") | .legs[] | select(.label | test(\"$nb\")) | .critical] | add // 0")
		got=$(prom_sum "$prom" ntprof_chain_leg_critical_total \
			'op="write"' "leg=\"$name\"")
		[ -n "$want" ] && [ "${got:-0}" = "$want" ] || ok=0
		diag="$diag critical ${got:-0} (report ${want:-?});"
		if [ "$l" = fast ]; then
			fw=$(leg_wait "$prom" "$name")
		else
			sw=$(leg_wait "$prom" "$name")
		fi
	done
	ktap_diag "$phase: the middle's --prom legs:$diag"
	if [ $ok = 1 ]; then
		ktap_pass "$phase: the middle's --prom counts each leg's reads, writes and critical writes as the report does"
	else
		ktap_fail "$phase: the middle's --prom counts each leg's reads, writes and critical writes as the report does"
	fi
	if [ "${sw:-0}" -gt "${fw:-0}" ] && [ "${fw:-0}" -gt 0 ]; then
		ktap_pass "$phase: the middle's --prom has the slow leg's writes wait longer ($sw us, the fast one's $fw us)"
	else
		ktap_fail "$phase: the middle's --prom has the slow leg's writes wait longer (${sw:-?} us, the fast one's ${fw:-?} us)"
	fi
}

for phase in s1 s100; do
	missing=
	for f in host middle-target middle-host replica; do
		[ -s "$share/$phase-$f.ntp" ] || missing="$missing $phase-$f.ntp"
	done
	if [ -n "$missing" ]; then
		ktap_fail "$phase: the guests left their recordings (missing:$missing)"
		continue
	fi
	hop_join "$phase" hop1 host middle-target || continue
	hop_join "$phase" hop2 middle-host replica || continue
	samples_agree "$phase"
	chain_report "$phase"
	[ "$phase" = s1 ] && fio_vs_e2e "$phase"
	[ "$phase" = s1 ] && chain_prom "$phase"
done
rm -rf "$work"
