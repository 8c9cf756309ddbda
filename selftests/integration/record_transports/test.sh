#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034 # run.sh reads KERNELS and TOPOLOGY here.
# Both transports in one session of each role, kernel KERNEL, one guest:
# records, joins, groups and stage names per transport.
KERNELS="6.12"
TOPOLOGY=one
. "$(dirname "$0")/../common/lib.sh"
scenario_start "$@"
lab_scenario "transports-$KERNEL" guest/transports-host.sh ../common/guest/rec-one-target.sh
