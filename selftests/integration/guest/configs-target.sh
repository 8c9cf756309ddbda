# SPDX-License-Identifier: GPL-2.0
#
# The configurations people run, target side: for each step of
# configs-lib.sh, record the step's transport at its -s from when the
# host is connected as the step says until its fio is done, and again
# when the host asks (a controller reset mid-step). Files in the share:
# STEP-target.ntp, STEP-target.out.
. /lab/ktap.sh
. /lab/tests/records.sh
. /lab/tests/configs-lib.sh
KTAP_PREFIX="target: "
share=$NTPROF_LAB_SHARE

ktap_header
modprobe ntprof || { ktap_fail "modprobe ntprof"; ktap_finished; exit 1; }
lab-ready
for step in $(configs_steps); do
	# Until the host asks for no other attempt (configs-host.sh).
	again=1
	while [ -n "$again" ]; do
		wait_flag "$step.go" || { ktap_fail "$step: the host started"; break 2; }
		ntprof record -r target -t "$(step_transport "$step")" \
			-s "$(step_sample "$step")" -o "/tmp/$step-target.ntp" \
			> "/tmp/$step-target.out" 2>&1 &
		rec=$!
		wait_line "/tmp/$step-target.out" '^ntprof: profiling as target' ||
			ktap_fail "$step: record started"
		touch "$share/$step.rec"
		wait_flag "$step.done" || ktap_fail "$step: the host finished"
		record_stop "$step" $rec "/tmp/$step-target.out"
		cp "/tmp/$step-target.ntp" "/tmp/$step-target.out" "$share/"
		again=
		if [ -e "$share/$step.retry" ]; then
			rm -f "$share/$step.go" "$share/$step.rec" "$share/$step.done" \
				"$share/$step.retry"
			again=1
		fi
		touch "$share/$step.saved"
	done
done
rmmod ntprof
ktap_finished
