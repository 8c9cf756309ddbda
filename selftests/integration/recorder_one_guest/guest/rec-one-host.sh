# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Recorder on one guest (host and target in one kernel): at N=1 every
# command fio completed is recorded exactly once on each side, with its
# points in path order and with the points of the hooks this kernel has
# (check_new_points); stop, start again; unload under a session.
# shellcheck source=selftests/ktap.sh
. /lab/ktap.sh
# shellcheck source=selftests/integration/common/guest/records.sh
. /lab/tests/records.sh
KTAP_PREFIX="host: "
tc=testclient

ktap_header
modprobe ntprof || { ktap_fail "modprobe ntprof"; ktap_finished; exit 1; }
tcp_send=no
if hook_ok host tcp kernel_sendpage || hook_ok host tcp nvme_tcp_try_send_cmd_pdu; then
	tcp_send=yes
fi
rdma_data=no
hook_ok target rdma nvmet_rdma_read_data_done && rdma_data=yes
rdma_send_done=no
hook_ok target rdma nvmet_rdma_send_done && rdma_send_done=yes
ktap_diag "hooks: tcp HOST_SEND $tcp_send, rdma TARGET_DATA $rdma_data, TARGET_SEND_DONE $rdma_send_done"
{ ntprof probe -r host -t tcp; ntprof probe -r target -t rdma; } 2>&1 |
	grep -E 'kernel_sendpage|try_send_cmd_pdu|nvmet_rdma_(read_data|send)_done' |
	sed 's/^/# /'

# Early stamps (kmod/clock.h): the cycle counter with early_cycles=1
# (the lab's default under TCG) or with -1 where the CPU says constant_tsc;
# the clock otherwise. The points' order below checks what they give.
mount -t debugfs nodev /sys/kernel/debug 2> /dev/null
early=$(sed -n 's/.*ntprof\.early_cycles=\(-\{0,1\}[0-9]\).*/\1/p' /proc/cmdline)
want=clock
if [ "$early" = 1 ] || { [ "${early:--1}" = -1 ] && grep -qw constant_tsc /proc/cpuinfo; }; then
	want="cycle counter"
fi
if grep -qx "early stamps: $want" /sys/kernel/debug/ntprof/status; then
	ktap_pass "early stamps from the $want (early_cycles=${early:-default})"
else
	ktap_fail "early stamps from the $want (early_cycles=${early:-default})"
	grep 'early' /sys/kernel/debug/ntprof/status | sed 's/^/# /'
fi

# The hooks' struct layouts: from BTF where the kernel has its modules'
# (/sys/kernel/btf/MODULE, since 5.11), else the built-in table.
for role in host target; do
	ntprof probe -r $role > /tmp/probe-$role.txt 2>&1 || true
done
if [ -e /sys/kernel/btf/nvmet ] && [ -e /sys/kernel/btf/nvme_core ]; then
	src=BTF
else
	src=built-in
fi
n_host=$(grep -cE "^  ok .*\[layout: $src\]" /tmp/probe-host.txt)
n_target=$(grep -cE "^  ok .*\[layout: $src\]" /tmp/probe-target.txt)
if grep -qE "^  ok +nvme_setup_cmd .*\[layout: $src\]$" /tmp/probe-host.txt &&
   grep -qE "^  ok +nvmet_req_init +tracepoint .*\[layout: $src\]$" /tmp/probe-target.txt &&
   ! grep -q 'no layout' /tmp/probe-host.txt /tmp/probe-target.txt &&
   grep -q '^  load: ok' /tmp/probe-host.txt && grep -q '^  load: ok' /tmp/probe-target.txt; then
	ktap_pass "probe: the hooks' layouts from $src ($n_host host, $n_target target hooks), load: ok"
else
	ktap_fail "probe: the hooks' layouts from $src ($n_host host, $n_target target hooks), load: ok"
	grep -E 'layout|load' /tmp/probe-host.txt /tmp/probe-target.txt | sed 's/^/# /'
