# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Lab, host side: the module loads and unloads, also under fio I/O on both
# transports; ntprof status tells the truth; fio works over TCP and RDMA.
# shellcheck source=selftests/ktap.sh
. /lab/ktap.sh
KTAP_PREFIX="host: "

# fio_job DEV SECONDS [RW]: a short 4 KiB job; succeeds if it moved data.
fio_job() {
	local out

	out=$(fio --name=lab --filename="$1" --rw="${3:-randread}" --bs=4k \
		--direct=1 --ioengine=libaio --iodepth=4 --size=256m \
		--runtime="$2" --time_based --output-format=terse 2>&1) || {
		echo "$out"
		return 1
	}
	# terse v3: field 5 is the error, 6 and 47 the KiB read and written.
	echo "$out" | awk -F';' '$5 == 0 && ($6 + $47) > 0 { ok = 1 } END { exit !ok }'
}

# status_says REGEX [STRING]: ntprof status works and matches both.
status_says() {
	ntprof status > /tmp/status.out 2>&1 || { cat /tmp/status.out; return 1; }
	grep -Eq "$1" /tmp/status.out && grep -Fq "${2:-}" /tmp/status.out ||
		{ cat /tmp/status.out; return 1; }
}

# load_cycles N: unload and reload the module N times, checking status.
load_cycles() {
	for _ in $(seq 1 "$1"); do
		rmmod ntprof || return 1
		modprobe ntprof || return 1
		ntprof status > /dev/null || return 1
	done
}

ktap_header
ktap_check "modprobe ntprof loads the module" modprobe ntprof
ktap_check "ntprof status reports the module, idle, on $(uname -r)" \
	status_says "^ntprof module .*idle" "kernel $(uname -r)"
ktap_check "ntprof status sees nvme_tcp loaded" status_says 'nvme_tcp +present'
ktap_check "ntprof status sees nvme_rdma loaded" status_says 'nvme_rdma +present'
ktap_check "debugfs ntprof/status says idle" \
	grep -q 'state: idle' /sys/kernel/debug/ntprof/status
# A hook on a function's entry is an ftrace hook, named "function" (not
# "kprobe") in debugfs and by ntprof probe.
ktap_check "debugfs ntprof/hooks names nvme_tcp_queue_rq a function hook" \
	grep -Eq '^nvme_tcp_queue_rq function host tcp ' /sys/kernel/debug/ntprof/hooks
ktap_check "ntprof probe names nvme_tcp_queue_rq a function hook" \
	sh -c "ntprof probe -r host -t tcp | grep -Eq ' nvme_tcp_queue_rq +function '"

for t in tcp rdma; do
	dev=$NTPROF_LAB_TCP_DEV
	[ $t = rdma ] && dev=$NTPROF_LAB_RDMA_DEV
	ktap_check "fio 4 KiB random reads over $t ($dev)" fio_job "$dev" 3
	ktap_check "fio 4 KiB random writes over $t ($dev)" fio_job "$dev" 3 randwrite

	fio_job "$dev" 8 randrw > /tmp/fio-$t.out 2>&1 &
	fio_pid=$!
	sleep 1
	ktap_check "unload and reload ntprof 5 times during fio over $t" load_cycles 5
	if wait $fio_pid; then
		ktap_pass "fio over $t completes while ntprof comes and goes"
	else
		ktap_fail "fio over $t completes while ntprof comes and goes"
		sed 's/^/# /' /tmp/fio-$t.out
	fi
done

ktap_check "rmmod ntprof unloads the module" rmmod ntprof
ntprof status > /tmp/status.out 2> /tmp/status.err
rc=$?
if [ $rc -ne 0 ] && [ "$(wc -l < /tmp/status.err)" -eq 1 ] &&
   grep -q 'not loaded' /tmp/status.err; then
	ktap_pass "without the module, ntprof status says so in one line and fails"
else
	ktap_fail "without the module, ntprof status says so in one line and fails"
	sed 's/^/# /' /tmp/status.out /tmp/status.err
fi
ktap_finished
