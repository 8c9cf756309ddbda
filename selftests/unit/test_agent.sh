#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds and runs the unit tests of the SPDK agent: entry patching
# (test_agent_patch.c), the handler behind it (test_agent_hit.c), and
# libntprof-agent.so in a process of its own (test_agent_run.c), and the
# site list as the tool writes it and the agent reads it
# (test_agent_sites.c), and a first site's identity plan
# (test_agent_ident.c), the handler against the program's bad
# pointers (test_agent_fault.c), and the recorder's side against a
# hostile agent's memory (test_agent_drain.c), for
# selftests/run_tests.sh; 'make -C selftests/unit check-agent' runs it
# directly.
# Prints its TAP; exits 1 if any test failed.
set -u

UNIT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
AGENT_DIR=$(cd "$UNIT_DIR/../../tools/agent" && pwd)

make -s -C "$UNIT_DIR" agent >&2 ||
	{ echo "Bail out! cannot build the agent's unit test"; exit 1; }
ret=0
"$UNIT_DIR/test_agent_patch" || ret=1
"$UNIT_DIR/test_agent_hit" || ret=1
"$UNIT_DIR/test_agent_run" "$AGENT_DIR/libntprof-agent.so" \
	"$UNIT_DIR/agent-run-target" || ret=1
"$UNIT_DIR/test_agent_sites" || ret=1
"$UNIT_DIR/test_agent_ident" || ret=1
"$UNIT_DIR/test_agent_fault" || ret=1
"$UNIT_DIR/test_agent_drain" || ret=1
exit $ret
