# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Resets, reconnects and multipath, target side: for each step of
# faults-lib.sh, record the step's transport at its -s while the host's
# fio runs; in a reconnect step take the subsystem off the transport's
# port when the host says, and put it back 2 s later; in a multipath
# step export the NVMe/TCP subsystem on a second port for the host, and
# take it off when the host says. Files in the share, per step:
# STEP-target.ntp, STEP-target.out.
# shellcheck source=selftests/ktap.sh
. /lab/ktap.sh
# shellcheck source=selftests/integration/common/guest/records.sh
. /lab/tests/records.sh
# shellcheck source=selftests/integration/configs_faults/guest/faults-lib.sh
. /lab/tests/faults-lib.sh
KTAP_PREFIX="target: "
share=$NTPROF_LAB_SHARE
cfg=/sys/kernel/config/nvmet

# link PORTID NQN, unlink PORTID NQN: the subsystem on the port, or off.
link() {
	ln -s "$cfg/subsystems/$2" "$cfg/ports/$1/subsystems/$2"
}

unlink_port() {
	rm "$cfg/ports/$1/subsystems/$2"
}

ktap_header
modprobe ntprof || { ktap_fail "modprobe ntprof"; ktap_finished; exit 1; }
# The second NVMe/TCP port, without a subsystem until a multipath step.
tcp_port "$FAULTS_MPATH_PORTID" "$FAULTS_MPATH_PORT" ||
	ktap_fail "a second NVMe/TCP port, $FAULTS_MPATH_PORT"
lab-ready
for step in $(faults_steps); do
	f=$(step_fault "$step")
	t=$(step_transport "$step")
	nqn=$NTPROF_LAB_TCP_NQN portid=1
	[ "$t" = tcp ] || nqn=$NTPROF_LAB_RDMA_NQN portid=2
	[ "$f" = mpath ] && portid=$FAULTS_MPATH_PORTID
	# The flags of the step's first run and of a later one, as the
	# host names them.
	for try in 1 2 3; do
		k=$step
		[ "$try" = 1 ] || k=$step.run$try
		if [ "$f" = mpath ]; then
			wait_flag "$k.link" || { ktap_fail "$step: the host asks for a path"; break 2; }
			link $portid "$nqn" && touch "$share/$k.linked" ||
				ktap_fail "$step: the subsystem on port $FAULTS_MPATH_PORT"
		fi
		wait_flag "$k.go" || { ktap_fail "$step: the host started"; break 2; }
		ntprof record -r target -t "$t" -s "$(step_sample "$step")" \
			-o "/tmp/$step-target.ntp" > "/tmp/$step-target.out" 2>&1 &
		rec=$!
		wait_line "/tmp/$step-target.out" '^ntprof: profiling as target' ||
			ktap_fail "$step: record started"
		touch "$share/$k.rec"
		if [ "$f" = reconnect ] || [ "$f" = mpath ]; then
			wait_flag "$k.cut" || ktap_fail "$step: the host asks for the cut"
			unlink_port $portid "$nqn" &&
				ktap_pass "$step: the subsystem taken off port $portid mid-recording" ||
				ktap_fail "$step: the subsystem taken off port $portid mid-recording"
			if [ "$f" = reconnect ]; then
				away=$(date +%s.%N)
				sleep 2
				link $portid "$nqn" &&
					ktap_pass "$step: and put back 2 s later" ||
					ktap_fail "$step: and put back 2 s later"
				# How long the port was away, for the events' outage.
				echo "$(date +%s.%N) $away" |
					awk '{ printf "%.6f\n", $1 - $2 }' > "$share/$step-away.txt"
			fi
		fi
		wait_flag "$k.done" || ktap_fail "$step: the host finished"
		record_stop "$step" $rec "/tmp/$step-target.out"
		cp "/tmp/$step-target.ntp" "/tmp/$step-target.out" "$share/"
		touch "$share/$k.saved"
		# The host's verdict: the step again (faults-host.sh), or the next.
		wait_flag "$k.verdict" || { ktap_fail "$step: the host's verdict"; break 2; }
		[ "$(cat "$share/$k.verdict")" = again ] || break
	done
done
rmdir "$cfg/ports/$FAULTS_MPATH_PORTID"
rmmod ntprof
ktap_finished
