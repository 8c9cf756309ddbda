#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Struct layouts from BTF alone, kernel 6.12, one guest: the module
# without its built-in table, probe and record without BTF, then with it.
cd "$(dirname "$0")" || exit 1
. ./lib.sh
export KERNEL=6.12 TOPOLOGY=one
lab_scenario "layout-6.12" guest/layout-host.sh guest/rec-one-target.sh
