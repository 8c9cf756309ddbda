#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The recorder under stress on the debug kernel: full buffers at -s 1,
# rmmod under I/O, start and stop repeated under I/O, a recorder SIGKILLed
# mid-drain, the tcp and rdma controllers disconnected and nvme_tcp,
# nvmet_tcp, nvme_rdma, nvmet_rdma unloaded mid-session; no checker
# report, no kmemleak suspect after each part.
cd "$(dirname "$0")" || exit 1
. ./lib.sh
debug_scenario "robust-debug" recorder_robust/guest/rec-robust-host.sh
