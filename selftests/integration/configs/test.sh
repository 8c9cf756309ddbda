#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034 # run.sh reads KERNELS and TOPOLOGY here.
# The configurations people run, two guests, kernel KERNEL: digests,
# polled queues, deep and many queues, mixed sizes and ops, large
# writes, NVMe passthrough (nvme read, fio's io_uring_cmd on ngXnY),
# NVMe/TCP over TLS where the kernel has it (6.12; not 6.1), each
# beside the default connection, over NVMe/TCP and NVMe/RDMA (digests:
# TCP only), recorded on both sides at -s 1 and -s 100, one after another
# in one boot (guest/configs-lib.sh). Then check.sh, here, checks the
# joins, the counts against fio's and the stage sums.
# See Documentation/stages.rst, "Configurations".
KERNELS="6.1 6.12"
TOPOLOGY=two
# jq: check.sh reads the configurations' reports with it.
requires() { require_program jq jq; }

. "$(dirname "$0")/../common/lib.sh"
scenario_start "$@"
# 4 I/O queues need 4 CPUs: nvme-fabrics gives a controller at most one
# I/O queue of each kind per online CPU.
export LAB_HOST_SMP=4
# Trixie's nvme-cli and tlshd in the guests, for the TLS steps.
export LAB_TLS=1
lab_scenario "configs-$KERNEL" guest/configs-host.sh guest/configs-target.sh \
	./check.sh
