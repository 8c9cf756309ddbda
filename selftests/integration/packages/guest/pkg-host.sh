# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The packages as an operator uses them (packages/test.sh): on one
# guest that booted a Debian 12 system with systemd and its kernel's
# headers packages (selftests/lab/pkg-image.sh), host and target over
# loopback. dpkg -i installs the .deb files that 'make deb' built from
# the tree, DKMS builds the module for the running kernel,
# ntprof-record@target and ntprof-record@host record in rotated parts
# across fio runs, systemctl stops them, and report reads the directory:
# every part whole, every command of fio's once on each side, all joined.
# Then dpkg --purge leaves nothing behind.
# shellcheck source=selftests/ktap.sh
. /lab/ktap.sh
# shellcheck source=selftests/integration/common/guest/records.sh
. /lab/tests/records.sh
KTAP_PREFIX="packages: "
kver=$(uname -r)
debs=$(dirname "$0")/debs
dir=/var/lib/ntprof
prom=/var/lib/prometheus/node-exporter
units="ntprof-record@target ntprof-record@host"

# journal UNIT: what the unit's process wrote, for a failure's diagnosis.
journal() {
	journalctl -q --no-pager -o cat -u "$1" | tail -n 20 | sed "s/^/# $1: /"
}

# started UNIT ROLE: wait (60 s at most) until the unit's recorder says
# it is profiling.
started() {
	local i

	for i in $(seq 600); do
		journalctl -q --no-pager -o cat -u "$1" |
			grep -q "^ntprof: profiling as $2" && return 0
		systemctl -q is-active "$1" || return 1
		sleep 0.1
	done
	return 1
}

