#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The module's sampling decision (kmod/sample.h), which only the lab runs
# in a kernel, compiled in userspace (test_ksample.c, kshim/): the chain
# rule picks one command alike on every machine of a chain, whatever its
# queue, command and namespace ids there and however md shifted its LBA;
# the hop rule decides as it did.
# Prints TAP; exits 1 if any test failed.

set -u

UNIT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

make -s -C "$UNIT_DIR" test_ksample >&2 ||
	{ echo "Bail out! cannot build test_ksample"; exit 1; }
"$UNIT_DIR/test_ksample"
