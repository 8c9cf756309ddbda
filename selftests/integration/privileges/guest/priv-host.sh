# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Privileges, on one guest: a user without CAP_NET_ADMIN (uid 65534, no
# capabilities) gets EPERM from every operation of the ntprof family, as
# raw genl messages (testclient raw) and through the tool, and cannot read
# the debugfs files; one with CAP_NET_ADMIN only (ambient) reads the
# status and the hooks but gets EPERM from start, stop and the dumps of
# counters and records, which need CAP_SYS_ADMIN; root's sessions work
# before and after. Ownership: a session belongs to the socket that
# started it: another root socket cannot stop or drain it, and when its
# socket closes (the holder killed, a SIGKILLed ntprof record) it stops;
# the second socket a start names drains only for the starter's process.
# Layouts a start gives lie within their struct. A failed start keeps the
# last session's records (uprobe-host.sh). Last, under lockdown
# (confidentiality) a start giving layouts is refused, and ntprof record
# says why; without them, the built-in table's offsets record.
# The debugfs files are root's by their own modes (0400): each is checked
# by its mode and read as uid 65534 with the debugfs mount opened.
# shellcheck source=selftests/ktap.sh
. /lab/ktap.sh
KTAP_PREFIX="privileges: "
tc=testclient
ktap_header
mount -t debugfs none /sys/kernel/debug 2>/dev/null
modprobe ntprof || { ktap_fail "modprobe ntprof"; ktap_finished; exit 1; }

# nobody: uid and gid 65534, no supplementary group, no capability left.
nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		--bounding-set=-all "$@"
}

ktap_check "as root: a host session starts and stops" \
	sh -c "$tc start host tcp 1 && $tc stop"
# The family's operations, by number (include/uapi/linux/ntprof.h).
for op in "1 status-get" "2 start" "3 stop" "4 probe-get dump" \
	  "5 stats-get dump" "6 records-get dump"; do
	# shellcheck disable=SC2086,SC2046 # the words of a line.
	set -- $op
	# shellcheck disable=SC2086 # a command and its options.
	out=$(nobody $tc raw "$1" ${3:-} 2> /dev/null)
	if [ "$out" = "errno 1" ]; then
		ktap_pass "raw $2 without CAP_NET_ADMIN: EPERM"
	else
		ktap_fail "raw $2 without CAP_NET_ADMIN: EPERM (got: $out)"
	fi
done

# netadmin: uid 65534 holding CAP_NET_ADMIN alone, as an ambient capability.
netadmin() {
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all,+net_admin --ambient-caps=-all,+net_admin \
		--bounding-set=-all,+net_admin "$@"
}

root() { "$@"; }

# raw_as WHO "NUMBER NAME [dump]" WANT: the raw request's errno is WANT,
# sent from a socket of its own.
raw_as() {
	local who=$1 want=$3 out

	# shellcheck disable=SC2086,SC2046 # the words of a line.
	set -- $2
	# shellcheck disable=SC2086 # a command and its options.
	out=$($who $tc raw "$1" ${3:-} 2> /dev/null)
	if [ "$out" = "errno $want" ]; then
		ktap_pass "raw $2 as $who: errno $want"
	else
		ktap_fail "raw $2 as $who: errno $want (got: $out)"
	fi
}
if netadmin grep -q '^CapEff:.*0000000000001000$' /proc/self/status; then
	ktap_pass "netadmin holds CAP_NET_ADMIN alone"
else
	ktap_fail "netadmin holds CAP_NET_ADMIN alone ($(netadmin grep CapEff /proc/self/status))"
fi
raw_as netadmin "1 status-get" 0
raw_as netadmin "2 start" 1
raw_as netadmin "3 stop" 1
raw_as netadmin "4 probe-get dump" 0
raw_as netadmin "5 stats-get dump" 1
raw_as netadmin "6 records-get dump" 1
ktap_check "as root: a host session starts" $tc start host tcp 1
raw_as netadmin "6 records-get dump" 1
raw_as netadmin "5 stats-get dump" 1
out=$(netadmin $tc raw 2 2>&1; netadmin $tc raw 6 dump 2>&1)
if [ "$(echo "$out" | grep -c 'needs CAP_SYS_ADMIN')" = 2 ]; then
	ktap_pass "the refusals say CAP_SYS_ADMIN is needed"
else
	ktap_fail "the refusals say CAP_SYS_ADMIN is needed (said: $out)"
fi

