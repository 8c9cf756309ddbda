#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Both transports in one session of each role, kernel KERNEL, one guest:
# records, joins, groups and stage names per transport.
cd "$(dirname "$0")/.." || exit 1
. ./lib.sh
scenario_kernel "$@"
export TOPOLOGY=one
lab_scenario "transports-$KERNEL" guest/transports-host.sh guest/rec-one-target.sh
