#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The recorder under stress on one guest, kernel 6.12: full buffers,
# unload under I/O, controllers and transport modules going away.
cd "$(dirname "$0")" || exit 1
. ./lib.sh
export KERNEL=6.12 TOPOLOGY=one
lab_scenario "rec-robust-6.12" guest/rec-robust-host.sh guest/rec-one-target.sh
