#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The recorder on two guests, kernel 6.12: sampling, records and their points.
cd "$(dirname "$0")" || exit 1
. ./lib.sh
export KERNEL=6.12 TOPOLOGY=two
lab_scenario "rec-two-6.12" guest/rec-two-host.sh guest/rec-two-target.sh
