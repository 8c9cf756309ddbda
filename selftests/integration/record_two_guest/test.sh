#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034 # run.sh reads KERNELS and TOPOLOGY here.
# ntprof probe and ntprof record on two guests, kernel KERNEL.
KERNELS="6.1 6.12"
TOPOLOGY=two
# promtool: check.sh judges record --prom's file with it.
requires() { require_program promtool prometheus; }

. "$(dirname "$0")/../common/lib.sh"
scenario_start "$@"
lab_scenario "record-two-$KERNEL" guest/record-two-host.sh guest/record-two-target.sh \
	./check.sh
