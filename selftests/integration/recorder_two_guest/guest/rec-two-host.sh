# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Recorder on two guests, host side: at N=100 the host samples about one
# command in 100, and exactly the commands the target sampled, with
# nothing added on the wire.
# shellcheck source=selftests/ktap.sh
. /lab/ktap.sh
# shellcheck source=selftests/integration/common/guest/records.sh
. /lab/tests/records.sh
KTAP_PREFIX="host: "
tc=testclient
share=$NTPROF_LAB_SHARE

ktap_header
modprobe ntprof || { ktap_fail "modprobe ntprof"; ktap_finished; exit 1; }
tcp_send=no
if hook_ok host tcp kernel_sendpage || hook_ok host tcp nvme_tcp_try_send_cmd_pdu; then
	tcp_send=yes
fi
for t in tcp rdma; do
	dev=$NTPROF_LAB_TCP_DEV
	[ $t = rdma ] && dev=$NTPROF_LAB_RDMA_DEV
	wait_flag "target-$t.recording"
	ktap_check "$t: start a host session at N=100" $tc start host $t 100
	r=$(fio_count "$dev" randread 4k 6)
	ktap_check "$t: stop the session" $tc stop
	touch "$share/host-$t.done"
	$tc drain /tmp/h.bin
	$tc print /tmp/h.bin > /tmp/host.txt
	rm -f /tmp/h.bin
	total=${r% *}
	n=$(count_op /tmp/host.txt 2)
	# Binomial: mean total/100, within four standard deviations (plus
	# two) either way; squared, as busybox's awk has no sqrt().
	if awk -v n="$n" -v t="$total" 'BEGIN { m = t / 100; d = n - m;
			if (d < 0) d = -d; d = d > 2 ? d - 2 : 0;
			exit((t > 0 && d * d <= 16 * m) ? 0 : 1) }'; then
		ktap_pass "$t: $n of $total reads sampled, within the bounds of 1 in 100"
	else
		ktap_fail "$t: $n of $total reads sampled, within the bounds of 1 in 100"
	fi
	wait_flag "target-$t.saved"
	# shellcheck disable=SC1091
	. "$share/target-hooks.sh"
	check_new_points $t /tmp/host.txt "$share/target-$t.txt"
	if [ -s /tmp/host.txt ] &&
	   [ "$(identities /tmp/host.txt)" = "$(identities "$share/target-$t.txt")" ]; then
		ktap_pass "$t: host and target sampled the same commands"
	else
		ktap_fail "$t: host and target sampled the same commands"
		diff <(identities /tmp/host.txt) <(identities "$share/target-$t.txt") |
			head -n 10 | sed 's/^/# /'
	fi
	bad=$(out_of_order /tmp/host.txt host | wc -l)
	[ "$bad" -eq 0 ] && ktap_pass "$t: host points in path order" ||
		ktap_fail "$t: host points in path order ($bad records not)"
	bad=$(out_of_order "$share/target-$t.txt" target | wc -l)
	[ "$bad" -eq 0 ] && ktap_pass "$t: target points in path order" ||
		ktap_fail "$t: target points in path order ($bad records not)"
done
ktap_check "rmmod ntprof" rmmod ntprof
ktap_finished
