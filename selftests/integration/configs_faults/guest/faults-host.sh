# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Resets, reconnects and multipath, host side (faults-lib.sh names the
# steps): each transport's controller connected anew with
# FAULTS_CONNECT_OPTS, then per step both sides record while fio runs
# on the namespace (the multipath head) and the step's fault comes 2 s
# into it. Files in the share, per step: STEP-host.ntp, STEP-host.out,
# STEP-fio.json, STEP-host.prom (record --prom's last file); and
# multipath's value and each step's controllers in
# faults-host.txt. The checks run on the lab's machine
# (configs_faults/check.sh).
# shellcheck source=selftests/ktap.sh
. /lab/ktap.sh
# shellcheck source=selftests/integration/common/guest/records.sh
. /lab/tests/records.sh
# shellcheck source=selftests/integration/configs_faults/guest/faults-lib.sh
. /lab/tests/faults-lib.sh
KTAP_PREFIX="host: "
share=$NTPROF_LAB_SHARE

# find_ns NQN [N]: sets dev (the namespace: the head under multipath,
# which the subsystem lists, else the controller's disk), ctrl (the
# first controller) and sub (the subsystem), once N controllers (1) are
# live, 30 s at most.
find_ns() {
	local i c n

	for i in $(seq 1 300); do
		ctrl=$(subsys_entries "$1" 'nvme[0-9]+' | head -n 1)
		dev=$(subsys_entries "$1" 'nvme[0-9]+n[0-9]+' | head -n 1)
		# shellcheck disable=SC2010 # sysfs names, without spaces.
		[ -n "$dev" ] || [ -z "$ctrl" ] ||
			dev=$(ls "/sys/class/nvme/$ctrl" | grep -E '^nvme[0-9]+n[0-9]+$' | head -n 1)
		n=0
		for c in $(subsys_entries "$1" 'nvme[0-9]+'); do
			[ "$(cat "/sys/class/nvme/$c/state" 2>/dev/null)" = live ] &&
				n=$((n + 1))
		done
		sub=$(dirname "$(grep -lx "$1" /sys/class/nvme-subsystem/*/subsysnqn | head -n 1)")
		[ -n "$dev" ] && [ -b "/dev/$dev" ] && [ "$n" -ge "${2:-1}" ] && return 0
		sleep 0.1
	done
	return 1
}

# connect TRANSPORT [PORT]: a controller of TRANSPORT's subsystem with
# FAULTS_CONNECT_OPTS, on its port or PORT.
connect() {
	local nqn=$NTPROF_LAB_TCP_NQN addr=$NTPROF_LAB_TCP_ADDR port=$NTPROF_LAB_TCP_PORT

	[ "$1" = tcp ] || nqn=$NTPROF_LAB_RDMA_NQN addr=$NTPROF_LAB_RDMA_ADDR \
		port=$NTPROF_LAB_RDMA_PORT
	# shellcheck disable=SC2086
	nvme connect -t "$1" -a "$addr" -s "${2:-$port}" -n "$nqn" \
		$FAULTS_CONNECT_OPTS > /tmp/connect.out 2>&1 ||
		{ sed 's/^/# /' /tmp/connect.out; return 1; }
}

# nomultipath: the controllers connected again through an nvme_core
# loaded with multipath=N (ntprof, which hooks it, unloaded meanwhile).
nomultipath() {
	local t m

	rmmod ntprof
	nvme disconnect-all > /dev/null 2>&1
	for m in nvme_rdma nvme_tcp nvme_fabrics nvme nvme_core; do
		[ -d "/sys/module/$m" ] && modprobe -r "$m"
	done
	modprobe nvme_core multipath=N && modprobe nvme_tcp &&
		modprobe nvme_rdma && modprobe ntprof || return 1
	for t in tcp rdma; do
		connect $t || return 1
	done
	[ "$(cat /sys/module/nvme_core/parameters/multipath)" = N ]
}

