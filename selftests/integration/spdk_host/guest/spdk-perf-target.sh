# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# SPDK's target for spdk-perf-host.sh, which records both sides; then,
# with the host done, what must not harm SPDK: rmmod ntprof with uprobes
# attached while perf reads (SPDK serves on), and nvmf_tgt SIGKILLed in
# the middle of a session (the session goes on, and stops cleanly).
# shellcheck source=selftests/ktap.sh
. /lab/ktap.sh
# shellcheck source=selftests/integration/common/guest/records.sh
. /lab/tests/records.sh
# shellcheck source=selftests/integration/common/guest/spdk-target-lib.sh
. /lab/tests/spdk-target-lib.sh
KTAP_PREFIX="spdk perf target: "
tgt=$NTPROF_LAB_SPDK_TGT
perf=$NTPROF_LAB_SPDK_PERF
ktap_header

spdk_target_start 4096 "nvmf_tgt starts and listens on TCP and RDMA"
lab-ready
lab-wait-host 1500 || ktap_fail "the host's script finished"

# wait_io: until the target's sites have seen perf's reads (perf's output
# is a file, flushed at its end), at most 120 s.
wait_io() {
	local i hits

	for i in $(seq 1 1200); do
		hits=$(awk '$1 == "target" { for (i = 1; i < NF; i++) if ($i == "hits") s += $(i + 1) }
			END { print s + 0 }' /sys/kernel/debug/ntprof/usites)
		[ "$hits" -gt 300 ] && return 0
		sleep 0.1
	done
	ktap_diag "the target's sites saw no reads of perf's"
	return 1
}

tcp="trtype:TCP adrfam:IPv4 traddr:$NTPROF_LAB_SPDK_TCP_ADDR trsvcid:$NTPROF_LAB_SPDK_TCP_PORT subnqn:$NTPROF_LAB_SPDK_NQN"

# under_perf NAME: record --spdk-target into /tmp/NAME.ntp, then 20 s of
# perf's reads in the background (its output in /tmp/perf-NAME.out),
# returning once the sites see them; $rec and $p are their pids.
under_perf() {
	ntprof record -t tcp -s 1 --spdk-target "$tgt" -o "/tmp/$1.ntp" \
		> "/tmp/$1-rec.out" 2>&1 &
	rec=$!
	wait_line "/tmp/$1-rec.out" 'profiling as target' 60 ||
		ktap_fail "record --spdk-target starts before the $1 test"
	"$perf" -q 1 -o 4096 -w randread -t 20 -c 0x2 -s 128 -r "$tcp" \
		> "/tmp/perf-$1.out" 2>&1 &
	p=$!
	wait_io
}

# rmmod with the target's uprobes attached, under perf's reads.
under_perf rmmod
if rmmod ntprof; then
	ktap_pass "rmmod ntprof with uprobes attached, under I/O"
else
	ktap_fail "rmmod ntprof with uprobes attached, under I/O"
fi
wait $p
rc=$?
wait $rec
sed 's/^/# /' /tmp/perf-rmmod.out | grep -v '^# *$' | tail -n 3
sed 's/^/# /' /tmp/rmmod-rec.out | tail -n 3
if [ $rc -eq 0 ] && grep -q '^Total' /tmp/perf-rmmod.out &&
   kill -0 "$pid" 2>/dev/null; then
	ktap_pass "SPDK served perf to its end across the rmmod, nvmf_tgt alive"
else
	ktap_fail "SPDK served perf to its end across the rmmod, nvmf_tgt alive (perf rc $rc)"
fi

# nvmf_tgt SIGKILLed mid-session: the session stays, then stops cleanly.
modprobe ntprof || ktap_fail "modprobe ntprof again"
under_perf kill
kill -KILL "$pid"
wait $p
sleep 1
if kill -0 $rec 2>/dev/null; then
	ktap_pass "the recording outlives nvmf_tgt's SIGKILL"
else
	ktap_fail "the recording outlives nvmf_tgt's SIGKILL"
fi
kill -INT $rec 2>/dev/null
wait $rec
rc=$?
sed 's/^/# /' /tmp/kill-rec.out | tail -n 8
[ $rc -eq 0 ] && ntprof report /tmp/kill.ntp > /tmp/kill-report.txt 2>&1 &&
	grep -q '^records: [1-9][0-9]* target' /tmp/kill-report.txt &&
	ktap_pass "it stops on SIGINT, exit 0, with the records before the kill" ||
	ktap_fail "it stops on SIGINT, exit 0, with the records before the kill (rc $rc)"
rm -f /run/lab-spdk-target.pid
ktap_check "rmmod ntprof after the kill" rmmod ntprof
ktap_finished
