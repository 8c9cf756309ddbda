#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034 # run.sh reads KERNELS and TOPOLOGY here.
# SPDK's NVMe-oF target started with the in-process agent, kernel KERNEL,
# one guest: the kernel host reads from nvmf_tgt over NVMe/TCP while
# ntprof records the target through the agent, with no trap, and the
# report joins both sides. Needs a user's SPDK build: SPDK=DIR (never
# built here).
KERNELS="6.1 6.12"
TOPOLOGY=one
requires() { require_spdk; }

. "$(dirname "$0")/../common/lib.sh"
scenario_start "$@"
lab_scenario "spdk-agent-$KERNEL" ../common/guest/spdk-host.sh guest/spdk-agent-target.sh
