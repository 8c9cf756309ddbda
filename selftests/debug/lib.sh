# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# make check-debug: the fault tests of selftests/integration again, on the
# lab's debug kernel (KERNEL=debug: KASAN, KFENCE, lockdep, kmemleak,
# UBSAN, panic_on_warn; selftests/lab/debug-kernel.sh builds it on first
# use). Their guest scripts run their debug-only parts (NTPROF_LAB_DEBUG)
# and scan with kmemleak after each part; checkers.sh reads the result.

. "$(dirname "${BASH_SOURCE[0]}")/../integration/common/lib.sh"

DEBUG_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# TCG runs the checkers' instrumentation too: boots and I/O are slower.
export KERNEL=debug TOPOLOGY=one LAB_TIMEOUT=${LAB_TIMEOUT:-3600}

# debug_scenario NAME HOST_SCRIPT: one lab run of an integration guest
# script, HOST_SCRIPT, given by its path under selftests/integration
# (the target side only lets the host's drive both roles), with
# the checkers' verdicts after lab_scenario's own.
debug_scenario() {
	lab_scenario "$1" "$DEBUG_DIR/../integration/$2" \
		"$DEBUG_DIR/../integration/common/guest/rec-one-target.sh" \
		"$DEBUG_DIR/checkers.sh"
}
