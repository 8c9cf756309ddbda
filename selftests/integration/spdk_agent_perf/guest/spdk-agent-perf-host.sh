# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The tutorial's sequence with the in-process agent on both sides, in one
# guest: nvmf_tgt started by ntprof run (spdk-agent-perf-target.sh) and
# recorded with --spdk-target; spdk_nvme_perf started by ntprof run
# --wait-recorder, held before main until its recorder is on, so that
# the recording has each of its reads. Over TCP and RDMA against SPDK's
# target, and over TCP against nvmet. Each pairing: both sides through
# the agent where SPDK runs, every host record joined, each of perf's
# reads recorded, ntprof's mean beside perf's Average; then compare.
# shellcheck source=selftests/ktap.sh
. /lab/ktap.sh
# shellcheck source=selftests/integration/common/guest/records.sh
. /lab/tests/records.sh
# shellcheck source=selftests/integration/common/guest/spdk-perf-lib.sh
. /lab/tests/spdk-perf-lib.sh
KTAP_PREFIX="spdk agent perf: "
share=$NTPROF_LAB_SHARE
perf=$NTPROF_LAB_SPDK_PERF
tgt=$NTPROF_LAB_SPDK_TGT
ktap_header

# has_agent PID: the process made the agent's shared memory.
has_agent() {
	# The guest's find is busybox's, without -lname.
	# shellcheck disable=SC2010
	ls -l "/proc/$1/fd" 2>/dev/null | grep -q 'memfd:ntprof-agent'
}

# pairing NAME TRANSPORT KIND ADDR PORT NQN: KIND is spdk or nvmet.
pairing() {
	local name=$1 t=$2 kind=$3 addr=$4 port=$5 nqn=$6
	local rt rh p rc trc iops avg

	pairing_start "$name" "$t" "$kind" agent
	rt=$TARGET_REC

	perf_args "${t^^}" "$addr" "$port" "$nqn" 5
	ntprof run -t "$t" --wait-recorder 300 -- "$perf" "${PERF_ARGS[@]}" \
		> "/tmp/$name-perf.out" 2> "/tmp/$name-perf.err" &
	p=$!
	for _ in $(seq 1 600); do
		has_agent "$p" && break
		sleep 0.1
	done
	ntprof record -t "$t" -s 1 --spdk-host "$p" \
		-o "$share/$name-host.ntp" > "/tmp/$name-rh.out" 2>&1 &
	rh=$!
	if wait_line "/tmp/$name-rh.out" 'profiling as host' 120 &&
	   grep -q "SPDK pid $p through the agent" "/tmp/$name-rh.out"; then
		ktap_pass "$name: record --spdk-host $p starts, through perf's agent"
	else
		ktap_fail "$name: record --spdk-host $p starts, through perf's agent"
		sed 's/^/# /' "/tmp/$name-rh.out" "/tmp/$name-perf.err"
	fi
	wait $p
	rc=$?
	cp "/tmp/$name-perf.out" "$share/$name-perf.txt"
	sed 's/^/# /' "/tmp/$name-perf.err" | grep ntprof-agent
	iops=$(perf_field 1 "/tmp/$name-perf.out")
	avg=$(perf_field 3 "/tmp/$name-perf.out")
	if [ $rc -eq 0 ] && [ -n "$avg" ] &&
	   grep -q 'ntprof-agent: a recorder is on after' "/tmp/$name-perf.err"; then
		ktap_pass "$name: perf, held until its recorder was on, reads over $t ($iops IOPS, $avg us)"
	else
		ktap_fail "$name: perf, held until its recorder was on, reads over $t (rc $rc)"
		sed 's/^/# /' "/tmp/$name-perf.out" "/tmp/$name-perf.err" | tail -n 20
	fi
	kill -INT $rh $rt 2>/dev/null
	wait $rh
	rc=$?
	sed 's/^/# /' "/tmp/$name-rh.out" | tail -n 6
	wait "$rt"
	trc=$?
	[ $rc -eq 0 ] && [ $trc -eq 0 ] &&
		ktap_pass "$name: both records stop on SIGINT, exit 0" ||
		ktap_fail "$name: both records stop on SIGINT, exit 0"

	# Every read of perf's 5 s: held until the recorder was on, none is
	# missed, and none is another run's. With no trap; under TCG perf's
	# own code around ntprof's window is slow to run: up to some 5 %.
	pairing_report "$name" "$t" "$kind" "/tmp/$name-perf.out" "$avg" 8
	grep -q "through the agent" "$share/$name-report.txt" &&
		ktap_pass "$name: the report says which side went through the agent" ||
		ktap_fail "$name: the report says which side went through the agent"
}

