# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The lab guest's roles, sourced by /init. Three topologies:
#  two: this guest is either the target or the host; the other guest is
#       reached over a QEMU socket network, flags pass through the share;
#  one: this guest is both, over loopback (TCP) and a local veth (RDMA);
#  chain: this guest is the host, the middle or the replica (chain.sh).

LAB_SHARE=/lab/share
# shellcheck source=chain.sh # /lab in the guest is this folder.
. /lab/chain.sh
LAB_FLAGS=$LAB_SHARE/flags
# How long one side waits for the other before giving up.
LAB_WAIT=${LAB_WAIT:-600}

log() { echo "lab-guest: $*"; }

cmdline_arg() {
	local w words

	read -ra words < /proc/cmdline
	for w in "${words[@]}"; do
		case "$w" in
		"lab.$1="*) echo "${w#*=}"; return 0 ;;
		esac
	done
	return 1
}

# wait_for FILE SECONDS: poll until FILE exists.
wait_for() {
	local i=0

	while [ ! -e "$1" ]; do
		[ $i -ge $(($2 * 10)) ] && return 1
		sleep 0.1
		i=$((i + 1))
	done
}

lab_mount_share() {
	# virtio_pci is a module in 6.1 and built in later: ignore failures.
	modprobe -q virtio_pci
	modprobe -q 9pnet_virtio
	modprobe -q 9p
	mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 share $LAB_SHARE
}

lab_network() {
	ip link set lo up
	if [ "$LAB_TOPOLOGY" = two ]; then
		modprobe virtio_net
		ip addr add "$LAB_ADDR/24" dev eth0
		ip link set eth0 up
		LAB_RDMA_NETDEV=eth0
		LAB_TCP_ADDR=$LAB_TARGET_ADDR
		LAB_RDMA_ADDR=$LAB_TARGET_ADDR
	else
		# nvme-rdma and nvmet-rdma use the initial namespace only, so
		# the one-guest RDMA path loops over a local veth end.
		modprobe veth
		ip link add veth0 type veth peer name veth1
		ip addr add 10.98.0.1/24 dev veth0
		ip link set veth0 up
		ip link set veth1 up
		LAB_RDMA_NETDEV=veth0
		LAB_TCP_ADDR=127.0.0.1
		LAB_RDMA_ADDR=10.98.0.1
	fi
}

lab_rxe() {
	# rxe needs a crc32 provider that module dependencies do not name.
	modprobe -q crc32_generic
	modprobe rdma_rxe
	rdma link add rxe0 type rxe netdev "$LAB_RDMA_NETDEV"
}

nvmet_export() (
	nqn=$1 trtype=$2 addr=$3 port=$4 portid=$5 cfg=/sys/kernel/config/nvmet

	set -e
	mkdir "$cfg/subsystems/$nqn"
	echo 1 > "$cfg/subsystems/$nqn/attr_allow_any_host"
	mkdir "$cfg/subsystems/$nqn/namespaces/1"
	echo "$LAB_BACKING_DEV" > "$cfg/subsystems/$nqn/namespaces/1/device_path"
	echo 1 > "$cfg/subsystems/$nqn/namespaces/1/enable"
	mkdir "$cfg/ports/$portid"
	echo "$trtype" > "$cfg/ports/$portid/addr_trtype"
	echo ipv4 > "$cfg/ports/$portid/addr_adrfam"
	echo "$addr" > "$cfg/ports/$portid/addr_traddr"
	echo "$port" > "$cfg/ports/$portid/addr_trsvcid"
	ln -s "$cfg/subsystems/$nqn" "$cfg/ports/$portid/subsystems/$nqn"
)

# One subsystem per transport: Debian's kernels have native multipath on,
# which would merge a TCP and an RDMA controller of one subsystem into one
# block device.
lab_target_setup() {
	# shellcheck disable=SC2086
	modprobe null_blk nr_devices=1 gb=1 queue_mode=2 $LAB_NULL_BLK &&
	modprobe nvmet_tcp && modprobe nvmet_rdma &&
	nvmet_export "$LAB_TCP_NQN" tcp "$LAB_TCP_ADDR" 4420 1 &&
	nvmet_export "$LAB_RDMA_NQN" rdma "$LAB_RDMA_ADDR" 4421 2 ||
		{ log "target: cannot export the namespace"; return 1; }
	log "target: exporting $LAB_BACKING_DEV over tcp $LAB_TCP_ADDR:4420 and rdma $LAB_RDMA_ADDR:4421"
}

