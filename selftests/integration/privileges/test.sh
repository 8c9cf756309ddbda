#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034 # run.sh reads KERNELS and TOPOLOGY here.
# Privileges on one guest, kernel KERNEL: without CAP_NET_ADMIN every
# operation of the ntprof family is EPERM, raw and through the tool, and
# the debugfs files are root's; with CAP_NET_ADMIN alone, sessions and
# their dumps are; a session is its socket's (guest/priv-host.sh).
KERNELS="6.1 6.12"
TOPOLOGY=one
. "$(dirname "$0")/../common/lib.sh"
scenario_start "$@"
lab_scenario "privileges-$KERNEL" guest/priv-host.sh ../common/guest/idle-target.sh
