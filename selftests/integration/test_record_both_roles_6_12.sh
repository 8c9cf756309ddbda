#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ntprof record as host and as target at once on one guest, kernel 6.12:
# each role's records and counters are its own.
cd "$(dirname "$0")" || exit 1
. ./lib.sh
export KERNEL=6.12 TOPOLOGY=one
lab_scenario "record-both-6.12" guest/record-both-host.sh guest/rec-one-target.sh
