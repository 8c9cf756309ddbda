#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The SPDK agent beside uprobes on one guest, kernel KERNEL: two processes
# of the same program, one with the agent and one without, recorded at
# once; the module keeps its breakpoints out of the agent's process
# (guest/agent-host.sh).
cd "$(dirname "$0")/.." || exit 1
. ./lib.sh
scenario_kernel "$@"
export TOPOLOGY=one
lab_scenario "agent-$KERNEL" guest/agent-host.sh guest/idle-target.sh
