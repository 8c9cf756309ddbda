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

# rotate K WORDS...: the words, the first K moved to the end.
rotate() {
	local k=$1

	shift
	k=$((k % $#))
	echo "${@:k+1}" "${@:1:k}"
}

for a in $(seq 1 "$ALTERNATIONS"); do
	for t in $TRANSPORTS; do
		dev=$NTPROF_LAB_TCP_DEV
		[ "$t" = rdma ] && dev=$NTPROF_LAB_RDMA_DEV
		# shellcheck disable=SC2046 # the modes are words
		for mode in $(rotate "$a" $MODES); do
			if [ "$mode" != off ]; then
				$tc start host "$t" "${mode#s}" > /dev/null &&
					$tc start target "$t" "${mode#s}" > /dev/null ||
					{ log "cannot start the sessions ($t $mode)"; exit 1; }
			fi
			h0=$(hits)
			fio --name=hookcost --filename="$dev" --rw=randread --bs=4k \
				--direct=1 --ioengine=psync --clocksource=clock_gettime \
				--size=256m --runtime="$RUNTIME" --time_based \
				--output-format=json > "$B/$a-$t-$mode.json" ||
				{ log "fio failed ($t $mode)"; exit 1; }
			h1=$(hits)
			if [ "$mode" != off ]; then
				$tc stop > /dev/null
				$tc drain /dev/null > /dev/null
			else
				h0=0 h1=0
			fi
			printf '%s\t%s\t%s\t%s\n' "$a" "$t" "$mode" $((h1 - h0)) >> "$B/hits.tsv"
		done
		log "alternation $a over $t done"
	done
done
syscall_ns > "$B/syscall-guest.txt"