# Another root socket: neither stops nor drains the holder's session.
raw_as root "3 stop" 1
raw_as root "6 records-get dump" 1
if $tc raw 6 dump 2>&1 | grep -q 'belongs to another socket'; then
	ktap_pass "another socket's drain is told whose session it is"
else
	ktap_fail "another socket's drain is told whose session it is"
fi
ktap_check "the owner drains its session" $tc drain /tmp/own.bin host
ktap_check "killing the owner's socket (the holder)" $tc release
if grep -qx 'host session: stopped' /sys/kernel/debug/ntprof/status &&
   grep -qx 'state: idle' /sys/kernel/debug/ntprof/status &&
   dmesg | grep -q 'host session: its socket closed'; then
	ktap_pass "the session stopped when its socket closed"
else
	ktap_fail "the session stopped when its socket closed"
	sed 's/^/# /' /sys/kernel/debug/ntprof/status
fi

# A SIGKILLed recorder leaves no session running.
ntprof record -r host -t tcp -d 120 -o /tmp/killed.ntp > /tmp/killed.out 2>&1 &
rpid=$!
for _ in $(seq 100); do
	grep -qx 'host session: recording' /sys/kernel/debug/ntprof/status && break
	sleep 0.1
done
grep -qx 'host session: recording' /sys/kernel/debug/ntprof/status &&
	ktap_pass "ntprof record runs its session" ||
	{ ktap_fail "ntprof record runs its session"; sed 's/^/# /' /tmp/killed.out; }
kill -KILL $rpid
wait $rpid 2>/dev/null
if grep -qx 'host session: stopped' /sys/kernel/debug/ntprof/status &&
   grep -qx 'state: idle' /sys/kernel/debug/ntprof/status; then
	ktap_pass "a SIGKILLed ntprof record leaves no session running"
else
	ktap_fail "a SIGKILLed ntprof record leaves no session running"
	sed 's/^/# /' /sys/kernel/debug/ntprof/status
fi
ktap_check "a new session starts after the killed recorder" \
	sh -c "$tc start host tcp 1 && $tc stop"

# The second socket a start names, but another process's: it drains
# nothing (Documentation/security.rst). The starter's own drains.
rm -f /tmp/drainer.in /tmp/drainer.out
mkfifo /tmp/drainer.in
$tc drainer host < /tmp/drainer.in > /tmp/drainer.out 2> /tmp/drainer.err &
drainer=$!
exec 8> /tmp/drainer.in
for _ in $(seq 100); do
	[ -s /tmp/drainer.out ] && break
	sleep 0.1
done
dport=$(head -n 1 /tmp/drainer.out)
ktap_check "a session names another process's socket ($dport) as its second" \
	$tc start host tcp 1 "${dport:-1}"
echo go >&8
exec 8>&-
wait $drainer
out=$(sed -n 2p /tmp/drainer.out)
if [ "$out" = "errno 1" ] && grep -q 'belongs to another socket' /tmp/drainer.err; then
	ktap_pass "another process's socket, named as the second, cannot drain"
else
	ktap_fail "another process's socket, named as the second, cannot drain (got: $out)"
	sed 's/^/# /' /tmp/drainer.err
fi
ktap_check "stop" $tc stop
out=$($tc selfdrain host tcp 1 2>&1)
[ "$out" = "errno 0" ] &&
	ktap_pass "the starter's own second socket drains" ||
	ktap_fail "the starter's own second socket drains (got: $out)"

# lstart_says WHAT WANT MESSAGE FIELD OFFSET SIZE STRUCT_SIZE: a host
# start giving that layout field gets errno WANT, saying MESSAGE.
lstart_says() {
	local what=$1 want=$2 msg=$3 out

	shift 3
	out=$($tc lstart host tcp 1 "$@" 2> /tmp/lstart.err)
	if [ "$out" = "errno $want" ] &&
	   { [ -z "$msg" ] || grep -q -- "$msg" /tmp/lstart.err; }; then
		ktap_pass "$what: errno $want${msg:+, $msg}"
	else
		ktap_fail "$what: errno $want${msg:+, $msg} (got: $out)"
		sed 's/^/# /' /tmp/lstart.err
	fi
}
# nvme_request.status (field 1) is at 20 on 6.1 and 6.12; the struct is
# 32 and 40 bytes.
lstart_says "a layout field within its struct" 0 "" 1 20 2 40
lstart_says "a layout field past its struct's end" 22 \
	"lies past the end of its struct" 1 40 2 40
lstart_says "a struct far larger than this release's" 22 \
	"far larger than in this release" 1 20 2 4096

