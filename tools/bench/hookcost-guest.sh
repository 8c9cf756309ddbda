# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2153 # the settings come from hookcost.sh
#
# The guest's half of tools/bench/hookcost.sh, run by the one-guest lab
# (host and target in one kernel, NVMe-oF over loopback) as the host's
# script; hookcost.sh puts the settings in front of it.
#
# Per alternation and transport, one fio run (4 KiB random reads, queue
# depth 1) per mode, the modes' order rotated: "off" (no session) and sN
# (a host and a target session sampling 1 in N, started with the lab's
# testclient: the module alone, nothing draining while fio runs). With
# one kernel doing both sides at queue depth 1, every hook hit of both
# sides is on the path of the one read in flight. Each run leaves its
# fio JSON (A-T-MODE.json) and a line of hits.tsv: alternation,
# transport, mode, hook hits over fio's run.
# Then, per transport and sampling mode, the function graph tracer times
# every call of ntprof's own functions (set_ftrace_filter :mod:ntprof)
# over GRAPH_SECONDS of fio: each hook's handler, with what it calls
# outside the module (the clock, the ring buffer), in graph-T-MODE.trace.
# Last, the yardstick of tools/bench/syscall-ns.sh (which hookcost.sh puts
# in front of this too) into syscall-guest.txt; hookcost.sh measures the
# same on the machine that runs the lab.

B=$NTPROF_LAB_SHARE/hookcost
mkdir -p "$B"
modprobe ntprof || exit 1
mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
tc=testclient

log() { echo "hookcost: $*"; }

# The sum of ntprof's hook hits since the sessions started.
hits() {
	awk '{ s += $NF } END { print s + 0 }' /sys/kernel/debug/ntprof/hooks
}

# namespace T: the namespace the host connected over transport T.
namespace() {
	if [ "$1" = rdma ]; then
		echo "$NTPROF_LAB_RDMA_DEV"
	else
		echo "$NTPROF_LAB_TCP_DEV"
	fi
}

# start_sessions T N: a host and a target session over T, sampling 1 in N.
start_sessions() {
	if ! $tc start host "$1" "$2" > /dev/null ||
	   ! $tc start target "$1" "$2" > /dev/null; then
		log "cannot start the sessions ($1, 1 in $2)"
		exit 1
	fi
}

# stop_sessions: stop both, and empty their buffers for the next run.
stop_sessions() {
	$tc stop > /dev/null
	$tc drain /dev/null > /dev/null
}

# read_for DEV SECONDS [FIO OPTIONS...]: fio's 4 KiB random reads at QD1.
read_for() {
	local dev=$1 seconds=$2

	shift 2
	fio --name=hookcost --filename="$dev" --rw=randread --bs=4k \
		--direct=1 --ioengine=psync --clocksource=clock_gettime \
		--size=256m --runtime="$seconds" --time_based "$@"
}

# rotate K WORDS...: the words, the first K moved to the end.
rotate() {
	local k=$1

	shift
	k=$((k % $#))
	echo "${@:k+1}" "${@:1:k}"
}

for a in $(seq 1 "$ALTERNATIONS"); do
	for t in $TRANSPORTS; do
		dev=$(namespace "$t")
		# shellcheck disable=SC2086 # the modes are words
		for mode in $(rotate "$a" $MODES); do
			[ "$mode" = off ] || start_sessions "$t" "${mode#s}"
			h0=$(hits)
			read_for "$dev" "$RUNTIME" --output-format=json \
				> "$B/$a-$t-$mode.json" ||
				{ log "fio failed ($t $mode)"; exit 1; }
			h1=$(hits)
			if [ "$mode" != off ]; then
				stop_sessions
			else
				h0=0 h1=0
			fi
			printf '%s\t%s\t%s\t%s\n' "$a" "$t" "$mode" $((h1 - h0)) >> "$B/hits.tsv"
		done
		log "alternation $a over $t done"
	done
done
T=/sys/kernel/tracing
mount -t tracefs nodev $T 2>/dev/null
for t in $TRANSPORTS; do
	dev=$(namespace "$t")
	for mode in $MODES; do
		[ "$mode" = off ] && continue
		echo 0 > $T/tracing_on
		echo 16384 > $T/buffer_size_kb
		echo ':mod:ntprof' > $T/set_ftrace_filter
		echo function_graph > $T/current_tracer
		echo > $T/trace
		start_sessions "$t" "${mode#s}"
		echo 1 > $T/tracing_on
		read_for "$dev" "$GRAPH_SECONDS" > /dev/null
		echo 0 > $T/tracing_on
		stop_sessions
		cat $T/trace > "$B/graph-$t-$mode.trace"
		echo nop > $T/current_tracer
		echo > $T/set_ftrace_filter
		log "graph over $t, $mode done"
	done
done
syscall_ns > "$B/syscall-guest.txt"
