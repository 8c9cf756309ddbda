# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The checks of configs_faults/test.sh, on the machine that ran the
# lab, after the guests: sourced by lab_check with the run's share as
# its argument. Per step (guest/faults-lib.sh), ntprof report --json and
# --csv of the host's and the target's recordings:
#   - every completed host record is joined (matched = host records,
#     none unusable), and neither side dropped or evicted a record;
#   - in each group the stage means add up to the end to end mean;
#   - at -s 1, the completed records are fio's commands, and their
#     bytes fio's; at another -s N, each sampled record is one that the
#     sampling hash picks (ntprof_sample_hash() % N == 0), a step whose
#     fio ran 10 N commands or more (10 expected) has records, and all
#     such steps together have at least a quarter of the records fio's
#     commands make expected (fio's randrepeat repeats its LBAs in every
#     step, so the counts are not independent draws, but far above
#     that: 50 for 27 expected in a run on 6.12), and fio ran enough for
#     10 of them;
#   - the aborted attempts are counted apart with statuses the host
#     made up (a reset's, a lost connection's: 0x370 to 0x37f) or a
#     failover's, each requeued (fio saw no error); at -s 1 a reset
#     and a path taken away over TCP abort one at least (nvme-tcp stops
#     its queues by shutting their sockets; nvme-rdma drains its queue
#     pairs first, and the responses of a 20 ms drive may all come in),
#     a reconnect leaves a gap of a second or more in the host's sends
#     (the outage);
#   - the recording went on after the fault: completed, joined commands
#     sent after the last aborted one ended and after the outage; at
#     -s 1 each aborted attempt's retry is one of them, a command of
#     its own (same op, LBA and length) that started after it ended;
#   - no command was left in the host's in-flight table at a stop, and
#     in the target's no more than the step's aborted ones (the kernel
#     logs, a level up);
#   - multipath: the default groups are the head's, one per op and
#     size; --by path splits them in two controllers, and the requeued
#     attempts went through the path taken away;
#   - the control-path events of the resets and the reconnects
#     (faults-events.sh).
# Then, at -s 1, each step's stage means against the step without a
# fault of its transport, for the same op and size: the moves above 5 %,
# as diagnostics (timings are shown, not asserted), and in
# faults-moved.txt in the share.

ntprof=$TOP_DIR/tools/ntprof/ntprof
share=$1
work=$(mktemp -d)

. "$(dirname "${BASH_SOURCE[0]}")/guest/faults-lib.sh"
. "$(dirname "${BASH_SOURCE[0]}")/../common/stages-moved.sh"
. "$(dirname "${BASH_SOURCE[0]}")/faults-events.sh"
. "$(dirname "${BASH_SOURCE[0]}")/../common/report-checks.sh"


# sample_picks CSV N: "SAMPLED PICKED", the host records of CSV that the
# module sampled (flag NTPROF_REC_F_SAMPLED) and those of them that
# ntprof_sample_hash() % N picks (include/uapi/linux/ntprof.h), their
# length in 512-byte blocks (null_blk's) for the NLB field.
sample_picks() {
	python3 - "$1" "$2" <<'EOF'
import csv, sys
M = (1 << 64) - 1
def fmix(x):
    x ^= x >> 33
    x = (x * 0xff51afd7ed558ccd) & M
    x ^= x >> 33
    x = (x * 0xc4ceb9fe1a85ec53) & M
    return x ^ (x >> 33)
def sample_hash(qid, cid, opcode, nsid, slba, nlb):
    h = fmix(qid << 48 | cid << 32 | opcode << 16 | nlb)
    return fmix(fmix(h ^ slba) ^ nsid)
sampled = picked = 0
for r in csv.DictReader(open(sys.argv[1])):
    if r["role"] != "host" or not int(r["flags"]) & 1:
        continue
    sampled += 1
    nlb = (int(r["length"]) // 512 - 1) & 0xffff
    picked += sample_hash(int(r["qid"]), int(r["cid"]), int(r["opcode"]),
                          int(r["nsid"]), int(r["slba"]), nlb) % int(sys.argv[2]) == 0
print(sampled, picked)
EOF
}

# The steps at an -s other than 1: their completed records and what
# fio's commands make expected, summed over them (check_sampled).
SAMPLED_GOT=0 SAMPLED_FIO=0 SAMPLED_STEPS=

# csv_col FILE NAME...: the columns' numbers in FILE's header line.
csv_cols() {
	local f=$1

	shift
	head -n 1 "$f" | awk -F, -v want="$*" '{
		n = split(want, w, " ")
		for (k = 1; k <= n; k++)
			for (i = 1; i <= NF; i++) if ($i == w[k]) printf "%d ", i
	}'
}

