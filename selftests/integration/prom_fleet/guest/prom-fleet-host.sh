# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The fleet view's lab run, host side (prom_fleet/test.sh): record
# NVMe/TCP at N=1 with --prom around a 4 s fio job of 4 KiB random reads at
# queue depth 1, then leave host.ntp and host/ntprof.prom in the share for
# prom_fleet/check.sh, which serves the files to a real Prometheus. The
# host's NQN goes to the share first: the target allows that host alone,
# so that its series name it.
# shellcheck source=selftests/ktap.sh
. /lab/ktap.sh
# shellcheck source=selftests/integration/common/guest/records.sh
. /lab/tests/records.sh
KTAP_PREFIX="host: "
share=$NTPROF_LAB_SHARE
dev=$NTPROF_LAB_TCP_DEV

ktap_header
modprobe ntprof || { ktap_fail "modprobe ntprof"; ktap_finished; exit 1; }
# The TCP subsystem's controller: its hostnqn is the one --prom labels.
for c in /sys/class/nvme/nvme*; do
	[ "$(cat "$c/subsysnqn" 2>/dev/null)" = "$NTPROF_LAB_TCP_NQN" ] &&
		[ "$(cat "$c/transport" 2>/dev/null)" = tcp ] && ctrl=$c
done
hostnqn=$(cat "${ctrl:-/nonexistent}/hostnqn" 2>/dev/null)
[ -n "$hostnqn" ] && ktap_pass "the host's NQN ($(basename "$ctrl"): $hostnqn)" ||
	ktap_fail "the host's NQN (no tcp controller of $NTPROF_LAB_TCP_NQN)"
echo "$hostnqn" > "$share/hostnqn"
touch "$share/host.connected"
wait_flag target.recording || ktap_fail "the target records"

mkdir -p "$share/host"
ntprof record -r host -t tcp -s 1 -d 600 -o /tmp/host.ntp \
	--prom "$share/host/ntprof.prom" > /tmp/record.out 2> /tmp/record.err &
rec=$!
wait_line /tmp/record.out '^ntprof: profiling as host, sampling every command' ||
	ktap_fail "record started"
fio --name=prom --filename="$dev" --rw=randread --bs=4k --direct=1 \
	--ioengine=libaio --iodepth=1 --size=256m --runtime=4 --time_based \
	> /tmp/fio.out 2>&1
fio_rc=$?
stop_recorder $rec
touch "$share/host.done"
cp /tmp/host.ntp "$share/" 2>/dev/null
[ $fio_rc -eq 0 ] && ktap_pass "fio read over tcp" ||
	{ ktap_fail "fio read over tcp"; sed 's/^/# /' /tmp/fio.out; }
sed 's/^/# /' /tmp/record.out /tmp/record.err

# The reads' series name the subsystem, the target's port and this host.
name=$(basename "$dev")
want="op=\"read\",size_bytes=\"4096\",device=\"$name\",transport=\"tcp\",subnqn=\"$NTPROF_LAB_TCP_NQN\",traddr=\"$NTPROF_LAB_TCP_ADDR\",trsvcid=\"$NTPROF_LAB_TCP_PORT\",hostnqn=\"$hostnqn\",stage=\"remote_wait\"}"
prom_series "the host's series: op, size, device, transport, subnqn, traddr, trsvcid, hostnqn" \
	"$share/host/ntprof.prom" "ntprof_stage_latency_seconds_count{role=\"host\",$want"
ktap_check "rmmod ntprof" rmmod ntprof
ktap_finished
