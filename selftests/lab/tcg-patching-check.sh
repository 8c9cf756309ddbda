#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Does the guest kernel patch its own code safely under this TCG? Without
# ntprof: the one-guest lab (2 vCPUs) switches the kernel's own block
# tracepoints and an ftrace function probe on and off through tracefs,
# CYCLES times, while fio reads over NVMe/TCP loopback on the other vCPU;
# then reports whether the guest's kernel logged an oops. With
# LAB_TCG_THREAD=multi (a host thread per vCPU) the lab once saw
# "Oops: int3" in the block layer while ntprof switched a tracepoint off;
# this tells the emulator's part from ntprof's (Documentation/lab.rst,
# Acceleration, has its verdict: multi oopses without ntprof, single does
# not). Not part of make check.
#
# usage: LAB_TCG_THREAD=multi|single selftests/lab/tcg-patching-check.sh
# environment: KERNEL=6.12, CYCLES=300
set -euo pipefail
cd "$(dirname "$0")"
export KERNEL=${KERNEL:-6.12} TOPOLOGY=one
cycles=${CYCLES:-300}
run_dir=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-tcg-patching.XXXXXX")
script=$run_dir.sh
cat > "$script" <<EOF
cycles=$cycles
EOF
cat >> "$script" <<'EOF'
T=/sys/kernel/tracing
mount -t tracefs nodev $T 2>/dev/null
fio --name=load --filename="$NTPROF_LAB_TCP_DEV" --rw=randread --bs=4k \
	--direct=1 --ioengine=libaio --iodepth=8 --time_based --runtime=3600 \
	> /dev/null 2>&1 &
load=$!
sleep 5
echo 'p:tcgcheck blk_mq_start_request' >> $T/kprobe_events
for i in $(seq 1 "$cycles"); do
	echo 1 > $T/events/block/block_rq_issue/enable
	echo 1 > $T/events/block/block_rq_complete/enable
	echo 1 > $T/events/kprobes/tcgcheck/enable
	sleep 0.05
	echo 0 > $T/events/kprobes/tcgcheck/enable
	echo 0 > $T/events/block/block_rq_complete/enable
	echo 0 > $T/events/block/block_rq_issue/enable
	kill -0 $load 2>/dev/null || { echo "tcg-patching: fio died at cycle $i"; break; }
done
echo "tcg-patching: $i cycles"
kill $load
wait $load 2>/dev/null
echo '-:tcgcheck' >> $T/kprobe_events
EOF
echo "tcg-patching: $cycles cycles, TCG thread=${LAB_TCG_THREAD:-single}, run in $run_dir" >&2
rc=0
LAB_RUN_DIR=$run_dir LAB_TIMEOUT=$(( 900 + cycles * 3 )) \
	bash ./lab-run.sh --host "$script" || rc=$?
rm -f "$script"
if grep -hE 'Oops|BUG:|WARNING:|general protection' "$run_dir"/share/dmesg-*.log "$run_dir"/*.log 2>/dev/null | sort -u | head -n 5 | grep .; then
	echo "tcg-patching: the guest kernel oopsed or warned, without ntprof" >&2
	exit 1
fi
[ $rc = 0 ] || { echo "tcg-patching: the lab run failed ($rc)" >&2; exit "$rc"; }
echo "tcg-patching: no oops or warning in $cycles cycles" >&2