lab_target_teardown() {
	local cfg=/sys/kernel/config/nvmet p

	for p in 1 2; do
		rm -f "$cfg/ports/$p/subsystems/"*
		rmdir "$cfg/ports/$p"
	done
	for p in "$LAB_TCP_NQN" "$LAB_RDMA_NQN"; do
		echo 0 > "$cfg/subsystems/$p/namespaces/1/enable"
		rmdir "$cfg/subsystems/$p/namespaces/1" "$cfg/subsystems/$p"
	done
}

# nvme_connect TRTYPE ADDR PORT NQN: connect and print the new block device.
nvme_connect() {
	local before=" " d

	for d in /sys/block/*; do
		before+="${d##*/} "
	done
	nvme connect -t "$1" -a "$2" -s "$3" -n "$4" >&2 || return 1
	for _ in $(seq 1 100); do
		for d in /sys/block/*; do
			d=${d##*/}
			case "$before" in
			*" $d "*) ;;
			*)
				# nvmeXcYnZ are multipath's hidden per-path nodes.
				case "$d" in
				nvme*c*) ;;
				nvme*n*) echo "/dev/$d"; return 0 ;;
				esac
				;;
			esac
		done
		sleep 0.1
	done
	return 1
}

# Newer kernels refuse a host id that comes with another host NQN, so
# give nvme-cli a matching pair instead of letting it invent one.
lab_host_identity() {
	local uuid

	uuid=$(cat /proc/sys/kernel/random/uuid)
	mkdir -p /etc/nvme
	echo "$uuid" > /etc/nvme/hostid
	echo "nqn.2014-08.org.nvmexpress:uuid:$uuid" > /etc/nvme/hostnqn
}

lab_host_connect() {
	lab_host_identity
	modprobe nvme_tcp
	modprobe nvme_rdma
	NTPROF_LAB_TCP_DEV=$(nvme_connect tcp "$LAB_TCP_ADDR" 4420 "$LAB_TCP_NQN") ||
		{ log "host: cannot connect over tcp"; return 1; }
	NTPROF_LAB_RDMA_DEV=$(nvme_connect rdma "$LAB_RDMA_ADDR" 4421 "$LAB_RDMA_NQN") ||
		{ log "host: cannot connect over rdma"; return 1; }
	log "host: tcp namespace $NTPROF_LAB_TCP_DEV, rdma namespace $NTPROF_LAB_RDMA_DEV"
	export NTPROF_LAB_TCP_DEV NTPROF_LAB_RDMA_DEV
}

# run_script ROLE: the user's script for ROLE, if any, in its own shell.
run_script() {
	local rc

	if [ ! -f "$LAB_SHARE/$1.sh" ]; then
		echo 0 > "$LAB_SHARE/$1.rc"
		return 0
	fi
	(cd /root && NTPROF_LAB_ROLE=$1 bash "$LAB_SHARE/$1.sh")
	rc=$?
	echo $rc > "$LAB_SHARE/$1.rc"
	log "$1 script exited with $rc"
	return $rc
}

# The target's script runs beside the host's: it says it is ready with
# lab-ready (or by exiting), and may wait for the host with lab-wait-host.
# So do the chain's replica and middle scripts, beside those above them.
# script_start ROLE: ROLE's script in the background ($SCRIPT_PID), until
# it is ready.
script_start() {
	run_script "$1" &
	SCRIPT_PID=$!
	while ! [ -e "$LAB_FLAGS/$1-script.ready" ]; do
		kill -0 $SCRIPT_PID 2>/dev/null || break
		sleep 0.1
	done
}

target_script_finish() {
	wait_for "$LAB_FLAGS/host.done" "$LAB_WAIT" ||
		log "target: the host did not finish within ${LAB_WAIT}s"
	wait "$SCRIPT_PID"
}

host_run() {
	if lab_host_connect; then
		run_script host
		nvme disconnect-all >/dev/null
	else
		echo 1 > "$LAB_SHARE/host.rc"
	fi
	touch "$LAB_FLAGS/host.done"
}

lab_export_env() {
	export NTPROF_LAB_TOPOLOGY=$LAB_TOPOLOGY
	export NTPROF_LAB_KERNEL
	NTPROF_LAB_KERNEL=$(uname -r)
	export NTPROF_LAB_SHARE=$LAB_SHARE/xfer
	export NTPROF_LAB_FLAGS=$LAB_FLAGS
	export NTPROF_LAB_TCP_ADDR=$LAB_TCP_ADDR NTPROF_LAB_RDMA_ADDR=$LAB_RDMA_ADDR
	export NTPROF_LAB_TCP_PORT=4420 NTPROF_LAB_RDMA_PORT=4421
	export NTPROF_LAB_TCP_NQN=$LAB_TCP_NQN NTPROF_LAB_RDMA_NQN=$LAB_RDMA_NQN
	export NTPROF_LAB_BACKING_DEV=$LAB_BACKING_DEV
	# The debug kernel's (KERNEL=debug): scripts add the checks that
	# only its checkers make worth their time.
	NTPROF_LAB_DEBUG=$(cmdline_arg debug) || NTPROF_LAB_DEBUG=0
	export NTPROF_LAB_DEBUG
}

