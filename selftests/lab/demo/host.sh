# SPDX-License-Identifier: GPL-2.0
# The demo, host side: load ntprof, show what it sees, and run 4 KiB random
# reads at queue depth 1 over NVMe/TCP and then NVMe/RDMA.
set -e
modprobe ntprof
echo "== host: ntprof status"
ntprof status
for t in tcp rdma; do
	dev=$NTPROF_LAB_TCP_DEV
	[ $t = rdma ] && dev=$NTPROF_LAB_RDMA_DEV
	echo "== host: fio, 4 KiB random reads, QD1, 10 s over NVMe/$t ($dev)"
	fio --name=demo-$t --filename="$dev" --rw=randread --bs=4k --direct=1 \
		--ioengine=libaio --iodepth=1 --size=256m --runtime=10 \
		--time_based --output-format=terse |
		awk -F';' '{ printf "read: %d IOPS, mean latency %.1f us (fio)\n", $8, $40 }'
done
