#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034 # run.sh reads KERNELS and TOPOLOGY here.
# ntprof record --rotate as host and as target at once on one guest,
# kernel KERNEL: the parts are whole, and their report joins 100 %.
KERNELS="6.12"
TOPOLOGY=one
. "$(dirname "$0")/../common/lib.sh"
scenario_start "$@"
lab_scenario "record-rotate-$KERNEL" guest/rotate-host.sh ../common/guest/rec-one-target.sh
