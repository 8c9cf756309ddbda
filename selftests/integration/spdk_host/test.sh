#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034 # run.sh reads KERNELS and TOPOLOGY here.
# SPDK's host in the lab, kernel KERNEL, one guest: spdk_nvme_perf recorded
# with --spdk-host against SPDK's target (TCP, RDMA) and nvmet (TCP),
# joined and checked against perf's own numbers; then rmmod ntprof and a
# SIGKILLed nvmf_tgt under sessions. Needs a user's SPDK build: SPDK=DIR
# (never built here).
KERNELS="6.1 6.12"
TOPOLOGY=one
requires() { require_spdk; }

. "$(dirname "$0")/../common/lib.sh"
scenario_start "$@"
export LAB_TIMEOUT=${LAB_TIMEOUT:-1800}
lab_scenario "spdk-perf-$KERNEL" guest/spdk-perf-host.sh guest/spdk-perf-target.sh
