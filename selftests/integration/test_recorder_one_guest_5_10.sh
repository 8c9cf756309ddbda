#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The recorder on one guest, kernel 5.10: sampling, records and their points.
cd "$(dirname "$0")" || exit 1
. ./lib.sh
export KERNEL=5.10 TOPOLOGY=one
lab_scenario "rec-one-5.10" guest/rec-one-host.sh guest/rec-one-target.sh
