#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The recorder under stress on one guest, kernel KERNEL: full buffers,
# unload under I/O, controllers and transport modules going away.
cd "$(dirname "$0")/.." || exit 1
. ./lib.sh
scenario_kernel "$@"
export TOPOLOGY=one
lab_scenario "rec-robust-$KERNEL" guest/rec-robust-host.sh guest/rec-one-target.sh
