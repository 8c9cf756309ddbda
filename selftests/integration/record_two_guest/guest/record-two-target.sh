# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# ntprof record on two guests, target side: probe, then record NVMe/TCP at
# N=1 while the host's fio runs, stop with SIGINT, and leave the recording
# and the output in the share. Then: a second recorder is refused while
# one runs, and a recorder killed with SIGKILL leaves a file behind.
# shellcheck source=selftests/ktap.sh
. /lab/ktap.sh
# shellcheck source=selftests/integration/common/guest/records.sh
. /lab/tests/records.sh
KTAP_PREFIX="target: "
share=$NTPROF_LAB_SHARE




ktap_header
modprobe ntprof || { ktap_fail "modprobe ntprof"; ktap_finished; exit 1; }
ktap_check "probe -r target -t tcp: load: ok, exit 0" probe_ok target tcp

# From when the host is connected: its partition scan is not fio's.
lab-ready
wait_flag host.connected || ktap_fail "the host connected"
out=$share/target-record.out
err=$share/target-record.err
ntprof record -r target -t tcp -s 1 -o "$share/target.ntp" > "$out" 2> "$err" &
rec=$!
if wait_line "$out" '^ntprof: profiling as target, sampling every command'; then
	ktap_pass "record says it is profiling as target"
else
	ktap_fail "record says it is profiling as target"
	sed 's/^/# /' "$out" "$err"
fi
touch "$share/target.recording"

wait_flag host.done || ktap_fail "the host finished its I/O"
kill -INT $rec
wait $rec
rc=$?
[ $rc -eq 0 ] && ktap_pass "record stops on SIGINT, exit 0" ||
	ktap_fail "record stops on SIGINT, exit 0 (got $rc)"
sed 's/^/# /' "$out" "$err"

# N=1: every command fio completed, once (the host left fio's count).
n=$(sed -n 's/^ntprof: \([0-9]*\) records written to .*/\1/p' "$out")
total=$(cat "$share/fio-total" 2>/dev/null)
if [ -n "$n" ] && [ -n "$total" ] && [ "$total" -gt 0 ] && [ "$n" = "$total" ]; then
	ktap_pass "target recorded each of fio's $total reads once"
else
	ktap_fail "target recorded each of fio's ${total:-?} reads once (got ${n:-none})"
fi
# The backing device by its name, as the target's device table has it.
bname=$(basename "$NTPROF_LAB_BACKING_DEV")
grep -qE "^== read 4KiB $bname: " "$out" &&
	ktap_pass "the summary labels the group $bname" ||
	ktap_fail "the summary labels the group $bname"
# The controller the host connected: the records carry its cntlid, which
# the host reads in sysfs; the header names the subsystem and the port.
got=$(ntp_cntlid "$share/target.ntp")
want=$(cat "$share/host-cntlid" 2>/dev/null)
if [ -n "$got" ] && [ "$got" != 0 ] && [ "$got" = "$want" ]; then
	ktap_pass "the records carry the controller's cntlid ($got), as the host sees it"
else
	ktap_fail "the records carry the controller's cntlid (got ${got:-none}, the host's ${want:-?})"
fi
if head -c 65536 "$share/target.ntp" | grep -qa "$NTPROF_LAB_TCP_NQN" &&
   head -c 65536 "$share/target.ntp" | grep -qa "traddr=$NTPROF_LAB_TCP_ADDR,trsvcid=$NTPROF_LAB_TCP_PORT"; then
	ktap_pass "the controller table names the subsystem and the port"
else
	ktap_fail "the controller table names the subsystem and the port"
fi
grep -q 'WARNING' "$err" && ktap_fail "no warning (drops, evictions)" ||
	ktap_pass "no warning (drops, evictions)"
[ -s "$share/target.ntp" ] && ktap_pass "the recording is in the share" ||
	ktap_fail "the recording is in the share"
touch "$share/target.stopped"

# One session per role: a second recorder says so and leaves no file.
ntprof record -r target -t tcp -o /tmp/first.ntp > /tmp/first.out 2>&1 &
first=$!
wait_line /tmp/first.out '^ntprof: profiling as'
ntprof record -r target -t tcp -o /tmp/second.ntp > /tmp/second.out 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q 'a target session is already running' /tmp/second.out &&
   [ ! -e /tmp/second.ntp ]; then
	ktap_pass "a second target recorder is refused with a clear message"
else
	ktap_fail "a second target recorder is refused with a clear message (rc $rc)"
	sed 's/^/# /' /tmp/second.out
fi
kill -TERM $first
wait $first && ktap_pass "record stops on SIGTERM, exit 0" ||
	ktap_fail "record stops on SIGTERM, exit 0"
ntprof probe -r target -t tcp > /dev/null 2>&1 &&
	ktap_pass "the session is stopped after SIGTERM (probe: load: ok)" ||
	ktap_fail "the session is stopped after SIGTERM (probe: load: ok)"

# A recorder killed outright: its file keeps the header and whole blocks.
ntprof record -r target -t tcp -o "$share/killed.ntp" > /tmp/killed.out 2>&1 &
killed=$!
wait_line /tmp/killed.out '^ntprof: profiling as'
sleep 1
kill -KILL $killed
wait $killed 2>/dev/null
[ -s "$share/killed.ntp" ] && ktap_pass "a SIGKILLed recorder leaves its file" ||
	ktap_fail "a SIGKILLed recorder leaves its file"
# Idle, it may hold no record: it reads back as cut short all the same.
if ntprof report "$share/killed.ntp" > /tmp/killed-report.out 2>&1 &&
   grep -q 'ends early' /tmp/killed-report.out &&
   grep -q '^records: [0-9]* target' /tmp/killed-report.out; then
	ktap_pass "the SIGKILLed recording reads back, cut short"
else
	ktap_fail "the SIGKILLed recording reads back, cut short"
	sed 's/^/# /' /tmp/killed-report.out
fi
# Its session stopped with its socket: probe says record can run again.
ntprof probe -r target -t tcp > /tmp/busy.out 2>&1
rc=$?
if [ $rc -eq 0 ] && tail -n 1 /tmp/busy.out | grep -q '^  load: ok' &&
   grep -qx 'target session: stopped' /sys/kernel/debug/ntprof/status; then
	ktap_pass "probe: load: ok after the killed recorder, whose session stopped"
else
	ktap_fail "probe: load: ok after the killed recorder, whose session stopped (rc $rc)"
	sed 's/^/# /' /tmp/busy.out
fi
ktap_check "rmmod ntprof after the killed recorder" rmmod ntprof

# The module unloaded under a recorder: it says so, exit 1, and the file
# it leaves has no end.
modprobe ntprof
ntprof record -r target -t tcp -o "$share/gone.ntp" > /tmp/gone.out 2> /tmp/gone.err &
gone=$!
wait_line /tmp/gone.out '^ntprof: profiling as'
# A generic-netlink dump pins the module while it runs: an rmmod that
# meets one of the recorder's dumps is refused (in use); the next takes.
for _ in $(seq 1 50); do
	rmmod ntprof 2> /dev/null && break
	sleep 0.1
done
wait $gone
rc=$?
if [ $rc -eq 1 ] && grep -q 'the ntprof module went away' /tmp/gone.err &&
   [ -s "$share/gone.ntp" ]; then
	ktap_pass "rmmod under a recorder: it says so, exit 1, the file stays"
else
	ktap_fail "rmmod under a recorder: it says so, exit 1, the file stays (rc $rc)"
fi
sed 's/^/# /' /tmp/gone.out /tmp/gone.err
ktap_finished
