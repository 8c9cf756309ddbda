#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034 # run.sh reads KERNELS and TOPOLOGY here.
# The SPDK agent beside uprobes on one guest, kernel KERNEL: two processes
# of the same program, one with the agent and one without, recorded at
# once; the module keeps its breakpoints out of the agent's process
# (guest/agent-host.sh).
KERNELS="6.1 6.12"
TOPOLOGY=one
. "$(dirname "$0")/../common/lib.sh"
scenario_start "$@"
lab_scenario "agent-$KERNEL" guest/agent-host.sh ../common/guest/idle-target.sh
