# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The checks of configs/test.sh, on the machine that ran the lab,
# after the guests: sourced by lab_check with the run's share as its
# argument. Per step (guest/configs-lib.sh), ntprof report --json of the
# host's and the target's recordings:
#   - every host record is joined (matched = host records, none
#     unusable), and neither side dropped or evicted a record;
#   - in each group the stage means add up to the end to end mean;
#   - the groups are fio's (op and size) and each comes once; at -s 1
#     each op's groups count fio's total_ios and io_bytes of that op, at
#     -s 100 the sampled share of them (within 4 standard deviations), the
#     mixed and large jobs' sizes follow their bssplit (within 4 standard
#     deviations of the share each size was drawn with);
#   - polled configurations: io_uring's commands are on the poll queues
#     (the controller's last ones), so their completions were reaped by
#     polling; pvsync2's are not (the kernel does not poll synchronous
#     direct I/O); deep queues: the controller has its 4 I/O queues;
#   - large writes: each has its data transfer (R2T and H2C data, the RDMA
#     READ) as the network's component "host's data", with TARGET_R2T and
#     TARGET_DATA (and over TCP the host's HOST_R2T), nothing merged, and
#     the target driver keeps less than TGT_DRV_MAX_PCT % of the latency.
#   - passthrough: nvme read's count with fio's reads, every host record
#     flagged passthrough and grouped by the namespace's char device,
#     and its points those stages.rst gives the kernel (check_passthru).
# Then, at -s 1, each configuration's stage means against the default
# configuration's of the same boot and transport, for the same op and
# size: the stages that moved by more than 5 %, as diagnostics (timings
# are shown, not asserted), and in configs-moved.txt in the share; the
# large writes' stage shares, and what the target driver's was with their
# data transfer in it.

ntprof=$TOP_DIR/tools/ntprof/ntprof
share=$1
work=$(mktemp -d)
# The target driver's share of a large write's latency that is more than
# its own work (parsing, mapping, queueing the R2T or READ, the response)
# could take: the 70 % of the data transfer's wait it had held.
TGT_DRV_MAX_PCT=30

. "$(dirname "${BASH_SOURCE[0]}")/guest/configs-lib.sh"
# The TLS steps ran unless the host said why not (configs-host.sh).
CONFIGS_TLS=1
[ ! -e "$share/tls-skip" ] || CONFIGS_TLS=0
. "$(dirname "${BASH_SOURCE[0]}")/../common/stages-moved.sh"
. "$(dirname "${BASH_SOURCE[0]}")/../common/report-checks.sh"


# within N EXPECTED SIGMA: whether N lies within 4 SIGMA (and one) of
# EXPECTED.
within() {
	awk -v n="$1" -v e="$2" -v s="$3" 'BEGIN {
		d = n - e; if (d < 0) d = -d; exit !(d <= 4 * s + 1) }'
}

# nvme_reads STEP: the nvme read's of STEP that succeeded (passthrough),
# else 0: reads of 4 KiB beside fio's.
nvme_reads() {
	local ok=

	[ ! -f "$share/$1-nvme" ] || read -r _ ok < "$share/$1-nvme"
	echo "${ok:-0}"
}

