# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Ground truth for ntprof report and compare, target side. The host runs
# one step per phase and transport (REPORT_PHASES, "tcp rdma"): for each,
# this side sets the phase's load up, records with the host's -s, and takes
# the load down again once the host's fio is done. Phases:
#   base, slow  nothing added (slow: the boot's null_blk is slower);
#   netem       nothing here: the host delays its own egress (the
#               target's send costs stay where they are);
#   busy        a local fio writer on the backing device, 128 KiB random
#               writes at queue depth 8.
# Files in the share: STEP-target.ntp, STEP-target.out, STEP-writer.json.
# shellcheck source=selftests/ktap.sh
. /lab/ktap.sh
# shellcheck source=selftests/integration/common/guest/records.sh
. /lab/tests/records.sh
KTAP_PREFIX="target: "
share=$NTPROF_LAB_SHARE
phases=${REPORT_PHASES:-base}
sample=${REPORT_SAMPLE:-1}


# nap SECONDS: sleep without a fork (under TCG a fork and exec of sleep
# costs a guest's CPU milliseconds, beside the commands measured).
mkfifo /tmp/nap.fifo
exec {nap_fd}<> /tmp/nap.fifo
nap() {
	read -r -t "$1" -u "$nap_fd"
}

# wait_share NAME: until the host's flag file NAME is in the share (5 min).
wait_share() {
	local i=0

	while [ ! -e "$share/$1" ]; do
		[ $i -ge 1500 ] && return 1
		nap 0.2
		i=$((i + 1))
	done
}

# load_up PHASE STEP / load_down PHASE STEP: the phase's load on this side.
load_up() {
	case "$1" in
	busy)
		fio --name=busy --filename="$NTPROF_LAB_BACKING_DEV" \
			--rw=randwrite --bs=128k --ioengine=libaio --iodepth=8 \
			--direct=1 --time_based --runtime=600 --norandommap \
			--scramble_buffers=0 \
			--output-format=json > "/tmp/$2-writer.json" 2> /tmp/writer.err &
		writer=$!
		# Until it writes: its requests keep the drive busy.
		nap 2
		kill -0 $writer 2>/dev/null
		;;
	esac
}

load_down() {
	case "$1" in
	busy)
		kill -INT "$writer" 2>/dev/null
		wait "$writer"
		# fio says it was interrupted before its JSON.
		sed -n '/^{/,$p' "/tmp/$2-writer.json" > "$share/$2-writer.json"
		;;
	esac
}

# cpu_busy: jiffies busy and in all, of /proc/stat's first line.
cpu_busy() {
	awk '/^cpu / { t = 0; for (i = 2; i <= NF; i++) t += $i
		print t - $5 - $6, t; exit }' /proc/stat
}

ktap_header
modprobe ntprof || { ktap_fail "modprobe ntprof"; ktap_finished; exit 1; }
ktap_diag "null_blk: irqmode $(cat /sys/module/null_blk/parameters/irqmode)," \
	"completion_nsec $(cat /sys/module/null_blk/parameters/completion_nsec)," \
	"hw_queue_depth $(cat /sys/module/null_blk/parameters/hw_queue_depth)," \
	"scheduler $(cat /sys/block/nullb0/queue/scheduler)"
cpu0=$(cpu_busy)
nap 2
cpu1=$(cpu_busy)
echo "$cpu0 $cpu1" | awk '{
	printf "# idle: target CPU busy %.0f %%\n", 100 * ($3 - $1) / ($4 - $2) }'
lab-ready

for phase in $phases; do
	for t in tcp rdma; do
		step=$phase-$t
		wait_share "$step.go" || { ktap_fail "$step: the host started"; break 2; }
		if load_up "$phase" "$step"; then
			ktap_pass "$step: load set up"
		else
			ktap_fail "$step: load set up"
			sed 's/^/# /' /tmp/writer.err 2>/dev/null
		fi
		ntprof record -r target -t "$t" -s "$sample" -o "/tmp/$step-target.ntp" \
			> "/tmp/$step-target.out" 2>&1 &
		rec=$!
		wait_line "/tmp/$step-target.out" '^ntprof: profiling as target' ||
			ktap_fail "$step: record started"
		touch "$share/$step.rec"
		cpu0=$(cpu_busy)
		wait_share "$step.done" || ktap_fail "$step: the host finished"
		cpu1=$(cpu_busy)
		record_stop "$step" $rec "/tmp/$step-target.out"
		load_down "$phase" "$step"
		echo "$cpu0 $cpu1" | awk -v step="$step" '{
			printf "# %s: target CPU busy %.0f %%\n", step,
				100 * ($3 - $1) / ($4 - $2) }'
		cp "/tmp/$step-target.ntp" "/tmp/$step-target.out" "$share/"
		touch "$share/$step.saved"
	done
done
rmmod ntprof
ktap_finished
