# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# One session of each role for both transports (no -t on the target,
# -t tcp,rdma on the host), in one guest: fio reads the TCP namespace
# and the RDMA one; each side records each of fio's reads once, with its
# transport; the report joins every command, shows a group per
# transport, labelled with it, whose stages are named for it.
# shellcheck source=selftests/ktap.sh
. /lab/ktap.sh
# shellcheck source=selftests/integration/common/guest/records.sh
. /lab/tests/records.sh
KTAP_PREFIX="transports: "
share=$NTPROF_LAB_SHARE

ktap_header
modprobe ntprof || { ktap_fail "modprobe ntprof"; ktap_finished; exit 1; }

ntprof probe -r target > /tmp/probe.txt 2>&1
rc=$?
sed 's/^/# /' /tmp/probe.txt | grep -E 'modules|hooks over|load:'
if [ $rc -eq 0 ] && grep -q '^target hooks over tcp,rdma:' /tmp/probe.txt &&
   grep -q 'nvmet_tcp_queue_response' /tmp/probe.txt &&
   grep -q 'nvmet_rdma_queue_response' /tmp/probe.txt; then
	ktap_pass "probe -r target (no -t): the hooks of both transports, load: ok"
else
	ktap_fail "probe -r target (no -t): the hooks of both transports, load: ok (rc $rc)"
fi

ntprof record -r target -s 1 -o "$share/both-target.ntp" > /tmp/rt.out 2>&1 &
rt=$!
ntprof record -r host -t tcp,rdma -s 1 -o "$share/both-host.ntp" > /tmp/rh.out 2>&1 &
rh=$!
if wait_line /tmp/rt.out 'profiling as target' 60 &&
   wait_line /tmp/rh.out 'profiling as host' 60; then
	ktap_pass "record -r target (no -t) and -r host -t tcp,rdma start side by side"
else
	ktap_fail "record -r target (no -t) and -r host -t tcp,rdma start side by side"
	sed 's/^/# /' /tmp/rt.out /tmp/rh.out
fi
if grep -q '^target transport: tcp,rdma$' /sys/kernel/debug/ntprof/status 2>/dev/null; then
	ktap_pass "debugfs: the target session records tcp,rdma"
else
	ktap_fail "debugfs: the target session records tcp,rdma"
	sed 's/^/# /' /sys/kernel/debug/ntprof/status
fi

r_tcp=$(fio_count "$NTPROF_LAB_TCP_DEV" randread 4k 3)
r_rdma=$(fio_count "$NTPROF_LAB_RDMA_DEV" randread 4k 3)
r_tcp=${r_tcp% *}
r_rdma=${r_rdma% *}
kill -INT $rh $rt
wait $rh
rc_h=$?
wait $rt
rc_t=$?
if [ $rc_h -eq 0 ] && [ $rc_t -eq 0 ]; then
	ktap_pass "both recordings stop on SIGINT, exit 0"
else
	ktap_fail "both recordings stop on SIGINT, exit 0 (host $rc_h, target $rc_t)"
fi

# per_transport ROLE TRANSPORT: the records of that side and transport,
# from the CSV of its recording alone.
for side in host target; do
	ntprof report --csv "/tmp/$side.csv" "$share/both-$side.ntp" > /dev/null 2>&1 ||
		ktap_diag "report --csv of the $side's recording failed"
done
per_transport() {
	awk -F, -v r="$1" -v t="$2" 'NR > 1 && $2 == r && $3 == t' "/tmp/$1.csv" | wc -l
}
for t in tcp rdma; do
	want=$r_tcp
	[ $t = rdma ] && want=$r_rdma
	for side in host target; do
		got=$(per_transport $side $t)
		if [ "$want" -gt 0 ] && [ "$got" -eq "$want" ]; then
			ktap_pass "$side recorded each of fio's $want reads over $t once, as $t"
		else
			ktap_fail "$side recorded each of fio's $want reads over $t once, as $t (got $got)"
		fi
	done
done

ntprof report "$share/both-host.ntp" "$share/both-target.ntp" \
	> "$share/both-report.txt" 2>&1
rc=$?
sed 's/^/# /' "$share/both-report.txt" | head -n 60
line=$(grep '^records: ' "$share/both-report.txt" | tail -n 1)
total=$((r_tcp + r_rdma))
if [ $rc -eq 0 ] && echo "$line" | grep -q "^records: $total host, $total target; $total matched (100 % "; then
	ktap_pass "report joins every command of both transports ($line)"
else
	ktap_fail "report joins every command of both transports (rc $rc: ${line:-no records line}, $total commands)"
fi

# group_block LABEL: the report's lines of that group, up to the next.
group_block() {
	awk -v l="== $1:" 'index($0, l) == 1 { g = 1; print; next }
		/^== / { g = 0 } g' "$share/both-report.txt"
}
tcp_dev=${NTPROF_LAB_TCP_DEV#/dev/}
rdma_dev=${NTPROF_LAB_RDMA_DEV#/dev/}
ok=1
group_block "read 4KiB $tcp_dev tcp" > /tmp/g-tcp.txt
group_block "read 4KiB $rdma_dev rdma" > /tmp/g-rdma.txt
grep -q "^== read 4KiB $tcp_dev tcp: $r_tcp commands" /tmp/g-tcp.txt &&
	grep -q '^  network (TCP/IP, NICs, wire) ' /tmp/g-tcp.txt &&
	grep -q '^  target driver (nvmet-tcp) ' /tmp/g-tcp.txt || ok=0
grep -q "^== read 4KiB $rdma_dev rdma: $r_rdma commands" /tmp/g-rdma.txt &&
	grep -q '^  network (RDMA, NICs, wire) ' /tmp/g-rdma.txt &&
	grep -q '^  target driver (nvmet-rdma) ' /tmp/g-rdma.txt || ok=0
[ $ok = 1 ] &&
	ktap_pass "a group per transport, labelled with it, its stages named for it" ||
	ktap_fail "a group per transport, labelled with it, its stages named for it"

# The target's file alone: one device, two groups, by transport.
ntprof report "$share/both-target.ntp" > /tmp/t-report.txt 2>&1
n=$(grep -cE '^== read 4KiB .* (tcp|rdma): ' /tmp/t-report.txt)
if [ "$n" -eq 2 ]; then
	ktap_pass "the target's recording alone: a group per transport"
else
	ktap_fail "the target's recording alone: a group per transport ($n)"
	grep '^== ' /tmp/t-report.txt | sed 's/^/# /'
fi
ktap_finished
