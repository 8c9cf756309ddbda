# SPDX-License-Identifier: GPL-2.0
#
# ntprof record as host and as target at once, on one guest (host and
# target in one kernel): each role's session has its own buffers, so the
# two recorders neither take each other's records nor mix their counts.
# Over NVMe/TCP, then NVMe/RDMA, at N=1 while fio reads and writes: each
# file holds its role's records only, one per command fio completed.
# Then the module's rule for a request without a role, and rmmod.
. /lab/ktap.sh
. /lab/tests/records.sh
. /lab/tests/kmemleak.sh
KTAP_PREFIX="host: "
tc=testclient


# ntp_roles FILE: "HOST TARGET OTHER", the records of each role in the
# blocks of a .ntp file (Documentation/ntp-format.rst; the file is
# little-endian, and so is this guest).
ntp_roles() {
	local f=$1 size hl rs off tag len

	size=$(wc -c < "$f")
	hl=$(od -An -tu4 -j 12 -N 4 "$f" | tr -d ' ')
	rs=$(od -An -tu4 -j 16 -N 4 "$f" | tr -d ' ')
	off=$hl
	while [ $((off + 24)) -le "$size" ]; do
		tag=$(od -An -c -j "$off" -N 4 "$f" | tr -d ' ')
		len=$(od -An -tu4 -j $((off + 12)) -N 4 "$f" | tr -d ' ')
		[ "$tag" = NTPB ] && [ "$len" -gt 0 ] &&
			od -An -v -tu1 -w"$rs" -j $((off + 24)) -N "$len" "$f"
		off=$((off + 24 + len))
	done | awk '$1 == 1 { h++ } $1 == 2 { t++ } NF { n++ }
		END { printf "%d %d %d\n", h, t, n - h - t }'
}


ktap_header
kmemleak_scan boot
modprobe ntprof || { ktap_fail "modprobe ntprof"; ktap_finished; exit 1; }
for t in tcp rdma; do
	dev=$NTPROF_LAB_TCP_DEV
	[ $t = rdma ] && dev=$NTPROF_LAB_RDMA_DEV
	for side in host target; do
		rm -f /tmp/$side.ntp
		ntprof record -r $side -t $t -s 1 -d 600 -o /tmp/$side.ntp \
			> /tmp/$side.out 2> /tmp/$side.err &
		eval "${side}_rec=\$!"
		wait_line /tmp/$side.out "^ntprof: profiling as $side, sampling every command" ||
			ktap_fail "$t: record -r $side started"
	done
	r=$(fio_count "$dev" randread 4k 3)
	w=$(fio_count "$dev" randwrite 128k 3)
	reads=${r% *}
	writes=${w#* }
	total=$((reads + writes))
	# The target stops first: the host's recorder drains on alone.
	for side in target host; do
		eval "rec=\$${side}_rec"
		kill -INT "$rec"
		wait "$rec"
		rc=$?
		[ $rc -eq 0 ] && ktap_pass "$t: record -r $side stops on SIGINT, exit 0" ||
			ktap_fail "$t: record -r $side stops on SIGINT, exit 0 (got $rc)"
	done
	for side in host target; do
		own=1 other=2
		[ $side = target ] && { own=2 other=1; }
		sed 's/^/# /' /tmp/$side.out /tmp/$side.err
		n=$(sed -n "s/^ntprof: \([0-9]*\) records written to \/tmp\/$side.ntp$/\1/p" /tmp/$side.out)
		set -- $(ntp_roles /tmp/$side.ntp)
		mine=$1 theirs=$2 bad=$3
		[ $side = target ] && { mine=$2 theirs=$1; }
		if [ "$theirs" = 0 ] && [ "$bad" = 0 ] && [ "$mine" -gt 0 ]; then
			ktap_pass "$t: $side.ntp holds $side records only ($mine)"
		else
			ktap_fail "$t: $side.ntp holds $side records only (got $mine own, $theirs of the other role, $bad unknown)"
		fi
		if [ "$reads" -gt 0 ] && [ "$writes" -gt 0 ] &&
		   [ "$mine" = "$total" ] && [ "$n" = "$total" ]; then
			ktap_pass "$t: $side recorded each of fio's $reads reads and $writes writes once"
		else
			ktap_fail "$t: $side recorded each of fio's $reads reads and $writes writes once (file $mine, record says ${n:-nothing})"
			$tc stats $side | sed 's/^/# /'
		fi
		if grep -q 'WARNING' /tmp/$side.err; then
			ktap_fail "$t: record -r $side warns of nothing (other role's records, drops)"
		else
			ktap_pass "$t: record -r $side warns of nothing (other role's records, drops)"
		fi
		# Its counters are its own: the other role's records are not in them.
		rs=$(stat_of records $side)
		[ "$rs" = "$total" ] && ktap_pass "$t: the $side counters count $total records" ||
			ktap_fail "$t: the $side counters count $total records (got ${rs:-none})"
	done
done

# Both roles have had sessions: a request without a role is refused.
$tc stats any > /tmp/any.out 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q 'needs a role' /tmp/any.out; then
	ktap_pass "stats-get without a role is refused once both roles ran"
else
	ktap_fail "stats-get without a role is refused once both roles ran (rc $rc)"
	sed 's/^/# /' /tmp/any.out
fi
grep -q '^host cpu 0: ' /sys/kernel/debug/ntprof/buffers &&
grep -q '^target cpu 0: ' /sys/kernel/debug/ntprof/buffers &&
	ktap_pass "debugfs shows each role's buffers" ||
	ktap_fail "debugfs shows each role's buffers"

# Only a target session since the load: without a role, the target's.
ktap_check "rmmod ntprof" rmmod ntprof
modprobe ntprof
$tc start target tcp 1
fio_count "$NTPROF_LAB_TCP_DEV" randread 4k 1 > /tmp/fio.out
$tc stop
rm -f /tmp/any.bin
if $tc drain /tmp/any.bin any && [ -s /tmp/any.bin ] &&
   [ "$($tc print /tmp/any.bin | awk -F'\t' '$1 != 2' | wc -l)" -eq 0 ]; then
	ktap_pass "records-get without a role takes the only role's records"
else
	ktap_fail "records-get without a role takes the only role's records"
fi

# Unload with both recording under I/O.
$tc start host tcp 1 && $tc start target tcp 1
fio_count "$NTPROF_LAB_TCP_DEV" randrw 4k 4 > /tmp/fio.out &
fio=$!
sleep 2
ktap_check "rmmod ntprof while both roles record under I/O" rmmod ntprof
wait $fio && ktap_pass "fio completes after ntprof went away under it" ||
	ktap_fail "fio completes after ntprof went away under it"
kmemleak_scan record-both
ktap_finished
