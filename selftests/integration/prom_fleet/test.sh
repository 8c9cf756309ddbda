#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034 # run.sh reads KERNELS and TOPOLOGY here.
# The fleet view: record --prom on two guests, kernel KERNEL; then a real
# Prometheus with the recording rules, on this machine (check.sh).
KERNELS="6.12"
TOPOLOGY=two
# A real Prometheus and node exporter, and promtool, for check.sh.
requires() {
	require_program prometheus prometheus
	require_program prometheus-node-exporter prometheus-node-exporter
	require_program promtool prometheus
}

. "$(dirname "$0")/../common/lib.sh"
scenario_start "$@"
lab_scenario "prom-fleet-$KERNEL" guest/prom-fleet-host.sh guest/prom-fleet-target.sh \
	./check.sh
