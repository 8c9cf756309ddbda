#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Privileges on one guest, kernel KERNEL: without CAP_NET_ADMIN every
# operation of the ntprof family is EPERM, raw and through the tool, and
# the debugfs files are root's; with CAP_NET_ADMIN alone, sessions and
# their dumps are; a session is its socket's (guest/priv-host.sh).
cd "$(dirname "$0")/.." || exit 1
. ./lib.sh
scenario_kernel "$@"
export TOPOLOGY=one
lab_scenario "privileges-$KERNEL" guest/priv-host.sh guest/idle-target.sh
