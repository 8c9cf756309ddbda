# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# syscall_ns: the nanoseconds per byte of dd copying 200000 bytes one at
# a time, a read and a write system call each: the benchmarks' yardstick
# for how much slower a TCG guest runs kernel code than the machine that
# runs the lab. Sourced by tools/bench/hookcost.sh, and sent to the guest
# in front of hookcost-guest.sh.
syscall_ns() {
	local t0 t1

	t0=$EPOCHREALTIME
	dd if=/dev/zero of=/dev/null bs=1 count=200000 2> /dev/null
	t1=$EPOCHREALTIME
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f\n", (b - a) * 1e9 / 200000 }'
}