# check_sampled STEP N JSON CSV FIO_TOTAL: a step at -s N (not 1): its
# sampled records are the hash's picks; with 10 or more expected from
# fio's commands, it has some; its counts go to the sums.
check_sampled() {
	local step=$1 s=$2 json=$3 csv=$4 total=$5 got picks

	got=$(num "$json" "$HOST_GROUPS | map(.n) | add // 0")
	picks=$(sample_picks "$csv" "$s")
	# shellcheck disable=SC2086,SC2046 # the words of a line.
	set -- $picks
	if [ -n "$picks" ] && [ "$1" = "$2" ]; then
		ktap_pass "$step: each of the $1 sampled host records is one the hash picks at -s $s"
	else
		ktap_fail "$step: each sampled host record is one the hash picks at -s $s (${2:-?} of ${1:-?})"
	fi
	if [ "$total" -ge $((10 * s)) ] && [ "${got:-0}" = 0 ]; then
		ktap_fail "$step: records at -s $s (none, for fio's $total commands: $((total / s)) expected)"
	else
		ktap_pass "$step: ${got:-0} completed records at -s $s for fio's $total commands ($((total / s)) expected)"
	fi
	SAMPLED_GOT=$((SAMPLED_GOT + ${got:-0}))
	SAMPLED_FIO=$((SAMPLED_FIO + total / s))
	SAMPLED_STEPS="$SAMPLED_STEPS $step:${got:-0}/$((total / s))"
}

