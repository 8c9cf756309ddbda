# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The demo, host side: check the hooks, then record one command in 10
# while fio runs 4 KiB random reads at queue depth 1 over NVMe/TCP and then
# NVMe/RDMA, and join the host's recording with the target's; then, with
# SPDK=, spdk_nvme_perf against SPDK's target.
modprobe ntprof || exit 1
share=$NTPROF_LAB_SHARE
for t in tcp rdma; do
	dev=$NTPROF_LAB_TCP_DEV
	[ $t = rdma ] && dev=$NTPROF_LAB_RDMA_DEV
	while [ ! -e "$share/target-$t.recording" ]; do sleep 0.2; done
	echo "== host: ntprof probe -r host -t $t"
	ntprof probe -r host -t $t || exit 1
	fio --name=demo-$t --filename="$dev" --rw=randread --bs=4k --direct=1 \
		--ioengine=psync --size=256m --runtime=8 \
		--time_based --output-format=terse > "/tmp/fio-$t.out" &
	fio=$!
	echo "== host: ntprof record -r host -t $t -s 10 -d 10 -i 5, beside fio on $dev"
	ntprof record -r host -t $t -s 10 -d 10 -i 5 -o "$share/host-$t.ntp" || exit 1
	wait $fio
	awk -F';' '{ printf "fio: read %d IOPS, mean latency %.1f us\n", $8, $40 }' "/tmp/fio-$t.out"
	touch "$share/host-$t.done"
	while [ ! -e "$share/target-$t.saved" ]; do sleep 0.2; done
	echo "== host: ntprof report --detail host-$t.ntp target-$t.ntp"
	ntprof report --detail "$share/host-$t.ntp" "$share/target-$t.ntp" || exit 1
done

# With SPDK=: spdk_nvme_perf against SPDK's target over RDMA, as in the
# tutorial, recorded by its sites and joined with the target's recording.
if [ "${NTPROF_LAB_SPDK:-0}" = 1 ]; then
	perf=$NTPROF_LAB_SPDK_PERF
	while [ ! -e "$share/target-spdk.recording" ]; do sleep 0.2; done
	echo "== host: ntprof probe -t rdma --spdk-host $perf"
	ntprof probe -t rdma --spdk-host "$perf" || exit 1
	echo "== host: ntprof record -t rdma -s 10 -i 5 --spdk-host, beside spdk_nvme_perf"
	ntprof record -t rdma -s 10 -i 5 --spdk-host "$perf" \
		-o "$share/host-spdk.ntp" > /tmp/record-spdk.out 2>&1 &
	rec=$!
	until grep -q 'profiling as' /tmp/record-spdk.out; do sleep 0.2; done
	"$perf" -q 1 -o 4096 -w randread -t 10 -c 0x1 -s 128 \
		-r "trtype:RDMA adrfam:IPv4 traddr:$NTPROF_LAB_SPDK_RDMA_ADDR trsvcid:$NTPROF_LAB_SPDK_RDMA_PORT subnqn:$NTPROF_LAB_SPDK_NQN" \
		> /tmp/perf.out 2>&1 || { cat /tmp/perf.out; exit 1; }
	kill -INT $rec
	wait $rec
	cat /tmp/record-spdk.out
	grep -A3 '^Device Information' /tmp/perf.out
	touch "$share/host-spdk.done"
	while [ ! -e "$share/target-spdk.saved" ]; do sleep 0.2; done
	echo "== host: ntprof report --detail host-spdk.ntp target-spdk.ntp"
	ntprof report --detail "$share/host-spdk.ntp" "$share/target-spdk.ntp" || exit 1
fi
