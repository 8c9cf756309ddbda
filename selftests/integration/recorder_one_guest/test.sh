#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034 # run.sh reads KERNELS and TOPOLOGY here.
# The recorder on one guest, kernel KERNEL: sampling, records and their
# points.
KERNELS="5.10 6.1 6.12 7.3"
TOPOLOGY=one
. "$(dirname "$0")/../common/lib.sh"
scenario_start "$@"
# On 6.1 its early stamps come from the clock (early_cycles=0), where the
# other releases' come from the cycle counter, as on hardware
# (kmod/clock.h).
[ "$KERNEL" != 6.1 ] || export LAB_EARLY_CYCLES=0
lab_scenario "rec-one-$KERNEL" guest/rec-one-host.sh ../common/guest/rec-one-target.sh
