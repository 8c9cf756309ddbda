# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The chain test's replica (chain/test.sh): its target side records
# each phase with the chain rule shifted by md's data offset, which the
# middle leaves in the share (md-offset, in the legs' LBAs), from before
# the middle records to after it stopped.
# shellcheck source=selftests/ktap.sh
. /lab/ktap.sh
# shellcheck source=selftests/integration/common/guest/records.sh
. /lab/tests/records.sh
# shellcheck source=selftests/integration/chain/guest/chain-lib.sh
. /lab/tests/chain-lib.sh
KTAP_PREFIX="replica: "
share=$NTPROF_LAB_SHARE

ktap_header
modprobe ntprof || { ktap_fail "modprobe ntprof"; ktap_finished; exit 1; }
# The middle builds its raid1 once this script is ready.
lab-ready
wait_flag md-offset || ktap_fail "the middle left md's data offset"
offset=$(cat "$share/md-offset" 2>/dev/null)
ktap_diag "md's data offset: ${offset:-?} LBAs"
prev=
for p in $CHAIN_PHASES; do
	phase=${p%:*} n=${p#*:}
	[ -z "$prev" ] || wait_flag "$prev-middle.stopped" ||
		ktap_fail "$prev: the middle stopped"
	chain_record "$phase-replica" target "$n" "--chain=$offset" \
		"$share/$phase-replica.ntp" || break
	touch "$share/$phase-replica.recording"
	wait_flag "$phase-middle.stopped" || ktap_fail "$phase: the middle stopped"
	record_stop "$phase-replica" $rec_pid "/tmp/$phase-replica.out"
	cp "/tmp/$phase-replica.out" "$share/"
	touch "$share/$phase-replica.stopped"
	prev=$phase
done
ktap_check "rmmod ntprof" rmmod ntprof
ktap_finished
