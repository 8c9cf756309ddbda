#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ntprof probe and ntprof record on two guests, kernel KERNEL.
cd "$(dirname "$0")/.." || exit 1
. ./lib.sh
scenario_kernel "$@"
export TOPOLOGY=two
lab_scenario "record-two-$KERNEL" guest/record-two-host.sh guest/record-two-target.sh \
	./prom-check.sh
