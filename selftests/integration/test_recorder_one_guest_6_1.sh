#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The recorder on one guest, kernel 6.1: sampling, records and their points.
# Its early stamps come from the clock (early_cycles=0), where the other
# releases' come from the cycle counter, as on hardware (kmod/clock.h).
cd "$(dirname "$0")" || exit 1
. ./lib.sh
export KERNEL=6.1 TOPOLOGY=one LAB_EARLY_CYCLES=0
lab_scenario "rec-one-6.1" guest/rec-one-host.sh guest/rec-one-target.sh
