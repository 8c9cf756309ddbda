#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034 # run.sh reads KERNELS and TOPOLOGY here.
# The recorder under stress on one guest, kernel KERNEL: full buffers,
# unload under I/O, controllers and transport modules going away.
KERNELS="6.1 6.12"
TOPOLOGY=one
. "$(dirname "$0")/../common/lib.sh"
scenario_start "$@"
lab_scenario "rec-robust-$KERNEL" guest/rec-robust-host.sh ../common/guest/rec-one-target.sh