pairing agent-tcp tcp spdk "$NTPROF_LAB_SPDK_TCP_ADDR" \
	"$NTPROF_LAB_SPDK_TCP_PORT" "$NTPROF_LAB_SPDK_NQN"
pairing agent-rdma rdma spdk "$NTPROF_LAB_SPDK_RDMA_ADDR" \
	"$NTPROF_LAB_SPDK_RDMA_PORT" "$NTPROF_LAB_SPDK_NQN"
pairing agent-nvmet-tcp tcp nvmet "$NTPROF_LAB_TCP_ADDR" \
	"$NTPROF_LAB_TCP_PORT" "$NTPROF_LAB_TCP_NQN"

# The other order: perf's program recorded by its path first, then perf
# started under ntprof run --wait-recorder; the recorder takes its
# process up when it comes, and its sites go in the file's trailer.
ntprof record -t tcp -s 1 --spdk-target "$tgt" -o /tmp/order-target.ntp \
	> /tmp/order-rt.out 2>&1 &
rt=$!
ntprof record -t tcp -s 1 --spdk-host "$perf" -o /tmp/order-host.ntp \
	> /tmp/order-rh.out 2>&1 &
rh=$!
wait_line /tmp/order-rt.out 'profiling as target' 60 &&
	wait_line /tmp/order-rh.out 'profiling as host' 120 ||
	ktap_diag "a recording did not start"
perf_args TCP "$NTPROF_LAB_SPDK_TCP_ADDR" "$NTPROF_LAB_SPDK_TCP_PORT" \
	"$NTPROF_LAB_SPDK_NQN" 5
ntprof run -t tcp --wait-recorder 300 -- "$perf" "${PERF_ARGS[@]}" \
	> /tmp/order-perf.out 2> /tmp/order-perf.err
rc=$?
kill -INT $rh $rt 2>/dev/null
wait $rh
wait $rt
sed 's/^/# /' /tmp/order-rh.out | grep 'started'
ntprof report /tmp/order-host.ntp /tmp/order-target.ntp \
	> "$share/order-report.txt" 2>&1
[ $rc -eq 0 ] && grep -q 'started: through its agent' /tmp/order-rh.out &&
	ktap_pass "record --spdk-host by path, then perf under ntprof run: its process taken up through its agent" ||
	ktap_fail "record --spdk-host by path, then perf under ntprof run: its process taken up through its agent (perf rc $rc)"
check_joined "record first" "$share/order-report.txt" 0
check_reads "record first" "$share/order-report.txt" /tmp/order-perf.out

# compare works on the agents' recordings: TCP against RDMA.
ntprof compare "$share/agent-tcp-host.ntp,$share/agent-tcp-target.ntp" \
	"$share/agent-rdma-host.ntp,$share/agent-rdma-target.ntp" \
	> "$share/agent-compare.txt" 2>&1
rc=$?
sed 's/^/# /' "$share/agent-compare.txt" | tail -n 20
[ $rc -eq 0 ] && grep -q 'host driver (SPDK)' "$share/agent-compare.txt" &&
	ktap_pass "compare: the agents' TCP against their RDMA" ||
	ktap_fail "compare: the agents' TCP against their RDMA (rc $rc)"
ktap_finished
