#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034 # run.sh reads KERNELS and TOPOLOGY here.
# ntprof record as host and as target at once on one guest, kernel
# KERNEL: each role's records and counters are its own.
KERNELS="6.12"
TOPOLOGY=one
. "$(dirname "$0")/../common/lib.sh"
scenario_start "$@"
lab_scenario "record-both-$KERNEL" guest/record-both-host.sh ../common/guest/rec-one-target.sh
