#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Known delays, one stage at a time, and what report and compare make of
# them: two guests, kernel 7.3 (report-delays.sh).
export KERNEL=7.3
. "$(dirname "$0")/report-delays.sh"
