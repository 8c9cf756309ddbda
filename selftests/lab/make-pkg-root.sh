#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Debian 12 system the package test boots (integration/packages/test.sh,
# Documentation/lab.rst): what an operator's host has before installing
# ntprof's packages, that is systemd as init, dkms with the compiler
# Debian's kernels are built with, dpkg, and the lab's tools (fio,
# nvme-cli, iproute2), with no kernel yet: pkg-image.sh adds one.
#
# It is made by debootstrap from Debian's archive only, under
# LAB_CACHE/chroots/bookworm-pkg, and kept: a later call checks its stamp
# and returns at once; a changed package list changes the stamp, and the
# root is made again. Prints the root's path. The first run downloads some
# 150 MB of packages; later runs take no time.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dist=bookworm
root=$LAB_CACHE/chroots/$dist-pkg
# systemd as init; dkms and what the kernels' headers packages depend on
# (linux-base, pahole, the gcc-12 of linux-compiler-gcc-12-x86) and the
# initramfs tool linux-image depends on, so that pkg-image.sh installs a
# kernel without the network; the libraries the
# ntprof package's programs link against; and the lab's tools.
packages=(systemd systemd-sysv dkms gcc make linux-base dwarves
	  linux-compiler-gcc-12-x86 kmod libmnl0 libelf1 libdw1 libbpf1
	  libzydis4.0 libisal2 fio nvme-cli iproute2 procps initramfs-tools)
stamp_text="$dist: ${packages[*]}"
key=/usr/share/keyrings/debian-archive-keyring.gpg

if ! lab_chroot_ready "$root" "$stamp_text" "$LAB_CACHE/chroots/.lock-$dist-pkg" \
		"making the $dist package-test root"; then
	lab_log "making the $dist root of the package test in $root (once)"
	log=$LAB_CACHE/chroots/$dist-pkg.log
	rm -rf "$root.new"
	debootstrap --variant=minbase --components=main --keyring="$key" \
		--include="$(IFS=,; echo "${packages[*]}")" \
		"$dist" "$root.new" http://deb.debian.org/debian > "$log" 2>&1 ||
		lab_die "debootstrap of $dist failed: see $log"
	# Its packages are installed.
	lab_chroot_done "$root" "$stamp_text"
fi
echo "$root"
