#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ntprof record as host and as target at once on one guest, kernel
# KERNEL: each role's records and counters are its own.
cd "$(dirname "$0")/.." || exit 1
. ./lib.sh
scenario_kernel "$@"
export TOPOLOGY=one
lab_scenario "record-both-$KERNEL" guest/record-both-host.sh guest/rec-one-target.sh
