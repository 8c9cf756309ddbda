# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The faults of configs_faults/test.sh, shared by its host and
# target scripts (Documentation/stages.rst, Configurations: resets and
# reconnects, native multipath). A step is FAULT-TRANSPORT-sN: both
# sides record at -s N while the host's fio job runs and, 2 s into it,
#
#   none       nothing: the job as it runs without a fault, at -s 1, to
#              compare the others' stages with;
#   reset      the host resets the transport's controller (nvme reset):
#              the commands in flight are cancelled and requeued;
#   reconnect  the target removes the subsystem from its port (the
#              port goes down) and adds it back 2 s later: the host
#              reconnects every second (--reconnect-delay=1, within
#              --ctrl-loss-tmo=30), and its commands wait, then go on;
#   mpath      the host reaches the NVMe/TCP subsystem over a second
#              listener too (port 4422: two controllers, one head,
#              round-robin), and the target removes the subsystem from
#              that port: the commands on that path fail over;
#   retry      a reset as above, with native multipath off (nvme_core
#              reloaded with multipath=N): nvme_core requeues the
#              cancelled requests themselves, which retry once the
#              controller is live.
# shellcheck disable=SC2034 # the variables are for the scripts that source it.

# Beside this file in the guests (/lab/tests), in common/guest here.
if [ -f "$(dirname "${BASH_SOURCE[0]}")/step-names.sh" ]; then
	# shellcheck source=selftests/integration/common/guest/step-names.sh
	. "$(dirname "${BASH_SOURCE[0]}")/step-names.sh"
else
	# shellcheck source=selftests/integration/common/guest/step-names.sh
	. "$(dirname "${BASH_SOURCE[0]}")/../../common/guest/step-names.sh"
fi

# The options of the host's connections in these steps.
FAULTS_CONNECT_OPTS="--ctrl-loss-tmo=30 --reconnect-delay=1"
# The second NVMe/TCP listener (the target's port 3).
FAULTS_MPATH_PORT=4422
FAULTS_MPATH_PORTID=3

faults_steps() {
	local f t s

	for f in none reset reconnect mpath retry; do
		for t in tcp rdma; do
			[ $f = mpath ] && [ $t = rdma ] && continue
			for s in 1 100; do
				[ $f = none ] && [ $s != 1 ] && continue
				echo "$f-$t-s$s"
			done
		done
	done
}

# step_fault STEP: its fault (step-names.sh has the other parts).
step_fault() {
	step_kind "$1"
}

# fio's seconds: enough after a reconnect to show the recording going on.
step_seconds() {
	case $(step_fault "$1") in
	none|reset|retry) echo 6 ;;
	*) echo 10 ;;
	esac
}

# The fio job of every step: 4 KiB random reads and writes, 4 in flight.
FAULTS_FIO_OPTS="--rw=randrw --rwmixread=50 --bs=4k --ioengine=libaio --iodepth=4"
