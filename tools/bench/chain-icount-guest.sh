# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2153 # the settings come from chain-icount.sh
#
# The guest's half of tools/bench/chain-icount.sh, run by the one-guest
# lab under QEMU's icount mode as the host's script; chain-icount.sh puts
# the settings and record-both.sh in front of it.
#
# Under icount each guest counts its own time, so a chain of three guests
# has no one clock to compare IOPS on. This guest plays the whole kernel
# chain of issue 37 over loopback NVMe/TCP on one vCPU instead: its nvmet
# exports two memory-backed null_blk devices (the replicas, completing at
# once), the same kernel connects to both, builds an md raid1 over them
# (mdadm as selftests/lab/guest/chain.sh does), exports md0 over NVMe/TCP
# and connects to it; fio reads or writes that namespace. A command's
# latency in guest time is then every instruction the chain executed for
# it, and ntprof's share of it shows in fio's IOPS exactly.
#
# For each round and op (randread, randwrite: 4 KiB, QD1, psync), one
# fio run of OPS_N commands per mode, the order rotated from one round to
# the next:
#   off          no profiler
#   sN           the middle's two recordings, ntprof record -r target
#                --chain -s N and ntprof record -r host --chain=md -s N.
#                On this one machine the target session also records the
#                replicas' target side and the host session fio's side of
#                hop 1: the whole chain is recorded, not only the middle
#   target-sN, host-sN   one of the two alone
#   nochain-sN   both roles at -s N by the normal rule (without --chain)
# Each run adds a line to runs.tsv: round, op, mode, IOPS (guest time),
# commands, ntprof's hook hits, records drained by the readers and their
# CPU time in ns (0 without ntprof), and hooks-ROUND-OP-MODE.txt the hits
# of each hook during the fio run.

B=$NTPROF_LAB_SHARE/chain-icount
mkdir -p "$B"
mount -t debugfs nodev /sys/kernel/debug 2> /dev/null
HOOKS=/sys/kernel/debug/ntprof/hooks
CFG=/sys/kernel/config/nvmet
NQN=nqn.2026-12.io.ntprof.bench:chain
MD=/dev/md0
# The replicas' null_blk devices: the lab's own is nullb0.
REPLICAS="nullb1 nullb2"

log() { echo "chain-icount: $*"; }
die() { log "$*"; exit 1; }

# connect NQN: connect over loopback NVMe/TCP, print the new namespace.
connect() {
	local before d

	before=" $(cd /sys/block && echo *) "
	nvme connect -t tcp -a "$NTPROF_LAB_TCP_ADDR" -s "$NTPROF_LAB_TCP_PORT" \
		-n "$1" >&2 || return 1
	for _ in $(seq 1 100); do
		for d in /sys/block/*; do
			d=${d##*/}
			case "$before" in *" $d "*) continue ;; esac
			# nvmeXcYnZ are native multipath's per-path nodes.
			case "$d" in nvme*c*) ;; nvme*n*) echo "/dev/$d"; return 0 ;; esac
		done
		sleep 0.1
	done
	return 1
}

# export NAME DEVICE: DEVICE as namespace 1 of NQN-NAME on the lab's
# NVMe/TCP port.
export_dev() (
	s=$CFG/subsystems/$NQN-$1

	set -e
	mkdir "$s"
	echo 1 > "$s/attr_allow_any_host"
	mkdir "$s/namespaces/1"
	echo "$2" > "$s/namespaces/1/device_path"
	echo 1 > "$s/namespaces/1/enable"
	ln -s "$s" "$CFG/ports/1/subsystems/$NQN-$1"
)

unexport_dev() {
	rm -f "$CFG/ports/1/subsystems/$NQN-$1"
	echo 0 > "$CFG/subsystems/$NQN-$1/namespaces/1/enable"
	rmdir "$CFG/subsystems/$NQN-$1/namespaces/1" "$CFG/subsystems/$NQN-$1"
}

# nullb NAME: a 256 MiB memory-backed null_blk completing at once (md
# reads back the superblock mdadm writes). Its disk is NAME where the
# kernel names configfs devices after their directory, and numbered in
# the order of creation otherwise: after the lab's nullb0, the same.
nullb() {
	local d=/sys/kernel/config/nullb/$1

	mkdir "$d" && echo 256 > "$d/size" && echo 2 > "$d/queue_mode" &&
		echo 1 > "$d/memory_backed" && echo 0 > "$d/irqmode" &&
		echo 1 > "$d/power" && [ -b "/dev/$1" ]
}

