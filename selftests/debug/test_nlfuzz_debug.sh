#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The netlink fuzzer's 100000 messages on the debug kernel: then the
# module still records and unloads; no checker report, no kmemleak
# suspect.
cd "$(dirname "$0")" || exit 1
. ./lib.sh
debug_scenario "nlfuzz-debug" nlfuzz/guest/nlfuzz-host.sh
