# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The kernel host against SPDK's target: connect over NVMe/TCP, then 3000
# 4 KiB random reads at queue depth 1 while ntprof records the host's
# side (the target's script records SPDK's and joins the two).
# shellcheck source=selftests/ktap.sh
. /lab/ktap.sh
# shellcheck source=selftests/integration/common/guest/records.sh
. /lab/tests/records.sh
KTAP_PREFIX="spdk host: "
share=$NTPROF_LAB_SHARE
nqn=$NTPROF_LAB_SPDK_NQN
ktap_header

# spdk_dev: the block device of SPDK's namespace, by its subsystem's NQN
# (native multipath: the head disk, nvmeSnN of subsystem S).
spdk_dev() {
	local s b

	for s in /sys/class/nvme-subsystem/*; do
		[ "$(cat "$s/subsysnqn" 2>/dev/null)" = "$nqn" ] || continue
		for b in "$s"/nvme*n*; do
			[ -e "$b" ] && { echo "/dev/$(basename "$b")"; return 0; }
		done
	done
	return 1
}

if ! nvme connect -t tcp -a "$NTPROF_LAB_SPDK_TCP_ADDR" \
	-s "$NTPROF_LAB_SPDK_TCP_PORT" -n "$nqn" >&2; then
	ktap_fail "nvme connect to SPDK's target over TCP"
	ktap_finished
	exit 1
fi
dev=
for i in $(seq 1 100); do dev=$(spdk_dev) && break; sleep 0.1; done
if [ -z "$dev" ]; then
	ktap_fail "nvme connect to SPDK's target over TCP: a namespace appears"
	ktap_finished
	exit 1
fi
ktap_pass "nvme connect to SPDK's target over TCP: $dev"

ntprof record -r host -t tcp -s 1 --dev "$dev" -o "$share/spdk-host.ntp" \
	> /tmp/rec-host.out 2>&1 &
rec=$!
wait_line /tmp/rec-host.out 'profiling as host' 60 &&
	ktap_pass "record -r host starts" || ktap_fail "record -r host starts"

fio --name=spdk --filename="$dev" --rw=randread --bs=4k --iodepth=1 \
	--ioengine=psync --direct=1 --number_ios=3000 --size=64m \
	--output-format=json --output=/tmp/fio.json > /dev/null 2>&1
kill -INT $rec 2>/dev/null
wait $rec
rc=$?
sed 's/^/# /' /tmp/rec-host.out | tail -n 5
[ $rc -eq 0 ] && ktap_pass "record -r host stops on SIGINT, exit 0" ||
	ktap_fail "record -r host stops on SIGINT, exit 0 (rc $rc)"
reads=$(grep -o '"total_ios" *: *[0-9]*' /tmp/fio.json | head -n 1 | grep -o '[0-9]*$')
errs=$(grep -o '"error" *: *[0-9]*' /tmp/fio.json | head -n 1 | grep -o '[0-9]*$')
if [ "${reads:-0}" -eq 3000 ] && [ "${errs:-1}" -eq 0 ]; then
	ktap_pass "fio read 3000 times from SPDK's namespace, no error"
else
	ktap_fail "fio read 3000 times from SPDK's namespace, no error (reads ${reads:-?}, error ${errs:-?})"
fi
cp /tmp/fio.json "$share/spdk-fio.json"
echo "${reads:-0}" > "$share/spdk-reads"
ktap_check "nvme disconnect" nvme disconnect -n "$nqn"
ktap_finished
