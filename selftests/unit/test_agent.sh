#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds and runs the unit tests of the SPDK agent, those the Makefile's
# AGENT_TESTS names (entry patching, the handler behind it, the library in
# a process of its own, the site list, a first site's identity plan, the
# handler against bad pointers, the recorder's side against a hostile
# agent's memory), for selftests/run_tests.sh; 'make -C selftests/unit
# check-agent' runs it and test_agent_cet.sh.
# Prints its TAP; exits 1 if any test failed.
set -u

UNIT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

make -s -C "$UNIT_DIR" agent >&2 ||
	{ echo "Bail out! cannot build the agent's unit test"; exit 1; }
tests=$(make -s --no-print-directory -C "$UNIT_DIR" list-agent-tests) || tests=
[ -n "$tests" ] || { echo "Bail out! make list-agent-tests"; exit 1; }
ret=0
for t in $tests; do
	"$UNIT_DIR/$t" || ret=1
done
exit $ret
