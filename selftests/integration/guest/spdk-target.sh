# SPDX-License-Identifier: GPL-2.0
# SPDK's target for the host's reads: nvmf_tgt from the lab's helper,
# up until the host is done.
. /lab/ktap.sh
KTAP_PREFIX="spdk target: "
ktap_header
if ! lab-spdk-target start 512; then
	ktap_fail "nvmf_tgt starts and listens on TCP and RDMA"
	lab-ready
	ktap_finished
	exit 1
fi
ktap_pass "nvmf_tgt starts and listens on TCP and RDMA"
lab-ready
lab-wait-host
ktap_check "nvmf_tgt stops on SIGINT" lab-spdk-target stop
ktap_finished