# fio_until PATTERN RW SECONDS: fio runs of RW until a file of the
# recording directory matches PATTERN (a part that far was opened), at
# most 40 of them. Prints the commands they did.
fio_until() {
	local n=0 c i

	for i in $(seq 40); do
		c=$(fio_count "$NTPROF_LAB_TCP_DEV" "$2" 4k "$3")
		n=$(( n + ${c% *} + ${c#* } ))
		# shellcheck disable=SC2010 # the recorder's parts, named ROLE.NNNN.ntp.
		ls "$dir" | grep -q "$1" && break
	done
	echo "$n"
}

# leftovers: every file that names ntprof on the system's disk, but the
# lab's own (/lab, and what the disk's making left: pkg-image.sh), and
# what dkms and dpkg still know of it.
leftovers() {
	find / -xdev \( -path /lab -o -path /var/cache/ntprof-lab -o \
		-path /.ntprof-chroot \) -prune -o -name '*ntprof*' -print
	dkms status 2> /dev/null
	dpkg-query -W -f '${Package} ${Status}\n' 'ntprof*' 2>/dev/null
	modinfo -n ntprof 2>/dev/null
}

ktap_header
if modinfo ntprof > /dev/null 2>&1 || [ -e /sys/module/ntprof ]; then
	ktap_fail "before the packages, the system has no ntprof module ($(modinfo -n ntprof 2>&1))"
else
	ktap_pass "before the packages, the system has no ntprof module"
fi

# The install: dkms's postinst builds the module for the running kernel.
t0=$(date +%s)
if dpkg -i "$debs"/*.deb > /root/dpkg-install.log 2>&1; then
	ktap_pass "dpkg -i installs $(cd "$debs" && echo *.deb) ($(( $(date +%s) - t0 )) s, DKMS's build included)"
else
	ktap_fail "dpkg -i installs $(cd "$debs" && echo *.deb)"
	tail -n 30 /root/dpkg-install.log | sed 's/^/# /'
fi
grep -E '^(Building|Cleaning|Installing|Running|Error|make)|dkms' /root/dpkg-install.log |
	head -n 12 | sed 's/^/# dpkg -i: /'
st=$(dkms status ntprof 2> /dev/null)
echo "$st" | sed 's/^/# dkms status: /'
# The release as a fixed string: 6.12's has a '+'.
if echo "$st" | grep '^ntprof/' | grep -Fq ", $kver, x86_64: installed"; then
	ktap_pass "dkms status: ntprof built and installed for the running kernel $kver"
else
	ktap_fail "dkms status: ntprof built and installed for the running kernel $kver"
fi
ko=$(modinfo -n ntprof 2>&1)
case "$ko" in
"/lib/modules/$kver/updates/dkms/ntprof.ko"*)
	ktap_pass "modinfo ntprof names DKMS's module ($ko)" ;;
*)
	ktap_fail "modinfo ntprof names DKMS's module, not $ko" ;;
esac

# The service, with /etc/default/ntprof set for the test: every command
# recorded (so that the records count fio's), NVMe/TCP, parts of 1 MiB,
# none removed; --prom into node_exporter's directory, which its
# package would have made.
sed -i -e 's/^NTPROF_SAMPLE=.*/NTPROF_SAMPLE=1/' \
	-e 's/^NTPROF_TRANSPORTS=.*/NTPROF_TRANSPORTS=tcp/' \
	-e 's/^NTPROF_ROTATE=.*/NTPROF_ROTATE=1M/' \
	-e 's/^NTPROF_KEEP=.*/NTPROF_KEEP=1000/' /etc/default/ntprof
mkdir -p "$prom"
grep '^NTPROF_' /etc/default/ntprof | sed 's/^/# \/etc\/default\/ntprof: /'
ok=1
for u in $units; do
	role=${u#*@}
	if ! systemctl start "$u" || ! started "$u" "$role"; then
		ok=0
		systemctl status --no-pager "$u" | sed 's/^/# /'
		journal "$u"
	fi
done
if [ $ok = 1 ]; then
	ktap_pass "systemctl start $units: both recording"
else
	ktap_fail "systemctl start $units: both recording"
fi
if [ "$(cat /sys/module/ntprof/srcversion 2>/dev/null)" = \
     "$(modinfo -F srcversion "$ko" 2>/dev/null)" ] && [ -n "$(modinfo -F srcversion "$ko")" ]; then
	ktap_pass "the loaded ntprof is DKMS's build ($ko)"
else
	ktap_fail "the loaded ntprof is DKMS's build ($ko)"
fi

# udev probes a disk that a writer closed (blkid's reads, of any size):
# the records must be fio's alone to be counted against fio's.
systemctl stop systemd-udevd.service systemd-udevd-control.socket \
	systemd-udevd-kernel.socket 2> /dev/null
w=$(fio_count "$NTPROF_LAB_TCP_DEV" randwrite 4k 2)
# The host's third part open: two closed ones at least (the target's
# records are smaller: a second part at least).
r=$(fio_until '^host\.0003\.ntp$' randread 3)
total=$(( r + ${w#* } ))
ls -l "$dir" | sed 's/^/# /'
ok=1
for u in $units; do
	systemctl stop "$u"
	res=$(systemctl show -p Result --value "$u")
	code=$(systemctl show -p ExecMainStatus --value "$u")
	if [ "$res" != success ] || [ "$code" != 0 ] || systemctl -q is-active "$u"; then
		ok=0
		echo "# $u: result $res, status $code"
		journal "$u"
	fi
done
if [ $ok = 1 ]; then
	ktap_pass "systemctl stop: both recorders exited 0"
else
	ktap_fail "systemctl stop: both recorders exited 0"
fi
journal ntprof-record@host

for role in host target; do
	# shellcheck disable=SC2010 # the recorder's parts, named ROLE.NNNN.ntp.
	parts=$(ls "$dir" | grep -c "^$role\.[0-9]*\.ntp$")
	ends=$(for f in "$dir/$role".*.ntp; do ntprof report "$f" 2>&1 |
		grep -c "ends early"; done | awk '{ s += $1 } END { print s + 0 }')
	if [ "$parts" -ge 2 ] && [ "$ends" = 0 ]; then
		ktap_pass "the $role's $parts parts are each whole"
	else
		ktap_fail "the $role's parts are each whole ($parts parts, $ends cut short)"
	fi
done
out=$(ntprof report "$dir" 2>&1)
echo "$out" | sed 's/^/# /'
if echo "$out" | grep -q "^records: $total host, $total target; $total matched (100 % of the host's)" &&
   ! echo "$out" | grep -qi "warning"; then
	ktap_pass "report of $dir: fio's $total commands once on each side, every one joined (100 %)"
else
	ktap_fail "report of $dir: fio's $total commands once on each side, every one joined (100 %)"
fi
if [ -s "$prom/ntprof-host.prom" ] && [ -s "$prom/ntprof-target.prom" ]; then
	ktap_pass "the service wrote --prom's files into $prom"
else
	ktap_fail "the service wrote --prom's files into $prom ($(ls "$prom"))"
fi

# The purge: the module first, as an operator's 'modprobe -r' would.
ktap_check "modprobe -r ntprof once the services stopped" modprobe -r ntprof
if dpkg --purge ntprof ntprof-dkms > /root/dpkg-purge.log 2>&1; then
	ktap_pass "dpkg --purge ntprof ntprof-dkms"
else
	ktap_fail "dpkg --purge ntprof ntprof-dkms"
	tail -n 20 /root/dpkg-purge.log | sed 's/^/# /'
fi
left=$(leftovers)
if [ -z "$left" ]; then
	ktap_pass "nothing left behind: no file naming ntprof, no DKMS module, no package"
else
	ktap_fail "nothing left behind: no file naming ntprof, no DKMS module, no package"
	echo "$left" | sed 's/^/# left: /'
fi
systemctl daemon-reload
if [ -z "$(systemctl list-unit-files --no-legend 'ntprof*')" ] &&
   ! systemctl cat ntprof-record@host > /dev/null 2>&1; then
	ktap_pass "systemd knows no ntprof unit after the purge"
else
	ktap_fail "systemd knows no ntprof unit after the purge"
fi
ktap_finished
