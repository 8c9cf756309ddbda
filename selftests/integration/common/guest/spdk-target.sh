# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# SPDK's target for the host's reads: nvmf_tgt from the lab's helper,
# ntprof probe --spdk-target by path and by PID, and ntprof record
# --spdk-target while the host reads (spdk-host.sh records its side).
# After the host: the target recorded each read once, and the report
# joins all the host's records.
# shellcheck source=selftests/ktap.sh
. /lab/ktap.sh
# shellcheck source=selftests/integration/common/guest/records.sh
. /lab/tests/records.sh
# shellcheck source=selftests/integration/common/guest/spdk-target-lib.sh
. /lab/tests/spdk-target-lib.sh
KTAP_PREFIX=${KTAP_PREFIX:-"spdk target: "}
# What probe says of a target ready to record: through uprobes, or
# (spdk-agent-target.sh) through the agent of an nvmf_tgt under ntprof run.
load_ok=${SPDK_LOAD_OK:-'^  load: ok$'}
share=$NTPROF_LAB_SHARE
tgt=$NTPROF_LAB_SPDK_TGT
ktap_header

spdk_target_start 512 "nvmf_tgt starts and listens on TCP and RDMA"

ntprof probe -r target -t tcp --spdk-target "$tgt" > "$share/spdk-probe.txt" 2>&1
rc=$?
sed 's/^/# /' "$share/spdk-probe.txt"
if [ $rc -eq 0 ] && grep -q "$load_ok" "$share/spdk-probe.txt" &&
   grep -q "^  running processes:.* $pid\b" "$share/spdk-probe.txt" &&
   [ "$(grep -cE '^  ok .*\(required\)' "$share/spdk-probe.txt")" -eq 2 ]; then
	ktap_pass "probe --spdk-target $tgt: the required sites ok, process $pid, load: ok"
else
	ktap_fail "probe --spdk-target $tgt: the required sites ok, process $pid, load: ok (rc $rc)"
fi
if ntprof probe -r target -t tcp --spdk-target "$pid" 2>&1 | grep -q "$load_ok"; then
	ktap_pass "probe --spdk-target $pid (a PID): load: ok"
else
	ktap_fail "probe --spdk-target $pid (a PID): load: ok"
fi

ntprof record -r target -t tcp -s 1 --spdk-target "$tgt" \
	-o "$share/spdk-target.ntp" > /tmp/rec-target.out 2>&1 &
rec=$!
if wait_line /tmp/rec-target.out 'profiling as target' 60; then
	ktap_pass "record -r target --spdk-target starts"
else
	ktap_fail "record -r target --spdk-target starts"
	sed 's/^/# /' /tmp/rec-target.out
fi
lab-ready
lab-wait-host
kill -INT $rec 2>/dev/null
wait $rec
rc=$?
cp /tmp/rec-target.out "$share/spdk-record-target.txt"
sed 's/^/# /' /tmp/rec-target.out | tail -n 30
[ $rc -eq 0 ] && ktap_pass "record --spdk-target stops on SIGINT, exit 0" ||
	ktap_fail "record --spdk-target stops on SIGINT, exit 0 (rc $rc)"
sed 's/^/# /' /sys/kernel/debug/ntprof/usites
ktap_check "nvmf_tgt stops on SIGINT" lab-spdk-target stop

# What the host's side said it read, and the join.
reads=$(cat "$share/spdk-reads" 2>/dev/null)
ntprof report "$share/spdk-host.ntp" "$share/spdk-target.ntp" \
	> "$share/spdk-report.txt" 2>&1
rc=$?
sed 's/^/# /' "$share/spdk-report.txt" | tail -n 25
line=$(grep '^records: ' "$share/spdk-report.txt" | tail -n 1)
# shellcheck disable=SC2086,SC2046 # the words of a line.
set -- $(echo "$line" | sed -E 's/^records: ([0-9]+) host, ([0-9]+) target; ([0-9]+) matched \(([0-9]+) % .*/\1 \2 \3 \4/')
host=${1:-0} target=${2:-0} matched=${3:-0} pct=${4:-0}
if [ "${reads:-0}" -gt 0 ] && [ "$host" -eq "$reads" ]; then
	ktap_pass "the host recorded each of fio's $reads reads once ($host records)"
else
	ktap_fail "the host recorded each of fio's ${reads:-?} reads once ($host records)"
fi
# Besides the reads, the target sees the host's keep-alives.
if [ "${reads:-0}" -gt 0 ] && [ "$target" -ge "$reads" ] &&
   [ "$target" -le $((reads + reads / 20)) ]; then
	ktap_pass "SPDK's target recorded each read once ($target records for $reads reads)"
else
	ktap_fail "SPDK's target recorded each read once ($target records for ${reads:-?} reads)"
fi
if [ $rc -eq 0 ] && [ "$pct" = 100 ] && [ "$matched" -eq "$host" ]; then
	ktap_pass "report joins all the host's records with SPDK's ($line)"
else
	ktap_fail "report joins all the host's records with SPDK's (rc $rc: ${line:-no records line})"
fi
ktap_finished
