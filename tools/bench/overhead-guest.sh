# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2153 # the settings come from overhead.sh
#
# The guests' half of tools/bench/overhead.sh, run by the two-guest lab as
# both the host's and the target's script; overhead.sh puts the settings
# and the bpftrace programs (/tmp/bench-*.bt) in front of it.
#
# The host drives. For each step (an alternation, a transport, a mode) it
# writes step-K ("MODE TRANSPORT") into the share; both sides start their
# profiler for MODE (the target says ready-K), and the host runs fio at
# each queue depth. Around every fio run both sides take a mark (mark-K-N,
# the target's first and last): their CPU time, ntprof's hook hits and
# the reads of a device (host.tsv, target.tsv), so that the CPU time of
# each side over fio's I/Os can be compared between modes. Then done-K;
# the target stops its profiler and says stopped-K.
#
# Modes: base (no profiler), s100 and s1 (ntprof record -s 100 / -s 1 on
# both sides), bpf (the bpftrace programs on both sides). Their order
# rotates from one alternation to the next.
#
# First, if DRAIN=1, the drain: ntprof record -s 1 on both sides under the
# heaviest fio the lab makes (DRAIN_JOBS jobs at DRAIN_QD), per transport.

B=$NTPROF_LAB_SHARE/bench
mkdir -p "$B"
if [ "${BENCH_TRACE:-0}" = 1 ]; then
	exec 8> "$B/trace-$NTPROF_LAB_ROLE"
	BASH_XTRACEFD=8
	set -x
fi
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
modprobe ntprof || exit 1

log() { echo "bench: $*"; }

pause() { sleep "$1"; }

# wait_file FILE [SECONDS]
wait_file() {
	local i=0 max=$(( ${2:-900} * 20 ))

	while [ ! -e "$1" ]; do
		i=$((i + 1))
		[ $i -gt $max ] && { log "timed out waiting for $1"; return 1; }
		pause 0.05
	done
}

# Whose reads count: the backing device's on the target; on the host, the
# namespace's path device (nvmeXcYnZ): with native multipath, the
# namespace's head node (nvmeXnZ) keeps no I/O statistics.
stat_dev() {
	local d p

	if [ "$NTPROF_LAB_ROLE" = target ]; then
		echo "${NTPROF_LAB_BACKING_DEV#/dev/}"
		return
	fi
	d=${NTPROF_LAB_TCP_DEV#/dev/}
	[ "$1" = rdma ] && d=${NTPROF_LAB_RDMA_DEV#/dev/}
	for p in /sys/block/"${d%n*}"c*n"${d##*n}"; do
		[ -e "$p/stat" ] && { echo "${p##*/}"; return; }
	done
	echo "$d"
}

# mark FILE STEP N DEV: a line of this side's counters: step, mark, CPU
# time (/proc/stat, all but idle and iowait, USER_HZ ticks), the sum of
# ntprof's hook hits, reads DEV completed, uptime. (bash reads a file that
# is not regular a byte per system call: debugfs goes through one awk.)
mark() {
	local u n s q sq st hits rd up

	# cpu user nice system idle iowait irq softirq steal ...
	read -r _ u n s _ _ q sq st _ < /proc/stat
	hits=$(awk '{ s += $NF } END { print s + 0 }' /sys/kernel/debug/ntprof/hooks)
	read -r rd _ < "/sys/block/$4/stat"
	read -r up _ < /proc/uptime
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$2" "$3" \
		$((u + n + s + q + sq + st)) "$hits" "$rd" "$up" >> "$1"
}

# prof_start ROLE MODE TRANSPORT STEP: start this side's profiler, return
# once it records.
prof_start() {
	local role=$1 mode=$2 t=$3 k=$4 i n

	PROF_PID=
	case "$mode" in
	base) return 0 ;;
	s100|s1)
		ntprof record -r "$role" -t "$t" -s "${mode#s}" \
			-o "/tmp/$role-$k.ntp" > "$B/record-$role-$k.out" 2>&1 &
		PROF_PID=$!
		for i in $(seq 1 1200); do
			ntprof status 2>/dev/null | grep -q recording && break
			kill -0 $PROF_PID 2>/dev/null || break
			pause 0.1
		done
		;;
	bpf)
		bpftrace "/tmp/bench-$role-$t.bt" > "/tmp/bpf-$role-$k.out" \
			2> "$B/bpf-$role-$k.err" &
		PROF_PID=$!
		# Ready once the kernel lists all its kprobes.
		n=$(grep -c '^kprobe:' "/tmp/bench-$role-$t.bt")
		for i in $(seq 1 6000); do
			[ "$(grep -c . /sys/kernel/debug/kprobes/list)" -ge "$n" ] && break
			kill -0 $PROF_PID 2>/dev/null || break
			pause 0.1
		done
		;;
	esac
	kill -0 $PROF_PID 2>/dev/null || { log "$mode did not start on the $role"; return 1; }
	# Attaching patches kernel text: under TCG that throws away the
	# translated code, which takes a while to come back.
	pause "$SETTLE"
}

