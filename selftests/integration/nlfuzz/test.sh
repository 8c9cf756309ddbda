#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034 # run.sh reads KERNELS and TOPOLOGY here.
# The netlink fuzzer on one guest, kernel KERNEL: 50000 messages to the
# ntprof family from selftests/tools/nlfuzz, shaped by its YAML spec; then
# the module still records, and unloads; the kernel log stays clean.
KERNELS="6.12"
TOPOLOGY=one
. "$(dirname "$0")/../common/lib.sh"
scenario_start "$@"
export LAB_TIMEOUT=${LAB_TIMEOUT:-1800}
lab_scenario "nlfuzz-$KERNEL" guest/nlfuzz-host.sh ../common/guest/rec-one-target.sh
