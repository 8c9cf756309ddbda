# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Recorder on two guests, target side: record each transport at N=100
# while the host's fio runs, then leave the records in the share.
# shellcheck source=selftests/ktap.sh
. /lab/ktap.sh
# shellcheck source=selftests/integration/common/guest/records.sh
. /lab/tests/records.sh
KTAP_PREFIX="target: "
tc=testclient
share=$NTPROF_LAB_SHARE

ktap_header
modprobe ntprof || { ktap_fail "modprobe ntprof"; ktap_finished; exit 1; }
# The target's hooks the host's checks depend on.
{
	rdma_data=no
	hook_ok target rdma nvmet_rdma_read_data_done && rdma_data=yes
	rdma_send_done=no
	hook_ok target rdma nvmet_rdma_send_done && rdma_send_done=yes
	echo "rdma_data=$rdma_data rdma_send_done=$rdma_send_done"
} > "$share/target-hooks.sh"
for t in tcp rdma; do
	ktap_check "$t: start a target session at N=100" $tc start target $t 100
	touch "$share/target-$t.recording"
	[ $t = tcp ] && lab-ready
	wait_flag "host-$t.done" || ktap_fail "$t: the host finished its I/O"
	ktap_check "$t: stop the session" $tc stop
	$tc drain /tmp/t.bin
	$tc print /tmp/t.bin > "$share/target-$t.txt"
	$tc stats > "$share/target-$t.stats"
	rm -f /tmp/t.bin
	touch "$share/target-$t.saved"
done
ktap_check "rmmod ntprof" rmmod ntprof
ktap_finished
