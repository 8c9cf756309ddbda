#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The module's encoder of compact records (kmod/crec.h), which only the
# lab runs in a kernel, compiled in userspace (test_kcrec.c, kshim/) and
# checked against the uapi's format and the test client's decoder: the
# wide offsets and the pids, which the lab's workloads seldom or never
# produce, included.
# Prints TAP; exits 1 if any test failed.

set -u

UNIT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

make -s -C "$UNIT_DIR" test_kcrec >&2 ||
	{ echo "Bail out! cannot build test_kcrec"; exit 1; }
"$UNIT_DIR/test_kcrec"
