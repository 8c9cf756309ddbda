#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds and runs the C unit tests of the ntprof tool, test_nl.c,
# test_status.c, test_records.c, test_ntp.c, test_ntp2.c, test_crec.c,
# test_analysis.c, test_writes.c, test_elfsite.c, test_prom.c,
# test_kbtf.c, test_spdk_role.c, test_strings.c, test_dwbudget.c,
# test_chain.c, test_chain_md.c and test_chain_prom.c,
# for selftests/run_tests.sh
# (which runs the test_*.sh here); 'make -C selftests/unit check' runs them
# directly.
# Prints their TAP; exits 1 if any test failed.

set -u

UNIT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

make -s -C "$UNIT_DIR" all >&2 ||
	{ echo "Bail out! cannot build the C unit tests"; exit 1; }
ret=0
"$UNIT_DIR/test_nl" || ret=1
"$UNIT_DIR/test_status" || ret=1
"$UNIT_DIR/test_probe" || ret=1
"$UNIT_DIR/test_records" || ret=1
"$UNIT_DIR/test_ntp" || ret=1
"$UNIT_DIR/test_ntp2" || ret=1
"$UNIT_DIR/test_crec" || ret=1
"$UNIT_DIR/test_analysis" || ret=1
"$UNIT_DIR/test_writes" || ret=1
"$UNIT_DIR/test_elfsite" || ret=1
"$UNIT_DIR/test_prom" || ret=1
"$UNIT_DIR/test_kbtf" || ret=1
"$UNIT_DIR/test_spdk_role" || ret=1
"$UNIT_DIR/test_strings" || ret=1
"$UNIT_DIR/test_dwbudget" || ret=1
"$UNIT_DIR/test_chain" || ret=1
"$UNIT_DIR/test_chain_md" || ret=1
"$UNIT_DIR/test_chain_prom" || ret=1
"$UNIT_DIR/test_events" || ret=1
exit $ret