fi
for t in tcp rdma; do
	dev=$NTPROF_LAB_TCP_DEV
	[ $t = rdma ] && dev=$NTPROF_LAB_RDMA_DEV
	rm -f /tmp/h.bin /tmp/t.bin
	ktap_check "$t: start a host session at N=1" $tc start host $t 1
	ktap_check "$t: start a target session at N=1 beside it" $tc start target $t 1
	r=$(fio_count "$dev" randread 4k 3)
	w=$(fio_count "$dev" randwrite 128k 3)
	ktap_check "$t: stop both sessions" $tc stop
	$tc drain /tmp/h.bin
	$tc print /tmp/h.bin > /tmp/all.txt
	awk -F'\t' '$1 == 1' /tmp/all.txt > /tmp/host.txt
	awk -F'\t' '$1 == 2' /tmp/all.txt > /tmp/target.txt
	reads=${r% *}
	writes=${w#* }
	for side in host target; do
		got_r=$(count_op /tmp/$side.txt 2)
		got_w=$(count_op /tmp/$side.txt 1)
		if [ "$got_r" = "$reads" ] && [ "$got_w" = "$writes" ] && [ "$reads" -gt 0 ]; then
			ktap_pass "$t: $side recorded each of fio's $reads reads and $writes writes once"
		else
			ktap_fail "$t: $side recorded each of fio's $reads reads and $writes writes once (got $got_r, $got_w)"
			$tc stats | sed 's/^/# /'
		fi
		bad=$(out_of_order /tmp/$side.txt $side | wc -l)
		if [ "$bad" -eq 0 ]; then
			ktap_pass "$t: every $side record has its points in path order"
		else
			ktap_fail "$t: every $side record has its points in path order ($bad not)"
			out_of_order /tmp/$side.txt $side | head -n 3 | sed 's/^/# /'
		fi
	done
	check_new_points $t /tmp/host.txt /tmp/target.txt
	if [ "$(identities /tmp/host.txt)" = "$(identities /tmp/target.txt)" ]; then
		ktap_pass "$t: host and target recorded the same command identities"
	else
		ktap_fail "$t: host and target recorded the same command identities"
	fi
done

# A namespace that appears mid-recording (its controller disconnected
# before the start, connected after): the recording's header cannot name
# it, its trailer does, from the name looked up when its first records
# came; the report labels its group with the name, not "dev MAJ:MIN".
for c in /sys/class/nvme/nvme*; do
	grep -q "$NTPROF_LAB_TCP_NQN" "$c/subsysnqn" 2>/dev/null && nvme disconnect -d "$(basename "$c")" > /dev/null
done
ntprof record -r host -t tcp -s 1 -o /tmp/late.ntp > /tmp/late.out 2>&1 &
rec=$!
wait_line /tmp/late.out 'profiling as host' 60 || ktap_fail "record for the late namespace starts"
nvme connect -t tcp -a "$NTPROF_LAB_TCP_ADDR" -s "$NTPROF_LAB_TCP_PORT" \
	-n "$NTPROF_LAB_TCP_NQN" > /dev/null 2>&1
late=
for i in $(seq 1 100); do
	late=$(grep -l "$NTPROF_LAB_TCP_NQN" /sys/class/nvme-subsystem/*/subsysnqn 2>/dev/null |
		head -n 1 | xargs -r dirname | xargs -r -I{} sh -c 'ls -d {}/nvme*n* 2>/dev/null' |
		head -n 1 | xargs -r basename)
	[ -n "$late" ] && [ -b "/dev/$late" ] && break
	sleep 0.1
done
fio --name=late --filename="/dev/$late" --rw=randread --bs=4k --direct=1 \
	--ioengine=psync --number_ios=200 --size=64m > /dev/null 2>&1
kill -INT $rec
wait $rec
ntprof report /tmp/late.ntp > /tmp/late.report 2>&1
# Debian's 5.10 keeps native multipath's path disks' device numbers to
# itself (/proc/diskstats lists them as 0 0, /sys/dev/block not at all):
# no name can be found for a host record's device there.
if awk '$3 ~ /^nvme[0-9]+c[0-9]+n[0-9]+$/ && $1 == 0 { f = 1 } END { exit !f }' \
	/proc/diskstats; then
	ktap_skip "a namespace that came mid-recording (${late:-none}) is named in the report" \
		"this kernel hides its path disks' device numbers (/proc/diskstats: 0 0)"
elif [ -n "$late" ] && grep -q "^== read 4KiB $late: " /tmp/late.report &&
   ! grep -qE '^== .*dev [0-9]+:[0-9]+' /tmp/late.report; then
	ktap_pass "a namespace that came mid-recording ($late) is named in the report"
else
	ktap_fail "a namespace that came mid-recording (${late:-none}) is named in the report"
	sed 's/^/# /' /tmp/late.out /tmp/late.report | head -20
fi
[ -z "$late" ] || NTPROF_LAB_TCP_DEV=/dev/$late

ktap_check "start again after stop" $tc start host tcp 1
fio_count "$NTPROF_LAB_TCP_DEV" randread 4k 4 > /dev/null &
sleep 1
ktap_check "stop under I/O" $tc stop
ktap_check "start under I/O" $tc start host tcp 1
wait
ktap_check "rmmod ntprof during a session" rmmod ntprof
ktap_check "modprobe ntprof again" modprobe ntprof
ktap_check "rmmod ntprof" rmmod ntprof
ktap_finished
