# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2153,SC2154 # UT_* come from uprobe-sites.sh
#
# Userspace sites on one guest: target sessions whose uprobes sit in
# /lab/bin/uprobe-target (first: ut_begin, TARGET_INIT; mid: ut_work,
# TARGET_EXEC; last: ut_end, TARGET_COMPLETE). uprobe-sites.sh set
# UT_OFF_* (file offsets) and UT_* (member offsets) above this line.
# Checks: at N=1 every job recorded once with its identity; at N=100 the
# recorded set is ntprof_sample_hash()'s; a SIGKILLed program leaves the
# session working and stopping; rmmod under probes leaves the program
# running; bad sites get their extack messages, and a failed start keeps
# the last session's records; the probe is on the file
# the sender opened, whatever the path it names; with a pid, only that
# process's jobs are recorded, each with its pid; a binary on an overlay
# is recorded; a binary's mount stays busy while it is probed.
# shellcheck source=selftests/ktap.sh
. /lab/ktap.sh
KTAP_PREFIX="uprobe: "
tc=testclient
ut=/lab/bin/uprobe-target
dbg=/sys/kernel/debug/ntprof

ktap_header
mount -t debugfs none /sys/kernel/debug 2>/dev/null
modprobe ntprof || { ktap_fail "modprobe ntprof"; ktap_finished; exit 1; }

# The three sites; the identity fetches follow struct ut_job's layout,
# the namespace id through the job's space pointer.
cat > /tmp/sites <<EOS
# path offset point kind fetches
$ut $UT_OFF_begin target-init first key=0 qid=0+$UT_job_lane:2 cid=0+$UT_job_ticket:2 opcode=0+$UT_job_kind:1 nsid=0>$UT_job_space+$UT_space_id:4 slba=0+$UT_job_first_block:8 nlb=0+$UT_job_block_count:2
$ut $UT_OFF_work target-exec mid key=0>$UT_work_job
$ut $UT_OFF_end target-complete last key=1
EOS
sed 's/^/# /' /tmp/sites

# The program's records (namespaces 7 and 9: none of nvmet's), as
# "qid cid opcode nsid slba", sorted; complete ones only (flags 9:
# sampled, made by userspace sites, not partial).
records() {
	rm -f /tmp/u.bin
	$tc drain /tmp/u.bin target
	$tc print /tmp/u.bin |
		awk -F'\t' '$1 == 2 && ($6 == 7 || $6 == 9) && $9 == 9 {
			print $3, $4, $5, $6, $7 }' | sort
}

# What the program did: its first COUNT jobs' identities, as records().
jobs() {
	$ut list "$1" | $tc pick "${2:-1}" | awk '{ print $1, $2, $3, $4, $5 }' | sort
}

# fifty_jobs SPEC PROGRAM WHAT: a session of SPEC's sites records each of
# the 50 jobs PROGRAM runs once, with its identity.
fifty_jobs() {
	local out

	ktap_check "$3: start" $tc ustart target tcp 1 "$1"
	out=$($2 run 50 1000)
	ktap_check "$3: stop" $tc stop
	records > /tmp/got
	jobs 50 > /tmp/want
	if [ "$out" = "done 50" ] && cmp -s /tmp/got /tmp/want; then
		ktap_pass "$3"
	else
		ktap_fail "$3 (got $(wc -l < /tmp/got))"
	fi
}

# 1. N=1: each job once, with its identity and its points in order.
ktap_check "start a target session with three uprobe sites" \
	$tc ustart target tcp 1 /tmp/sites
grep -c attached $dbg/usites | grep -qx 3 &&
	ktap_pass "debugfs lists the three sites attached" ||
	ktap_fail "debugfs lists the three sites attached"
out=$($ut run 300 2000)
ktap_check "stop" $tc stop
records > /tmp/got
jobs 300 > /tmp/want
n=$(wc -l < /tmp/got)
if [ "$out" = "done 300" ] && cmp -s /tmp/got /tmp/want; then
	ktap_pass "N=1: each of the program's 300 jobs recorded once, with its identity"
else
	ktap_fail "N=1: each of the program's 300 jobs recorded once, with its identity (got $n, program said '$out')"
	diff /tmp/want /tmp/got | head -n 5 | sed 's/^/# /'
	$tc stats target | sed 's/^/# /'
	sed 's/^/# /' $dbg/usites
