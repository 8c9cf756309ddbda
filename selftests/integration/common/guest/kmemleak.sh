# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# kmemleak's scans between a lab script's scenarios, on the debug kernel
# (NTPROF_LAB_DEBUG=1, selftests/lab/debug-kernel.sh); a no-op on the
# others, which lack kmemleak. Each scan's report goes to the share as
# kmemleak-NAME.txt, for the test on this machine to check
# (selftests/debug/lib.sh); then the suspects are cleared, so that each
# report holds what came since the one before. Call kmemleak_scan boot
# first: what leaked before ntprof was loaded is the kernel's own.

# kmemleak_scan NAME: scan now, save the report as kmemleak-NAME.txt.
kmemleak_scan() {
	local f=/sys/kernel/debug/kmemleak

	[ "${NTPROF_LAB_DEBUG:-0}" = 1 ] || return 0
	[ -w "$f" ] || { echo "kmemleak is off" > "$NTPROF_LAB_SHARE/kmemleak-$1.txt"; return 0; }
	# kmemleak never reports an object younger than 5 s.
	sleep 6
	echo scan > "$f"
	cat "$f" > "$NTPROF_LAB_SHARE/kmemleak-$1.txt"
	echo clear > "$f"
}
