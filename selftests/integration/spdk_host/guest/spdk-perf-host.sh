# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# SPDK's host, spdk_nvme_perf, recorded with ntprof record --spdk-host
# while the target's side is recorded too, in one guest: against SPDK's
# target over NVMe/TCP and NVMe/RDMA, and against nvmet over NVMe/TCP.
# Each pairing: every host record joins a target record, the stages are
# SPDK's, and ntprof's mean read latency is close to perf's Average.
# shellcheck source=selftests/ktap.sh
. /lab/ktap.sh
# shellcheck source=selftests/integration/common/guest/records.sh
. /lab/tests/records.sh
# shellcheck source=selftests/integration/common/guest/spdk-perf-lib.sh
. /lab/tests/spdk-perf-lib.sh
KTAP_PREFIX="spdk perf: "
share=$NTPROF_LAB_SHARE
perf=$NTPROF_LAB_SPDK_PERF
tgt=$NTPROF_LAB_SPDK_TGT
ktap_header

out=/tmp/probe-host.txt
ntprof probe -t rdma --spdk-host "$perf" > "$out" 2>&1
rc=$?
sed 's/^/# /' "$out"
if [ $rc -eq 0 ] && grep -q '^  load: ok$' "$out" &&
   [ "$(grep -cE '^  ok .*\(required\)' "$out")" -eq 2 ] &&
   grep -q '^SPDK host ' "$out"; then
	ktap_pass "probe --spdk-host (no -r): the host's required sites ok, load: ok"
else
	ktap_fail "probe --spdk-host (no -r): the host's required sites ok, load: ok (rc $rc)"
fi
if ntprof probe -r target -t tcp --spdk-host "$perf" > /dev/null 2>&1; then
	ktap_fail "probe -r target --spdk-host is refused"
else
	ktap_pass "probe -r target --spdk-host is refused"
fi

# run_perf TRTYPE ADDR PORT NQN SECONDS: spdk_nvme_perf's QD1 4 KiB reads
# on core 1 (nvmf_tgt polls core 0), its output in /tmp/perf.out.
run_perf() {
	perf_args "$@"
	"$perf" "${PERF_ARGS[@]}" > /tmp/perf.out 2>&1
}

# pairing NAME TRANSPORT TARGET ADDR PORT NQN: TARGET is spdk or nvmet.
pairing() {
	local name=$1 t=$2 kind=$3 addr=$4 port=$5 nqn=$6 rt rh rc
	local host iops avg

	pairing_start "$name" "$t" "$kind"
	rt=$TARGET_REC

	# The host's recording first, so that it holds every command of
	# perf's run: its sites attach to the perf that starts after it.
	ntprof record -t "$t" -s 1 --spdk-host "$perf" \
		-o "$share/$name-host.ntp" > "/tmp/$name-rh.out" 2>&1 &
	rh=$!
	if wait_line "/tmp/$name-rh.out" 'profiling as host' 60; then
		ktap_pass "$name: record --spdk-host starts before perf"
	else
		ktap_fail "$name: record --spdk-host starts before perf"
		sed 's/^/# /' "/tmp/$name-rh.out"
	fi
	run_perf "${t^^}" "$addr" "$port" "$nqn" 5
	rc=$?
	cp /tmp/perf.out "$share/$name-perf.txt"
	perf_summary /tmp/perf.out | sed 's/^/# /' | grep -v '^# *$' | tail -n 4
	iops=$(perf_field 1)
	avg=$(perf_field 3)
	if [ $rc -eq 0 ] && [ -n "$avg" ]; then
		ktap_pass "$name: spdk_nvme_perf reads over $t ($iops IOPS, $avg us)"
	else
		ktap_fail "$name: spdk_nvme_perf reads over $t (rc $rc)"
	fi
	kill -INT $rh 2>/dev/null
	wait $rh
	rc=$?
	sed 's/^/# /' "/tmp/$name-rh.out" | tail -n 12
	[ $rc -eq 0 ] && ktap_pass "$name: record --spdk-host stops on SIGINT, exit 0" ||
		ktap_fail "$name: record --spdk-host stops on SIGINT, exit 0 (rc $rc)"
	kill -INT $rt 2>/dev/null
	wait $rt
	rc=$?
	[ $rc -eq 0 ] && ktap_pass "$name: the target's record stops on SIGINT, exit 0" ||
		ktap_fail "$name: the target's record stops on SIGINT, exit 0 (rc $rc)"

	# The recording began before perf: it has each of perf's reads.
	# Under TCG, perf's window holds most of a uprobe trap's ~50 us too
	# (Documentation/spdk.rst, Accuracy).
	pairing_report "$name" "$t" "$kind" /tmp/perf.out "$avg" 10
	host=$HOST_RECORDS

	# Over RDMA SPDK's target ends its record at the SEND's completion.
	if [ "$kind" = spdk ] && [ "$t" = rdma ]; then
		xfer=$(awk '/^    data transfer \(RDMA, at the target\) / { print $7; exit }' \
			"$share/$name-report.txt")
		[ -n "$xfer" ] && [ "${xfer%% *}" -eq "$host" ] 2>/dev/null &&
			ktap_pass "$name: --detail has the data transfer at the target, for every command ($xfer)" ||
			ktap_fail "$name: --detail has the data transfer at the target, for every command (${xfer:-none} of $host)"
	fi
}

