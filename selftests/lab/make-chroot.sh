#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A Debian chroot to build the module against the kernels of trixie's
# backports (7.x), which this machine (Debian 12) cannot: their kbuild
# tools are linked against trixie's glibc, their headers name gcc-14, and
# their headers need a sparse that knows __typeof_unqual__ (0.6.5), which
# trixie's 0.6.4 does not. So the chroot is of forky (Debian 14, testing),
# which has gcc-14 beside its default gcc and sparse 0.6.5, with pahole
# (dwarves) taken from trixie: kbuild warns when a module's BTF is made by
# another pahole than the kernel's (trixie's 1.30).
#
# It is made by debootstrap from Debian's archive only, under
# LAB_CACHE/chroots/forky, and kept: a later call checks its stamp and
# returns at once; a changed package list changes the stamp, and the
# chroot is made again. Prints the chroot's path. The first run downloads and
# unpacks some 150 MB of packages, a minute or two on a good link and
# more on a slow one; later runs take no time.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dist=forky
root=$LAB_CACHE/chroots/$dist
# What a module build with W=1 and C=2 needs, and nothing to boot; and
# dkms, which the build test runs here as a user of trixie would (with
# what it depends on: forky's default gcc, dpkg-dev, patch).
packages=(make gcc-14 libc6-dev libelf-dev bc flex bison sparse kmod
	  xz-utils zstd dkms)
# From trixie, for its kernels.
trixie_packages=(dwarves)
stamp_text="$dist: ${packages[*]}; trixie: ${trixie_packages[*]}"
key=/usr/share/keyrings/debian-archive-keyring.gpg

if ! lab_chroot_ready "$root" "$stamp_text" "$LAB_CACHE/chroots/.lock" \
		"making the $dist chroot"; then
	lab_log "making a $dist chroot for module builds in $root (once)"
	log=$LAB_CACHE/chroots/$dist.log
	rm -rf "$root.new"
	# This debootstrap predates forky: its suites are made like sid's.
	debootstrap --variant=minbase --components=main --keyring="$key" \
		--include="$(IFS=,; echo "${packages[*]}")" \
		"$dist" "$root.new" http://deb.debian.org/debian \
		/usr/share/debootstrap/scripts/sid > "$log" 2>&1 ||
		lab_die "debootstrap of $dist failed: see $log"
	cp "$key" "$root.new/usr/share/keyrings/ntprof-debian-archive.gpg"
	echo "deb [signed-by=/usr/share/keyrings/ntprof-debian-archive.gpg] http://deb.debian.org/debian trixie main" \
		> "$root.new/etc/apt/sources.list.d/trixie.list"
	# Testing's Release files expire within a week: a mirror that lags
	# behind must still do (the packages stay signed).
	{ chroot "$root.new" apt-get -qq -o Acquire::Check-Valid-Until=false update &&
	  chroot "$root.new" env DEBIAN_FRONTEND=noninteractive \
		apt-get -qq install -y --no-install-recommends \
		"${trixie_packages[@]/%//trixie}"; } >> "$log" 2>&1 ||
		lab_die "installing trixie's ${trixie_packages[*]} failed: see $log"
	# Nothing runs in it but builds.
	lab_chroot_done "$root" "$stamp_text"
fi
echo "$root"
