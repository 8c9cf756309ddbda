#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ntprof probe and ntprof record on two guests, kernel 6.12.
cd "$(dirname "$0")" || exit 1
. ./lib.sh
export KERNEL=6.12 TOPOLOGY=two
lab_scenario "record-two-6.12" guest/record-two-host.sh guest/record-two-target.sh \
	./prom-check.sh
