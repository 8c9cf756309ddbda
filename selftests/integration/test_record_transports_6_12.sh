#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Both transports in one session of each role, kernel 6.12, one guest:
# records, joins, groups and stage names per transport.
cd "$(dirname "$0")" || exit 1
. ./lib.sh
export KERNEL=6.12 TOPOLOGY=one
lab_scenario "transports-6.12" guest/transports-host.sh guest/rec-one-target.sh