# prof_stop ROLE MODE STEP
prof_stop() {
	local role=$1 mode=$2 k=$3

	[ -n "$PROF_PID" ] || return 0
	kill -INT $PROF_PID
	wait $PROF_PID
	case "$mode" in
	s100|s1)
		cp "/tmp/$role-$k.ntp" "$B/$role-$k.ntp" 2>/dev/null
		rm -f "/tmp/$role-$k.ntp"
		;;
	bpf)
		# Records printed, and those bpftrace says it lost.
		printf '%s\t%s\t%s\n' "$k" "$(grep -c '^[HT] ' "/tmp/bpf-$role-$k.out")" \
			"$(awk '/^Lost [0-9]+ events/ { s += $2 } END { print s + 0 }' \
				"/tmp/bpf-$role-$k.out")" >> "$B/bpf-$role.records"
		rm -f "/tmp/bpf-$role-$k.out"
		;;
	esac
}

# fio_run T QD SECONDS NAME K N [JOBS]: fio's terse output to $B/NAME.fio,
# between marks N and N + 1 of step K on both sides (the target's taken
# before fio starts and after it ends).
fio_run() {
	local t=$1 qd=$2 secs=$3 k=$5 n=$6 engine=psync dev sdev

	dev=$NTPROF_LAB_TCP_DEV
	[ "$t" = rdma ] && dev=$NTPROF_LAB_RDMA_DEV
	sdev=$(stat_dev "$t")
	[ "$qd" -gt 1 ] && engine=libaio
	touch "$B/mark-$k-$n"
	wait_file "$B/marked-$k-$n" 120 || return 1
	mark "$B/host.tsv" "$k" "$n" "$sdev"
	fio --name=bench --filename="$dev" --rw=randread --bs=4k --direct=1 \
		--ioengine=$engine --iodepth="$qd" --numjobs="${7:-1}" \
		--group_reporting --size=512m --runtime="$secs" --time_based \
		--clocksource=clock_gettime --output-format=terse \
		> "$B/$4.fio" || return 1
	mark "$B/host.tsv" "$k" $((n + 1)) "$sdev"
	touch "$B/mark-$k-$((n + 1))"
	wait_file "$B/marked-$k-$((n + 1))" 120
}

# host_step K MODE T ALTERNATION QDS SECONDS [JOBS]
host_step() {
	local k=$1 m=$2 t=$3 a=$4 qds=$5 secs=$6 jobs=${7:-1} qd n=0 name

	echo "$m $t" > "$B/step-$k.tmp"
	mv "$B/step-$k.tmp" "$B/step-$k"
	prof_start host "$m" "$t" "$k" || return 1
	wait_file "$B/ready-$k" || return 1
	for qd in $qds; do
		name=fio-$k-$qd
		fio_run "$t" "$qd" "$secs" "$name" "$k" $n "$jobs" || return 1
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$k" "$a" "$t" "$m" \
			"$qd" $n $((n + 1)) >> "$B/runs.tsv"
		n=$((n + 2))
	done
	case "$k" in
	drain-*) cat /sys/kernel/debug/ntprof/buffers > "$B/buffers-host-$k" ;;
	esac
	prof_stop host "$m" "$k"
	touch "$B/done-$k"
	wait_file "$B/stopped-$k" || return 1
}

host_main() {
	local a k=0 i m t modes

	if [ "$DRAIN" = 1 ]; then
		for t in $TRANSPORTS; do
			host_step "drain-$t" s1 "$t" 0 "$DRAIN_QD" "$DRAIN_RUNTIME" \
				"$DRAIN_JOBS" || return 1
			log "drain over $t done"
		done
	fi
	read -r -a modes <<< "$MODES"
	for a in $(seq 1 "$ALTERNATIONS"); do
		for t in $TRANSPORTS; do
			for i in $(seq 0 $((${#modes[@]} - 1))); do
				m=${modes[$(( (i + a - 1) % ${#modes[@]} ))]}
				k=$((k + 1))
				host_step $k "$m" "$t" "$a" "$QDS" "$RUNTIME" || return 1
				log "step $k: alternation $a, $t, $m done"
			done
		done
	done
	touch "$B/end"
}

# target_step K: this side of the host's step K.
target_step() {
	local k=$1 m t n=0 sdev

	read -r m t < "$B/step-$k"
	sdev=$(stat_dev "$t")
	prof_start target "$m" "$t" "$k" || return 1
	touch "$B/ready-$k"
	while [ ! -e "$B/done-$k" ]; do
		if [ -e "$B/mark-$k-$n" ]; then
			mark "$B/target.tsv" "$k" $n "$sdev"
			touch "$B/marked-$k-$n"
			n=$((n + 1))
			continue
		fi
		pause 0.05
	done
	case "$k" in
	drain-*) cat /sys/kernel/debug/ntprof/buffers > "$B/buffers-target-$k" ;;
	esac
	prof_stop target "$m" "$k"
	touch "$B/stopped-$k"
}

target_main() {
	local k=1 t

	lab-ready
	if [ "$DRAIN" = 1 ]; then
		for t in $TRANSPORTS; do
			wait_file "$B/step-drain-$t" || return 1
			target_step "drain-$t" || return 1
		done
	fi
	while :; do
		while [ ! -e "$B/step-$k" ]; do
			[ -e "$B/end" ] && return 0
			pause 0.05
		done
		target_step $k || return 1
		k=$((k + 1))
	done
}

case "$NTPROF_LAB_ROLE" in
host) host_main ;;
target) target_main ;;
esac
