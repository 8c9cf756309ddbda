# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Struct layouts from BTF alone, in one guest: the module loaded without
# its built-in table (builtin_layout=0) knows no offset until a start
# gives them. Without BTF (NTPROF_BTF_DIR names an empty place) probe
# names the member each hook lacks, says load: no, and record refuses
# with a clear line, leaving no file. With the kernel's BTF, every hook
# attaches, and both roles record each of fio's reads over both
# transports once, joined. Then the module with its table again: built-in.
# shellcheck source=selftests/ktap.sh
. /lab/ktap.sh
# shellcheck source=selftests/integration/common/guest/records.sh
. /lab/tests/records.sh
KTAP_PREFIX="layout: "
share=$NTPROF_LAB_SHARE

ktap_header
modprobe -r ntprof 2>/dev/null
if ! modprobe ntprof builtin_layout=0; then
	ktap_fail "modprobe ntprof builtin_layout=0"
	ktap_finished
	exit 1
fi
mkdir -p /tmp/no-btf

for role in host target; do
	NTPROF_BTF_DIR=/tmp/no-btf ntprof probe -r $role > /tmp/nobtf-$role.txt 2>&1
	rc=$?
	grep -E 'no layout|load:' /tmp/nobtf-$role.txt | head -n 4 | sed 's/^/# /'
	first=nvme_request.cmd
	[ $role = target ] && first=nvmet_req.sq
	if [ $rc -ne 0 ] &&
	   grep -qE "^  missing .*\[no layout: $first \(no BTF in this kernel; no built-in offset for this release\)\]$" /tmp/nobtf-$role.txt &&
	   grep -qE "^  load: no, the required .* reads $first " /tmp/nobtf-$role.txt; then
		ktap_pass "$role: without BTF or a table, probe names the member ($first), load: no"
	else
		ktap_fail "$role: without BTF or a table, probe names the member ($first), load: no (rc $rc)"
	fi
done

NTPROF_BTF_DIR=/tmp/no-btf ntprof record -r target -o /tmp/nobtf.ntp > /tmp/nobtf-rec.out 2>&1
rc=$?
sed 's/^/# /' /tmp/nobtf-rec.out | head -n 4
if [ $rc -eq 1 ] && grep -q 'member of unknown offset (see ntprof probe)' /tmp/nobtf-rec.out &&
   [ ! -e /tmp/nobtf.ntp ]; then
	ktap_pass "record without the layouts: refused in one line, no file left"
else
	ktap_fail "record without the layouts: refused in one line, no file left (rc $rc)"
fi

ok=1
for role in host target; do
	ntprof probe -r $role > /tmp/btf-$role.txt 2>&1 || ok=0
	grep -q 'no layout' /tmp/btf-$role.txt && ok=0
	grep -qE '^  ok .*\[layout: built-in\]' /tmp/btf-$role.txt && ok=0
	grep -q '^  load: ok' /tmp/btf-$role.txt || ok=0
done
n=$(cat /tmp/btf-host.txt /tmp/btf-target.txt | grep -cE '^  ok .*\[layout: BTF\]$')
[ $ok = 1 ] && [ "$n" -ge 10 ] &&
	ktap_pass "with the kernel's BTF, every hook has its layout from BTF ($n), load: ok" ||
	ktap_fail "with the kernel's BTF, every hook has its layout from BTF ($n), load: ok"

ntprof record -r target -s 1 -o "$share/btf-target.ntp" > /tmp/rt.out 2>&1 &
rt=$!
ntprof record -r host -s 1 -o "$share/btf-host.ntp" > /tmp/rh.out 2>&1 &
rh=$!
wait_line /tmp/rt.out 'profiling as target' 60 &&
	wait_line /tmp/rh.out 'profiling as host' 60 ||
	sed 's/^/# /' /tmp/rt.out /tmp/rh.out
r_tcp=$(fio_count "$NTPROF_LAB_TCP_DEV" randread 4k 2)
w_rdma=$(fio_count "$NTPROF_LAB_RDMA_DEV" randwrite 128k 2)
r_tcp=${r_tcp% *}
w_rdma=${w_rdma#* }
kill -INT $rh $rt
wait $rh
wait $rt
for side in host target; do
	ntprof report --csv "/tmp/$side.csv" "$share/btf-$side.ntp" > /dev/null 2>&1
	got_r=$(awk -F, 'NR > 1 && $3 == "tcp" && $6 == 2' "/tmp/$side.csv" | wc -l)
	got_w=$(awk -F, 'NR > 1 && $3 == "rdma" && $6 == 1' "/tmp/$side.csv" | wc -l)
	if [ "$r_tcp" -gt 0 ] && [ "$got_r" -eq "$r_tcp" ] && [ "$got_w" -eq "$w_rdma" ]; then
		ktap_pass "$side: with BTF's offsets, each of fio's $r_tcp TCP reads and $w_rdma RDMA writes once"
	else
		ktap_fail "$side: with BTF's offsets, each of fio's $r_tcp TCP reads and $w_rdma RDMA writes once (got $got_r, $got_w)"
	fi
done
ntprof report "$share/btf-host.ntp" "$share/btf-target.ntp" > /tmp/btf-report.txt 2>&1
line=$(grep '^records: ' /tmp/btf-report.txt | tail -n 1)
total=$((r_tcp + w_rdma))
echo "$line" | grep -q "^records: $total host, $total target; $total matched (100 % " &&
	ktap_pass "report joins every command ($line)" ||
	ktap_fail "report joins every command (${line:-no records line}, $total commands)"

modprobe -r ntprof && modprobe ntprof
NTPROF_BTF_DIR=/tmp/no-btf ntprof probe -r target > /tmp/builtin.txt 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -qE '^  ok +nvmet_req_init +tracepoint .*\[layout: built-in\]$' /tmp/builtin.txt &&
   ! grep -q 'no layout' /tmp/builtin.txt; then
	ktap_pass "the module's own table, without BTF: built-in, load: ok"
else
	ktap_fail "the module's own table, without BTF: built-in, load: ok (rc $rc)"
	grep -E 'layout|load' /tmp/builtin.txt | sed 's/^/# /'
fi
ktap_finished
