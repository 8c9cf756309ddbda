# SPDX-License-Identifier: GPL-2.0
# The demo, host side: check the hooks, then record one command in 10
# while fio runs 4 KiB random reads at queue depth 1 over NVMe/TCP and then
# NVMe/RDMA, and join the host's recording with the target's.
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
