#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# SPDK's NVMe-oF target in the lab, kernel KERNEL, one guest: the kernel host
# reads from nvmf_tgt over NVMe/TCP while ntprof records the target through
# its uprobe sites. Needs a user's SPDK build: SPDK=DIR (never built here).
cd "$(dirname "$0")/.." || exit 1
. ./lib.sh
scenario_kernel "$@"
if [ -z "${SPDK:-}" ]; then
	ktap_header
	ktap_skip "spdk: the kernel host reads from SPDK's target, recorded" \
		"SPDK= not given (an SPDK build's directory)"
	ktap_finished
	exit 0
fi
export TOPOLOGY=one SPDK
lab_scenario "spdk-$KERNEL" guest/spdk-host.sh guest/spdk-target.sh
