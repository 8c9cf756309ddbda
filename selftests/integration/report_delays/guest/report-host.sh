# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Ground truth for ntprof report and compare, host side: for each phase of
# REPORT_PHASES and each transport, the target sets the phase's load up
# and records; here ntprof records beside fio, 4 KiB random reads at queue
# depth 1 with psync for REPORT_SECONDS. psync's clat is the whole
# pread(): it holds the end to end, from the request's start to its
# block_rq_complete, and only the system call's entry and exit and the
# wakeup besides.
# Files in the share: STEP-host.ntp, STEP-host.out, STEP-fio.json; the
# checks run on the machine that ran the lab.
# shellcheck source=selftests/ktap.sh
. /lab/ktap.sh
# shellcheck source=selftests/integration/common/guest/records.sh
. /lab/tests/records.sh
KTAP_PREFIX="host: "
share=$NTPROF_LAB_SHARE
phases=${REPORT_PHASES:-base}
sample=${REPORT_SAMPLE:-1}
seconds=${REPORT_SECONDS:-6}
netem_us=${REPORT_NETEM_US:-2000}

# netem_on / netem_off: the phase netem delays this side's egress, the
# link to the target, by REPORT_NETEM_US: each read's command crosses it
# once (the host's send is stamped before the socket or the QP, so its
# cost is in the network either way).
netem_on() {
	tc qdisc add dev eth0 root netem delay "${netem_us}us" limit 10000 &&
		tc qdisc show dev eth0 | sed 's/^/# /'
}

netem_off() {
	tc qdisc del dev eth0 root
}

# ping_rtt STEP: the mean round trip to the target, in us, into the share
# as STEP-ping: the netem phase's less the base phase's is what netem
# really added, the network stage's expected growth.
ping_rtt() {
	ping -q -c 20 -i 0.1 "$NTPROF_LAB_TCP_ADDR" > /tmp/ping.out 2>&1 &&
		sed -n 's|^round-trip min/avg/max = [0-9.]*/\([0-9.]*\)/.*|\1|p' /tmp/ping.out |
		awk 'NF { printf "%.0f\n", $1 * 1000 }' > "$share/$1-ping" &&
		[ -s "$share/$1-ping" ] ||
		{ ktap_fail "$1: ping the target"; sed 's/^/# /' /tmp/ping.out; }
}

ktap_header
modprobe ntprof || { ktap_fail "modprobe ntprof"; ktap_finished; exit 1; }
echo "tcp $NTPROF_LAB_TCP_DEV rdma $NTPROF_LAB_RDMA_DEV" > "$share/host-devices"

for phase in $phases; do
	for t in tcp rdma; do
		step=$phase-$t
		dev=$NTPROF_LAB_TCP_DEV
		[ $t = tcp ] || dev=$NTPROF_LAB_RDMA_DEV
		if [ "$phase" = netem ]; then
			netem_on || ktap_fail "$step: netem on eth0"
		fi
		case $phase in base|netem) ping_rtt "$step" ;; esac
		touch "$share/$step.go"
		wait_flag "$step.rec" || { ktap_fail "$step: the target records"; break 2; }
		ntprof record -r host -t "$t" -s "$sample" -o "/tmp/$step-host.ntp" \
			> "/tmp/$step-host.out" 2>&1 &
		rec=$!
		wait_line "/tmp/$step-host.out" '^ntprof: profiling as host' ||
			ktap_fail "$step: record started"
		fio --name="$step" --filename="$dev" --rw=randread --bs=4k \
			--direct=1 --ioengine=psync --clocksource=clock_gettime --size=256m \
			--runtime="$seconds" --time_based --output-format=json \
			> "/tmp/$step-fio.json" 2> /tmp/fio.err
		fio_rc=$?
		record_stop "$step" $rec "/tmp/$step-host.out"
		[ "$phase" != netem ] || netem_off
		touch "$share/$step.done"
		cp "/tmp/$step-host.ntp" "/tmp/$step-host.out" "/tmp/$step-fio.json" "$share/"
		[ $fio_rc -eq 0 ] && ktap_pass "$step: fio read $dev" ||
			{ ktap_fail "$step: fio read $dev"; sed 's/^/# /' /tmp/fio.err; }
		sed -n 's/^  latency (us)/# '"$step"' host: latency (us)/p' "/tmp/$step-host.out"
		wait_flag "$step.saved" || ktap_fail "$step: the target saved its recording"
	done
done
# What psync's clat holds besides the end to end: the same reads of a
# local null_blk whose timer completes them after 100 us; the rest is the
# system call, the block layer and the wakeup.
if modprobe null_blk nr_devices=1 gb=1 queue_mode=2 irqmode=2 completion_nsec=100000 &&
   fio --name=local --filename=/dev/nullb0 --rw=randread --bs=4k --direct=1 \
	--ioengine=psync --clocksource=clock_gettime --size=256m --runtime=2 --time_based \
	--output-format=json > "$share/local-fio.json" 2> /tmp/fio.err; then
	ktap_pass "fio read a local null_blk"
else
	ktap_fail "fio read a local null_blk"
	sed 's/^/# /' /tmp/fio.err
fi
rmmod null_blk
rmmod ntprof
ktap_finished
