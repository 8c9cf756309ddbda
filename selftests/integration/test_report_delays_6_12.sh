#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Known delays, one stage at a time, and what report and compare make of
# them: two guests, kernel 6.12 (report-delays.sh).
export KERNEL=6.12
. "$(dirname "$0")/report-delays.sh"