fi
# TARGET_INIT, TARGET_EXEC, TARGET_COMPLETE: columns 23, 26, 29.
bad=$($tc print /tmp/u.bin | awk -F'\t' '$1 == 2 && ($6 == 7 || $6 == 9) &&
	!($23 > 0 && $23 <= $26 && $26 <= $29)' | wc -l)
if [ "$bad" -eq 0 ] && [ "$n" -gt 0 ]; then
	ktap_pass "N=1: every record has init <= exec <= complete, all stamped"
else
	ktap_fail "N=1: every record has init <= exec <= complete, all stamped ($bad not)"
fi
hits=$(awk '{ print $(NF - 2) }' $dbg/usites | sort -u | tr '\n' ' ')
if [ "$hits" = "300 " ] && grep -c detached $dbg/usites | grep -qx 3; then
	ktap_pass "after the stop, debugfs shows each site detached with 300 hits"
else
	ktap_fail "after the stop, debugfs shows each site detached with 300 hits"
	sed 's/^/# /' $dbg/usites
fi

# 2. N=100: the sampled set is the hash's.
ktap_check "start at N=100" $tc ustart target tcp 100 /tmp/sites
out=$($ut run 4000 200 | tail -n 1)
ktap_check "stop" $tc stop
records > /tmp/got
jobs 4000 100 > /tmp/want
if [ "$out" = "done 4000" ] && [ -s /tmp/want ] && cmp -s /tmp/got /tmp/want; then
	ktap_pass "N=100: the $(wc -l < /tmp/got) recorded jobs are those ntprof_sample_hash() picks"
else
	ktap_fail "N=100: the recorded jobs are those ntprof_sample_hash() picks (got $(wc -l < /tmp/got), want $(wc -l < /tmp/want))"
	diff /tmp/want /tmp/got | head -n 5 | sed 's/^/# /'
fi
seen=$($tc stats target | awk '{ print $2 }')
[ "$seen" = 4000 ] && ktap_pass "N=100: the first site saw all 4000 jobs" ||
	ktap_fail "N=100: the first site saw all 4000 jobs (seen $seen)"

# 3. A program killed in the middle of a job, then another in the same
# session: the dead one's slots do not disturb it.
ktap_check "start at N=1 for the kill" $tc ustart target tcp 1 /tmp/sites
$ut run 0 500 > /dev/null &
pid=$!
sleep 2
kill -KILL $pid
wait $pid 2>/dev/null
ktap_pass "SIGKILL the program mid-session"
records > /dev/null
out=$($ut run 50 1000)
records > /tmp/got
jobs 50 > /tmp/want
if [ "$out" = "done 50" ] && cmp -s /tmp/got /tmp/want; then
	ktap_pass "after the kill, the next program's 50 jobs are recorded once each"
else
	ktap_fail "after the kill, the next program's 50 jobs are recorded once each (got $(wc -l < /tmp/got))"
fi
ktap_check "the session stops cleanly after the kill" $tc stop

# 4. rmmod with the probes attached while the program runs.
ktap_check "start at N=1 for the unload" $tc ustart target tcp 1 /tmp/sites
$ut run 3000 1000 > /tmp/ut.out 2>&1 &
pid=$!
sleep 1
ktap_check "rmmod ntprof with uprobes attached and hit" rmmod ntprof
if kill -0 $pid 2>/dev/null; then
	ktap_pass "the program still runs after the unload"
else
	ktap_fail "the program still runs after the unload"
fi
wait $pid
rc=$?
if [ $rc -eq 0 ] && grep -qx "done 3000" /tmp/ut.out; then
	ktap_pass "the program finished its 3000 jobs and exited 0"
else
	ktap_fail "the program finished its 3000 jobs and exited 0 (rc $rc: $(tail -n 1 /tmp/ut.out))"
fi
ktap_check "modprobe ntprof again" modprobe ntprof

# 5. Bad sites: refused, with the reason, and no session left behind.
# bad_site NAME MESSAGE SPEC_LINE...: the start fails, saying MESSAGE.
bad_site() {
	local name=$1 msg=$2 err

	shift 2
	printf '%s\n' "$@" > /tmp/bad
	if err=$($tc ustart target tcp 1 /tmp/bad 2>&1); then
		ktap_fail "$name: refused"
		$tc stop
		return
	fi
	if echo "$err" | grep -qF -- "$msg"; then
		ktap_pass "$name: refused: $msg"
	else
		ktap_fail "$name: refused: $msg (said: $err)"
	fi
}
last="$ut $UT_OFF_end target-complete last key=1"
# The first, after a session whose records are left undrained: the
# failed start keeps them for their owner (Documentation/security.rst).
ktap_check "start for records left undrained" $tc ustart target tcp 1 /tmp/sites
out=$($ut run 50 1000)
ktap_check "stop, the records left" $tc stop
bad_site "a descriptor that is not open" "its file descriptor is not open" \
	"$ut $UT_OFF_begin target-init first key=0 fd=900" "$last"
records > /tmp/got
jobs 50 > /tmp/want
if [ "$out" = "done 50" ] && cmp -s /tmp/got /tmp/want; then
	ktap_pass "a failed start leaves the last session's 50 records to drain"
else
	ktap_fail "a failed start leaves the last session's 50 records to drain (got $(wc -l < /tmp/got))"
fi
exec 9> /tmp/write-only
bad_site "a descriptor not open for reading" "not open for reading" \
	"/tmp/write-only $UT_OFF_begin target-init first key=0 fd=9" "$last"
exec 9>&-
bad_site "an offset past the end of the binary" "past the end of the binary" \
	"$ut 0x10000000 target-init first key=0" "$last"
bad_site "a read of 3 bytes" "a fetch reads 1, 2, 4 or 8 bytes" \
	"$ut $UT_OFF_begin target-init first key=0 qid=0:3" "$last"
bad_site "five dereferences" "a fetch has at most 4 dereferences" \
	"$ut $UT_OFF_begin target-init first key=0>0>0>0>0>0" "$last"
bad_site "register 6" "out of range" \
	"$ut $UT_OFF_begin target-init first key=6" "$last"
bad_site "a host point in a target session" "a point of its session's role" \
	"$ut $UT_OFF_begin host-setup first key=0" "$last"
bad_site "no first site" "no uprobe site is the first" "$last"
bad_site "no last site" "no uprobe site is the last" \
	"$ut $UT_OFF_begin target-init first key=0"
bad_site "identity on a later site" "only the first site of a command fetches" \
	"$ut $UT_OFF_begin target-init first key=0" \
	"$ut $UT_OFF_end target-complete last key=1 qid=1:2"
bad_site "a relative path" "must be absolute" \
	"$ut $UT_OFF_begin target-init first key=0 as=bin/uprobe-target" "$last"
many=()
for _ in $(seq 17); do many+=("$last"); done
bad_site "17 sites" "at most 16 uprobe sites" \
	"$ut $UT_OFF_begin target-init first key=0" "${many[@]}"
if $tc stop 2> /dev/null; then
	ktap_fail "no failed start left a session running"
else
	ktap_pass "no failed start left a session running"
fi
ktap_check "a good start after the bad ones" $tc ustart target tcp 1 /tmp/sites
ktap_check "stop" $tc stop

# 6. The file the sender opened is the one probed: the path the request
# names is only a name. A symlink that points elsewhere (the shell, as an
# attacker's swap would) by the time the request arrives changes nothing.
ln -sf /bin/sh /tmp/swapped
sed 's|$| as=/tmp/swapped|' /tmp/sites > /tmp/sites-as
fifty_jobs /tmp/sites-as $ut \
	"the opened file is probed, not the one the path names now"

# 7. With a pid, that process's jobs only, each record with its pid.
$ut run 0 2000 > /dev/null &
only=$!
ktap_check "start for one process" $tc ustart target tcp 1 /tmp/sites $only
other=$($ut run 50 1000)
sleep 1
kill -KILL $only
wait $only 2>/dev/null
ktap_check "stop" $tc stop
rm -f /tmp/u.bin
$tc drain /tmp/u.bin target
pids=$($tc print /tmp/u.bin | awk -F'\t' '$1 == 2 { print $NF }' | sort | uniq -c)
# $(echo $pids): the lines of uniq -c joined in one (SC2086, SC2116).
# shellcheck disable=SC2086,SC2116
if [ "$other" = "done 50" ] && [ "$(echo "$pids" | wc -l)" = 1 ] &&
   echo "$pids" | grep -qE "^ *[0-9]+ $only\$"; then
	ktap_pass "with a pid, only its records, each carrying it ($(echo $pids))"
else
	ktap_fail "with a pid, only its records, each carrying it (pid $only; got: $(echo $pids))"
fi

# 8. A binary on an overlay (a container's root) is recorded: the probe
# is on the real inode, the one its process maps.
mkdir -p /tmp/ov && mount -t tmpfs none /tmp/ov &&
	mkdir -p /tmp/ov/lower /tmp/ov/upper /tmp/ov/work /tmp/ov/merged &&
	cp $ut /tmp/ov/lower/ &&
	mount -t overlay overlay -o lowerdir=/tmp/ov/lower,upperdir=/tmp/ov/upper,workdir=/tmp/ov/work /tmp/ov/merged
ovl=/tmp/ov/merged/uprobe-target
if [ -x $ovl ]; then
	sed "s|^$ut |$ovl |" /tmp/sites > /tmp/sites-ovl
	fifty_jobs /tmp/sites-ovl $ovl "a binary run from an overlay is recorded"
	umount /tmp/ov/merged
else
	ktap_fail "mount an overlay of the program"
fi

# 9. The probed binary's mount is held: busy while the session runs,
# free once it stops.
mkdir -p /tmp/ov/fs && mount -t tmpfs none /tmp/ov/fs && cp $ut /tmp/ov/fs/
sed "s|^$ut |/tmp/ov/fs/uprobe-target |" /tmp/sites > /tmp/sites-fs
ktap_check "start with the sites in a binary of a mounted file system" \
	$tc ustart target tcp 1 /tmp/sites-fs
if umount /tmp/ov/fs 2> /tmp/umount.err; then
	ktap_fail "umount under the session says busy"
else
	ktap_pass "umount under the session says busy: $(head -n 1 /tmp/umount.err)"
fi
ktap_check "stop" $tc stop
ktap_check "umount after the stop" umount /tmp/ov/fs
umount /tmp/ov

ktap_check "rmmod ntprof" rmmod ntprof
ktap_finished
