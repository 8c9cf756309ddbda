# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The chain test's host (chain/test.sh): per phase, record with the
# chain rule while fio reads and writes 4 KiB at random at queue depths 1
# and 16 through the middle's raid1 (CHAIN_SECONDS_PHASE seconds a job),
# fio's JSON in the share as PHASE-fio-RW-QD.json.
# shellcheck source=selftests/ktap.sh
. /lab/ktap.sh
# shellcheck source=selftests/integration/common/guest/records.sh
. /lab/tests/records.sh
# shellcheck source=selftests/integration/chain/guest/chain-lib.sh
. /lab/tests/chain-lib.sh
KTAP_PREFIX="host: "
share=$NTPROF_LAB_SHARE
dev=$NTPROF_LAB_TCP_DEV

ktap_header
modprobe ntprof || { ktap_fail "modprobe ntprof"; ktap_finished; exit 1; }
# The partition scan after the connect is no job's I/O.
settle "$(basename "$dev")"
for p in $CHAIN_PHASES; do
	phase=${p%:*} n=${p#*:}
	secs=4
	eval "secs=\${CHAIN_SECONDS_$phase:-4}"
	wait_flag "$phase-middle.recording" || ktap_fail "$phase: the middle records"
	chain_record "$phase-host" host "$n" --chain "$share/$phase-host.ntp" || break
	for rw in randread randwrite; do
		for qd in 1 16; do
			# 64 MiB: the replica's null_blk keeps what is written.
			if fio --name="$phase-$rw-$qd" --filename="$dev" --rw=$rw \
				--bs=4k --direct=1 --ioengine=libaio --iodepth=$qd \
				--size=64m --runtime="$secs" --time_based \
				--output-format=json > "$share/$phase-fio-$rw-$qd.json" \
				2> /tmp/fio.err; then
				ktap_pass "$phase: fio $rw at queue depth $qd"
			else
				ktap_fail "$phase: fio $rw at queue depth $qd"
				sed 's/^/# /' /tmp/fio.err
			fi
		done
	done
	record_stop "$phase-host" $rec_pid "/tmp/$phase-host.out"
	cp "/tmp/$phase-host.out" "$share/"
	touch "$share/$phase-host.stopped"
done
ktap_check "rmmod ntprof" rmmod ntprof
ktap_finished
