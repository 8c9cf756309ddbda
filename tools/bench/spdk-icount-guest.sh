# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2153 # the settings come from spdk-icount.sh
#
# The guest's half of tools/bench/spdk-icount.sh, run by the one-guest lab
# under QEMU's icount mode as the host's script, with SPDK (SPDK=DIR): SPDK's
# target on vCPU 0 and spdk_nvme_perf on vCPU 1 over loopback, both polling,
# so that guest time counts the instructions of both, and a profiler's cost
# on either side shows in perf's IOPS.
#
# For each repetition and transport, one perf run per mode, the modes'
# order rotated from one repetition to the next:
#   off   no profiler
#   sN    ntprof record -s N with --spdk-target and with --spdk-host
# With AGENT=1 both sides go through the in-process agent, each recorded
# by its PID (no module's session: its kernel hooks and uprobe sites are
# not the agent's cost): nvmf_tgt under ntprof run (its agent off in the
# off runs), perf under ntprof run --wait-recorder in the recorded runs,
# held until its recorder is on, so that the recording has each read.
# Each run adds a line to runs.tsv: repetition, transport, mode, perf's
# IOPS and Average (us, guest time), the uprobe hits of the host's and
# the target's sites (0 through the agent), and ntprof's read mean (us)
# of the joined recordings.

B=$NTPROF_LAB_SHARE/spdk-icount
mkdir -p "$B"
mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
modprobe ntprof || exit 1
perf=$NTPROF_LAB_SPDK_PERF
tgt=$NTPROF_LAB_SPDK_TGT

log() { echo "spdk-icount: $*"; }

# Under icount the guest's clock counts every vCPU's instructions, run
# one vCPU at a time: a recorder's work costs perf's IOPS whichever vCPU
# it runs on (a third one did not help: tried), as if it ran on SPDK's
# cores. The cost a hit is agent-icount.sh's and uprobe-icount.sh's.

# usite_hits ROLE: the hits of ROLE's sites in its last session.
usite_hits() {
	awk -v r="$1" '$1 == r { for (i = 1; i < NF; i++) if ($i == "hits") s += $(i + 1) }
		END { print s + 0 }' /sys/kernel/debug/ntprof/usites
}

address() {
	if [ "$1" = rdma ]; then
		echo "trtype:RDMA adrfam:IPv4 traddr:$NTPROF_LAB_SPDK_RDMA_ADDR trsvcid:$NTPROF_LAB_SPDK_RDMA_PORT subnqn:$NTPROF_LAB_SPDK_NQN"
	else
		echo "trtype:TCP adrfam:IPv4 traddr:$NTPROF_LAB_SPDK_TCP_ADDR trsvcid:$NTPROF_LAB_SPDK_TCP_PORT subnqn:$NTPROF_LAB_SPDK_NQN"
	fi
}

# started NAME PID: until record's output says it profiles.
started() {
	until grep -q 'profiling as' "/tmp/bench-$1.out" 2>/dev/null; do
		kill -0 "$2" 2>/dev/null ||
			{ log "the $1 recording did not start"; cat "/tmp/bench-$1.out"; return 1; }
		sleep 0.2
	done
}

# read_mean: ntprof's mean read latency (us) of the run's two recordings.
read_mean() {
	ntprof report /tmp/bench-host.ntp /tmp/bench-target.ntp 2>/dev/null |
		awk '/^== read / { r = 1 } r && /latency \(us\): mean/ {
			sub(/.*mean /, ""); sub(/,.*/, ""); print; exit }'
}

# run REP TRANSPORT MODE
run() {
	local rep=$1 t=$2 mode=$3 n rt rh p iops avg mean=0
	local args=(-q "$QD" -o 4096 -w randread -t "$SECONDS_PER_RUN" -c 0x2
		-s 128 -r "$(address "$t")")

	rt='' rh=''
	if [ "$mode" = off ]; then
		"$perf" "${args[@]}" > /tmp/bench-perf.out 2>&1 ||
			{ log "$t $mode: perf failed"; tail -n 20 /tmp/bench-perf.out; }
	else
		n=${mode#s}
		# Through the agent: nvmf_tgt by its PID, no module's session.
		ntprof record -t "$t" -s "$n" --spdk-target "$target" \
			-o /tmp/bench-target.ntp > /tmp/bench-rt.out 2>&1 &
		rt=$!
		started rt $rt || return 1
		if [ "$AGENT" = 1 ]; then
			ntprof run -t "$t" --wait-recorder 600 -- "$perf" "${args[@]}" \
				> /tmp/bench-perf.out 2>&1 &
			p=$!
			# The guest's find is busybox's, without -lname.
			# shellcheck disable=SC2010
			until ls -l "/proc/$p/fd" 2>/dev/null | grep -q 'memfd:ntprof-agent'; do
				kill -0 "$p" 2>/dev/null || break
				sleep 0.1
			done
			ntprof record -t "$t" -s "$n" --spdk-host "$p" \
				-o /tmp/bench-host.ntp > /tmp/bench-rh.out 2>&1 &
			rh=$!
		else
			ntprof record -t "$t" -s "$n" --spdk-host "$perf" \
				-o /tmp/bench-host.ntp > /tmp/bench-rh.out 2>&1 &
			rh=$!
			started rh $rh || return 1
			"$perf" "${args[@]}" > /tmp/bench-perf.out 2>&1 &
			p=$!
		fi
		wait $p || { log "$t $mode: perf failed"; tail -n 20 /tmp/bench-perf.out; }
		kill -INT $rh $rt
		# shellcheck disable=SC2086 # the recorders' pids, if any.
		wait $rh $rt
		mean=$(read_mean)
	fi
	# shellcheck disable=SC2046 # two numbers, or none.
	set -- $(awk -F: '/^Total/ { split($2, f, " "); print f[1], f[3] }' \
		/tmp/bench-perf.out)
	iops=${1:-0} avg=${2:-0}
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$rep" "$t" "$mode" "${iops:-0}" \
		"${avg:-0}" "$([ -n "$rh" ] && [ "$AGENT" != 1 ] && usite_hits host || echo 0)" \
		"$([ -n "$rt" ] && [ "$AGENT" != 1 ] && usite_hits target || echo 0)" \
		"${mean:-0}" >> "$B/runs.tsv"
	log "rep $rep $t $mode: ${iops:-?} IOPS, ${avg:-?} us, ntprof ${mean:-?} us"
}

if [ "$AGENT" = 1 ]; then
	LAB_SPDK_AGENT=1 lab-spdk-target start 4096 || exit 1
	target=$(cat /run/lab-spdk-target.pid)
else
	lab-spdk-target start 4096 || exit 1
	target=$tgt
fi
printf 'rep\txport\tmode\tiops\tavg_us\thost_hits\ttarget_hits\tmean_us\n' > "$B/runs.tsv"
# rotate K WORD...: the words from the K-th on, then the first K.
rotate() {
	local k=$1

	shift
	while [ "$k" -gt 0 ]; do
		set -- "$@" "$1"
		shift
		k=$((k - 1))
	done
	echo "$@"
}

nmodes=$(echo "$MODES" | wc -w)
for rep in $(seq 1 "$REPS"); do
	for t in $TRANSPORTS; do
		# No mode always runs first or last.
		# shellcheck disable=SC2086 # MODES is a list of words.
		for mode in $(rotate $(( (rep - 1) % nmodes )) $MODES); do
			run "$rep" "$t" "$mode"
		done
	done
done
lab-spdk-target stop
