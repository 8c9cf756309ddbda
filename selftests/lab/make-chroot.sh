#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A Debian chroot to build the module against kernels of a newer Debian
# release than this machine's: the kbuild tools of trixie's kernels (7.x
# from trixie-backports) are linked against trixie's glibc, and their
# headers name trixie's gcc-14. The chroot is made by debootstrap from
# Debian's archive only, under LAB_CACHE/chroots/DIST, and kept: a later
# call checks its stamp and returns at once. Prints the chroot's path.
#
# The first run downloads and unpacks some 150 MB of packages: a few
# minutes on a good link, more on a slow one.
#
# Usage: make-chroot.sh [DIST]	(DIST: trixie, the default)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dist=${1:-trixie}
root=$LAB_CACHE/chroots/$dist
# What a module build with W=1 and C=2 needs, and nothing to boot.
packages="make gcc gcc-14 libc6-dev libelf-dev libssl-dev bc flex bison
	  sparse dwarves kmod xz-utils zstd"
stamp_text="$dist: $(echo $packages)"

[ "$(cat "$root/.ntprof-chroot" 2>/dev/null)" = "$stamp_text" ] && {
	echo "$root"
	exit 0
}
[ "$(id -u)" -eq 0 ] || lab_die "making the $dist chroot needs root"
command -v debootstrap > /dev/null ||
	lab_die "debootstrap is missing (selftests/lab/install-deps.sh installs it)"

mkdir -p "$LAB_CACHE/chroots"
exec 9> "$LAB_CACHE/chroots/.lock"
flock 9
# Another caller may have made it while this one waited.
if [ "$(cat "$root/.ntprof-chroot" 2>/dev/null)" != "$stamp_text" ]; then
	lab_log "making a $dist chroot for module builds in $root (once)"
	rm -rf "$root.new"
	debootstrap --variant=minbase --components=main \
		--keyring=/usr/share/keyrings/debian-archive-keyring.gpg \
		--include="$(echo $packages | tr ' ' ,)" \
		"$dist" "$root.new" http://deb.debian.org/debian \
		> "$LAB_CACHE/chroots/$dist.log" 2>&1 ||
		lab_die "debootstrap of $dist failed: see $LAB_CACHE/chroots/$dist.log"
	# Nothing runs in it but builds: no apt caches to keep.
	rm -rf "$root.new/var/cache/apt/archives/"*.deb
	echo "$stamp_text" > "$root.new/.ntprof-chroot"
	rm -rf "$root"
	mv "$root.new" "$root"
fi
echo "$root"
