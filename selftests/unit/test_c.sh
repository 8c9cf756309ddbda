#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds and runs the C unit tests of the ntprof tool and of the module's
# pure parts, those the Makefile's TESTS names, for selftests/run_tests.sh
# (which runs the test_*.sh here, as 'make -C selftests/unit check' does).
# Prints their TAP; exits 1 if any test failed.

set -u

UNIT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

make -s -C "$UNIT_DIR" all >&2 ||
	{ echo "Bail out! cannot build the C unit tests"; exit 1; }
tests=$(make -s --no-print-directory -C "$UNIT_DIR" list-tests) || tests=
[ -n "$tests" ] || { echo "Bail out! make list-tests"; exit 1; }
ret=0
for t in $tests; do
	"$UNIT_DIR/$t" || ret=1
done
exit $ret
