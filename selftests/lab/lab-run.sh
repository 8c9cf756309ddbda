#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot the virtual NVMe-oF lab and run a script on the target guest and one
# on the host guest (target first, then host), with ntprof, fio and nvme-cli
# on PATH. See Documentation/lab.rst for the scripts' environment.
#
# Usage: lab-run.sh [--host SCRIPT] [--target SCRIPT]
#        TOPOLOGY=chain lab-run.sh [--host S] [--middle S] [--replica S]
# Settings: KERNEL=6.1|6.12|debug|RELEASE  TOPOLOGY=two|one|chain  LAB_TIMEOUT=SECONDS
#           LAB_RUN_DIR=DIR (where the share, consoles and logs go)
#           LAB_NULL_BLK=params (null_blk module parameters, comma-separated)
#           LAB_EXTRA="bpftrace" (more programs in the guests: build-guest.sh)
#           LAB_TLS=1 (trixie's nvme-cli and tlshd in the guests, for
#           NVMe/TCP over TLS: build-guest.sh)
#           LAB_GUEST_MEM=MiB (each guest's memory; default 1024, one: 2048)
#           LAB_ONE_SMP=N (the one guest's vCPUs; default 2)
#           LAB_HOST_SMP=N (the host guest's vCPUs, two guests; default 1)
#           LAB_CMDLINE="..." (more kernel parameters for the guests)
#           LAB_EARLY_CYCLES=-1|0|1 (ntprof.ko's early_cycles; by default 1
#           under TCG, whose TSC runs at a constant rate without the CPU
#           model saying so, as hardware's constant_tsc does: the lab takes
#           the path hardware takes; -1, the module's own default, on KVM)
#           LAB_ACCEL=auto|kvm|tcg|icount (icount: guest time counted in
#           instructions, for cost measurements: Documentation/benchmarks.rst)
#           LAB_PKG=DIR (TOPOLOGY=one: the guest boots a Debian system
#           with systemd and the kernel's headers, pkg-image.sh's disk,
#           with the .deb files of DIR in the share's debs/: the package
#           test, integration/packages/test.sh)
#           LAB_IMAGE_CACHE=0 (build the guest image anew, cache nothing:
#           build-guest.sh, Documentation/lab.rst)
#           SPDK=DIR (an SPDK build's top directory: its nvmf_tgt and
#           spdk_nvme_perf in the guests, lab-spdk-target; guests get 2 GiB)
#           LAB_REPLICA_SLOW_NS=NS (chain: the slow replica's completion
#           time, default 2000000; its fast one completes at once)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

TOPOLOGY=${TOPOLOGY:-two}
LAB_TIMEOUT=${LAB_TIMEOUT:-900}
host_script=
target_script=
middle_script=
replica_script=

usage() {
	sed -n '3,/^set -e/{ /^#/!d; s/^# \{0,1\}//; p; }' "$0" >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case "$1" in
	--host) host_script=${2:?--host needs a script}; shift 2 ;;
	--target) target_script=${2:?--target needs a script}; shift 2 ;;
	--middle) middle_script=${2:?--middle needs a script}; shift 2 ;;
	--replica) replica_script=${2:?--replica needs a script}; shift 2 ;;
	-h|--help) usage ;;
	*) echo "lab-run: unknown argument '$1'" >&2; usage ;;
	esac
done
for s in "$host_script" "$target_script" "$middle_script" "$replica_script"; do
	[ -z "$s" ] || [ -f "$s" ] || lab_die "no such script: $s"
done
if [ -n "${SPDK:-}" ]; then
	[ -x "$SPDK/build/bin/nvmf_tgt" ] ||
		lab_die "SPDK=$SPDK: no build/bin/nvmf_tgt there (an SPDK build's top directory)"
	SPDK=$(cd "$SPDK" && pwd)
	export SPDK
	# DPDK's hugepages and nvmf_tgt -s 256 do not fit in 1 GiB.
	LAB_GUEST_MEM=${LAB_GUEST_MEM:-2048}
