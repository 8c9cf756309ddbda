# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The configurations of configs/test.sh, shared by its host and
# target scripts (Documentation/stages.rst, Configurations). A step is
# CONFIG-TRANSPORT-sN: the host connects TRANSPORT as CONFIG says, runs
# CONFIG's fio job, and both sides record it at -s N. Steps of one
# connection follow each other; the host reconnects between them.
#
#   default  the lab's connection, 4 KiB random reads and writes (50 %
#            each), queue depth 1: what the others are compared with
#   mixed    the lab's connection, fio's bssplit 4k/50:64k/30:128k/20,
#            randrw with 70 % reads, queue depth 4
#   large    the lab's connection, random writes of 128 KiB and 1 MiB
#            (bssplit 128k/50:1m/50), queue depth 4: beyond the
#            in-capsule size, R2T and H2C data, or an RDMA READ
#   digest   --hdr-digest --data-digest (NVMe/TCP only), default's job
#   polluring --nr-poll-queues=2, default's job with io_uring hipri=1
#   pollsync  the same connection, pvsync2 hipri=1 (which the kernel does
#            not poll: its synchronous direct I/O goes to the interrupt-
#            driven queues)
#   deep     --nr-io-queues=4, 4 KiB random reads, 2 jobs at iodepth 128
#   passthru the lab's connection, NVMe passthrough: CONFIGS_NVME_READS
#            times nvme read of 4 KiB on the namespace, then fio's
#            io_uring_cmd engine on its char device, default's job
#   tls      NVMe/TCP over TLS 1.3 with a retained PSK (nvme gen-tls-key,
#            connect --tls) to the target's TLS port, tlshd on both
#            sides, default's job: only where CONFIGS_TLS is 1
#            (configs_tls_why_not)
# shellcheck disable=SC2034 # the variables are for the scripts that source it.

# Beside this file in the guests (/lab/tests), in common/guest here.
if [ -f "$(dirname "${BASH_SOURCE[0]}")/step-names.sh" ]; then
	# shellcheck source=selftests/integration/common/guest/step-names.sh
	. "$(dirname "${BASH_SOURCE[0]}")/step-names.sh"
else
	# shellcheck source=selftests/integration/common/guest/step-names.sh
	. "$(dirname "${BASH_SOURCE[0]}")/../../common/guest/step-names.sh"
fi

CONFIGS_POLL_QUEUES=2
# fio's seconds per step: at -s 100 a dozen commands or so at queue depth
# 1 under TCG, thousands in the deep steps.
CONFIGS_SECONDS=${CONFIGS_SECONDS:-2}
# nvme read's per passthrough step: a few at -s 100, its sample.
CONFIGS_NVME_READS=200

# The target's NVMe/TCP port that requires TLS (addr_tsas tls1.3), beside
# the lab's 4420 and 4421.
CONFIGS_TLS_PORT=4422
CONFIGS_TLS_PORTID=3
# Trixie's nvme-cli and tlshd, in the guest where the image has them
# (build-guest.sh, LAB_TLS=1).
CONFIGS_TLS_BIN=/lab/tls/bin

# configs_tls_why_not: in a guest, why it cannot run the TLS steps, or
# nothing when it can.
configs_tls_why_not() {
	if ! modinfo -F depends nvme_tcp 2>/dev/null | grep -Eq "nvme[-_]keyring"; then
		echo "kernel $(uname -r) has no NVMe/TCP TLS (CONFIG_NVME_TCP_TLS, Linux 6.7 and later)"
	elif [ ! -x "$CONFIGS_TLS_BIN/tlshd" ]; then
		echo "the guest has no tlshd and no nvme-cli with TLS (build-guest.sh's LAB_TLS=1)"
	fi
}

# tls_start: tlshd, which does the TLS handshakes the kernel asks for,
# with the kernel's TLS (tls.ko) that it hands each socket to; its log in
# /tmp/tlshd.log. tlshd links the .nvme keyring by itself since
# ktls-utils 0.12; the configuration names it anyway.
tls_start() {
	modprobe tls || return 1
	printf '[main]\ndebug=0\n\n[authenticate]\nkeyrings=.nvme\n' > /tmp/tlshd.conf
	"$CONFIGS_TLS_BIN/tlshd" -s -c /tmp/tlshd.conf > /tmp/tlshd.log 2>&1 &
	TLSHD_PID=$!
	sleep 0.5
	kill -0 "$TLSHD_PID" 2> /dev/null || { sed 's/^/# tlshd: /' /tmp/tlshd.log; return 1; }
}