t_tool() {
	local out rc

	out=$(cd /tmp && nobody ntprof "$@" 2>&1)
	rc=$?
	[ $rc -ne 0 ] && echo "$out" | grep -q 'permission denied (run as root)' ||
		{ echo "$out" | sed 's/^/# /'; return 1; }
}
ktap_check "ntprof status without CAP_NET_ADMIN: refused, run as root" t_tool status
ktap_check "ntprof probe without CAP_NET_ADMIN: refused, run as root" \
	t_tool probe -r host -t tcp
ktap_check "ntprof record without CAP_NET_ADMIN: refused, run as root" \
	t_tool record -r host -t tcp -d 1 -o /tmp/nobody.ntp
ktap_check "the refused record leaves no file" test ! -e /tmp/nobody.ntp

# The debugfs files are root's by their own modes, not by the mount's:
# debugfs is mounted 0700, which alone keeps uid 65534 out of every file
# under it, so the mount is opened (0755) while uid 65534 tries them, and
# each file's mode must give nothing to its group or to others.
dbg=/sys/kernel/debug/ntprof
files=$(find "$dbg" -mindepth 1 2>/dev/null | sort)
ktap_check "debugfs has the module's files (status, hooks, buffers, usites)" \
	sh -c "for f in status hooks buffers usites; do test -f $dbg/\$f || exit 1; done"
mount -o remount,mode=0755 /sys/kernel/debug
if nobody test -x "$dbg"; then
	ktap_pass "with debugfs opened, uid 65534 can reach $dbg"
else
	ktap_fail "with debugfs opened, uid 65534 can reach $dbg"
fi
for f in $files; do
	name=${f#"$dbg"/}
	fmode=$(stat -c %a "$f")
	fuid=$(stat -c %u "$f")
	if [ -f "$f" ] && [ $((0$fmode & 077)) = 0 ] && [ "$fuid" = 0 ]; then
		ktap_pass "debugfs $name is root's alone (mode $fmode)"
	else
		ktap_fail "debugfs $name is root's alone (mode $fmode, owner uid $fuid)"
	fi
	if nobody cat "$f" > /dev/null 2>&1; then
		ktap_fail "debugfs $name is unreadable without root, its directory open"
	else
		ktap_pass "debugfs $name is unreadable without root, its directory open"
	fi
done
mount -o remount,mode=0700 /sys/kernel/debug
ktap_check "root reads debugfs status" cat /sys/kernel/debug/ntprof/status
ktap_check "as root afterwards: a host session starts and stops" \
	sh -c "$tc start host tcp 1 && $tc stop"

# Last, as it lasts until the guest stops: lockdown, confidentiality.
modprobe nvme-tcp
grep -qs ' /sys/kernel/security ' /proc/mounts ||
	mount -t securityfs none /sys/kernel/security
if [ -e /sys/kernel/btf/nvme_core ] &&
   echo confidentiality > /sys/kernel/security/lockdown &&
   grep -q '\[confidentiality\]' /sys/kernel/security/lockdown; then
	ktap_pass "locked down: $(cat /sys/kernel/security/lockdown)"
	lstart_says "locked down, a start giving a layout" 1 \
		"locked down: it takes no struct layout" 1 20 2 40
	ntprof record -r host -t tcp -d 1 -o /tmp/ld.ntp > /tmp/ld.out 2>&1
	rc=$?
	if [ $rc -ne 0 ] && grep -q 'permission denied: the kernel is locked down' /tmp/ld.out &&
	   [ ! -e /tmp/ld.ntp ]; then
		ktap_pass "locked down, ntprof record with BTF's layouts: refused, says why"
	else
		ktap_fail "locked down, ntprof record with BTF's layouts: refused, says why (rc $rc)"
	fi
	sed 's/^/# /' /tmp/ld.out
	NTPROF_BTF_DIR=/nonexistent ntprof record -r host -t tcp -d 1 \
		-o /tmp/ld2.ntp > /tmp/ld2.out 2>&1
	rc=$?
	if [ $rc -eq 0 ] && [ -s /tmp/ld2.ntp ]; then
		ktap_pass "locked down, ntprof record without layouts: the built-in table's record"
	else
		ktap_fail "locked down, ntprof record without layouts: the built-in table's record (rc $rc)"
		sed 's/^/# /' /tmp/ld2.out
	fi
else
	ktap_fail "lock the kernel down (lockdown: $(cat /sys/kernel/security/lockdown 2>&1); nvme_core BTF: $(ls /sys/kernel/btf/nvme_core 2>&1))"
fi
ktap_check "rmmod ntprof" rmmod ntprof
ktap_finished