# second_path CTRLS: the controller among CTRLS on the second listener,
# whose port a multipath step takes away.
second_path() {
	local c

	for c in $1; do
		grep -q "trsvcid=$FAULTS_MPATH_PORT\(,\|\$\)" "/sys/class/nvme/$c/address" &&
			echo "$c"
	done | head -n 1
}

# gone_path CTRL: the device number, as records carry it (the kernel's
# new_encode_dev()), of the path disk of controller CTRL.
gone_path() {
	local d i maj min

	# The namespace's scan may add the disk after the connect. A
	# hidden disk has no dev in sysfs: its number is diskstats'.
	for i in $(seq 1 100); do
		# shellcheck disable=SC2010 # sysfs names, without spaces.
		d=$(ls "/sys/class/nvme/$1/" | grep -E '^nvme[0-9]+c[0-9]+n[0-9]+$' | head -n 1)
		maj=$(awk -v d="$d" '$3 == d { print $1 }' /proc/diskstats)
		min=$(awk -v d="$d" '$3 == d { print $2 }' /proc/diskstats)
		[ -n "$d" ] && [ -n "$min" ] && break
		sleep 0.1
	done
	[ -n "$min" ] || return
	echo $(( (min & 0xff) | (maj << 8) | ((min & ~0xff) << 12) ))
}

ktap_header
modprobe ntprof || { ktap_fail "modprobe ntprof"; ktap_finished; exit 1; }
mp=$(cat /sys/module/nvme_core/parameters/multipath 2>/dev/null)
echo "multipath $mp" > "$share/faults-host.txt"
ktap_diag "nvme_core multipath: $mp"
for t in tcp rdma; do
	nqn=$NTPROF_LAB_TCP_NQN
	[ "$t" = tcp ] || nqn=$NTPROF_LAB_RDMA_NQN
	nvme disconnect -n "$nqn" > /dev/null 2>&1
	connect $t && find_ns "$nqn" && settle "$dev" &&
		ktap_pass "$t: nvme connect $FAULTS_CONNECT_OPTS ($ctrl, $dev)" ||
		ktap_fail "$t: nvme connect $FAULTS_CONNECT_OPTS"
