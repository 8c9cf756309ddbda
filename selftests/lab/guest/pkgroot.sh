# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The package test's guest (lab.pkgroot=1, lab-run.sh's LAB_PKG): its
# /init mounts the Debian system on the virtio disk that pkg-image.sh
# made, hands it the lab's scripts (/lab), and makes its systemd PID 1.
# That system runs lab_boot as a service (lab-pkg-boot.sh). The kernel's
# API file systems move along; the lab's own ntprof.ko and ntprof tool
# stay behind in the initramfs, which switch_root empties.

pkgroot_switch() {
	local i new=/newroot

	modprobe -q virtio_pci
	modprobe virtio_blk && modprobe ext4 ||
		{ log "pkgroot: cannot load virtio_blk and ext4"; return 1; }
	for i in $(seq 100); do
		[ -b /dev/vda ] && break
		sleep 0.1
	done
	mkdir -p "$new"
	mount -t ext4 /dev/vda "$new" ||
		{ log "pkgroot: cannot mount the package test's disk /dev/vda"; return 1; }
	rm -rf "$new/lab"
	cp -a /lab "$new/lab"
	umount /tmp /sys/kernel/debug
	for i in dev proc sys run; do
		mount --move "/$i" "$new/$i" ||
			{ log "pkgroot: cannot move /$i"; return 1; }
	done
	log "pkgroot: starting the disk's systemd"
	exec switch_root "$new" /lib/systemd/systemd
}
