#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034 # run.sh reads KERNELS and TOPOLOGY here.
# The tutorial's sequence with the in-process agent on both sides, kernel
# KERNEL, one guest: nvmf_tgt and spdk_nvme_perf started by ntprof run,
# over TCP and RDMA, perf's agent against nvmet, a recorder SIGKILLed
# mid-session, and spdk_tgt once. Needs a user's SPDK build: SPDK=DIR
# (never built here).
KERNELS="6.1 6.12"
TOPOLOGY=one
requires() { require_spdk; }

. "$(dirname "$0")/../common/lib.sh"
scenario_start "$@"
# spdk_tgt's hugepages (1.2 GiB) beside the rest: a guest of 3 GiB.
export LAB_GUEST_MEM=${LAB_GUEST_MEM:-3072}
export LAB_TIMEOUT=${LAB_TIMEOUT:-1800}
lab_scenario "spdk-agent-perf-$KERNEL" guest/spdk-agent-perf-host.sh \
	guest/spdk-agent-perf-target.sh
