# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2153 # the settings come from drain.sh
#
# The guest's half of tools/bench/drain.sh, with a module built with
# NTPROF_DRAIN_GEN=1. For each rate, ntprof record -r host -s 1 drains
# while <debugfs>/ntprof/draingen writes COUNT records; the run ends when
# the buffers are empty again. Each rate adds a line to runs.tsv: rate
# asked, records asked, ns the generator took, ns until the buffers were
# drained (both guest time, from the generator's start), records the
# kernel dropped (buffer full), records ntprof record wrote, and the ns
# of CPU ntprof record took meanwhile.

B=$NTPROF_LAB_SHARE/drain
mkdir -p "$B"
mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
modprobe ntprof || exit 1
D=/sys/kernel/debug/ntprof
[ -w $D/draingen ] || { echo "drain: ntprof.ko has no load generator (no $D/draingen)"; exit 1; }

log() { echo "drain: $*"; }

# The host role's records and drops so far, and the records not yet read.
buffers() {
	awk '$1 == "host" && $2 == "cpu" {
		for (i = 3; i < NF; i++) {
			if ($i == "records") r += $(i + 1)
			if ($i == "drops") d += $(i + 1)
			if ($i == "fill") f += $(i + 1)
		} }
		END { print r + 0, d + 0, f + 0 }' $D/buffers
}

# Guest time in ns, to the microsecond (bash's clock: busybox's date has
# whole seconds).
now_ns() { local t=$EPOCHREALTIME; echo "${t/./}000"; }

for rate in $RATES; do
	ntprof record -r host -s 1 -d 3600 -o /tmp/drain.ntp > /tmp/drain.out 2>&1 &
	pid=$!
	for _ in $(seq 1 600); do
		grep -q '^ntprof: profiling' /tmp/drain.out && break
		sleep 0.1
	done
	grep -q '^ntprof: profiling' /tmp/drain.out ||
		{ log "ntprof record did not start"; cat /tmp/drain.out; exit 1; }
	# shellcheck disable=SC2046 # three numbers
	set -- $(buffers)
	d0=$2
	read -r c0 _ < "/proc/$pid/schedstat"
	t0=$(now_ns)
	echo "host $COUNT $rate" > $D/draingen || { log "the generator refused"; exit 1; }
	# Polled slowly: under icount every instruction of this loop is one
	# the generator and the reader do not get.
	while grep -q '^state running' $D/draingen; do
		sleep 0.5
	done
	gen_ns=$(awk '$1 == "elapsed_ns" { print $2 }' $D/draingen)
	if grep -q '^ended' $D/draingen; then
		log "the generator ended early: $(grep '^ended' $D/draingen)"
		exit 1
	fi
	# shellcheck disable=SC2046
	while set -- $(buffers) && [ "$3" -gt 0 ]; do
		sleep 0.1
	done
	t1=$(now_ns)
	read -r c1 _ < "/proc/$pid/schedstat"
	# shellcheck disable=SC2046
	set -- $(buffers)
	d1=$2
	kill -INT $pid
	wait $pid
	written=$(sed -n 's/^ntprof: \([0-9]*\) records written.*/\1/p' /tmp/drain.out)
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$rate" "$COUNT" "$gen_ns" \
		$((t1 - t0)) $((d1 - d0)) "${written:-0}" $((c1 - c0)) >> "$B/runs.tsv"
	log "rate $rate: $COUNT generated in $gen_ns ns, ${written:-0} written, $((d1 - d0)) dropped"
	rm -f /tmp/drain.ntp
done
