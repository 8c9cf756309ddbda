#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The disk the package test's guest boots (integration/packages/test.sh,
# Documentation/lab.rst): make-pkg-root.sh's Debian 12 system with one of
# the lab's kernels installed from the very packages fetch-kernel.sh
# downloaded (its linux-image, linux-headers, their -common and
# linux-kbuild), as `apt install linux-headers-$(uname -r)` leaves a
# host; and a systemd service that runs the lab's roles (lab-pkg-boot.sh)
# in place of the lab's own /init.
#
# Usage: pkg-image.sh RELEASE   (prints the image's path)
#
# The image, an ext4 file system in a raw file, is kept in
# LAB_CACHE/pkg-images with a stamp, and made again when the root or the
# kernel's packages change. The guest opens it with QEMU's snapshot=on:
# what the test writes never reaches this file.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

release=${1:?usage: pkg-image.sh RELEASE}
dir=$LAB_CACHE/pkg-images
image=$dir/$release.img
# The image's layout (configure() below): one more when it changes, so
# that the images are made again.
layout=1

# kernel_debs: the .deb files of RELEASE that fetch-kernel.sh downloaded
# (the newest of each), in the order dpkg takes them. ls sorts them by
# time, which a glob cannot; Debian's file names have no spaces.
# shellcheck disable=SC2012
kernel_debs() {
	local kbuild p deb

	kbuild=$(dpkg-deb -f "$(ls -t "$LAB_CACHE/debs/linux-headers-${release}_"*.deb | head -n1)" Depends |
		 tr ',' '\n' | sed -n 's/^ *\(linux-kbuild-[^ ]*\).*/\1/p')
	for p in "linux-image-$release" "linux-headers-${release%-amd64}-common" \
		 "$kbuild" "linux-headers-$release"; do
		deb=$(ls -t "$LAB_CACHE/debs/${p}_"*.deb 2>/dev/null | head -n1) ||
			lab_die "no $p package in $LAB_CACHE/debs (run fetch-kernel.sh)"
		[ -n "$deb" ] || lab_die "no $p package in $LAB_CACHE/debs (run fetch-kernel.sh)"
		echo "$deb"
	done
}

# configure ROOT: the guest's systemd setup. The lab's roles run as a
# service once the system is up, and power the guest off when they are
# done; the getty on the serial console, which would write over the
# scripts' output, and the timers of a long-lived host do not start.
configure() {
	local root=$1 u

	cat > "$root/etc/systemd/system/lab-pkg-boot.service" <<'UNIT'
[Unit]
Description=ntprof lab: the guest's roles and scripts
After=basic.target

[Service]
Type=oneshot
ExecStart=/bin/bash /lab/lab-pkg-boot.sh
StandardOutput=journal+console
StandardError=journal+console
TimeoutStartSec=infinity

[Install]
WantedBy=multi-user.target
UNIT
	ln -sf /etc/systemd/system/lab-pkg-boot.service \
		"$root/etc/systemd/system/multi-user.target.wants/lab-pkg-boot.service"
	for u in serial-getty@ttyS0.service getty@tty1.service apt-daily.timer \
		 apt-daily-upgrade.timer dpkg-db-backup.timer e2scrub_all.timer \
		 fstrim.timer systemd-tmpfiles-clean.timer; do
		ln -sf /dev/null "$root/etc/systemd/system/$u"
	done
	echo "/dev/vda / ext4 rw 0 0" > "$root/etc/fstab"
	echo lab-both > "$root/etc/hostname"
	mkdir -p "$root/lab"
}

build() {
	local work=$dir/$release.root debs

	debs=$(kernel_debs)
	lab_log "making the package test's disk for $release in $image (once)"
	rm -rf "$work"
	cp -a "$(bash "$LAB_DIR/make-pkg-root.sh")" "$work"
	# The kernel's initramfs is never booted (the lab boots its own):
	# INITRD=No tells linux-image's hook not to make one.
	# shellcheck disable=SC2086
	lab_in_chroot "$work" "$LAB_CACHE/debs" -- env INITRD=No dpkg -i $debs \
		> "$dir/$release.log" 2>&1 ||
		lab_die "installing kernel $release in the package test's root failed: see $dir/$release.log"
	# The chroot's mount point of the packages, and the root's stamp.
	rm -rf "$work/var/cache/ntprof-lab" "$work/.ntprof-chroot"
	configure "$work"
	# Room for the module's build and the recordings beside the system.
	mkfs.ext4 -q -F -L ntprof-pkg -d "$work" "$image.new" \
		"$(( $(du -sm "$work" | cut -f1) + 768 ))M" ||
		lab_die "mkfs.ext4 of the package test's disk failed"
	rm -rf "$work"
	mv "$image.new" "$image"
}

mkdir -p "$dir"
exec 9> "$dir/.lock-$release"
flock 9
root=$(bash "$LAB_DIR/make-pkg-root.sh")
stamp_text="$(cat "$root/.ntprof-chroot"); $(kernel_debs | xargs -n1 basename | tr '\n' ' ')layout $layout"
if [ ! -f "$image" ] || [ "$(cat "$image.stamp" 2>/dev/null)" != "$stamp_text" ]; then
	build
	echo "$stamp_text" > "$image.stamp"
fi
echo "$image"
