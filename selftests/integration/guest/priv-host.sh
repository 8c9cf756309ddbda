# SPDX-License-Identifier: GPL-2.0
# Privileges, on one guest: a user without CAP_NET_ADMIN (uid 65534, no
# capabilities) gets EPERM from every operation of the ntprof family, as
# raw genl messages (testclient raw) and through the tool, and cannot read
# the debugfs files; root's sessions work before and after.
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
	set -- $op
	out=$(nobody $tc raw "$1" ${3:-} 2>&1)
	if [ "$out" = "errno 1" ]; then
		ktap_pass "raw $2 without CAP_NET_ADMIN: EPERM"
	else
		ktap_fail "raw $2 without CAP_NET_ADMIN: EPERM (got: $out)"
	fi
done

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

for f in status hooks buffers usites; do
	if nobody cat "/sys/kernel/debug/ntprof/$f" > /dev/null 2>&1; then
		ktap_fail "debugfs $f is unreadable without root"
	else
		ktap_pass "debugfs $f is unreadable without root"
	fi
done
ktap_check "root reads debugfs status" cat /sys/kernel/debug/ntprof/status
ktap_check "as root afterwards: a host session starts and stops" \
	sh -c "$tc start host tcp 1 && $tc stop"
ktap_check "rmmod ntprof" rmmod ntprof
ktap_finished
