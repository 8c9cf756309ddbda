# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# SPDK's target for spdk-agent-perf-host.sh: nvmf_tgt started by ntprof
# run, its agent's sites patched. With the host done, what must not harm
# SPDK: its recorder SIGKILLed while perf reads (SPDK serves on, and the
# agent turns itself off when the heartbeat stops); then spdk_tgt, SPDK's
# all-in-one target, under ntprof run once, recorded with perf's agent,
# every host record joined.
# shellcheck source=selftests/ktap.sh
. /lab/ktap.sh
# shellcheck source=selftests/integration/common/guest/records.sh
. /lab/tests/records.sh
# shellcheck source=selftests/integration/common/guest/spdk-perf-lib.sh
. /lab/tests/spdk-perf-lib.sh
# shellcheck source=selftests/integration/common/guest/spdk-target-lib.sh
. /lab/tests/spdk-target-lib.sh
KTAP_PREFIX="spdk agent perf target: "
share=$NTPROF_LAB_SHARE
tgt=$NTPROF_LAB_SPDK_TGT
perf=$NTPROF_LAB_SPDK_PERF
ktap_header

# The kernel side of the nvmet pairing, and uprobes kept out of agents.
LAB_SPDK_AGENT=1 spdk_target_start 4096 \
	"nvmf_tgt starts under ntprof run and listens on TCP and RDMA"
ntprof probe --spdk-target "$tgt" > /tmp/agent-probe.txt 2>&1
rc=$?
sed 's/^/# /' /tmp/agent-probe.txt
if [ $rc -eq 0 ] && grep -q '^  load: ok, through the agent$' /tmp/agent-probe.txt &&
   grep -q "process $pid: agent, \([0-9]*\) of \1 sites patched, off" /tmp/agent-probe.txt; then
	ktap_pass "probe --spdk-target: every site of nvmf_tgt's agent patched, off"
else
	ktap_fail "probe --spdk-target: every site of nvmf_tgt's agent patched, off (rc $rc)"
fi
lab-ready
lab-wait-host 1500 || ktap_fail "the host's script finished"

# tcp_args SECONDS: perf's reads over TCP, in PERF_ARGS.
tcp_args() {
	perf_args TCP "$NTPROF_LAB_SPDK_TCP_ADDR" "$NTPROF_LAB_SPDK_TCP_PORT" \
		"$NTPROF_LAB_SPDK_NQN" "$1"
}

# A recorder SIGKILLed mid-session, while perf (no agent) reads for 20 s.
ntprof record -t tcp -s 1 --spdk-target "$pid" -o /tmp/killed.ntp \
	> /tmp/killed.out 2>&1 &
rec=$!
wait_line /tmp/killed.out 'profiling as target' 60 ||
	ktap_diag "the recorder to kill did not start"
tcp_args 20
"$perf" "${PERF_ARGS[@]}" > /tmp/perf-killed.out 2>&1 &
p=$!
sleep 5
kill -KILL $rec
wait $rec 2>/dev/null
wait $p
rc=$?
perf_summary /tmp/perf-killed.out | sed 's/^/# /' | grep -v '^# *$' | tail -n 3
iops=$(perf_field 1 /tmp/perf-killed.out)
if [ $rc -eq 0 ] && [ -n "$iops" ] && kill -0 "$pid" 2>/dev/null; then
	ktap_pass "a recorder SIGKILLed mid-session: SPDK serves on (perf's 20 s at $iops IOPS)"
else
	ktap_fail "a recorder SIGKILLed mid-session: SPDK serves on (perf rc $rc)"
fi
ntprof probe --spdk-target "$pid" > /tmp/killed-probe.txt 2>&1
sed 's/^/# /' /tmp/killed-probe.txt | grep "process $pid"
grep -q "process $pid: agent, .* off (it turned itself off 1 time" /tmp/killed-probe.txt &&
	ktap_pass "... and the agent turned itself off when the heartbeat stopped" ||
	ktap_fail "... and the agent turned itself off when the heartbeat stopped"
ktap_check "nvmf_tgt stops on SIGINT" lab-spdk-target stop

# spdk_tgt once, both sides through their agents.
if [ ! -x /lab/spdk/spdk_tgt ]; then
	ktap_skip "spdk_tgt under ntprof run, recorded with perf's agent, joined" \
		"the SPDK build has no spdk_tgt"
	ktap_finished
	exit 0
fi
# Its 1 GiB and perf's 128 MiB (the test gives the guest the memory).
echo 600 > /proc/sys/vm/nr_hugepages
if ! LAB_SPDK_AGENT=1 LAB_SPDK_PROGRAM=spdk_tgt lab-spdk-target start 4096; then
	ktap_fail "spdk_tgt starts under ntprof run"
	ktap_finished
	exit 1
fi
ntprof record -t tcp -s 1 --spdk-target /lab/spdk/spdk_tgt \
	-o "$share/spdk-tgt-target.ntp" > /tmp/st-rt.out 2>&1 &
rt=$!
wait_line /tmp/st-rt.out 'profiling as target' 60 ||
	ktap_diag "spdk_tgt's record did not start"
tcp_args 5
ntprof run -t tcp --wait-recorder 300 -- "$perf" "${PERF_ARGS[@]}" \
	> /tmp/st-perf.out 2> /tmp/st-perf.err &
p=$!
for _ in $(seq 1 600); do
	# The guest's find is busybox's, without -lname.
	# shellcheck disable=SC2010
	ls -l "/proc/$p/fd" 2>/dev/null | grep -q 'memfd:ntprof-agent' && break
	sleep 0.1
done
ntprof record -t tcp -s 1 --spdk-host "$p" -o "$share/spdk-tgt-host.ntp" \
	> /tmp/st-rh.out 2>&1 &
rh=$!
wait $p
kill -INT $rh $rt 2>/dev/null
wait $rh
wait $rt
ntprof report "$share/spdk-tgt-host.ntp" "$share/spdk-tgt-target.ntp" \
	> "$share/spdk-tgt-report.txt" 2>&1
rc=$?
sed 's/^/# /' "$share/spdk-tgt-report.txt" | tail -n 25
line=$(grep '^records: ' "$share/spdk-tgt-report.txt" | tail -n 1)
# shellcheck disable=SC2086,SC2046 # the words of a line.
set -- $(records_line "$share/spdk-tgt-report.txt")
if [ $rc -eq 0 ] && [ "${1:-0}" -gt 0 ] && [ "${4:-0}" = 100 ] &&
   grep -q 'through the agent' /tmp/st-rt.out &&
   grep -q 'through the agent' /tmp/st-rh.out; then
	ktap_pass "spdk_tgt under ntprof run, recorded with perf's agent: every host record joined ($line)"
else
	ktap_fail "spdk_tgt under ntprof run, recorded with perf's agent: every host record joined (rc $rc: ${line:-no records line})"
	sed 's/^/# /' /tmp/st-rt.out /tmp/st-rh.out /tmp/st-perf.err | tail -n 20
fi
ktap_check "spdk_tgt stops on SIGINT" lab-spdk-target stop
ktap_finished