pairing perf-spdk-tcp tcp spdk "$NTPROF_LAB_SPDK_TCP_ADDR" \
	"$NTPROF_LAB_SPDK_TCP_PORT" "$NTPROF_LAB_SPDK_NQN"
pairing perf-spdk-rdma rdma spdk "$NTPROF_LAB_SPDK_RDMA_ADDR" \
	"$NTPROF_LAB_SPDK_RDMA_PORT" "$NTPROF_LAB_SPDK_NQN"
pairing perf-nvmet-tcp tcp nvmet "$NTPROF_LAB_TCP_ADDR" \
	"$NTPROF_LAB_TCP_PORT" "$NTPROF_LAB_TCP_NQN"

# The tutorial's order over RDMA: perf runs, probe names it by its PID,
# and a recording joins it by the PID for 3 s; every host record joins.
ntprof record -t rdma -s 1 --spdk-target "$tgt" -o /tmp/late-target.ntp \
	> /tmp/late-rt.out 2>&1 &
rt=$!
wait_line /tmp/late-rt.out 'profiling as target' 60 ||
	ktap_diag "the target's record did not start"
rm -f /tmp/perf.out
run_perf RDMA "$NTPROF_LAB_SPDK_RDMA_ADDR" "$NTPROF_LAB_SPDK_RDMA_PORT" \
	"$NTPROF_LAB_SPDK_NQN" 60 &
