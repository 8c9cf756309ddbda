#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The recorder on two guests, kernel KERNEL: sampling, records and their
# points.
cd "$(dirname "$0")/.." || exit 1
. ./lib.sh
scenario_kernel "$@"
export TOPOLOGY=two
lab_scenario "rec-two-$KERNEL" guest/rec-two-host.sh guest/rec-two-target.sh
