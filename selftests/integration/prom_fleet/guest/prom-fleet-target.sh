# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The fleet view's lab run, target side (prom_fleet/test.sh): the TCP
# subsystem allows the host alone (its NQN from the share), as an
# operator's would, so that the target knows which host its controllers
# serve; record NVMe/TCP at N=1 with --prom while the host's fio runs,
# and leave target.ntp and target/ntprof.prom in the share.
# shellcheck source=selftests/ktap.sh
. /lab/ktap.sh
# shellcheck source=selftests/integration/common/guest/records.sh
. /lab/tests/records.sh
KTAP_PREFIX="target: "
share=$NTPROF_LAB_SHARE
cfg=/sys/kernel/config/nvmet
sub=$cfg/subsystems/$NTPROF_LAB_TCP_NQN

# allow_any_host off, the one host allowed; or undone.
allow_host() {
	mkdir -p "$cfg/hosts/$1" &&
	echo 0 > "$sub/attr_allow_any_host" &&
	ln -s "$cfg/hosts/$1" "$sub/allowed_hosts/$1"
}

allow_any() {
	rm -f "$sub/allowed_hosts/$1"
	echo 1 > "$sub/attr_allow_any_host"
	rmdir "$cfg/hosts/$1"
}

ktap_header
modprobe ntprof || { ktap_fail "modprobe ntprof"; ktap_finished; exit 1; }
lab-ready
wait_flag host.connected || ktap_fail "the host connected"
hostnqn=$(cat "$share/hostnqn" 2>/dev/null)
# A connected controller stays: nvmet checks the allowed hosts at connect.
ktap_check "the subsystem allows the host alone ($hostnqn)" allow_host "$hostnqn"

mkdir -p "$share/target"
out=$share/target-record.out
ntprof record -r target -t tcp -s 1 -o "$share/target.ntp" \
	--prom "$share/target/ntprof.prom" > "$out" 2> /tmp/record.err &
rec=$!
wait_line "$out" '^ntprof: profiling as target, sampling every command' ||
	ktap_fail "record started"
touch "$share/target.recording"
wait_flag host.done || ktap_fail "the host finished its I/O"
stop_recorder $rec
sed 's/^/# /' "$out" /tmp/record.err

want="transport=\"tcp\",subnqn=\"$NTPROF_LAB_TCP_NQN\",traddr=\"$NTPROF_LAB_TCP_ADDR\",trsvcid=\"$NTPROF_LAB_TCP_PORT\",hostnqn=\"$hostnqn\",stage=\"target_window\"}"
prom_series "the target's series: subnqn, the port's traddr and trsvcid, the host's NQN" \
	"$share/target/ntprof.prom" "$want"
ktap_check "the subsystem allows any host again" allow_any "$hostnqn"
ktap_check "rmmod ntprof" rmmod ntprof
ktap_finished
