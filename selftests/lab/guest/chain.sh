# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The chain topology's roles (TOPOLOGY=chain), sourced by guest.sh:
#   replica: two null_blk devices, one fast and one slow, each exported
#            over NVMe/TCP as a subsystem of its own;
#   middle:  connects to both, builds an md raid1 over them and exports
#            it over NVMe/TCP (the kernel gateway of issue 37);
#   host:    connects to the middle.
# Each waits for the one below it through flags in the share, and the
# lower ones stay up until the one above them is done.

LAB_CHAIN_FAST_NQN=nqn.2026-11.io.ntprof.lab:replica-fast
LAB_CHAIN_SLOW_NQN=nqn.2026-11.io.ntprof.lab:replica-slow
LAB_CHAIN_MD=/dev/md0

# LAB_ADDR and LAB_ADDR2 come from guest.sh, which sources this file;
# the guests' scripts read LAB_TCP_ADDR and LAB_RDMA_ADDR.
# shellcheck disable=SC2153,SC2034
chain_network() {
	modprobe virtio_net
	ip addr add "$LAB_ADDR/24" dev eth0
	ip link set eth0 up
	# The middle's second NIC, on the replica's link.
	if [ -n "$LAB_ADDR2" ]; then
		ip addr add "$LAB_ADDR2/24" dev eth1
		ip link set eth1 up
	fi
	LAB_TCP_ADDR=$LAB_TARGET_ADDR
	LAB_RDMA_ADDR=
}

# chain_nullb NAME COMPLETION_NS: a 1 GiB null_blk made through configfs,
# completed at once (0) or by a timer after COMPLETION_NS. Its disk is
# named after its directory, or numbered in the order of creation where
# the kernel does not name disks so: nullb0, then nullb1, either way.
# Backed by memory, which it takes as blocks are written: md reads back
# the superblock mdadm wrote, which a null_blk without memory returns as
# zeros.
chain_nullb() {
	local d=/sys/kernel/config/nullb/$1

	mkdir "$d" && echo 1024 > "$d/size" && echo 2 > "$d/queue_mode" &&
		echo 1 > "$d/memory_backed" || return 1
	if [ "$2" -gt 0 ]; then
		echo 2 > "$d/irqmode" && echo "$2" > "$d/completion_nsec" || return 1
	else
		echo 0 > "$d/irqmode" || return 1
	fi
	echo 1 > "$d/power" && [ -b "/dev/$1" ]
}

# chain_export NQN DEVICE PORTID ADDR: DEVICE as namespace 1 of NQN on
# an NVMe/TCP port at ADDR:4420 (made by the first call).
chain_export() (
	nqn=$1 dev=$2 portid=$3 addr=$4 cfg=/sys/kernel/config/nvmet

	set -e
	mkdir "$cfg/subsystems/$nqn"
	echo 1 > "$cfg/subsystems/$nqn/attr_allow_any_host"
	mkdir "$cfg/subsystems/$nqn/namespaces/1"
	echo "$dev" > "$cfg/subsystems/$nqn/namespaces/1/device_path"
	echo 1 > "$cfg/subsystems/$nqn/namespaces/1/enable"
	if [ ! -d "$cfg/ports/$portid" ]; then
		mkdir "$cfg/ports/$portid"
		echo tcp > "$cfg/ports/$portid/addr_trtype"
		echo ipv4 > "$cfg/ports/$portid/addr_adrfam"
		echo "$addr" > "$cfg/ports/$portid/addr_traddr"
		echo 4420 > "$cfg/ports/$portid/addr_trsvcid"
	fi
	ln -s "$cfg/subsystems/$nqn" "$cfg/ports/$portid/subsystems/$nqn"
)

chain_unexport() {
	local cfg=/sys/kernel/config/nvmet nqn

	rm -f "$cfg/ports/1/subsystems/"*
	rmdir "$cfg/ports/1"
	for nqn in "$@"; do
		echo 0 > "$cfg/subsystems/$nqn/namespaces/1/enable"
		rmdir "$cfg/subsystems/$nqn/namespaces/1" "$cfg/subsystems/$nqn"
	done
}

chain_replica_setup() {
	modprobe null_blk nr_devices=0 &&
	chain_nullb nullb0 0 && chain_nullb nullb1 "$LAB_SLOW_NS" &&
	modprobe nvmet_tcp &&
	chain_export "$LAB_CHAIN_FAST_NQN" /dev/nullb0 1 "$LAB_ADDR" &&
	chain_export "$LAB_CHAIN_SLOW_NQN" /dev/nullb1 1 "$LAB_ADDR" ||
		{ log "replica: cannot export the namespaces"; return 1; }
	NTPROF_LAB_CHAIN_FAST_DEV=/dev/nullb0
	NTPROF_LAB_CHAIN_SLOW_DEV=/dev/nullb1
	log "replica: exporting nullb0 (fast) and nullb1 (slow: $LAB_SLOW_NS ns) over tcp $LAB_ADDR:4420"
}