LEGS=
VOLUME=
setup() {
	local r

	modprobe ntprof && modprobe raid1 || return 1
	for r in $REPLICAS; do
		nullb "$r" && export_dev "$r" "/dev/$r" &&
			LEGS="$LEGS $(connect "$NQN-$r")" || return 1
	done
	# shellcheck disable=SC2086 # the legs are words
	mdadm --create "$MD" --level=1 --raid-devices=2 --assume-clean \
		--bitmap=none --run --metadata=1.2 $LEGS || return 1
	export_dev md "$MD" && VOLUME=$(connect "$NQN-md") || return 1
	log "volume $VOLUME: $MD (raid1 of$LEGS) exported over tcp"
}

teardown() {
	local r

	nvme disconnect -n "$NQN-md" > /dev/null
	unexport_dev md
	mdadm --stop "$MD" > /dev/null
	for r in $REPLICAS; do
		nvme disconnect -n "$NQN-$r" > /dev/null
		unexport_dev "$r"
		echo 0 > "/sys/kernel/config/nullb/$r/power"
		rmdir "/sys/kernel/config/nullb/$r"
	done
}

hits() {
	awk '{ s += $NF } END { print s + 0 }' $HOOKS
}

start() {
	local mode=$1

	case "$mode" in
	off) ;;
	s*)
		record_roles target tcp "${mode#s}" --chain &&
			record_roles host tcp "${mode#s}" --chain=md
		;;
	target-s*) record_roles target tcp "${mode#target-s}" --chain ;;
	host-s*) record_roles host tcp "${mode#host-s}" --chain=md ;;
	nochain-s*) record_both tcp "${mode#nochain-s}" ;;
	*) log "unknown mode $mode"; return 1 ;;
	esac
}

stop() {
	stop_recorders
}

# fio_n OP: OPS_N commands of OP (randread, randwrite) on the volume,
# 4 KiB at QD1; prints fio's IOPS of that direction.
fio_n() {
	local field=8

	[ "$1" = randwrite ] && field=49
	fio --name=chain --filename="$VOLUME" --rw="$1" --bs=4k --direct=1 \
		--ioengine=psync --iodepth=1 --size="$REGION" \
		--number_ios="$OPS_N" --output-format=terse --terse-version=3 |
		awk -F';' -v f=$field '{ print $f }'
}

rotate() {
	local k=$1

	shift
	k=$((k % $#))
	echo "${@:k+1}" "${@:1:k}"
}

setup || { log "cannot build the chain"; teardown; exit 1; }
# Every block of the region written once: a replica's null_blk then
# copies a page for every command, and no round pays for its first
# writes' pages.
fio --name=fill --filename="$VOLUME" --rw=write --bs=128k --direct=1 \
	--ioengine=psync --size="$REGION" > /dev/null ||
	{ teardown; die "cannot fill the volume"; }
grep -H . /sys/block/md*/md/dev-*/offset > "$B/md-offsets.txt"
rc=0
for r in $(seq 1 "$ROUNDS"); do
	for op in $OPS; do
		# shellcheck disable=SC2086 # the modes are words
		for mode in $(rotate "$r" $MODES); do
			start "$mode" || { stop; rc=1; break 3; }
			cp $HOOKS /tmp/hooks0
			h0=$(hits) c0=$(cpu_ns) r0=$(records)
			iops=$(fio_n "$op")
			h1=$(hits) c1=$(cpu_ns) r1=$(records)
			awk 'NR == FNR { h[$1 " " $2 " " $3 " " $4] = $NF; next }
				{ k = $1 " " $2 " " $3 " " $4; if ($NF - h[k] > 0) print k, $NF - h[k] }' \
				/tmp/hooks0 $HOOKS > "$B/hooks-$r-$op-$mode.txt"
			stop
			[ "$mode" = off ] && { h0=0 h1=0 c0=0 c1=0 r0=0 r1=0; }
			[ -n "$iops" ] || { log "fio failed (round $r $op $mode)"; rc=1; break 3; }
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$r" "$op" "$mode" \
				"$iops" "$OPS_N" $((h1 - h0)) $((r1 - r0)) $((c1 - c0)) \
				>> "$B/runs.tsv"
			log "round $r $op $mode: $iops IOPS"
		done
	done
done
cat /proc/mdstat > "$B/mdstat.txt"
teardown
exit $rc