# SPDK, when the image has it (build-guest.sh, SPDK=): the hugepages its
# programs' memory comes from, and its target's addresses for every
# script. The target starts only when a script asks (lab-spdk-target), on
# ports beside nvmet's 4420 and 4421.
lab_spdk() {
	[ -x /lab/spdk/nvmf_tgt ] || return 0
	export NTPROF_LAB_SPDK=1
	export NTPROF_LAB_SPDK_TGT=/lab/spdk/nvmf_tgt
	export NTPROF_LAB_SPDK_PERF=/lab/spdk/spdk_nvme_perf
	export NTPROF_LAB_SPDK_NQN=nqn.2026-12.io.ntprof:spdk
	export NTPROF_LAB_SPDK_TCP_ADDR=$LAB_TCP_ADDR NTPROF_LAB_SPDK_TCP_PORT=4430
	export NTPROF_LAB_SPDK_RDMA_ADDR=$LAB_RDMA_ADDR NTPROF_LAB_SPDK_RDMA_PORT=4431
	# 300 pages of 2 MiB: nvmf_tgt -s 256 and DPDK's own, with room, on
	# the guest that serves; 100 for spdk_nvme_perf -s 128 on a host.
	case "$1" in
	target|both) echo 300 > /proc/sys/vm/nr_hugepages ;;
	*) echo 100 > /proc/sys/vm/nr_hugepages ;;
	esac
	mkdir -p /dev/hugepages /var/tmp /var/run/dpdk
	mount -t hugetlbfs nodev /dev/hugepages ||
		log "cannot mount hugetlbfs: SPDK will not start"
	log "SPDK available: $(grep HugePages_Total /proc/meminfo)"
}

lab_boot() {
	local role

	role=$(cmdline_arg role) || role=both
	LAB_TOPOLOGY=$(cmdline_arg topology) || LAB_TOPOLOGY=one
	LAB_ADDR=$(cmdline_arg addr) || LAB_ADDR=
	LAB_TARGET_ADDR=$(cmdline_arg target) || LAB_TARGET_ADDR=$LAB_ADDR
	LAB_ADDR2=$(cmdline_arg addr2) || LAB_ADDR2=
	LAB_NULL_BLK=$(cmdline_arg null_blk | tr , ' ') || LAB_NULL_BLK=irqmode=0
	LAB_TCP_NQN=nqn.2026-11.io.ntprof.lab:tcp
	LAB_RDMA_NQN=nqn.2026-11.io.ntprof.lab:rdma
	LAB_BACKING_DEV=/dev/nullb0

	# Recordings name the machine they were made on.
	echo "lab-$role" > /proc/sys/kernel/hostname
	lab_mount_share || { log "cannot mount the share"; return 1; }
	mkdir -p "$LAB_FLAGS" "$LAB_SHARE/xfer"
	modprobe -q configfs
	mount -t configfs configfs /sys/kernel/config 2>/dev/null
	if [ "$LAB_TOPOLOGY" = chain ]; then
		# NVMe/TCP only: no soft-RoCE, no SPDK.
		chain_network
		lab_export_env
		log "$role guest up, kernel $(uname -r), topology chain"
		chain_role "$role"
	else
		lab_network
		lab_rxe
		lab_export_env
		lab_spdk "$role"
		log "$role guest up, kernel $(uname -r), topology $LAB_TOPOLOGY"
		lab_role "$role"
	fi
	dmesg > "$LAB_SHARE/dmesg-$role.log"
	sync
	umount $LAB_SHARE
}

# lab_role ROLE: one guest's part in the topologies one and two.
lab_role() {
	case "$1" in
	target)
		lab_target_setup || echo 1 > "$LAB_SHARE/target.setup-failed"
		script_start target
		touch "$LAB_FLAGS/target.ready"
		target_script_finish
		lab_target_teardown
		;;
	host)
		if wait_for "$LAB_FLAGS/target.ready" "$LAB_WAIT"; then
			host_run
		else
			log "host: the target did not come up within ${LAB_WAIT}s"
			echo 1 > "$LAB_SHARE/host.rc"
		fi
		;;
	both)
		lab_target_setup || echo 1 > "$LAB_SHARE/target.setup-failed"
		script_start target
		host_run
		target_script_finish
		lab_target_teardown
		;;
	esac
}
