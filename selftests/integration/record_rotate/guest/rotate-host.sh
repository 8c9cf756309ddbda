# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# ntprof record --rotate on one guest (host and target in one kernel):
# both roles recorded in parts of 1 MiB while fio reads and writes over
# NVMe/TCP at N=1. Every part is a whole recording (a trailer); the
# parts hold each of fio's commands once; report of the two directories
# joins every host record with its target record (100 %); and with
# --keep 2 only the two newest parts stay.
# shellcheck source=selftests/ktap.sh
. /lab/ktap.sh
# shellcheck source=selftests/integration/common/guest/records.sh
. /lab/tests/records.sh
KTAP_PREFIX="host: "

# record_parts SIDE DIR [ARGS]: record -r SIDE in parts into DIR, in the
# background; its pid in ${SIDE}_rec.
record_parts() {
	local side=$1 dir=$2

	shift 2
	rm -rf "$dir" && mkdir -p "$dir"
	ntprof record -r "$side" -t tcp -s 1 -d 600 --rotate 1M "$@" \
		-o "$dir/$side.ntp" > "$dir.out" 2> "$dir.err" &
	eval "${side}_rec=\$!"
	wait_line "$dir.out" "^ntprof: profiling as $side, sampling every command" ||
		ktap_fail "record -r $side --rotate started"
}

# stop_both: SIGINT to the target's recorder, then the host's.
stop_both() {
	local side rec

	for side in target host; do
		eval "rec=\$${side}_rec"
		kill -INT "$rec"
		wait "$rec" || ktap_fail "record -r $side --rotate exits 0"
	done
}

ktap_header
modprobe ntprof || { ktap_fail "modprobe ntprof"; ktap_finished; exit 1; }

# fio_until DIR PATTERN RW SECONDS: fio runs of RW until a file of DIR
# matches PATTERN (a part that far was opened), at most 40 of them: the
# lab's speed varies with the machine's load, so a count of commands, not
# a time, makes the parts. Prints the commands they did.
fio_until() {
	local dir=$1 pattern=$2 rw=$3 secs=$4 n=0 c i

	for i in $(seq 40); do
		c=$(fio_count "$NTPROF_LAB_TCP_DEV" "$rw" 4k "$secs")
		n=$(( n + ${c% *} + ${c#* } ))
		# shellcheck disable=SC2010 # the recorder's parts, named ROLE.NNNN.ntp.
		ls "$dir" | grep -q "$pattern" && break
	done
	echo "$n"
}

record_parts target /tmp/rt
record_parts host /tmp/rh
w=$(fio_count "$NTPROF_LAB_TCP_DEV" randwrite 4k 2)
# A fourth part open: three closed ones at least, on both sides.
r=$(fio_until /tmp/rh '\.0004\.ntp$' randread 3)
total=$(( r + ${w#* } ))
stop_both
sed 's/^/# /' /tmp/rh.out /tmp/rh.err /tmp/rt.err
for side in host target; do
	d=/tmp/r${side:0:1}
	parts=$(ls "$d" | wc -l)
	n=$(ntprof report --csv - "$d" | tail -n +2 | wc -l)
	ends=$(for f in "$d"/*.ntp; do ntprof report "$f" 2>&1 |
		grep -c "ends early"; done | awk '{ s += $1 } END { print s + 0 }')
	if [ "$parts" -ge 3 ] && [ "$n" = "$total" ] && [ "$ends" = 0 ]; then
		ktap_pass "the $side's $parts parts, each whole, hold each of fio's $total commands once"
	else
		ktap_fail "the $side's parts hold fio's commands ($parts parts, $n records of $total, $ends cut short)"
	fi
done
out=$(ntprof report /tmp/rh /tmp/rt 2>&1)
echo "$out" | sed 's/^/# /'
if echo "$out" | grep -q "^records: $total host, $total target; $total matched (100 % of the host's)"; then
	ktap_pass "report of the two directories joins every host record (100 %)"
else
	ktap_fail "report of the two directories joins every host record (100 %)"
fi

record_parts host /tmp/kh --keep 2
fio_until /tmp/kh '\.0004\.ntp$' randread 3 > /dev/null
# shellcheck disable=SC2154 # record_parts set it, by eval.
kill -INT "$host_rec"
# shellcheck disable=SC2154
wait "$host_rec"
kept=$(ls /tmp/kh | tr '\n' ' ')
# shellcheck disable=SC2010 # the recorder's parts, named ROLE.NNNN.ntp.
if [ "$(ls /tmp/kh | wc -l)" = 2 ] && ! ls /tmp/kh | grep -q '^host.0001.ntp$' &&
   grep -q "removed the [0-9]* oldest" /tmp/kh.out; then
	ktap_pass "--keep 2: the two newest parts kept ($kept)"
else
	ktap_fail "--keep 2: the two newest parts kept ($kept)"
	sed 's/^/# /' /tmp/kh.out
fi
ktap_check "rmmod ntprof" rmmod ntprof
ktap_finished
