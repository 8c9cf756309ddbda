#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ntprof record --rotate as host and as target at once on one guest,
# kernel KERNEL: the parts are whole, and their report joins 100 %.
cd "$(dirname "$0")/.." || exit 1
. ./lib.sh
scenario_kernel "$@"
export TOPOLOGY=one
lab_scenario "record-rotate-$KERNEL" guest/rotate-host.sh guest/rec-one-target.sh
