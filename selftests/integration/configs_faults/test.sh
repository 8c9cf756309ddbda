#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034 # run.sh reads KERNELS and TOPOLOGY here.
# Configurations 7 and 8 of Documentation/stages.rst, Configurations,
# two guests, kernel KERNEL, in one boot: a controller reset and a
# reconnect after the target's port went away and came back, each
# mid-recording, over NVMe/TCP and NVMe/RDMA; native multipath over two
# NVMe/TCP listeners, one taken away mid-recording; both sides recorded
# at -s 1 and -s 100 (guest/faults-lib.sh). Then check.sh, here,
# checks the joins, the aborted commands and the paths.
KERNELS="6.1 6.12"
TOPOLOGY=two
# jq: check.sh reads the faults' reports with it.
requires() { require_program jq jq; }

. "$(dirname "$0")/../common/lib.sh"
scenario_start "$@"
# A drive of 20 ms (null_blk's timer): with 4 commands in flight, a
# reset or a path taken away finds some of them at the target, to abort.
# With the lab's default drive, which completes at once, the host often
# had none left in flight when it cancelled (nvme-tcp takes the
# responses that arrive until it stops the queues).
export LAB_NULL_BLK=irqmode=2,completion_nsec=20000000
lab_scenario "faults-$KERNEL" guest/faults-host.sh guest/faults-target.sh \
	./check.sh