# check_outage STEP JSON RETRIED: at -s 1, the report linked the
# RETRIED aborted attempts that have a retry (the check above, by op,
# LBA and length) to it (report.aborted.linked, as many or more: one
# aborted twice counts twice); the groups' commands that waited through
# an outage are report.aborted.outage_commands, at least one when one
# was linked, and each group's longest wait for the next try is no
# longer than the longest control-path episode of the step (the whole
# recording when none ended) and half a second: the outage stage holds
# the outage, not more (Documentation/stages.rst, The outage stage).
check_outage() {
	local step=$1 json=$2 retried=$3 got

	got=$(jq -r '([.groups[] | .outage.commands // 0] | add // 0) as $c |
		([(.events // [])[] | .duration_s // empty] | max // null) as $e |
		($e // .duration_s) as $bound |
		"\(.aborted.linked // 0) \(.aborted.outage_commands // 0) \($c) \([.groups[] | .outage.wait_max_s // 0] | max // 0) \($bound)"' "$json")
	# shellcheck disable=SC2086 # the words of a line.
	set -- $got
	if [ "${1:-0}" -ge "$retried" ] && [ "${2:-x}" = "${3:-y}" ] &&
	   { [ "$retried" = 0 ] || [ "${2:-0}" -ge 1 ]; } &&
	   awk -v w="${4:-0}" -v b="${5:-0}" 'BEGIN { exit !(w <= b + 0.5) }'; then
		ktap_pass "$step: the outage stage: ${1:-?} aborted attempts linked to their retry ($retried with one), ${2:-?} commands waited, the longest wait ${4:-?} s (episodes up to ${5:-?} s)"
	else
		ktap_fail "$step: the outage stage: the aborted attempts linked to their retry (linked ${1:-?}, $retried with one; commands ${2:-?}, in the groups ${3:-?}; longest wait ${4:-?} s, episodes up to ${5:-?} s)"
	fi
}

# check_step STEP
check_step() {
	local step=$1 f s host target fio json csv n m bad total got ab rq
	local gap after cols

	f=$(step_fault "$step")
	s=$(step_sample "$step")
	host=$share/$step-host.ntp target=$share/$step-target.ntp fio=$share/$step-fio.json
	json=$work/$step.json csv=$work/$step.csv
	if [ ! -f "$host" ] || [ ! -f "$target" ] || [ ! -f "$fio" ]; then
		ktap_fail "$step: the guests left the recordings and fio's output"
		return
	fi
	if ! "$ntprof" report --json "$host" "$target" > "$json" 2> "$work/err" ||
	   ! "$ntprof" report --csv "$csv" "$host" "$target" > /dev/null 2>> "$work/err"; then
		ktap_fail "$step: report --json, --csv"
		sed 's/^/# /' "$work/err"
		return
	fi
	if "$ntprof" report "$host" "$target" > "$work/$step.txt" 2>> "$work/err"; then
		check_events "$step" "$json" "$work/$step.txt"
	else
		ktap_fail "$step: report's text"
	fi
	n=$(num "$json" .records.sampled)
	m=$(num "$json" .records.matched)
	bad=$(num "$json" "(.records.unusable) + ($HOST_GROUPS | map(.n_unusable) | add // 0)")
	if [ "${n:-0}" -gt 0 ] && [ "$m" = "$n" ] && [ "$bad" = 0 ]; then
		ktap_pass "$step: every completed host record joined ($m of $n), none unusable"
	elif [ "$s" != 1 ] && [ "${n:-0}" = 0 ]; then
		ktap_pass "$step: every completed host record joined (none sampled at -s $s)"
	else
		ktap_fail "$step: every completed host record joined (${m:-?} of ${n:-?}, ${bad:-?} unusable)"
	fi
	check_no_loss "$step" "$json"
	check_stage_sums "$step" "$json"

	total=$(num "$fio" '[.jobs[] | .read.total_ios, .write.total_ios] | add')
	[ "$s" = 1 ] || check_sampled "$step" "$s" "$json" "$csv" "${total:-0}"
	if [ "$s" = 1 ]; then
		got=$(num "$json" "$HOST_GROUPS | map(.n) | add // 0")
		[ "$got" = "$total" ] &&
		[ "$(num "$json" "$HOST_GROUPS | map(.n * .size) | add // 0")" = \
		  "$(num "$fio" '[.jobs[] | .read.io_bytes, .write.io_bytes] | add')" ] &&
			ktap_pass "$step: $got completed records for fio's $total commands, and their bytes" ||
			ktap_fail "$step: ${got:-?} completed records for fio's ${total:-?} commands, and their bytes"
	fi

	# The aborted attempts: apart, requeued, with a reset's statuses.
	ab=$(num "$json" .aborted.n)
	rq=$(num "$json" .aborted.requeued)
	bad=
	got=$(python3 "$JSON_CHECK" aborted "$json" 2>&1) || bad=1
	got=${got//$'\n'/; }
	if [ "$f" = none ]; then
		[ "${ab:-0}" = 0 ] && ktap_pass "$step: no aborted command without a fault" ||
			ktap_fail "$step: no aborted command without a fault (${ab:-?}: $got)"
	elif [ "$s" = 1 ] && [ "${ab:-0}" = 0 ] && [ "$f" != reconnect ] &&
	     [ "$(step_transport "$step")" = tcp ]; then
		ktap_fail "$step: the $f aborted commands, counted apart (none)"
	elif [ -z "$bad" ] && [ "$rq" = "$ab" ] && [ "$(num "$json" .aborted.other_statuses)" = 0 ]; then
		ktap_pass "$step: the $f aborted $ab commands, counted apart, each requeued; status (decimal) and count: ${got:-none}"
	else
		ktap_fail "$step: the $f aborted ${ab:-?} commands, each requeued (${rq:-?}), with a host's or a path's status (${got:-none})"
	fi
	# The outage and after it, on the host's clock: the longest time
	# without a send of a completed command, the end of the last
	# aborted attempt, and the joined commands sent after both.
	[ "$f" = none ] && return 0
	cols=$(csv_cols "$csv" role flags status target_file host_send_ns host_blk_start_ns host_blk_complete_ns host_nvme_complete_ns)
	# shellcheck disable=SC2086,SC2046 # the words of a line.
	set -- $(awk -F, -v c="$cols" 'BEGIN { split(c, k, " ") }
		NR == 1 || $k[1] != "host" { next }
		int($k[2] / 32) % 2 == 1 || ($k[3] % 2048 >= 880 && $k[3] % 2048 <= 895) {
			e = $k[7] ? $k[7] : $k[8]; if (e > last) last = e; next }
		{ n++; send[n] = $k[5] ? $k[5] : $k[6]; joined[n] = $k[4] != "" }
		END {
			m = asort(send, s)
			for (i = 2; i <= m; i++) if (s[i] - s[i - 1] > gap) { gap = s[i] - s[i - 1]; gend = s[i] }
			from = last > gend ? last : gend
			for (i = 1; i <= n; i++) if (joined[i] && send[i] >= from) after++
			printf "%.3f %d\n", gap / 1e9, after + 0
		}' "$csv")
	# Named: the retries' check below sets the positional parameters.
	gap=${1:-} after=${2:-}
	# Each aborted attempt's I/O went on in a command of its own (a new
	# cid; its record starts after the attempt ended), which completed
	# and joined: the same op, LBA and length, sent later.
	if [ "$s" = 1 ] && [ "${ab:-0}" -gt 0 ]; then
		got=$(awk -F, -v c="$(csv_cols "$csv" role flags status target_file opcode slba length host_blk_start_ns host_blk_complete_ns host_nvme_complete_ns)" '
			BEGIN { split(c, k, " ") }
			NR == 1 || $k[1] != "host" { next }
			{ id = $k[5] " " $k[6] " " $k[7] }
			int($k[2] / 32) % 2 == 1 || ($k[3] % 2048 >= 880 && $k[3] % 2048 <= 895) {
				a++; aid[a] = id; aend[a] = $k[9] ? $k[9] : $k[10]; next }
			$k[4] != "" { n++; cid[n] = id; cstart[n] = $k[8] }
			END {
				for (i = 1; i <= a; i++)
					for (j = 1; j <= n; j++)
						if (cid[j] == aid[i] && cstart[j] >= aend[i]) { found++; break }
				printf "%d %d", found + 0, a + 0
			}' "$csv")
		# shellcheck disable=SC2086,SC2046 # the words of a line.
		set -- $got
		[ "$1" = "$2" ] &&
			ktap_pass "$step: each of the $2 aborted attempts has its retry, joined, started after it ended" ||
			ktap_fail "$step: each aborted attempt has its retry, joined, started after it ended ($1 of $2)"
	fi
	[ "$s" = 1 ] && [ "${ab:-0}" -gt 0 ] && check_outage "$step" "$json" "${1:-0}"
	if [ "$f" = reconnect ] && [ "$s" = 1 ]; then
		awk -v g="${gap:-0}" 'BEGIN { exit !(g >= 1) }' &&
			ktap_pass "$step: the outage: no command sent for $gap s" ||
			ktap_fail "$step: the outage: no command sent for a second or more (${gap:-?} s at most)"
	fi
	# At -s N a step may have a few records, none after the fault by
	# chance: with 10 or more, at least half of the job's time after the
	# fault leaves none with a chance of 0.5^10 at most.
	if [ "${after:-0}" -gt 0 ]; then
		ktap_pass "$step: the recording went on after the $f: $after joined commands sent after it (the longest pause: $gap s)"
	elif [ "$s" != 1 ] && [ "${n:-0}" -lt 10 ]; then
		ktap_pass "$step: the recording went on after the $f: none of its ${n:-0} records at -s $s after it, too few to want one (the -s 1 step does)"
	else
		ktap_fail "$step: the recording went on after the $f (${after:-?} joined commands sent after it)"
	fi

	[ "$f" = mpath ] || return 0
	bad=$(jq -r "$HOST_GROUPS | (map(.device) | unique | join(\" \")),
		(map(\"\\(.op) \\(.size)\") | length == (unique | length))" "$json" | tr '\n' ' ')
	case $bad in
	"nvme"*"n"[0-9]*" true ") ktap_pass "$step: the default groups are the head's, one per op and size ($bad)" ;;
	*) ktap_fail "$step: the default groups are the head's, one per op and size ($bad)" ;;
	esac
	"$ntprof" report --json --by op,size,path "$host" "$target" > "$work/$step-path.json"
	got=$(jq -r "$HOST_GROUPS | map(\"\\(.label): \\(.n)\") | join(\"; \")" "$work/$step-path.json")
	# Which path a sampled command took is chance: at -s N a step may
	# sample a handful of commands, all on one path (seen: 20, all on the
	# first). The split in two is judged at -s 1, where every command is
	# recorded; at -s N, that --by path keeps every command and names a
	# controller for each group.
	paths=$(jq "$HOST_GROUPS | map(.path.controller) | unique | length" "$work/$step-path.json")
	same=$( [ "$(jq "$HOST_GROUPS | map(.n) | add" "$work/$step-path.json")" = "$(jq "$HOST_GROUPS | map(.n) | add" "$json")" ] && echo 1)
	named=$(jq "$HOST_GROUPS | all(.path.controller != null)" "$work/$step-path.json")
	if [ "$s" = 1 ]; then
		[ "$paths" = 2 ] && [ "$same" = 1 ] &&
			ktap_pass "$step: --by path splits them in two controllers ($got)" ||
			ktap_fail "$step: --by path splits them in two controllers ($got)"
	else
		[ "$same" = 1 ] && [ "$named" = true ] && [ "${paths:-0}" -ge 1 ] &&
			ktap_pass "$step: --by path keeps every sampled command, each group on a controller ($got)" ||
			ktap_fail "$step: --by path keeps every sampled command, each group on a controller ($got)"
	fi
	# The failover: every requeued attempt went through the path taken
	# away, the second listener's (its path disk, as the host saw it).
	got=$(awk -v s="$step" '$1 == s && $2 == "gone" { print $3 }' "$share/faults-host.txt" | tail -n 1)
	bad=$(awk -F, -v c="$(csv_cols "$csv" role flags dev)" -v d="${got:-none}" '
		BEGIN { split(c, k, " ") }
		NR > 1 && $k[1] == "host" && int($k[2] / 32) % 2 == 1 {
			n++; if ($k[3] != d) m++ }
		END { printf "%d %d", n, m }' "$csv")
	# shellcheck disable=SC2086,SC2046 # the words of a line.
	set -- $bad
	[ -n "$got" ] && [ "$2" = 0 ] &&
		ktap_pass "$step: the $1 requeued attempts all went through the path taken away (dev $got)" ||
		ktap_fail "$step: the requeued attempts all went through the path taken away (dev ${got:-?}: $2 of $1 not)"
}

# moved STEP BASE: the stages of STEP's groups that moved by more than
# 5 % against BASE's group of the same op and size.
moved() {
	local step=$1 base=$2

	[ -f "$work/$base.json" ] && [ -f "$work/$step.json" ] || return
	stages_moved "$step against $base," "$work/$base.json" "$work/$step.json"
}

if ! command -v jq > /dev/null; then
	ktap_fail "jq is installed (selftests/lab/install-deps.sh)"
else
	ktap_diag "$(tr '\n' ';' < "$share/faults-host.txt" 2>/dev/null)"
	for step in $(faults_steps); do
		check_step "$step"
	done
	# All the sampled steps together: far more expected than one step.
	if [ "$SAMPLED_FIO" -ge 10 ] && [ "$SAMPLED_GOT" -ge 1 ] &&
	   [ $((4 * SAMPLED_GOT)) -ge "$SAMPLED_FIO" ]; then
		ktap_pass "the sampled steps hold $SAMPLED_GOT completed records, $SAMPLED_FIO expected from fio's commands (a quarter wanted)"
	else
		ktap_fail "the sampled steps hold $SAMPLED_GOT completed records, $SAMPLED_FIO expected from fio's commands (10 expected and a quarter of them wanted; step:got/expected$SAMPLED_STEPS)"
	fi
	# The in-flight tables at each stop (the kernel logs, a session a
	# step): the host's empty, the aborted commands' records having left
	# them; the target's holding at most the step's aborted commands, the
	# ones whose response nvmet-tcp had not sent when their queue went.
	got=$(sed -nE "s/.*ntprof: host session stopped, ([0-9]+) commands in flight discarded/\1/p" \
		"$share/../dmesg-host.log" 2>/dev/null | tr '\n' ' ')
	[ -n "$got" ] && [ -z "$(echo "$got" | tr -d '0 ')" ] &&
		ktap_pass "host: no command left in flight at any stop ($(echo "$got" | wc -w) sessions)" ||
		ktap_fail "host: no command left in flight at any stop (discarded: ${got:-no session})"
	# shellcheck disable=SC2086,SC2046 # the words of a line.
	set -- $(sed -nE "s/.*ntprof: target session stopped, ([0-9]+) commands in flight discarded/\1/p" \
		"$share/../dmesg-target.log" 2>/dev/null)
	bad='' got=''
	for step in $(faults_steps); do
		ab=$(num "$work/$step.json" .aborted.n)
		[ "${1:-x}" != x ] && [ "$1" -le "${ab:-0}" ] || bad="$bad $step:${1:-none}/${ab:-?}"
		[ "${1:-0}" = 0 ] || got="$got $step:$1"
		shift
	done
	[ -z "$bad" ] &&
		ktap_pass "target: left in flight at each stop, at most the step's aborted commands (${got:-none left})" ||
		ktap_fail "target: left in flight at each stop, at most the step's aborted commands (left/aborted:$bad)"
	for step in $(faults_steps); do
		case $step in none-*|*-s100) continue ;; esac
		moved "$step" "none-$(step_transport "$step")-s1"
	done > "$share/faults-moved.txt"
	sed 's/^/# /' "$share/faults-moved.txt"
fi
rm -rf "$work"
