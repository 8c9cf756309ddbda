# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The debug kernel's verdicts on a lab run, sourced by lab_check with the
# run's share (RUN_DIR/share/xfer) as $1: the checkers were on in every
# guest, kmemleak's scans (integration/common/guest/kmemleak.sh) found
# nothing after boot, and where a guest died (panic_on_warn) the console
# says why.

share=$1
run=$(dirname "$share")

for log in "$run"/dmesg-*.log; do
	[ -f "$log" ] || continue
	role=$(basename "$log" .log)
	role=${role#dmesg-}
	for c in "KASAN:KernelAddressSanitizer initialized" \
		 "lockdep:Lock dependency validator" \
		 "kmemleak:kmemleak: Kernel memory leak detector initialized" \
		 "KFENCE:kfence: initialized"; do
		if grep -q "${c#*:}" "$log"; then
			ktap_pass "${c%%:*} is active in guest '$role'"
		else
			ktap_fail "${c%%:*} is active in guest '$role'"
		fi
	done
done

# A guest that saved no kernel log panicked or hung: its console has the
# report (panic_print=0x20 prints the whole log).
for con in "$(dirname "$run")"/console-*.log; do
	[ -f "$con" ] || continue
	if ! ls "$run"/dmesg-*.log > /dev/null 2>&1; then
		ktap_diag "$(basename "$con"), the lines that tell:"
		grep -E -A12 "$(lab_bad_dmesg)" "$con" | head -n 60 | sed 's/^/#   /'
	fi
done

# Before ntprof was loaded, a leak is the kernel's own: noted, not failed.
if [ -f "$share/kmemleak-boot.txt" ]; then
	n=$(grep -c '^unreferenced object' "$share/kmemleak-boot.txt")
	ktap_diag "kmemleak at boot, before ntprof: $n suspects (the kernel's own)"
fi
scans=0
for f in "$share"/kmemleak-*.txt; do
	[ -f "$f" ] || continue
	part=$(basename "$f" .txt)
	part=${part#kmemleak-}
	[ "$part" != boot ] || continue
	scans=$((scans + 1))
	if grep -q 'kmemleak is off' "$f"; then
		ktap_fail "kmemleak scanned after $part (it is off)"
	elif grep -q '^unreferenced object' "$f"; then
		ktap_fail "kmemleak finds no leak after $part ($(grep -c '^unreferenced object' "$f") suspects)"
		head -n 40 "$f" | sed 's/^/# /'
	else
		ktap_pass "kmemleak finds no leak after $part"
	fi
done
[ $scans -gt 0 ] || ktap_fail "the guest script made its kmemleak scans"
