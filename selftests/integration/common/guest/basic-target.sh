# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Lab, target side: the module loads beside nvmet, status sees the target's
# transports, and (on a guest of its own) it comes and goes while the host
# drives I/O through nvmet-tcp and nvmet-rdma.
# shellcheck source=selftests/ktap.sh
. /lab/ktap.sh
KTAP_PREFIX="target: "

status_says() {
	ntprof status > /tmp/status.out 2>&1 || { cat /tmp/status.out; return 1; }
	grep -Eq "$1" /tmp/status.out || { cat /tmp/status.out; return 1; }
}

ktap_header
if [ "$NTPROF_LAB_TOPOLOGY" = one ]; then
	# One kernel: the host script loads and unloads the module for both.
	lab-ready
	lab-wait-host
	ktap_check "ntprof status sees nvmet_tcp loaded" \
		sh -c 'modprobe ntprof && ntprof status | grep -Eq "nvmet_tcp +present" && rmmod ntprof'
	ktap_finished
	exit
fi

ktap_check "modprobe ntprof loads the module" modprobe ntprof
ktap_check "ntprof status sees nvmet_tcp loaded" status_says 'nvmet_tcp +present'
ktap_check "ntprof status sees nvmet_rdma loaded" status_says 'nvmet_rdma +present'
ktap_check "ntprof status sees no host transport here" status_says 'nvme_tcp +absent'
lab-ready

# While the host's fio runs through this target, unload and reload.
cycles=0
failed=0
while [ ! -e "$NTPROF_LAB_FLAGS/host.done" ]; do
	if rmmod ntprof && modprobe ntprof && ntprof status > /dev/null; then
		cycles=$((cycles + 1))
	else
		failed=$((failed + 1))
		break
	fi
	sleep 0.5
done
if [ $failed -eq 0 ] && [ $cycles -gt 0 ]; then
	ktap_pass "ntprof unloaded and reloaded $cycles times under the host's I/O"
else
	ktap_fail "ntprof unloaded and reloaded under the host's I/O ($cycles cycles, $failed failures)"
fi
ktap_check "rmmod ntprof unloads the module" rmmod ntprof
ktap_finished
