#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The netlink fuzzer on one guest, kernel KERNEL: 100000 messages to the
# ntprof family from selftests/tools/nlfuzz, shaped by its YAML spec; then
# the module still records, and unloads; the kernel log stays clean.
cd "$(dirname "$0")/.." || exit 1
. ./lib.sh
scenario_kernel "$@"
export TOPOLOGY=one LAB_TIMEOUT=${LAB_TIMEOUT:-1800}
lab_scenario "nlfuzz-$KERNEL" guest/nlfuzz-host.sh guest/rec-one-target.sh