p=$!
# perf's output is a file, flushed at its end: its reads show instead in
# the hits of the target's sites.
for i in $(seq 1 1200); do
	hits=$(awk '$1 == "target" { for (i = 1; i < NF; i++) if ($i == "hits") s += $(i + 1) }
		END { print s + 0 }' /sys/kernel/debug/ntprof/usites)
	[ "$hits" -gt 300 ] && break
	sleep 0.1
done
pid=$(pidof spdk_nvme_perf)
ntprof probe -t rdma --spdk-host "$pid" > /tmp/late-probe.txt 2>&1
rc=$?
if [ $rc -eq 0 ] && [ -n "$pid" ] &&
   grep -q "^  running processes: $pid$" /tmp/late-probe.txt; then
	ktap_pass "probe --spdk-host $pid: names the running perf, load: ok"
else
	ktap_fail "probe --spdk-host ${pid:-?}: names the running perf, load: ok (rc $rc)"
	sed 's/^/# /' /tmp/late-probe.txt
fi
ntprof record -t rdma -s 1 -d 3 --spdk-host "$pid" -o /tmp/late-host.ntp \
	> /tmp/late-rh.out 2>&1
rc=$?
sed 's/^/# /' /tmp/late-rh.out | tail -n 8
kill -0 "$pid" 2>/dev/null ||
	ktap_diag "perf ended before the recording did: raise its -t"
kill -INT "$pid" 2>/dev/null
wait $p
kill -INT $rt 2>/dev/null
wait $rt
ntprof report /tmp/late-host.ntp /tmp/late-target.ntp > /tmp/late-report.txt 2>&1
line=$(grep '^records: ' /tmp/late-report.txt | tail -n 1)
# shellcheck disable=SC2086,SC2046 # the words of a line.
set -- $(records_line /tmp/late-report.txt)
if [ $rc -eq 0 ] && [ "${1:-0}" -gt 0 ] && [ "${4:-0}" = 100 ]; then
	ktap_pass "record --spdk-host PID joins a running perf: $line"
else
	ktap_fail "record --spdk-host PID joins a running perf (rc $rc: ${line:-no records line})"
	sed 's/^/# /' /tmp/late-report.txt | tail -n 20
fi

# Both transports in one session of each side: no -t. SPDK's target
# tells each command's transport (a fetch of its qpair's), its host by
# the site; perf reads over TCP, then over RDMA.
ntprof record -s 1 --spdk-target "$tgt" -o "$share/both-target.ntp" \
	> /tmp/both-rt.out 2>&1 &
rt=$!
ntprof record -s 1 --spdk-host "$perf" -o "$share/both-host.ntp" \
	> /tmp/both-rh.out 2>&1 &
rh=$!
if wait_line /tmp/both-rt.out 'profiling as target' 60 &&
   wait_line /tmp/both-rh.out 'profiling as host' 60; then
	ktap_pass "both transports: record --spdk-target and --spdk-host start without -t"
else
	ktap_fail "both transports: record --spdk-target and --spdk-host start without -t"
	sed 's/^/# /' /tmp/both-rt.out /tmp/both-rh.out
fi
run_perf TCP "$NTPROF_LAB_SPDK_TCP_ADDR" "$NTPROF_LAB_SPDK_TCP_PORT" \
	"$NTPROF_LAB_SPDK_NQN" 3
run_perf RDMA "$NTPROF_LAB_SPDK_RDMA_ADDR" "$NTPROF_LAB_SPDK_RDMA_PORT" \
	"$NTPROF_LAB_SPDK_NQN" 3
kill -INT $rh $rt 2>/dev/null
wait $rh
wait $rt
ok=1
for side in host target; do
	ntprof report --csv "/tmp/both-$side.csv" "$share/both-$side.ntp" \
		> /dev/null 2>&1 || ok=0
done
counts=
for t in tcp rdma; do
	h=$(awk -F, -v t=$t 'NR > 1 && $3 == t' /tmp/both-host.csv | wc -l)
	tg=$(awk -F, -v t=$t 'NR > 1 && $3 == t' /tmp/both-target.csv | wc -l)
	[ "$h" -gt 0 ] && [ "$h" -eq "$tg" ] || ok=0
	counts="$counts $t: $h host, $tg target;"
done
[ $ok = 1 ] &&
	ktap_pass "both transports: each side recorded each command as its transport's ($counts)" ||
	ktap_fail "both transports: each side recorded each command as its transport's ($counts)"
ntprof report "$share/both-host.ntp" "$share/both-target.ntp" \
	> "$share/both-report.txt" 2>&1
rc=$?
sed 's/^/# /' "$share/both-report.txt" | tail -n 30
line=$(grep '^records: ' "$share/both-report.txt" | tail -n 1)
if [ $rc -eq 0 ] && echo "$line" | grep -q 'matched (100 % ' &&
   grep -q '^== read 4KiB spdk-n1 tcp: ' "$share/both-report.txt" &&
   grep -q '^== read 4KiB spdk-n1 rdma: ' "$share/both-report.txt" &&
   grep -q '^  network (RDMA, NICs, wire) ' "$share/both-report.txt" &&
   grep -q '^  network (TCP/IP, NICs, wire) ' "$share/both-report.txt"; then
	ktap_pass "both transports: every command joined, a group per transport ($line)"
else
	ktap_fail "both transports: every command joined, a group per transport (rc $rc: ${line:-no records line})"
fi

# compare works on SPDK's recordings: TCP against RDMA.
ntprof compare "$share/perf-spdk-tcp-host.ntp,$share/perf-spdk-tcp-target.ntp" \
	"$share/perf-spdk-rdma-host.ntp,$share/perf-spdk-rdma-target.ntp" \
	> "$share/perf-compare.txt" 2>&1
rc=$?
sed 's/^/# /' "$share/perf-compare.txt" | tail -n 20
[ $rc -eq 0 ] && grep -q 'host driver (SPDK)' "$share/perf-compare.txt" &&
	ktap_pass "compare: SPDK over TCP against SPDK over RDMA" ||
	ktap_fail "compare: SPDK over TCP against SPDK over RDMA (rc $rc)"
ktap_finished
