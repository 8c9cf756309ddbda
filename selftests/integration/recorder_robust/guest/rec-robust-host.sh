# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Recorder under stress, on one guest: a full buffer drops records and
# counts them while I/O goes on; unloading ntprof under I/O with sessions
# running; a controller disconnected and nvme_tcp and nvmet_tcp unloaded
# in the middle of sessions. The kernel log must stay clean throughout
# (checked by the lab). On the debug kernel (NTPROF_LAB_DEBUG=1) also:
# start and stop repeated under I/O, a recorder SIGKILLed mid-drain, the
# RDMA controller disconnected and nvme_rdma and nvmet_rdma unloaded,
# with a kmemleak scan after each part (kmemleak.sh).
# shellcheck source=selftests/ktap.sh
. /lab/ktap.sh
# shellcheck source=selftests/integration/common/guest/records.sh
. /lab/tests/records.sh
# shellcheck source=selftests/integration/common/guest/kmemleak.sh
. /lab/tests/kmemleak.sh
KTAP_PREFIX="host: "
tc=testclient


ktap_header
kmemleak_scan boot
# The smallest buffer the module takes, and nothing draining it.
ktap_check "modprobe ntprof with small buffers" modprobe ntprof buffer_kib=4
ktap_check "start a host session at N=1" $tc start host tcp 1
# 4 s of reads fill 64 KiB per CPU (the least buffer_kib gives) many
# times over; on the debug kernel, whose I/O is slower, it may take more.
reads=0
for i in 1 2 3 4 5 6 7 8; do
	r=$(fio_count "$NTPROF_LAB_TCP_DEV" randread 4k 4)
	reads=$((reads + ${r% *}))
	[ "$(stat_of drops)" -gt 0 ] && break
done
if [ "$reads" -gt 0 ]; then
	ktap_pass "I/O goes on while the buffers are full ($reads reads)"
else
	ktap_fail "I/O goes on while the buffers are full"
fi
drops=$(stat_of drops)
if [ "${drops:-0}" -gt 0 ]; then
	ktap_pass "a full buffer counts its drops ($drops)"
else
	ktap_fail "a full buffer counts its drops ($($tc stats))"
fi
ktap_check "stop" $tc stop
ktap_check "rmmod ntprof" rmmod ntprof
kmemleak_scan full-buffers

# Unload with both sessions recording under I/O.
modprobe ntprof
$tc start host tcp 1 && $tc start target tcp 1
fio_count "$NTPROF_LAB_TCP_DEV" randrw 4k 5 > /tmp/fio1.out &
fio=$!
sleep 2
ktap_check "rmmod ntprof while two sessions record under I/O" rmmod ntprof
if wait $fio; then
	ktap_pass "fio completes after ntprof went away under it"
else
	ktap_fail "fio completes after ntprof went away under it"
fi
kmemleak_scan rmmod-under-io

# cut_mid_session T DEV NQN PORT: with a session of each role over
# transport T, the controller of NQN (namespace DEV) disconnected under
# I/O, then T's host and target modules unloaded and loaded again; nvmet's
# module goes once its configfs port PORT is gone.
cut_mid_session() {
	local t=$1 dev=$2 nqn=$3 cfg=/sys/kernel/config/nvmet/ports/$4 c ctrl fio

	modprobe ntprof
	ktap_check "start host and target sessions over $t" \
		sh -c "$tc start host $t 1 && $tc start target $t 1"
	fio --name=cut --filename="$dev" --rw=randread --bs=4k \
		--direct=1 --ioengine=libaio --iodepth=4 --runtime=10 --time_based \
		--size=256m > /dev/null 2>&1 &
	fio=$!
	# Mid-session means after commands were recorded: the debug kernel
	# can take seconds to start fio.
	for c in $(seq 1 600); do
		[ "$($tc stats host | awk '{ print $6 }')" -gt 0 ] 2>/dev/null && break
		sleep 0.1
	done
	ctrl=
	for c in /sys/class/nvme/nvme*; do
		grep -q "$nqn" "$c/subsysnqn" 2>/dev/null && ctrl=$(basename "$c")
	done
	ktap_check "disconnect the $t controller ($ctrl) mid-session" nvme disconnect -d "$ctrl"
	wait "$fio"
	ktap_check "the $t sessions still answer" $tc stats
	ktap_check "unload nvme_$t mid-session" modprobe -r "nvme_$t"
	ktap_check "load nvme_$t again mid-session" modprobe "nvme_$t"
	rm -f "$cfg/subsystems/"* && rmdir "$cfg"
	ktap_check "unload nvmet_$t mid-session" modprobe -r "nvmet_$t"
	ktap_check "load nvmet_$t again mid-session" modprobe "nvmet_$t"
	ktap_check "stop the $t sessions" $tc stop
}

[ "${NTPROF_LAB_DEBUG:-0}" != 1 ] || . /lab/tests/rec-robust-debug.sh

# Disconnect the TCP controller in the middle of a session.
cut_mid_session tcp "$NTPROF_LAB_TCP_DEV" "$NTPROF_LAB_TCP_NQN" 1
$tc drain /tmp/cut.bin
ktap_check "drain what they recorded" test -s /tmp/cut.bin
ktap_check "rmmod ntprof" rmmod ntprof
kmemleak_scan tcp-unload
ktap_finished
