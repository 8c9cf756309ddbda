# SPDX-License-Identifier: GPL-2.0
#
# Run a lab scenario for make check: boot the lab with a host and a target
# script (their TAP lines come through with a [guest] prefix), then report
# on the run itself and on every guest's kernel log.

. "$(dirname "${BASH_SOURCE[0]}")/../ktap.sh"
. "$(dirname "${BASH_SOURCE[0]}")/../lab/lib.sh"

# lab_scenario NAME HOST_SCRIPT TARGET_SCRIPT (KERNEL and TOPOLOGY from the env)
lab_scenario() {
	local name=$1 host=$2 target=$3 run_dir log rc

	run_dir=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-$name.XXXXXX")
	ktap_header
	LAB_RUN_DIR=$run_dir LAB_TIMEOUT=${LAB_TIMEOUT:-600} \
		bash "$LAB_DIR/lab-run.sh" --host "$host" --target "$target"
	rc=$?
	KTAP_PREFIX="$name: "
	for role in target host; do
		if [ "$(cat "$run_dir/share/$role.rc" 2>/dev/null)" = 0 ]; then
			ktap_pass "the $role script finished and passed"
		else
			ktap_fail "the $role script finished and passed"
		fi
	done
	for log in "$run_dir"/share/dmesg-*.log; do
		[ -f "$log" ] || { ktap_fail "a guest saved its kernel log"; continue; }
		role=$(basename "$log" .log)
		role=${role#dmesg-}
		if grep -E "$LAB_BAD_DMESG" "$log" > /dev/null; then
			ktap_fail "no WARNING, BUG, Oops, KASAN or hung task in the kernel log of guest '$role'"
			grep -E -A3 "$LAB_BAD_DMESG" "$log" | head -n 40 | sed 's/^/# /'
		else
			ktap_pass "no WARNING, BUG, Oops, KASAN or hung task in the kernel log of guest '$role'"
		fi
	done
	[ $rc -eq 0 ] || ktap_diag "lab-run exited with $rc; its files are in $run_dir"
	[ $rc -ne 0 ] || rm -rf "$run_dir"
	ktap_finished
}
