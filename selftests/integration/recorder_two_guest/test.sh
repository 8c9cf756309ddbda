#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034 # run.sh reads KERNELS and TOPOLOGY here.
# The recorder on two guests, kernel KERNEL: sampling, records and their
# points.
KERNELS="6.1 6.12"
TOPOLOGY=two
. "$(dirname "$0")/../common/lib.sh"
scenario_start "$@"
lab_scenario "rec-two-$KERNEL" guest/rec-two-host.sh guest/rec-two-target.sh
