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

# report NAME EXTRA_FRAME: a check_flush_dependency() warning from
# nvmet_tcp's connect, as Debian's 5.10 prints it, with EXTRA_FRAME
# (if any) in its call trace.
report() {
	cat <<EOF
[    4.809520] WARNING: CPU: 0 PID: 54 at kernel/workqueue.c:2620 check_flush_dependency+0x10e/0x130
[    4.809546] Modules linked in: nvmet_tcp nvmet null_blk
[    4.810300] RIP: 0010:check_flush_dependency+0x10e/0x130
[    4.810989] Call Trace:
[    4.812534]  flush_workqueue+0x11c/0x410
EOF
	[ -z "$1" ] || echo "[    4.812600]  $1"
	cat <<EOF
[    4.812606]  nvmet_tcp_install_queue+0x129/0x130 [nvmet_tcp]
[    4.812697]  nvmet_install_queue+0x9c/0xc0 [nvmet]
[    4.812899]  process_one_work+0x1b6/0x350
[    4.813080] ---[ end trace 246a3f75ad924d52 ]---
EOF
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

echo "[    1.000000] BUG: unable to handle page fault" > "$TMP/bug.log"
ktap_check "lines outside any warning are kept" \
	[ "$(bad "$TMP/bug.log")" = 1 ]

ktap_finished
