# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The demo, target side: check the hooks, then record one command in 10 of
# the host's workload, one transport after the other, into the share where
# the host joins it with its own recording; then, with SPDK=, SPDK's target
# over RDMA.
modprobe ntprof || exit 1
share=$NTPROF_LAB_SHARE
for t in tcp rdma; do
	echo "== target: ntprof probe -r target -t $t"
	ntprof probe -r target -t $t || exit 1
	ntprof record -r target -t $t -s 10 -o "$share/target-$t.ntp" > "/tmp/record-$t.out" 2>&1 &
	rec=$!
	# The session is on once status says so; then the host may start.
	until ntprof status | grep -q recording; do sleep 0.2; done
	touch "$share/target-$t.recording"
	[ $t = tcp ] && lab-ready
	while [ ! -e "$share/host-$t.done" ]; do sleep 0.2; done
	kill -INT $rec
	wait $rec
	touch "$share/target-$t.saved"
	echo "== target: ntprof record -r target -t $t -s 10 (stopped when the host was done)"
	cat "/tmp/record-$t.out"
done

# With SPDK=: the tutorial's SPDK target over RDMA, recorded by its sites.
if [ "${NTPROF_LAB_SPDK:-0}" = 1 ]; then
	lab-spdk-target start 4096 || exit 1
	echo "== target: ntprof probe -t rdma --spdk-target $NTPROF_LAB_SPDK_TGT"
	ntprof probe -t rdma --spdk-target "$NTPROF_LAB_SPDK_TGT" || exit 1
	ntprof record -t rdma -s 10 --spdk-target "$NTPROF_LAB_SPDK_TGT" \
		-o "$share/target-spdk.ntp" > /tmp/record-spdk.out 2>&1 &
	rec=$!
	until grep -q 'profiling as' /tmp/record-spdk.out; do sleep 0.2; done
	touch "$share/target-spdk.recording"
	while [ ! -e "$share/host-spdk.done" ]; do sleep 0.2; done
	kill -INT $rec
	wait $rec
	touch "$share/target-spdk.saved"
	echo "== target: ntprof record -t rdma -s 10 --spdk-target (stopped when the host was done)"
	cat /tmp/record-spdk.out
	lab-spdk-target stop
fi
lab-wait-host
