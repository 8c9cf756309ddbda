# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The parts of rec-robust-host.sh that run on the debug kernel only (their
# checkers are what make them worth the minutes): sessions started and
# stopped over and over under I/O on both transports, a recorder SIGKILLed
# while it drains, the RDMA controller disconnected mid-session, nvme_rdma
# and nvmet_rdma unloaded and loaded again mid-session. Sourced by
# rec-robust-host.sh, with its helpers and $tc.

# shellcheck disable=SC2154 # tc is rec-robust-host.sh's, which sources it.
# start_stop_cycles N: N starts and stops of both roles' sessions.
start_stop_cycles() {
	for _ in $(seq 1 "$1"); do
		$tc start host tcp 1 && $tc start target rdma 1 && $tc stop ||
			return 1
	done
}

# fio_until_killed DEV: reads and writes in the background, for as long
# as the cycles take (some 5 s each on the debug kernel).
fio_until_killed() {
	fio --name=cycles --filename="$1" --rw=randrw --bs=4k --direct=1 \
		--ioengine=libaio --iodepth=4 --runtime=1200 --time_based \
		--size=256m > /dev/null 2>&1 &
}

modprobe ntprof
fio_until_killed "$NTPROF_LAB_TCP_DEV"
fio_tcp=$!
fio_until_killed "$NTPROF_LAB_RDMA_DEV"
fio_rdma=$!
ktap_check "start and stop sessions 20 times under I/O on tcp and rdma" start_stop_cycles 20
ktap_check "fio ran on both transports through the cycles" kill -0 $fio_tcp $fio_rdma
kill -INT $fio_tcp $fio_rdma
wait $fio_tcp $fio_rdma

# A recorder SIGKILLed while it drains full buffers: its session stops
# as its socket closes, under I/O, and rmmod frees what it held.
fio_count "$NTPROF_LAB_TCP_DEV" randread 4k 10 > /dev/null &
fio=$!
ntprof record -r host -t tcp -s 1 -o /tmp/killed.ntp > /tmp/killed.out 2>&1 &
rec=$!
wait_line /tmp/killed.out 'profiling as host' 120 || sed 's/^/# /' /tmp/killed.out
sleep 3
kill -KILL $rec
wait $rec 2>/dev/null
wait $fio
ktap_check "the module answers after its recorder's SIGKILL" ntprof status
grep -qx 'host session: stopped' /sys/kernel/debug/ntprof/status &&
	ktap_pass "the killed recorder's session stopped with its socket" ||
	ktap_fail "the killed recorder's session stopped with its socket"
ktap_check "rmmod ntprof after the killed recorder" rmmod ntprof
kmemleak_scan start-stop-sigkill

# The RDMA controller goes mid-session, then nvme_rdma and nvmet_rdma
# (cut_mid_session, rec-robust-host.sh).
cut_mid_session rdma "$NTPROF_LAB_RDMA_DEV" "$NTPROF_LAB_RDMA_NQN" 2
ktap_check "rmmod ntprof after the rdma modules came back" rmmod ntprof
kmemleak_scan rdma-unload
