# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers of the chain test's guest scripts (chain/test.sh): the
# host, the middle and the replica record each phase at one -s with the
# chain rule (Documentation/lab.rst, "The kernel chain"). A phase is
# PHASE:N, its files in the share are PHASE-*; flags in the share order
# the machines: the replica records first and stops last, the middle
# records both its roles inside the replica's recording, the host inside
# the middle's.
CHAIN_PHASES=${CHAIN_PHASES:-"s1:1 s100:100"}

# chain_record NAME ROLE N CHAIN OUT: ntprof record as ROLE over NVMe/TCP
# at -s N with the chain rule's CHAIN (--chain, --chain=md or
# --chain=OFFSET) into OUT, in the background ($rec_pid); its output in
# /tmp/NAME.out. Returns once it profiles (60 s at most).
chain_record() {
	local name=$1 role=$2 n=$3 chain=$4 out=$5

	ntprof record -r "$role" -t tcp -s "$n" "$chain" -o "$out" \
		> "/tmp/$name.out" 2>&1 &
	# shellcheck disable=SC2034 # the caller stops it.
	rec_pid=$!
	if wait_line "/tmp/$name.out" "^ntprof: profiling as $role" 60; then
		ktap_pass "$name: record -r $role -s $n $chain profiles"
	else
		ktap_fail "$name: record -r $role -s $n $chain profiles"
		sed 's/^/# /' "/tmp/$name.out"
		return 1
	fi
}

# chain_record_middle NAME N OUT PROM: ntprof record -r host,target over
# NVMe/TCP at -s N with --chain=md into OUT (OUT's -target.ntp and
# -host.ntp) and --prom PROM, in the background ($rec_pid); its output in
# /tmp/NAME.out. Returns once both roles profile (60 s at most).
chain_record_middle() {
	local name=$1 n=$2 out=$3 prom=$4

	ntprof record -r host,target -t tcp -s "$n" --chain=md -o "$out" \
		--prom "$prom" > "/tmp/$name.out" 2>&1 &
	# shellcheck disable=SC2034 # the caller stops it.
	rec_pid=$!
	if wait_line "/tmp/$name.out" "^ntprof: profiling as target" 60 &&
	   wait_line "/tmp/$name.out" "^ntprof: profiling as host" 60; then
		ktap_pass "$name: record -r host,target -s $n --chain=md --prom profiles"
	else
		ktap_fail "$name: record -r host,target -s $n --chain=md --prom profiles"
		sed 's/^/# /' "/tmp/$name.out"
		return 1
	fi
}
