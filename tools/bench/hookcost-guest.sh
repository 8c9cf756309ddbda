# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2153 # the settings come from hookcost.sh
#
# The guest's half of tools/bench/hookcost.sh, run by the one-guest lab
# under icount with a cost build of ntprof.ko; hookcost.sh puts the
# settings and record-both.sh in front of it. Per transport and mode, both roles record
# while fio reads READS times at QD1; <debugfs>/ntprof/hookcost before
# and after gives each hook's hits and guest ns over the run. Each run
# adds lines to costs.tsv: transport, mode, reads, bracket ns, hook,
# kind, role, hits, ns.

B=$NTPROF_LAB_SHARE/hookcost
mkdir -p "$B"
mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
modprobe ntprof || exit 1
C=/sys/kernel/debug/ntprof/hookcost
[ -r $C ] || { echo "hookcost: ntprof.ko is not a cost build (no $C)"; exit 1; }

log() { echo "hookcost: $*"; }

namespace() {
	if [ "$1" = rdma ]; then
		echo "$NTPROF_LAB_RDMA_DEV"
	else
		echo "$NTPROF_LAB_TCP_DEV"
	fi
}

for t in $TRANSPORTS; do
	dev=$(namespace "$t")
	for mode in $MODES; do
		record_both "$t" "${mode#s}" || { stop_recorders; exit 1; }
		# A few reads first: the first hits of a session fault in its code.
		fio --name=warm --filename="$dev" --rw=randread --bs=4k --direct=1 \
			--ioengine=psync --size=256m --number_ios=50 > /dev/null
		cat $C > /tmp/cost0
		fio --name=hookcost --filename="$dev" --rw=randread --bs=4k --direct=1 \
			--ioengine=psync --size=256m --number_ios="$READS" > /dev/null ||
			{ log "fio failed ($t $mode)"; stop_recorders; exit 1; }
		cat $C > /tmp/cost1
		stop_recorders
		awk -v t="$t" -v m="$mode" -v n="$READS" '
			FNR == NR { k = $1 " " $2 " " $3 " " $4; h[k] = $5; ns[k] = $6; next }
			$1 == "bracket" { b = $2; next }
			{ k = $1 " " $2 " " $3 " " $4
			  if ($5 - h[k] > 0)
				printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", t, m, n, b,
					$1, $2, $3, $5 - h[k], $6 - ns[k] }' /tmp/cost0 /tmp/cost1 >> "$B/costs.tsv"
		log "$t $mode done"
	done
done
