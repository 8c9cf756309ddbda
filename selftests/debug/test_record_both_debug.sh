#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host and target sessions at once on the debug kernel (ntprof record in
# both roles over tcp and rdma, then rmmod under I/O): no checker report,
# no kmemleak suspect.
cd "$(dirname "$0")" || exit 1
. ./lib.sh
debug_scenario "record-both-debug" record_both_roles/guest/record-both-host.sh
