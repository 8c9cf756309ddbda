#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The lab's kernel-log check (selftests/lab/lib.sh): lab_dmesg_unknown()
# leaves out exactly the reports of the known distribution kernel bugs it
# names, and nothing else, so that a warning of ntprof's own always fails
# a lab test. The logs are written here, in the kernel's format.
#
# usage: test_lab_dmesg.sh    Prints TAP; exits 1 if any test failed.

set -u

UNIT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=selftests/ktap.sh disable=SC1091
. "$UNIT_DIR/../ktap.sh"
# shellcheck source=selftests/lab/lib.sh disable=SC1091
. "$UNIT_DIR/../lab/lib.sh"

ktap_header
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT

# trace NAME EXTRA_FRAME: the report NAME.head then NAME.tail, with
# EXTRA_FRAME (if any) between them in its call trace.
trace() {
	cat "$TMP/$1.head"
	[ -z "$2" ] || echo "[    4.812600]  $2"
	cat "$TMP/$1.tail"
}

# report EXTRA_FRAME: a check_flush_dependency() warning from nvmet_tcp's
# connect, as Debian's 5.10 prints it.
cat > "$TMP/flush.head" <<EOF
[    4.809520] WARNING: CPU: 0 PID: 54 at kernel/workqueue.c:2620 check_flush_dependency+0x10e/0x130
[    4.809546] Modules linked in: nvmet_tcp nvmet null_blk
[    4.810300] RIP: 0010:check_flush_dependency+0x10e/0x130
[    4.810989] Call Trace:
[    4.812534]  flush_workqueue+0x11c/0x410
EOF
cat > "$TMP/flush.tail" <<EOF
[    4.812606]  nvmet_tcp_install_queue+0x129/0x130 [nvmet_tcp]
[    4.812697]  nvmet_install_queue+0x9c/0xc0 [nvmet]
[    4.812899]  process_one_work+0x1b6/0x350
[    4.813080] ---[ end trace 246a3f75ad924d52 ]---
EOF
report() {
	trace flush "$1"
}

bad() {
	lab_dmesg_unknown "$1" | grep -cE "$LAB_BAD_DMESG"
}

{
	echo "[    4.000000] nvmet: adding nsid 1 to subsystem"
	report ""
	echo "[    4.813781] nvmet: creating controller 1"
} > "$TMP/known.log"
ktap_check "the known nvmet_tcp warning is left out" \
	[ "$(bad "$TMP/known.log")" = 0 ]
ktap_check "and named in its place" \
	grep -q "known kernel bug, not ntprof: nvmet_tcp_install_queue" \
	<(lab_dmesg_unknown "$TMP/known.log")
ktap_check "the lines around it stay" \
	[ "$(lab_dmesg_unknown "$TMP/known.log" | grep -c nvmet:)" = 2 ]

report "ntprof_target_resp+0x10/0x200 [ntprof]" > "$TMP/ntprof.log"
ktap_check "the same warning with an ntprof frame is kept" \
	[ "$(bad "$TMP/ntprof.log")" = 2 ]

report "" | sed 's/nvmet_tcp_install_queue/nvmet_rdma_install_queue/' \
	> "$TMP/other.log"
ktap_check "a check_flush_dependency warning from elsewhere is kept" \
	[ "$(bad "$TMP/other.log")" = 2 ]

{
	report ""
	echo "[    9.000000] WARNING: CPU: 0 PID: 7 at kmod/hooks.c:1 x+0x1/0x2 [ntprof]"
	echo "[    9.000001] Call Trace:"
} > "$TMP/two.log"
ktap_check "a warning after a known one, cut short, is kept" \
	[ "$(bad "$TMP/two.log")" = 2 ]

# rcu_report EXTRA_FRAME: the RCU warning of io_uring polling an NVMe/TCP
# poll queue, as Debian's 6.12 prints it with ntprof loaded (in the list
# of modules).
cat > "$TMP/rcu.head" <<EOF
[  135.831218] Voluntary context switch within RCU read-side critical section!
[  135.832338] WARNING: CPU: 1 PID: 1033 at kernel/rcu/tree_plugin.h:331 rcu_note_context_switch+0x492/0x620
[  135.832855] Modules linked in: crc32c_generic ntprof(OE) nvme_rdma nvme_tcp nvme_fabrics nvme_core
[  135.841164] RIP: 0010:rcu_note_context_switch+0x492/0x620
[  135.846599] Call Trace:
[  135.849500]  schedule+0x27/0xc0
[  135.849562]  __lock_sock+0x7c/0xc0
[  135.849672]  lock_sock_nested+0x48/0x50
EOF
cat > "$TMP/rcu.tail" <<EOF
[  135.849676]  nvme_tcp_try_recv+0x51/0xb0 [nvme_tcp]
[  135.849919]  nvme_tcp_poll+0x46/0xd0 [nvme_tcp]
[  135.850011]  iocb_bio_iopoll+0x31/0x50
[  135.850048]  __do_sys_io_uring_enter+0x3b5/0x5d0
[  135.854768] ---[ end trace 0000000000000000 ]---
EOF
rcu_report() {
	trace rcu "$1"
}

rcu_report "" > "$TMP/rcu.log"
ktap_check "the known nvme_tcp_poll RCU warning is left out, ntprof loaded" \
	[ "$(bad "$TMP/rcu.log")" = 0 ]
ktap_check "and named in its place" \
	grep -q "known kernel bug, not ntprof: nvme_tcp_poll" \
	<(lab_dmesg_unknown "$TMP/rcu.log")
rcu_report "ntprof_host_recv+0x10/0x40 [ntprof]" > "$TMP/rcu-ntprof.log"
ktap_check "the same warning with an ntprof frame is kept" \
	[ "$(bad "$TMP/rcu-ntprof.log")" = 2 ]

echo "[    1.000000] BUG: unable to handle page fault" > "$TMP/bug.log"
ktap_check "lines outside any warning are kept" \
	[ "$(bad "$TMP/bug.log")" = 1 ]

ktap_finished