# configs_steps: the steps, in the order the host runs them.
configs_steps() {
	local c t s

	for c in default mixed large digest polluring pollsync deep; do
		for t in tcp rdma; do
			[ $c = digest ] && [ $t = rdma ] && continue
			for s in 1 100; do
				echo "$c-$t-s$s"
			done
		done
	done
	passthru_steps
	[ "${CONFIGS_TLS:-0}" != 1 ] || tls_steps
}

# tls_steps: configuration 2 of issue 24, NVMe/TCP over TLS, its steps.
tls_steps() {
	local s

	for s in 1 100; do
		echo "tls-tcp-s$s"
	done
}

# passthru_steps: configuration 9 of issue 24, passthrough, its steps.
passthru_steps() {
	local t s

	for t in tcp rdma; do
		for s in 1 100; do
			echo "passthru-$t-s$s"
		done
	done
}

# config_fio_file CONFIG DEV: fio's file for CONFIG's job on namespace
# DEV: its char device for passthrough, which takes no O_DIRECT.
config_fio_file() {
	case $1 in
	passthru) echo "--filename=/dev/$(ng_of "$2")" ;;
	*) echo "--filename=/dev/$2 --direct=1" ;;
	esac
}

# ng_of DEV: the char device of namespace DEV, nvmeXnY -> ngXnY.
ng_of() {
	echo "ng${1#nvme}"
}

# step_config STEP: its configuration (step-names.sh has the other
# parts).
step_config() {
	step_kind "$1"
}

# config_connect_opts CONFIG: nvme connect's options for CONFIG.
config_connect_opts() {
	case $1 in
	digest) echo "--hdr-digest --data-digest" ;;
	polluring|pollsync) echo "--nr-poll-queues=$CONFIGS_POLL_QUEUES" ;;
	deep) echo "--nr-io-queues=4" ;;
	tls) echo "--tls" ;;
	esac
}

# config_fio_opts CONFIG: fio's options for CONFIG's job.
config_fio_opts() {
	case $1 in
	mixed)
		# Offsets at multiples of 128k: no block crosses the end of
		# the 256 MiB region, which fio would cut to fit.
		echo "--rw=randrw --rwmixread=70 --bssplit=4k/50:64k/30:128k/20" \
			"--blockalign=128k --ioengine=libaio --iodepth=4"
		;;
	large)
		echo "--rw=randwrite --bssplit=128k/50:1m/50 --blockalign=1m" \
			"--ioengine=libaio --iodepth=4"
		;;
	polluring)
		echo "--rw=randrw --rwmixread=50 --bs=4k --ioengine=io_uring --hipri=1 --iodepth=1"
		;;
	pollsync)
		echo "--rw=randrw --rwmixread=50 --bs=4k --ioengine=pvsync2 --hipri=1"
		;;
	deep)
		echo "--rw=randread --bs=4k --ioengine=libaio --iodepth=128 --numjobs=2"
		;;
	passthru)
		echo "--rw=randrw --rwmixread=50 --bs=4k --ioengine=io_uring_cmd --cmd_type=nvme --iodepth=1"
		;;
	*)
		echo "--rw=randrw --rwmixread=50 --bs=4k --ioengine=libaio --iodepth=1"
		;;
	esac
}

# config_split CONFIG: the sizes of CONFIG's bssplit and their percents,
# "SIZE PCT ..."; nothing for a job of one size.
config_split() {
	case $1 in
	mixed) echo "4096 50 65536 30 131072 20" ;;
	large) echo "131072 50 1048576 50" ;;
	esac
}

# config_queue_kind CONFIG: the queues a polled configuration's commands
# go to, as the check says it.
config_queue_kind() {
	case $1 in
	polluring) echo "io_uring hipri: every command on a poll queue" ;;
	pollsync) echo "pvsync2 hipri: no command on a poll queue (synchronous I/O is not polled)" ;;
	esac
}
