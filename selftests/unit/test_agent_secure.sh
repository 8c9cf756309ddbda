#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The SPDK agent in a setuid program: it reads its variables with
# secure_getenv, so that a user who runs a setuid program that has the
# agent cannot steer it (NTPROF_AGENT_SITES names a file the agent
# would read with the program's privileges). agent-run-linked (the
# agent's library linked in: a secure program ignores LD_PRELOAD's
# paths) is made setuid root in a scratch directory and run as uid
# 65534 with NTPROF_AGENT_SITES set: the agent says nothing and stays
# off; run by root, not setuid in effect, it reads the variable and says
# so. Needs root (skipped without) and setpriv.
# Prints its TAP; exits 1 if any test failed.
set -u
cd "$(dirname "$0")" || exit 1
. ../ktap.sh

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

ktap_header
make -s agent-run-linked >&2 ||
	{ echo "Bail out! cannot build agent-run-linked"; exit 1; }
if [ "$(id -u)" != 0 ] || ! command -v setpriv > /dev/null; then
	ktap_skip "a setuid program ignores NTPROF_AGENT_SITES" "needs root and setpriv"
	ktap_finished
	exit
fi
chmod 755 "$TMP"
cp agent-run-linked "$TMP/t"
chown root:root "$TMP/t"
chmod 4755 "$TMP/t"

err=$(echo quit | NTPROF_AGENT_SITES=/nonexistent "$TMP/t" 2>&1 >/dev/null)
case $err in
*"ntprof-agent: /nonexistent:"*)
	ktap_pass "run by root: the agent reads NTPROF_AGENT_SITES" ;;
*)	ktap_fail "run by root: the agent reads NTPROF_AGENT_SITES (said: $err)" ;;
esac

err=$(echo quit | setpriv --reuid=65534 --regid=65534 --clear-groups \
	env NTPROF_AGENT_SITES=/nonexistent NTPROF_AGENT_WAIT=1 "$TMP/t" 2>&1 >/dev/null)
rc=$?
if [ $rc -eq 0 ] && [ -z "$err" ]; then
	ktap_pass "setuid, run by uid 65534: the agent ignores its variables, says nothing"
else
	ktap_fail "setuid, run by uid 65534: the agent ignores its variables (rc $rc, said: $err)"
fi
ktap_finished
