# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The chain test's middle (chain/test.sh): /dev/md0, a raid1 of the
# replica's fast and slow namespaces, exported to the host. It leaves
# md's data offset in the share for the replica (md-offset, in the legs'
# LBAs) and the legs' names (legs: "fast|slow HEAD PATHDISK MAJ:MIN", the
# number of the path disk, which its records carry), then per
# phase records both its roles with the chain rule, the target side
# (--chain: the volume's LBAs are md's) and the host side (--chain=md:
# the legs' LBAs less md's data offset): at -s 1 in one process
# (-r host,target, with --prom PHASE-middle.prom), at -s 100 as two; and
# keeps md's and each leg's
# block layer counters of the recording's span for the checker
# (PHASE-stat-NAME.0 and .1).
# shellcheck source=selftests/ktap.sh
. /lab/ktap.sh
# shellcheck source=selftests/integration/common/guest/records.sh
. /lab/tests/records.sh
# shellcheck source=selftests/integration/chain/guest/chain-lib.sh
. /lab/tests/chain-lib.sh
KTAP_PREFIX="middle: "
share=$NTPROF_LAB_SHARE
md=$(basename "$NTPROF_LAB_CHAIN_MD")

# path_disk HEAD: the hidden path disk of a namespace under native
# multipath (nvme0c0n1 under nvme0n1), where the records' commands are
# counted; else the namespace itself.
path_disk() {
	local p

	for p in /sys/block/"${1%n*}"c*n"${1##*n}"; do
		[ -e "$p/stat" ] && { basename "$p"; return; }
	done
	echo "$1"
}

# save_stats PHASE N: md's and each leg's counters as PHASE-stat-*.N.
save_stats() {
	local d

	for d in "$md" $legs_disks; do
		cat "/sys/block/$d/stat" > "$share/$1-stat-$d.$2"
	done
}

ktap_header
modprobe ntprof || { ktap_fail "modprobe ntprof"; ktap_finished; exit 1; }
sed 's/^/# /' /proc/mdstat
# md's data offset, in 512-byte sectors, per member; in the members'
# LBAs for the replica's --chain=OFFSET.
offsets=
for d in /sys/block/"$md"/md/dev-*; do
	dev=${d##*/dev-}
	lbs=$(cat "/sys/block/$dev/queue/logical_block_size")
	offsets="$offsets $(( $(cat "$d/offset") * 512 / lbs ))"
done
# shellcheck disable=SC2086,SC2046 # the words of a line.
set -- $offsets
if [ $# -eq 2 ] && [ "$1" = "$2" ] && [ "$1" -gt 0 ]; then
	ktap_pass "both legs have md's data offset ($1 LBAs)"
	echo "$1" > "$share/md-offset.tmp" && mv "$share/md-offset.tmp" "$share/md-offset"
else
	ktap_fail "both legs have md's data offset (${offsets:-none})"
fi
: > "$share/legs"
legs_disks=
for leg in fast:$NTPROF_LAB_CHAIN_FAST_DEV slow:$NTPROF_LAB_CHAIN_SLOW_DEV; do
	head=$(basename "${leg#*:}")
	disk=$(path_disk "$head")
	# A hidden path disk has no dev in sysfs: /proc/diskstats has it.
	echo "${leg%%:*} $head $disk $(awk -v d="$disk" '$3 == d { print $1 ":" $2 }' \
		/proc/diskstats)" >> "$share/legs"
	legs_disks="$legs_disks $disk"
done
sed 's/^/# leg: /' "$share/legs"
lab-ready

for p in $CHAIN_PHASES; do
	phase=${p%:*} n=${p#*:}
	wait_flag "$phase-replica.recording" || ktap_fail "$phase: the replica records"
	if [ "$phase" = s1 ]; then
		# Both roles in one process, with the chain's --prom.
		chain_record_middle "$phase-middle" "$n" "$share/$phase-middle.ntp" \
			"$share/$phase-middle.prom" || break
		target_pid=$rec_pid host_pid=
	else
		chain_record "$phase-middle-target" target "$n" --chain \
			"$share/$phase-middle-target.ntp" || break
		target_pid=$rec_pid
		chain_record "$phase-middle-host" host "$n" --chain=md \
			"$share/$phase-middle-host.ntp" || break
		host_pid=$rec_pid
	fi
	save_stats "$phase" 0
	touch "$share/$phase-middle.recording"
	wait_flag "$phase-host.stopped" || ktap_fail "$phase: the host stopped"
	save_stats "$phase" 1
	if [ -z "$host_pid" ]; then
		record_stop "$phase-middle" $target_pid "/tmp/$phase-middle.out"
		cp "/tmp/$phase-middle.out" "$share/"
	else
		record_stop "$phase-middle-host" $host_pid "/tmp/$phase-middle-host.out"
		record_stop "$phase-middle-target" $target_pid "/tmp/$phase-middle-target.out"
		cp "/tmp/$phase-middle-host.out" "/tmp/$phase-middle-target.out" "$share/"
	fi
	touch "$share/$phase-middle.stopped"
done
ktap_check "rmmod ntprof" rmmod ntprof
ktap_finished