# The host's side of both legs, the raid1 over them, and its export.
# mdadm runs without udev: it makes /dev/md0 itself (devtmpfs has it
# too), and --run and --assume-clean keep it from asking or resyncing.
chain_middle_setup() {
	lab_host_identity
	mkdir -p /etc/mdadm
	modprobe nvme_tcp && modprobe raid1 || return 1
	NTPROF_LAB_CHAIN_FAST_DEV=$(nvme_connect tcp "$LAB_TARGET_ADDR" 4420 "$LAB_CHAIN_FAST_NQN") &&
	NTPROF_LAB_CHAIN_SLOW_DEV=$(nvme_connect tcp "$LAB_TARGET_ADDR" 4420 "$LAB_CHAIN_SLOW_NQN") ||
		{ log "middle: cannot connect to the replica"; return 1; }
	mdadm --create "$LAB_CHAIN_MD" --level=1 --raid-devices=2 --assume-clean \
		--bitmap=none --run --metadata=1.2 \
		"$NTPROF_LAB_CHAIN_FAST_DEV" "$NTPROF_LAB_CHAIN_SLOW_DEV" ||
		{ log "middle: mdadm --create failed"; return 1; }
	modprobe nvmet_tcp &&
	chain_export "$LAB_TCP_NQN" "$LAB_CHAIN_MD" 1 "$LAB_ADDR" ||
		{ log "middle: cannot export $LAB_CHAIN_MD"; return 1; }
	log "middle: exporting $LAB_CHAIN_MD (raid1 of $NTPROF_LAB_CHAIN_FAST_DEV, fast, and $NTPROF_LAB_CHAIN_SLOW_DEV, slow) over tcp $LAB_ADDR:4420"
}

chain_middle_teardown() {
	chain_unexport "$LAB_TCP_NQN"
	mdadm --stop "$LAB_CHAIN_MD" > /dev/null
	nvme disconnect-all > /dev/null
}

chain_host_connect() {
	lab_host_identity
	modprobe nvme_tcp
	NTPROF_LAB_TCP_DEV=$(nvme_connect tcp "$LAB_TARGET_ADDR" 4420 "$LAB_TCP_NQN") ||
		{ log "host: cannot connect over tcp"; return 1; }
	log "host: tcp namespace $NTPROF_LAB_TCP_DEV (the middle's $LAB_CHAIN_MD)"
	export NTPROF_LAB_TCP_DEV
}

chain_export_env() {
	export NTPROF_LAB_CHAIN_FAST_NQN=$LAB_CHAIN_FAST_NQN
	export NTPROF_LAB_CHAIN_SLOW_NQN=$LAB_CHAIN_SLOW_NQN
	export NTPROF_LAB_CHAIN_FAST_DEV NTPROF_LAB_CHAIN_SLOW_DEV
	export NTPROF_LAB_CHAIN_MD=$LAB_CHAIN_MD
	export NTPROF_LAB_CHAIN_SLOW_NS=$LAB_SLOW_NS
}

# chain_wait FLAG [GONE]: the guest below is up (or done), else say so;
# the wait ends early when the flag GONE says that it gave up.
chain_wait() {
	local i=0

	while [ ! -e "$LAB_FLAGS/$1" ]; do
		if [ -n "${2:-}" ] && [ -e "$LAB_FLAGS/$2" ]; then
			log "$LAB_ROLE: $2 before $1"
			return 1
		fi
		[ $i -ge $((LAB_WAIT * 10)) ] && {
			log "$LAB_ROLE: no $1 within ${LAB_WAIT}s"
			return 1
		}
		sleep 0.1
		i=$((i + 1))
	done
}

# chain_role ROLE: one guest's part in the chain, from setup to teardown.
chain_role() {
	LAB_ROLE=$1
	LAB_SLOW_NS=$(cmdline_arg slow_ns) || LAB_SLOW_NS=2000000
	case "$1" in
	replica)
		chain_replica_setup || echo 1 > "$LAB_SHARE/replica.setup-failed"
		chain_export_env
		script_start replica
		touch "$LAB_FLAGS/replica.ready"
		chain_wait middle.done
		wait "$SCRIPT_PID"
		chain_unexport "$LAB_CHAIN_FAST_NQN" "$LAB_CHAIN_SLOW_NQN"
		;;
	middle)
		if chain_wait replica.ready && chain_middle_setup; then
			chain_export_env
			script_start middle
			touch "$LAB_FLAGS/middle.ready"
			chain_wait host.done
			wait "$SCRIPT_PID"
			chain_middle_teardown
		else
			echo 1 > "$LAB_SHARE/middle.setup-failed"
			echo 1 > "$LAB_SHARE/middle.rc"
		fi
		touch "$LAB_FLAGS/middle.done"
		;;
	host)
		if chain_wait middle.ready middle.done && chain_host_connect; then
			run_script host
			nvme disconnect-all > /dev/null
		else
			echo 1 > "$LAB_SHARE/host.rc"
		fi
		touch "$LAB_FLAGS/host.done"
		;;
	esac
}
