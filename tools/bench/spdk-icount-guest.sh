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
# Each run adds a line to runs.tsv: repetition, transport, mode, perf's
# IOPS and Average (us, guest time), and the uprobe hits of the host's and
# the target's sites.

B=$NTPROF_LAB_SHARE/spdk-icount
mkdir -p "$B"
mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
modprobe ntprof || exit 1
perf=$NTPROF_LAB_SPDK_PERF
tgt=$NTPROF_LAB_SPDK_TGT

log() { echo "spdk-icount: $*"; }

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

# run REP TRANSPORT MODE
run() {
	local rep=$1 t=$2 mode=$3 n rt rh iops avg

	rt= rh=
	if [ "$mode" != off ]; then
		n=${mode#s}
		ntprof record -t "$t" -s "$n" --spdk-target "$tgt" \
			-o /tmp/bench-target.ntp > /tmp/bench-rt.out 2>&1 &
		rt=$!
		ntprof record -t "$t" -s "$n" --spdk-host "$perf" \
			-o /tmp/bench-host.ntp > /tmp/bench-rh.out 2>&1 &
		rh=$!
		until grep -q 'profiling as' /tmp/bench-rt.out 2>/dev/null &&
		      grep -q 'profiling as' /tmp/bench-rh.out 2>/dev/null; do
			kill -0 $rt 2>/dev/null && kill -0 $rh 2>/dev/null ||
				{ log "$mode: a recording did not start"; cat /tmp/bench-r?.out; return 1; }
			sleep 0.2
		done
	fi
	"$perf" -q 1 -o 4096 -w randread -t "$SECONDS_PER_RUN" -c 0x2 -s 128 \
		-r "$(address "$t")" > /tmp/bench-perf.out 2>&1 ||
		{ log "$t $mode: perf failed"; tail -n 20 /tmp/bench-perf.out; }
	if [ -n "$rt" ]; then
		kill -INT $rh $rt
		wait $rh $rt
	fi
	set -- $(awk -F: '/^Total/ { split($2, f, " "); print f[1], f[3] }' \
		/tmp/bench-perf.out)
	iops=${1:-0} avg=${2:-0}
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$rep" "$t" "$mode" "${iops:-0}" \
		"${avg:-0}" "$([ -n "$rh" ] && usite_hits host || echo 0)" \
		"$([ -n "$rt" ] && usite_hits target || echo 0)" >> "$B/runs.tsv"
	log "rep $rep $t $mode: ${iops:-?} IOPS, ${avg:-?} us"
}

lab-spdk-target start 4096 || exit 1
printf 'rep\txport\tmode\tiops\tavg_us\thost_hits\ttarget_hits\n' > "$B/runs.tsv"
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

nmodes=$(echo $MODES | wc -w)
for rep in $(seq 1 "$REPS"); do
	for t in $TRANSPORTS; do
		# No mode always runs first or last.
		for mode in $(rotate $(( (rep - 1) % nmodes )) $MODES); do
			run "$rep" "$t" "$mode"
		done
	done
done
lab-spdk-target stop
