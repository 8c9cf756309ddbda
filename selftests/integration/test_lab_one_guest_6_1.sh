#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The basic lab scenario on one guest, kernel 6.1: load, unload, status, fio on both transports.
cd "$(dirname "$0")" || exit 1
. ./lib.sh
export KERNEL=6.1 TOPOLOGY=one
lab_scenario "one-6.1" guest/basic-host.sh guest/basic-target.sh