fi
if [ -n "${LAB_PKG:-}" ]; then
	[ "$TOPOLOGY" = one ] || lab_die "LAB_PKG needs TOPOLOGY=one"
	ls "$LAB_PKG"/*.deb > /dev/null 2>&1 || lab_die "LAB_PKG=$LAB_PKG: no .deb files there"
	export LAB_PKG
fi
case "$TOPOLOGY" in
one|two)
	[ -z "$middle_script$replica_script" ] ||
		lab_die "--middle and --replica need TOPOLOGY=chain"
	roles="target host"
	;;
chain)
	[ -z "$target_script" ] ||
		lab_die "TOPOLOGY=chain has no target guest: --middle or --replica"
	roles="replica middle host"
	;;
*) lab_die "TOPOLOGY must be 'one', 'two' or 'chain', not '$TOPOLOGY'" ;;
esac

release=$(bash "$LAB_DIR/fetch-kernel.sh")
# Labs that run side by side (make check runs two one-guest tests at once)
# build the same programs in this tree: one make at a time, under a lock
# on the tree's top directory, or two would write the same objects.
flock "$TOP_DIR" make -s -C "$TOP_DIR/tools/ntprof" >&2
flock "$TOP_DIR" make -s -C "$TOP_DIR/tools/agent" libntprof-agent.so >&2
flock "$TOP_DIR" make -s -C "$TOP_DIR/selftests/tools" >&2
vmlinux="$LAB_CACHE/kernels/$release/vmlinux"
# A kernel's own parameters (the debug kernel's: debug-kernel.sh).
kernel_cmdline=$(cat "$LAB_CACHE/kernels/$release/cmdline" 2>/dev/null) || kernel_cmdline=

run_dir=${LAB_RUN_DIR:-$LAB_CACHE/runs/$(date +%Y%m%d-%H%M%S)-$$}
rm -rf "$run_dir"
mkdir -p "$run_dir/share/xfer" "$run_dir/share/flags" "$run_dir/guest"
bash "$LAB_DIR/build-guest.sh" "$release" "$run_dir/guest"
initrd="$run_dir/guest/initrd.cpio"
[ -z "$host_script" ] || cp "$host_script" "$run_dir/share/host.sh"
[ -z "$target_script" ] || cp "$target_script" "$run_dir/share/target.sh"
[ -z "$middle_script" ] || cp "$middle_script" "$run_dir/share/middle.sh"
[ -z "$replica_script" ] || cp "$replica_script" "$run_dir/share/replica.sh"
# The package test's disk, opened with snapshot=on so that it stays as
# made, and its packages in the share.
pkg_args=()
pkg_append=
if [ -n "${LAB_PKG:-}" ]; then
	pkg_args=(-drive "file=$(bash "$LAB_DIR/pkg-image.sh" "$release"),format=raw,if=virtio,snapshot=on")
	pkg_append=lab.pkgroot=1
	mkdir -p "$run_dir/share/debs"
	cp "$LAB_PKG"/*.deb "$run_dir/share/debs/"
fi

# KVM only where hardware virtualisation really works; TCG otherwise.
# TCG runs all vCPUs in one thread by default: with a thread per vCPU,
# a guest kernel patching live code (ftrace, tracepoint static keys)
# now and then took an int3 on one vCPU after another had finished the
# patch, an oops seen in the kernel's own code (LAB_TCG_THREAD=multi).
accel=(-accel "tcg,thread=${LAB_TCG_THREAD:-single},tb-size=256" -cpu max)
if [ "${LAB_ACCEL:-auto}" = icount ]; then
	# Guest time advances by executed instructions (4 ns each) and jumps
	# over idle time: a run repeats itself whatever else the machine does.
	accel=(-accel "tcg,thread=single,tb-size=256" -icount "shift=2,sleep=off" -cpu max)
elif [ "${LAB_ACCEL:-auto}" = kvm ] ||
   { [ "${LAB_ACCEL:-auto}" = auto ] && [ -w /dev/kvm ] &&
     grep -qE '^(kvm_intel|kvm_amd) ' /proc/modules 2>/dev/null; }; then
	accel=(-accel kvm -cpu host)
fi

if [ "${accel[1]:-}" = kvm ]; then
	LAB_EARLY_CYCLES=${LAB_EARLY_CYCLES:--1}
else
	LAB_EARLY_CYCLES=${LAB_EARLY_CYCLES:-1}
fi

# boot_guest NAME MEM SMP APPEND [QEMU ARGS...]: one guest, console to a log
# and, prefixed with its name, to our output.
boot_guest() {
	local name=$1 mem=$2 smp=$3 append=$4

	shift 4
	timeout -k 10 "$LAB_TIMEOUT" qemu-system-x86_64 "${accel[@]}" \
		-m "$mem" -smp "$smp" -nodefaults -no-reboot -display none \
		-kernel "$vmlinux" -initrd "$initrd" \
		-append "console=ttyS0 quiet panic=-1 watchdog_thresh=60 $append ntprof.early_cycles=$LAB_EARLY_CYCLES $kernel_cmdline ${LAB_CMDLINE:-}" \
		-serial stdio \
		-virtfs "local,path=$run_dir/share,mount_tag=share,security_model=none" \
		"$@" < /dev/null 2>&1 |
		tee "$run_dir/console-$name.log" | sed -u "s/^/[$name] /"
	return "${PIPESTATUS[0]}"
}

# ports_free BASE N: whether no socket on this machine has bound one of
# the UDP ports BASE to BASE+N-1 on 127.0.0.1 (a bind without
# SO_REUSEADDR fails on a port that any socket holds).
ports_free() {
	python3 - "$1" "$2" <<'PY'
import socket, sys
base, n = int(sys.argv[1]), int(sys.argv[2])
socks = []
try:
    for p in range(base, base + n):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("127.0.0.1", p))
        socks.append(s)
except OSError:
    sys.exit(1)
PY
}

# port_slot: sets port to the first of four UDP ports on 127.0.0.1 for the
# guests' links that no other lab run uses. QEMU binds its socket with
# SO_REUSEADDR, so two runs on one port would both bind it and take each
# other's frames without an error: each run takes a slot, the lock file
# LAB_CACHE/ports/slot-N that no other run holds, with ports 20000 + 4 N
# to 20000 + 4 N + 3, skipping a slot whose ports another program has
# bound. The lock is on a descriptor that the guests' QEMU processes
# inherit, so it lasts as long as the last of them.
port_slot() {
	local dir=$LAB_CACHE/ports slot

	mkdir -p "$dir"
	for ((slot = 0; slot < 256; slot++)); do
		exec {port_lock}> "$dir/slot-$slot"
		if flock -n "$port_lock" && ports_free $((20000 + slot * 4)) 4; then
			port=$((20000 + slot * 4))
			return 0
		fi
		exec {port_lock}>&-
	done
	lab_die "no free UDP ports for the guests' links (all 256 slots of $dir taken)"
}

null_blk=${LAB_NULL_BLK:+lab.null_blk=$LAB_NULL_BLK}
lab_log "kernel $release, topology $TOPOLOGY, run in $run_dir"
start=$(date +%s)
if [ "$TOPOLOGY" = one ]; then
	boot_guest lab "${LAB_GUEST_MEM:-2048}" "${LAB_ONE_SMP:-2}" "lab.role=both lab.topology=one $null_blk $pkg_append" -nic none "${pkg_args[@]}" || true
elif [ "$TOPOLOGY" = chain ]; then
	# Two links, each as the two guests' (UDP datagrams on 127.0.0.1,
	# point to point): host <-> middle on 10.77.0.0/24 (link a), middle
	# <-> replica on 10.77.1.0/24 (link b). The middle has a NIC on each.
	port_slot
	link_a=("udp=127.0.0.1:$port,localaddr=127.0.0.1:$((port + 1))"
		"udp=127.0.0.1:$((port + 1)),localaddr=127.0.0.1:$port")
	link_b=("udp=127.0.0.1:$((port + 2)),localaddr=127.0.0.1:$((port + 3))"
		"udp=127.0.0.1:$((port + 3)),localaddr=127.0.0.1:$((port + 2))")
	boot_guest replica "${LAB_GUEST_MEM:-1024}" 1 \
		"lab.role=replica lab.topology=chain lab.addr=10.77.1.1 lab.slow_ns=${LAB_REPLICA_SLOW_NS:-2000000}" \
		-netdev "socket,id=n0,${link_b[0]}" \
		-device virtio-net-pci,netdev=n0,mac=52:54:00:77:01:01 &
	replica_pid=$!
	boot_guest middle "${LAB_GUEST_MEM:-1024}" 1 \
		"lab.role=middle lab.topology=chain lab.addr=10.77.0.1 lab.addr2=10.77.1.2 lab.target=10.77.1.1" \
		-netdev "socket,id=n0,${link_a[0]}" \
		-device virtio-net-pci,netdev=n0,mac=52:54:00:77:00:01 \
		-netdev "socket,id=n1,${link_b[1]}" \
		-device virtio-net-pci,netdev=n1,mac=52:54:00:77:01:02 &
	middle_pid=$!
	boot_guest host "${LAB_GUEST_MEM:-1024}" "${LAB_HOST_SMP:-1}" \
		"lab.role=host lab.topology=chain lab.addr=10.77.0.2 lab.target=10.77.0.1" \
		-netdev "socket,id=n0,${link_a[1]}" \
		-device virtio-net-pci,netdev=n0,mac=52:54:00:77:00:02 || true
	wait "$middle_pid" || true
	wait "$replica_pid" || true
else
	# The guests' link: UDP datagrams between the two QEMU processes on
	# 127.0.0.1 (a stream socket would add Nagle's delays).
	port_slot
	boot_guest target "${LAB_GUEST_MEM:-1024}" 1 \
		"lab.role=target lab.topology=two lab.addr=10.77.0.1 $null_blk" \
		-netdev "socket,id=n0,udp=127.0.0.1:$port,localaddr=127.0.0.1:$((port + 1))" \
		-device virtio-net-pci,netdev=n0,mac=52:54:00:77:00:01 &
	target_pid=$!
	boot_guest host "${LAB_GUEST_MEM:-1024}" "${LAB_HOST_SMP:-1}" \
		"lab.role=host lab.topology=two lab.addr=10.77.0.2 lab.target=10.77.0.1" \
		-netdev "socket,id=n0,udp=127.0.0.1:$((port + 1)),localaddr=127.0.0.1:$port" \
		-device virtio-net-pci,netdev=n0,mac=52:54:00:77:00:02 || true
	wait "$target_pid" || true
fi
lab_log "guests ran for $(( $(date +%s) - start )) s"
# The image is a hard link to the image cache's entry (build-guest.sh),
# or a copy built for this run alone (LAB_IMAGE_CACHE=0): keep the logs only.
rm -rf "$run_dir/guest"

# The verdict: every script's exit code, and a clean kernel log everywhere.
status=0
for role in $roles; do
	rc=$(cat "$run_dir/share/$role.rc" 2>/dev/null) || rc=
	if [ -z "$rc" ]; then
		lab_log "the $role script did not finish (guest timed out or crashed)"
		status=1
	elif [ "$rc" != 0 ]; then
		lab_log "the $role script failed with exit code $rc"
		status=1
	fi
done
for role in target replica middle; do
	[ -e "$run_dir/share/$role.setup-failed" ] || continue
	lab_log "the $role could not export its namespace"
	status=1
done
# A guest that crashed leaves no log: each of the chain's three must.
[ "$TOPOLOGY" != chain ] || for role in $roles; do
	[ -f "$run_dir/share/dmesg-$role.log" ] || {
		lab_log "the $role guest saved no kernel log"
		status=1
	}
done
for log in "$run_dir"/share/dmesg-*.log; do
	[ -f "$log" ] || { lab_log "a guest saved no kernel log"; status=1; continue; }
	if lab_dmesg_unknown "$log" | grep -E "$(lab_bad_dmesg)" > "$log.bad"; then
		lab_log "kernel problems in $(basename "$log"):"
		sed 's/^/    /' "$log.bad" >&2
		status=1
	fi
done
exit $status
