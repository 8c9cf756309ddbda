#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The netlink fuzzer on one guest, kernel 6.12: 100000 messages to the
# ntprof family from selftests/tools/nlfuzz, shaped by its YAML spec; then
# the module still records, and unloads; the kernel log stays clean.
cd "$(dirname "$0")" || exit 1
. ./lib.sh
export KERNEL=6.12 TOPOLOGY=one LAB_TIMEOUT=${LAB_TIMEOUT:-1800}
lab_scenario "nlfuzz-6.12" guest/nlfuzz-host.sh guest/rec-one-target.sh
