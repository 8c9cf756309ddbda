#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034 # run.sh reads KERNELS and TOPOLOGY here.
# The basic lab scenario on two guests, kernel KERNEL: load, unload,
# status, fio on both transports.
KERNELS="6.1 6.12"
TOPOLOGY=two
. "$(dirname "$0")/../common/lib.sh"
scenario_start "$@"
lab_scenario "two-$KERNEL" ../common/guest/basic-host.sh ../common/guest/basic-target.sh