done
for step in $(faults_steps); do
	f=$(step_fault "$step")
	t=$(step_transport "$step")
	s=$(step_sample "$step")
	nqn=$NTPROF_LAB_TCP_NQN
	[ "$t" = tcp ] || nqn=$NTPROF_LAB_RDMA_NQN
	if [ "$f" = retry ] && [ "$mp" != N ]; then
		nomultipath && mp=N &&
			ktap_pass "nvme_core again with multipath=N, both transports connected" ||
			ktap_fail "nvme_core again with multipath=N, both transports connected"
		echo "multipath $mp" >> "$share/faults-host.txt"
	fi
	# A step's flags in the share are STEP.FLAG in its first run,
	# STEP.runN.FLAG in a later one (the multipath and retry steps', below).
	for try in 1 2 3; do
		k=$step
		[ "$try" = 1 ] || k=$step.run$try
		find_ns "$nqn" && settle "$dev" || ktap_fail "$step: $t's namespace is there"
		ctrls=$ctrl
		if [ "$f" = mpath ]; then
			touch "$share/$k.link"
			if wait_flag "$k.linked" && connect tcp "$FAULTS_MPATH_PORT" &&
			   find_ns "$nqn" 2; then
				ctrls=$(subsys_entries "$nqn" 'nvme[0-9]+' | tr '\n' ' ')
				echo round-robin > "$sub/iopolicy"
				settle "$dev"
				ktap_pass "$step: two paths to $dev ($ctrls), iopolicy $(cat "$sub/iopolicy")"
				gone_ctrl=$(second_path "$ctrls")
				gone=$(gone_path "$gone_ctrl")
				[ -n "$gone" ] || ktap_diag "$step: no path disk on port $FAULTS_MPATH_PORT: $(for c in $ctrls; do echo "$c: $(cat "/sys/class/nvme/$c/address") $(ls "/sys/class/nvme/$c/" | tr '\n' ' ')"; done)"
				echo "$step gone $gone" >> "$share/faults-host.txt"
			else
				ktap_fail "$step: a second path to $dev"
			fi
		fi
		echo "$step $ctrls" >> "$share/faults-host.txt"
		touch "$share/$k.go"
		ntprof record -r host -t "$t" -s "$s" -o "/tmp/$step-host.ntp" \
			--prom "/tmp/$step-host.prom" > "/tmp/$step-host.out" 2>&1 &
		rec=$!
		wait_line "/tmp/$step-host.out" '^ntprof: profiling as host' ||
			ktap_fail "$step: record started"
		wait_flag "$k.rec" || { ktap_fail "$step: the target records"; break 2; }
		# shellcheck disable=SC2086
		fio --name="$step" --filename="/dev/$dev" $FAULTS_FIO_OPTS --direct=1 \
			--size=256m --runtime="$(step_seconds "$step")" --time_based \
			--output-format=json > "/tmp/$step-fio.json" 2> /tmp/fio.err &
		fio=$!
		sleep 2
		case $f in
		none) ;;
		reset|retry)
			nvme reset "/dev/$ctrl" > /tmp/reset.out 2>&1 &&
				ktap_pass "$step: nvme reset /dev/$ctrl mid-recording" ||
				{ ktap_fail "$step: nvme reset /dev/$ctrl mid-recording"; sed 's/^/# /' /tmp/reset.out; }
			;;
		*)
			touch "$share/$k.cut"
			;;
		esac
		wait $fio
		fio_rc=$?
		touch "$share/$k.done"
		record_stop "$step" $rec "/tmp/$step-host.out"
		cp "/tmp/$step-host.ntp" "/tmp/$step-host.out" "/tmp/$step-fio.json" \
			"/tmp/$step-host.prom" "$share/"
		[ $fio_rc -eq 0 ] && ktap_pass "$step: fio, no I/O error" ||
			{ ktap_fail "$step: fio, no I/O error"; sed 's/^/# /' /tmp/fio.err; }
		wait_flag "$k.saved" || ktap_fail "$step: the target saved its recording"
		case $f in
		reconnect)
			find_ns "$nqn" && ktap_pass "$step: $ctrl is live again" ||
				ktap_fail "$step: $ctrl is live again ($(cat "/sys/class/nvme/$ctrl/state"))"
			;;
		mpath)
			# The path whose port went away: reconnecting until removed.
			for c in $ctrls; do
				[ "$(cat "/sys/class/nvme/$c/state")" = live ] ||
					nvme disconnect -d "$c" > /dev/null 2>&1
			done
			;;
		esac
		dmesg | grep -E 'nvme[0-9]+: ' | tail -n 4 | sed "s/^/# $step: /"
		# The kernel's own account of the step's outage, for its events.
		dmesg > "$share/$step-dmesg.txt"
		# Whether the multipath and retry steps at -s 1 have what their
		# checks need: an aborted attempt, on the path taken away or in the
		# reset. Whether a command is left to abort is a race (nvmet may
		# send the responses of the commands it holds before it closes the
		# socket, and a reset may find the queues empty: one CI run's
		# retry-tcp-s1 aborted none where its -s 100 step aborted 4): when
		# none was, the step runs again, three times at most, and the
		# checks judge the last run. The target waits for the verdict
		# before its next step.
		verdict='done'
		if { [ "$f" = mpath ] || [ "$f" = retry ]; } && [ "$s" = 1 ] && [ "$try" -lt 3 ] &&
		   ! ntprof report "/tmp/$step-host.ntp" 2> /dev/null | grep -q '^aborted: [1-9]'; then
			ktap_diag "$step: run $try: no command was left to abort: again"
			verdict=again
		fi
		echo "$verdict" > "$share/$k.verdict"
		[ "$verdict" = again ] || break
	done
done
rmmod ntprof
ktap_finished
