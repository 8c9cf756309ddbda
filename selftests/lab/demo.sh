#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make lab: boot the two-guest lab, run a workload over NVMe/TCP and then
# NVMe/RDMA, and show what ntprof reports on each side.
set -euo pipefail
dir=$(cd "$(dirname "$0")" && pwd)
export TOPOLOGY=${TOPOLOGY:-two}
exec bash "$dir/lab-run.sh" --host "$dir/demo/host.sh" --target "$dir/demo/target.sh"
