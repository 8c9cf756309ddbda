#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds and runs the unit test of the SPDK agent's entry patching
# (tools/agent, selftests/unit/test_agent_patch.c), for
# selftests/run_tests.sh; 'make -C tools/agent check' runs it directly.
# Prints its TAP; exits 1 if any test failed.
set -u

AGENT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../tools/agent" && pwd)

make -s -C "$AGENT_DIR" test_agent_patch >&2 ||
	{ echo "Bail out! cannot build the agent's unit test"; exit 1; }
"$AGENT_DIR/test_agent_patch"
