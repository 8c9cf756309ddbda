#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Struct layouts from BTF alone, kernel KERNEL, one guest: the module
# without its built-in table, probe and record without BTF, then with it.
cd "$(dirname "$0")/.." || exit 1
. ./lib.sh
scenario_kernel "$@"
export TOPOLOGY=one
lab_scenario "layout-$KERNEL" guest/layout-host.sh guest/rec-one-target.sh
