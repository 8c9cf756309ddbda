#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The fleet view: record --prom on two guests, kernel KERNEL; then a real
# Prometheus with the recording rules, on this machine (prom-fleet-check.sh).
cd "$(dirname "$0")/.." || exit 1
. ./lib.sh
scenario_kernel "$@"
export TOPOLOGY=two
lab_scenario "prom-fleet-$KERNEL" guest/prom-fleet-host.sh guest/prom-fleet-target.sh \
	./prom-fleet-check.sh
