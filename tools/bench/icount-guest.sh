# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2153 # the settings come from icount.sh
#
# The guest's half of tools/bench/icount.sh (and of the make check guard),
# run by the one-guest lab under QEMU's icount mode as the host's script;
# icount.sh puts the settings, record-both.sh (and the bpftrace programs,
# when the bpf mode runs) in front of it.
#
# Host and target are one kernel, one vCPU; NVMe-oF loops back. In guest
# time, which counts instructions, a read's latency is what the CPU
# executed for it: a profiler's cost shows in IOPS exactly, and runs
# repeat themselves.
#
# For each repetition, transport and queue depth, one fio run per mode,
# the modes' order rotated from one repetition to the next:
#   off       no profiler
#   empty     tools/bench/emptyprobe at every site ntprof hooks
#   sN        ntprof record -s N, as host and as target
#   leanN     ntprof record --stages-only -s N, as host and as target
#   host-sN, host-leanN, target-sN, target-leanN: one role only
#   emptylean tools/bench/emptyprobe at the sites --stages-only hooks
#   tracefs   the kernel's trace events at the same tracepoints, and kprobe
#             events at the same functions, written to its ring buffer
#   bpf       the bpftrace programs of tools/bench/bpftrace, host and target
# Each run adds a line to runs.tsv: repetition, transport, QD, mode, IOPS
# (guest time), reads, ntprof's hook hits, and for ntprof the records its
# two readers drained and the CPU time they took, in ns (0 otherwise).

B=$NTPROF_LAB_SHARE/icount
mkdir -p "$B"
mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
T=/sys/kernel/tracing
modprobe ntprof || exit 1

log() { echo "icount: $*"; }

namespace() {
	if [ "$1" = rdma ]; then
		echo "$NTPROF_LAB_RDMA_DEV"
	else
		echo "$NTPROF_LAB_TCP_DEV"
	fi
}

hits() {
	awk '{ s += $NF } END { print s + 0 }' /sys/kernel/debug/ntprof/hooks
}

# sites T KIND [lean]: the names ntprof attaches, of KIND (tracepoint,
# function), comma-separated, found by starting sessions for transport T
# once (with --stages-only for lean).
sites() {
	local f=$B/sites-$1-$2${3:+-$3}

	if [ ! -s "$f" ]; then
		# ntprof record's own sessions: the layouts it reads from BTF
		# decide some hooks (the nvmet_req_init kprobe).
		record_both "$1" 1000000 ${3:+--stages-only} || return 1
		for k in tracepoint function; do
			awk -v k=$k '$2 == k && $(NF - 1) == "attached" { print $1 }' \
				/sys/kernel/debug/ntprof/hooks | sort -u |
				paste -sd, > "$B/sites-$1-$k${3:+-$3}"
		done
		stop s1000000
	fi
	cat "$f"
}

# start MODE T: start the profiler of MODE for transport T; ready on return.
start() {
	local mode=$1 t=$2 role i n

	case "$mode" in
	off) ;;
	empty)
		modprobe ntprof_emptyprobe functions="$(sites "$t" function)" \
			tracepoints="$(sites "$t" tracepoint)" || return 1
		;;
	emptylean)
		modprobe ntprof_emptyprobe functions="$(sites "$t" function lean)" \
			tracepoints="$(sites "$t" tracepoint lean)" || return 1
		;;
	s*) record_both "$t" "${mode#s}" || return 1 ;;
	lean*) record_both "$t" "${mode#lean}" --stages-only || return 1 ;;
	host-* | target-*)
		case "${mode#*-}" in
		lean*) record_roles "${mode%%-*}" "$t" "${mode#*-lean}" --stages-only ;;
		s*) record_roles "${mode%%-*}" "$t" "${mode#*-s}" ;;
		*) false ;;
		esac || return 1
		;;
	tracefs)
		echo > $T/trace
		echo > $T/kprobe_events
		for i in $(sites "$t" function | tr , ' '); do
			echo "p:ntprof_bench/$i $i" >> $T/kprobe_events || return 1
		done
		echo 1 > "$T"/events/ntprof_bench/enable
		for i in $(sites "$t" tracepoint | tr , ' '); do
			for e in "$T"/events/*/"$i"/enable; do
				case "$e" in */ntprof_bench/*) continue ;; esac
				echo 1 > "$e" || return 1
			done
		done
		echo 1 > $T/tracing_on
		;;
	bpf)
		for role in host target; do
			bpftrace "/tmp/bench-$role-$t.bt" > "/tmp/bpf-$role.out" \
				2> "$B/bpf-$role.err" &
			PIDS="$PIDS $!"
		done
		n=$(cat "/tmp/bench-host-$t.bt" "/tmp/bench-target-$t.bt" | grep -c '^kprobe:')
		for i in $(seq 1 6000); do
			[ "$(grep -c . /sys/kernel/debug/kprobes/list)" -ge "$n" ] && break
			sleep 0.1
		done
		[ "$(grep -c . /sys/kernel/debug/kprobes/list)" -ge "$n" ] ||
			{ log "bpftrace did not start"; cat "$B"/bpf-*.err; return 1; }
		;;
	*) log "unknown mode $mode"; return 1 ;;
	esac
}

stop() {
	local mode=$1

	case "$mode" in
	empty*) rmmod ntprof_emptyprobe ;;
	tracefs)
		echo 0 > $T/tracing_on
		echo 0 > $T/events/enable
		echo > $T/kprobe_events
		echo > $T/trace
		;;
	esac
	stop_recorders
}

# read_n DEV QD: fio's 4 KiB random reads, READS of them (per job at QD32).
read_n() {
	local engine=psync

	[ "$2" -gt 1 ] && engine=libaio
	fio --name=icount --filename="$1" --rw=randread --bs=4k --direct=1 \
		--ioengine=$engine --iodepth="$2" --size=256m \
		--number_ios="$READS" --output-format=terse --terse-version=3 |
		awk -F';' '{ print $8 }'
}

rotate() {
	local k=$1

	shift
	k=$((k % $#))
	echo "${@:k+1}" "${@:1:k}"
}

for r in $(seq 1 "$REPS"); do
	for t in $TRANSPORTS; do
		dev=$(namespace "$t")
		for qd in $QDS; do
			# shellcheck disable=SC2086 # the modes are words
			for mode in $(rotate "$r" $MODES); do
				start "$mode" "$t" || { stop "$mode"; exit 1; }
				h0=$(hits) c0=$(cpu_ns) r0=$(records)
				iops=$(read_n "$dev" "$qd")
				h1=$(hits) c1=$(cpu_ns) r1=$(records)
				stop "$mode"
				case "$mode" in s* | lean* | host-* | target-*) ;;
				*) h0=0 h1=0 c0=0 c1=0 r0=0 r1=0 ;;
				esac
				[ -n "$iops" ] || { log "fio failed ($t QD$qd $mode)"; exit 1; }
				printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$r" "$t" "$qd" \
					"$mode" "$iops" "$READS" $((h1 - h0)) $((r1 - r0)) \
					$((c1 - c0)) >> "$B/runs.tsv"
				log "rep $r $t QD$qd $mode: $iops IOPS"
			done
		done
	done
done