# check_passthru STEP JSON: the passthrough step's host records, in
# report --json JSON: each group is the namespace's char device's, ngXnY
# (the host wrote it to STEP-ng) and none is its block device's; each
# record is flagged passthrough (16) and has every host point the stage
# model reads, the block layer's start among them, before queue_rq: the
# kernel's stamp (6.1, at the request's allocation) or, where the kernel
# stamps none (6.12), ntprof's when the request went to the block layer.
check_passthru() {
	local step=$1 json=$2 ng csv got
	local cols='host_blk_start_ns host_queue_rq_ns host_send_ns host_recv_ns host_driver_done_ns host_nvme_complete_ns host_blk_complete_ns'

	ng=$(cat "$share/$step-ng" 2>/dev/null)
	got=$(jq -r "$HOST_GROUPS | map(.device) | unique | join(\" \")" "$json")
	if [ -n "$ng" ] && { [ -z "$got" ] || [ "$got" = "$ng" ]; }; then
		ktap_pass "$step: grouped by the char device ($ng)"
	else
		ktap_fail "$step: grouped by the char device (${ng:-?}: groups of '$got')"
	fi
	csv=$work/$step-host.csv
	"$ntprof" report --csv - "$share/$step-host.ntp" > "$csv" 2> /dev/null
	got=$(awk -F, -v cols="$cols" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["role"] != "host" { next }
		{
			n++
			if (int($col["flags"] / 16) % 2 != 1) flag++
			if ($col["host_blk_start_ns"] != "" &&
			    $col["host_blk_start_ns"] + 0 > $col["host_queue_rq_ns"] + 0) late++
			split(cols, c, " ")
			for (k in c) if ($col[c[k]] == "") { miss++; break }
		}
		END { printf "%d %d %d %d", n, flag, late, miss }' "$csv")
	# shellcheck disable=SC2086,SC2046 # the words of a line.
	set -- $got
	if [ "${1:-0}" -gt 0 ] && [ "$2" = 0 ] && [ "$3" = 0 ] && [ "$4" = 0 ]; then
		ktap_pass "$step: $1 host records, all flagged passthrough, with their points, the block layer's start before queue_rq"
	elif [ "${1:-0}" = 0 ] && [ "$(step_sample "$step")" != 1 ]; then
		ktap_pass "$step: no host record to check (none sampled at -s $(step_sample "$step"))"
	else
		ktap_fail "$step: host records all flagged passthrough, with their points (records, unflagged, block start after queue_rq, points missing: ${got:-?})"
	fi
}

# check_step STEP
check_step() {
	local step=$1 c s host target fio json bad n m want ops op total got nvme of
	local q poll lo size pct bytes='' none

	c=$(step_config "$step")
	s=$(step_sample "$step")
	host=$share/$step-host.ntp target=$share/$step-target.ntp fio=$share/$step-fio.json
	json=$work/$step.json
	if [ ! -f "$host" ] || [ ! -f "$target" ] || [ ! -f "$fio" ]; then
		ktap_fail "$step: the guests left the recordings and fio's output"
		return
	fi
	if ! "$ntprof" report --json "$host" "$target" > "$json" 2> "$work/err"; then
		ktap_fail "$step: report --json"
		sed 's/^/# /' "$work/err"
		return
	fi

	n=$(num "$json" .records.sampled)
	m=$(num "$json" .records.matched)
	bad=$(num "$json" "(.records.unusable) + ($HOST_GROUPS | map(.n_unusable) | add // 0)")
	# At -s 100, a short step of a slow guest may sample none of fio's
	# few hundred commands (at 400, one time in 50): then the join and
	# the stages have nothing to check, and say so; the counts' lines
	# below judge whether none was likely.
	none=
	total=$(num "$fio" '[.jobs[] | .read.total_ios, .write.total_ios] | add')
	total=$((${total:-0} + $(nvme_reads "$step")))
	if [ "$s" != 1 ] && [ "${n:-0}" = 0 ]; then
		none="none of the step's $total commands sampled at -s $s"
	fi
	if [ -n "$none" ]; then
		ktap_pass "$step: every host record joined ($none)"
	elif [ "${n:-0}" -gt 0 ] && [ "$m" = "$n" ] && [ "$bad" = 0 ]; then
		ktap_pass "$step: every host record joined ($m of $n), none unusable"
	else
		ktap_fail "$step: every host record joined (${m:-?} of ${n:-?}, ${bad:-?} unusable)"
	fi
	check_no_loss "$step" "$json" 2
	check_stage_sums "$step" "$json" "$none"

	# The groups: fio's ops and sizes, each once.
	want="4096"
	[ -n "$(config_split "$c")" ] &&
		want=$(config_split "$c" | awk '{ for (i = 1; i < NF; i += 2) printf "%s%s", $i, (i + 2 < NF ? " " : "") }')
	ops="read write"
	[ "$c" = deep ] && ops="read"
	[ "$c" = large ] && ops="write"
	if bad=$(python3 "$JSON_CHECK" groups --ops "$ops" --sizes "$want" "$json" 2>&1); then
		ktap_pass "$step: one group per op and size, all of fio's ($ops; $want)"
	else
		ktap_fail "$step: one group per op and size, all of fio's (not: $bad)"
	fi
	for op in $ops; do
		total=$(num "$fio" "[.jobs[].$op.total_ios] | add")
		# Passthrough's reads: nvme read's 4 KiB beside fio's.
		nvme=0 of="fio's"
		[ "$op" = read ] && nvme=$(nvme_reads "$step")
		[ "$nvme" = 0 ] || of="fio's and nvme read's"
		[ -z "$total" ] || total=$((total + nvme))
		got=$(num "$json" "$HOST_GROUPS | map(select(.op == \"$op\") | .n) | add // 0")
		if [ "$s" = 1 ]; then
			# Every command, of fio's sizes: its bytes too.
			bytes=$(num "$fio" "[.jobs[].$op.io_bytes] | add")
			[ -z "$bytes" ] || bytes=$((bytes + nvme * 4096))
			[ -n "$total" ] && [ "$got" = "$total" ] &&
				[ "$(num "$json" "$HOST_GROUPS | map(select(.op == \"$op\") |
					.n * .size) | add // 0")" = "$bytes" ]
		else
			# Sampling is a hash of the command: each is in with
			# probability 1/s.
			within "$got" "$(awk -v t="$total" -v s="$s" 'BEGIN { print t / s }')" \
				"$(awk -v t="$total" -v s="$s" 'BEGIN { print sqrt(t / s * (1 - 1 / s)) }')"
		fi && ktap_pass "$step: ${op}s: $got records for $of $total at -s $s${bytes:+, $bytes bytes}" ||
			ktap_fail "$step: ${op}s: ${got:-?} records for $of ${total:-?} at -s $s${bytes:+ and $bytes bytes}"
		bytes=
		[ -n "$(config_split "$c")" ] || continue
		# Each size's share of the op's records, against bssplit's.
		bad=
		# shellcheck disable=SC2046
		set -- $(config_split "$c")
		while [ $# -gt 0 ]; do
			size=$1 pct=$2
			shift 2
			n=$(num "$json" "$HOST_GROUPS | map(select(.op == \"$op\" and .size == $size) | .n) | add // 0")
			within "$n" "$(awk -v g="$got" -v p="$pct" 'BEGIN { print g * p / 100 }')" \
				"$(awk -v g="$got" -v p="$pct" 'BEGIN { print sqrt(g * p / 100 * (1 - p / 100)) }')" ||
				bad="$bad $size:$n"
			got_sizes="${got_sizes:-} $size:$n"
		done
		[ -z "$bad" ] && ktap_pass "$step: ${op}s by size follow bssplit $(config_split "$c") ($got_sizes )" ||
			ktap_fail "$step: ${op}s by size follow bssplit $(config_split "$c") (off:$bad; all:$got_sizes )"
		got_sizes=
	done

	[ "$c" = large ] && [ -z "$none" ] && check_large "$step" "$json"

	# Polled: io_uring's records are on the controller's poll queues, its
	# last ones (queue ids go default, read, poll). pvsync2's are not:
	# the kernel polls only asynchronous direct I/O (block/fops.c sets
	# REQ_POLLED for an async kiocb only) and sends synchronous I/O with
	# RWF_HIPRI to the interrupt-driven queues.
	read -r q poll < "$share/$step-queues" 2>/dev/null
	if [ "$c" = deep ]; then
		# queue_count has the admin queue too.
		got=$("$ntprof" report --csv - "$host" 2> /dev/null |
			awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
				{ n[$col["qid"]]++ } END { for (k in n) printf "%s:%d ", k, n[k] }')
		[ "${q:-0}" = 5 ] && ktap_pass "$step: 4 I/O queues; commands by queue id: $got" ||
			ktap_fail "$step: 4 I/O queues (queue_count ${q:-?}); commands by queue id: $got"
	fi
	if [ "${poll:-0}" -gt 0 ]; then
		lo=$((${q:-0} - poll))
		"$ntprof" report --csv - "$host" > "$work/$step.csv" 2> /dev/null
		got=$(awk -F, -v lo="$lo" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
			{ n++; if ($col["qid"] >= lo) p++ } END { printf "%d %d", p, n }' "$work/$step.csv")
		# shellcheck disable=SC2086,SC2046 # the words of a line.
		set -- $got
		if [ -n "$none" ]; then
			true
		elif [ "$c" = polluring ]; then
			[ "$2" -gt 0 ] && [ "$1" = "$2" ]
		else
			[ "$2" -gt 0 ] && [ "$1" = 0 ]
		fi && ktap_pass "$step: $(config_queue_kind "$c"): $1 of $2 on queues $lo and up" ||
			ktap_fail "$step: $(config_queue_kind "$c"): $1 of $2 on queues $lo and up"
	fi
	[ "$c" != passthru ] || check_passthru "$step" "$json"
}

# check_large STEP JSON: where the large writes' data transfer went
# (Documentation/stages.rst, Reads, small writes and large writes).
check_large() {
	local step=$1 json=$2 t tcp=0 pts got bad

	t=$(step_transport "$step")
	pts="TARGET_R2T, TARGET_DATA"
	[ "$t" = tcp ] && tcp=1 pts="$pts, HOST_R2T"
	# Per command: the points that bound the transfer, and its value.
	got=$("$ntprof" report --csv - "$share/$step-host.ntp" \
		"$share/$step-target.ntp" 2> /dev/null |
		awk -F, -v tcp=$tcp '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["opcode"] == 1 && $col["target_file"] != "" {
			n++
			if ($col["target_r2t_ns"] == "" || $col["target_data_ns"] == "" ||
			    (tcp && $col["host_r2t_ns"] == "") ||
			    !($col["network_host_data_transfer_ns"] > 0))
				bad++
		}
		END { printf "%d %d", n, bad }')
	# shellcheck disable=SC2086,SC2046 # the words of a line.
	set -- $got
	if [ "${1:-0}" -gt 0 ] && [ "${2:-1}" = 0 ]; then
		ktap_pass "$step: each of $1 writes has $pts and its data transfer > 0"
	else
		ktap_fail "$step: each write has $pts and its data transfer > 0 (${2:-?} of ${1:-?} not)"
	fi
	# Per group: the component in every command of the table, nothing
	# merged, and the target driver holding its own work only.
	if bad=$(python3 "$JSON_CHECK" write-data --max-target-pct "$TGT_DRV_MAX_PCT" "$json" 2>&1); then
		ktap_pass "$step: the host's data is a network component of every write, nothing merged, target driver < $TGT_DRV_MAX_PCT %"
	else
		ktap_fail "$step: the host's data is a network component of every write, nothing merged, target driver < $TGT_DRV_MAX_PCT %"
		echo "${bad:-no group}" | sed 's/^/# /'
	fi
}

# large_shares STEP: the stage shares of STEP's groups, and the target
# driver's as it was counted before, with the data transfer in it; the
# default's 4 KiB writes' beside them (the default has no large ones).
large_shares() {
	local base

	base=default-$(step_transport "$1")-s1
	[ -f "$work/$base.json" ] &&
		jq -r --arg step "$base" "${HOST_GROUPS}[] | select(.op == \"write\") |
			\"\\(\$step) \\(.op) \\(.size): end to end \\(.latency_us.mean) us; shares: \" +
			([.stages[] | \"\\(.id) \\(.share_pct) %\"] | join(\", \"))" "$work/$base.json"
	jq -r --arg step "$1" "${HOST_GROUPS}[] |
		(.components[] | select(.id == \"network_host_data_transfer\") | .mean_us) as \$d |
		(.stages[] | select(.id == \"target_driver\") | .mean_us) as \$td |
		(.latency_us.mean) as \$e |
		\"\\(\$step) \\(.op) \\(.size): end to end \\(\$e) us; shares: \" +
		([.stages[] | \"\\(.id) \\(.share_pct) %\"] | join(\", \")) +
		\"; host's data \\(\$d) us (\\(\$d / \$e * 1000 | round / 10) %);\" +
		\" target driver with it, as before: \\((\$td + \$d) / \$e * 1000 | round / 10) %\"" \
		"$work/$1.json"
}

# moved STEP: the stages of STEP's groups that moved by more than 5 %
# against default's group of the same op and size, same transport, -s 1.
moved() {
	local step=$1 base

	base=default-$(step_transport "$step")-s1
	[ -f "$work/$base.json" ] && [ -f "$work/$step.json" ] || return
	stages_moved "$step" "$work/$base.json" "$work/$step.json"
}

if ! command -v jq > /dev/null; then
	ktap_fail "jq is installed (selftests/lab/install-deps.sh)"
else
	for step in $(configs_steps); do
		check_step "$step"
	done
	for step in $(configs_steps); do
		case $step in default-*|*-s100) continue ;; esac
		moved "$step"
		case $step in large-*) large_shares "$step" ;; esac
	done > "$share/configs-moved.txt"
	sed 's/^/# /' "$share/configs-moved.txt"
fi
rm -rf "$work"
