# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The start of the guest scripts of SPDK's target (spdk-target.sh,
# spdk-perf-target.sh, spdk-agent-perf-target.sh): the module loaded and
# nvmf_tgt started by the lab's helper, lab-spdk-target.
# shellcheck disable=SC2034 # the variables are for the scripts that source it.

# give_up: the host told that this side is ready (it waits for nothing
# more), the plan printed, and a failed exit.
give_up() {
	lab-ready
	ktap_finished
	exit 1
}

# spdk_target_start BLOCK_SIZE DESC: ntprof loaded and nvmf_tgt started
# with a bdev of BLOCK_SIZE-byte blocks, listening on TCP and RDMA; DESC
# passes, or fails and gives up. The pid of nvmf_tgt in $pid. The
# helper's settings (LAB_SPDK_AGENT, LAB_SPDK_PROGRAM) come from the
# caller's environment.
spdk_target_start() {
	modprobe ntprof || { ktap_fail "modprobe ntprof"; give_up; }
	if ! lab-spdk-target start "$1"; then
		ktap_fail "$2"
		give_up
	fi
	pid=$(cat /run/lab-spdk-target.pid)
	ktap_pass "$2"
}
