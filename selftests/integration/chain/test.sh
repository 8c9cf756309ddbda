#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034 # run.sh reads KERNELS and TOPOLOGY here.
# The kernel chain of issue 37, kernel KERNEL: the host reads and writes
# through the middle's md raid1, whose legs are NVMe/TCP connections to
# the replica's fast and slow namespaces (TOPOLOGY=chain); the three
# machines record at -s 1 and at -s 100 with the chain rule, and
# check.sh, here, follows the host's commands to the leaves.
# See Documentation/lab.rst, "The kernel chain".
KERNELS="6.12"
TOPOLOGY=chain
# jq, promtool and jsonschema: check.sh reads the reports, checks
# the chain's --prom file and validates the JSON against its schema.
requires() {
	require_program jq jq
	require_program promtool prometheus
	require_python jsonschema python3-jsonschema
}

. "$(dirname "$0")/../common/lib.sh"
scenario_start "$@"
name=chain-$KERNEL
dir=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-$name-scripts.XXXXXX")
# Seconds of each of the host's four fio jobs per phase: at -s 100 the
# chain (some 850 commands a second in all under TCG) gives about a
# hundred sampled host commands.
for role in host middle replica; do
	{
		echo "export CHAIN_SECONDS_s1=4 CHAIN_SECONDS_s100=15"
		echo ". /lab/tests/chain-$role.sh"
	} > "$dir/$role.sh"
done
lab_chain_scenario "$name" "$dir/host.sh" "$dir/middle.sh" "$dir/replica.sh" \
	./check.sh
rc=$?
rm -rf "$dir"
exit $rc
