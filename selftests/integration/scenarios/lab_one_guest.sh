#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The basic lab scenario on one guest, kernel KERNEL: load, unload, status,
# fio on both transports.
cd "$(dirname "$0")/.." || exit 1
. ./lib.sh
scenario_kernel "$@"
export TOPOLOGY=one
lab_scenario "one-$KERNEL" guest/basic-host.sh guest/basic-target.sh
