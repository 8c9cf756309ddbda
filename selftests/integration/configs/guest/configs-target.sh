# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The configurations people run, target side: for each step of
# configs-lib.sh, record the step's transport at its -s from when the
# host is connected as the step says until its fio is done, and again
# when the host asks (a controller reset mid-step). Files in the share:
# STEP-target.ntp, STEP-target.out. With the TLS steps, tlshd runs and
# the NVMe/TCP subsystem is on a third port, which requires TLS; the
# host's PSK is inserted before the first of them.
# shellcheck source=selftests/ktap.sh
. /lab/ktap.sh
# shellcheck source=selftests/integration/common/guest/records.sh
. /lab/tests/records.sh
# shellcheck source=selftests/integration/configs/guest/configs-lib.sh
. /lab/tests/configs-lib.sh
KTAP_PREFIX="target: "
share=$NTPROF_LAB_SHARE
cfg=/sys/kernel/config/nvmet

# tls_port: tlshd, and the NVMe/TCP subsystem on port CONFIGS_TLS_PORT
# with TLS 1.3 required (addr_tsas; addr_treq follows it).
tls_port() {
	local p=$cfg/ports/$CONFIGS_TLS_PORTID

	tls_start || { ktap_fail "tls: tlshd runs"; return 1; }
	ktap_pass "tls: tlshd runs"
	if tcp_port "$CONFIGS_TLS_PORTID" "$CONFIGS_TLS_PORT" &&
	   echo tls1.3 > "$p/addr_tsas" &&
	   ln -s "$cfg/subsystems/$NTPROF_LAB_TCP_NQN" "$p/subsystems/$NTPROF_LAB_TCP_NQN"; then
		ktap_pass "tls: port $CONFIGS_TLS_PORT, tsas $(cat "$p/addr_tsas"), treq $(cat "$p/addr_treq")"
	else
		ktap_fail "tls: port $CONFIGS_TLS_PORT with TLS 1.3"
	fi
}

# tls_key: the host's PSK (tls_host in configs-host.sh), inserted in the
# .nvme keyring as a user does on a target (nvme check-tls-key --insert).
tls_key() {
	local hostnqn key

	wait_flag tls.key || { ktap_fail "tls: the host's PSK"; return 1; }
	read -r hostnqn key < "$share/tls.key"
	if "$CONFIGS_TLS_BIN/nvme" check-tls-key --hostnqn="$hostnqn" \
		--subsysnqn="$NTPROF_LAB_TCP_NQN" --keydata="$key" --insert \
		> /tmp/tlskey.out 2>&1 &&
	   grep -q " psk *NVMe0R0[12] $hostnqn $NTPROF_LAB_TCP_NQN" /proc/keys; then
		ktap_pass "tls: nvme check-tls-key --insert: the host's PSK in the keyring"
	else
		ktap_fail "tls: nvme check-tls-key --insert: the host's PSK in the keyring"
		sed 's/^/# /' /tmp/tlskey.out /proc/keys
	fi
	touch "$share/tls.keyed"
}

ktap_header
modprobe ntprof || { ktap_fail "modprobe ntprof"; ktap_finished; exit 1; }
CONFIGS_TLS=0
[ -n "$(configs_tls_why_not)" ] || CONFIGS_TLS=1
[ $CONFIGS_TLS = 0 ] || tls_port
lab-ready
for step in $(configs_steps); do
	[ "$(step_config "$step")" != tls ] || [ -e "$share/tls.keyed" ] || tls_key
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
if [ $CONFIGS_TLS = 1 ]; then
	# Not under the host's feet: it is still connected to the port.
	lab-wait-host || ktap_fail "tls: the host finished"
	rm -f "$cfg/ports/$CONFIGS_TLS_PORTID/subsystems/"*
	rmdir "$cfg/ports/$CONFIGS_TLS_PORTID"
	kill "$TLSHD_PID"
	# What tlshd said, for a handshake the host saw fail.
	cp /tmp/tlshd.log "$share/tlshd-target.log"
fi
rmmod ntprof
ktap_finished
