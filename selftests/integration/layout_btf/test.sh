#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034 # run.sh reads KERNELS and TOPOLOGY here.
# Struct layouts from BTF alone, kernel KERNEL, one guest: the module
# without its built-in table, probe and record without BTF, then with it.
KERNELS="6.12"
TOPOLOGY=one
. "$(dirname "$0")/../common/lib.sh"
scenario_start "$@"
lab_scenario "layout-$KERNEL" guest/layout-host.sh ../common/guest/rec-one-target.sh
