#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# KERNEL=debug: build the lab's debug kernel (KASAN, KFENCE, lockdep,
# kmemleak, UBSAN: debug-kernel.config) from Debian's own sources, the
# linux-source-6.12 package of Debian 12 (read through a private apt
# configuration, lab_apt_init), and lay it out in the lab cache as
# fetch-kernel.sh lays out Debian's kernels: root/boot/vmlinuz-RELEASE,
# root/lib/modules/RELEASE, a build tree at lab_kernel_build_dir for
# out-of-tree modules, and the vmlinux QEMU boots. Prints the release.
#
# The release names a hash of the configuration fragment and the source
# package's version, so only the first run of a configuration builds.
# Settings: LAB_DEBUG_JOBS=N (make -j, default: the machine's cores)
#           LAB_DEBUG_SOURCE=VERSION (a linux-source-6.12 version, default
#           the newest of bookworm, its security updates and backports)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

fragment="$LAB_DIR/debug-kernel.config"
# The checkers' kernel parameters, appended to the guests' command line
# by lab-run.sh: a warning ends the run where it happened, with the whole
# kernel log on the console (panic_print=0x20); kmemleak is on from boot;
# the scripts see NTPROF_LAB_DEBUG=1 (guest/guest.sh). The checkers slow
# the guests down: each side waits for the other 3000 s, not 600 (LAB_WAIT,
# which the kernel hands to init's environment). A log of 4 MiB, not
# allnoconfig's 128 KiB, keeps the boot's lines and every report through
# the netlink core's notes on 100000 fuzzed messages.
DEBUG_CMDLINE="lab.debug=1 panic_on_warn=1 panic_print=0x20 kmemleak=on log_buf_len=4M LAB_WAIT=3000"

# The version of linux-source-6.12 to build, and its .deb in the cache.
source_version() {
	if [ -n "${LAB_DEBUG_SOURCE:-}" ]; then
		echo "$LAB_DEBUG_SOURCE"
		return 0
	fi
	apt-cache "${LAB_APT_OPTS[@]}" policy linux-source-6.12 |
		sed -n 's/^ *Candidate: *\([^ ]*\)$/\1/p' | grep -v '(none)' | grep .
}

fetch_source() {
	local ver=$1 deb

	deb="$LAB_CACHE/debs/linux-source-6.12_${ver//:/%3a}_all.deb"
	if [ ! -s "$deb" ]; then
		lab_log "fetching linux-source-6.12 $ver"
		(cd "$LAB_CACHE/debs" &&
		 apt-get "${LAB_APT_OPTS[@]}" -qq download "linux-source-6.12=$ver") ||
			lab_die "cannot download linux-source-6.12 $ver"
	fi
	echo "$deb"
}

# configure TREE RELEASE: allnoconfig with the fragment merged on, and
# fail when Kconfig dropped one of the fragment's settings (a dependency
# missing): the kernel would boot without a checker the tests rely on.
configure() {
	local tree=$1 release=$2 sym val got bad=0

	make -s -C "$tree" allnoconfig > /dev/null
	{
		cat "$fragment"
		echo "CONFIG_LOCALVERSION=\"-${release#*-}\""
	} > "$tree/ntprof-debug.config"
	(cd "$tree" && scripts/kconfig/merge_config.sh -m .config ntprof-debug.config) > "$tree/merge.log"
	make -s -C "$tree" olddefconfig > /dev/null
	# auto.conf, which kernelrelease reads CONFIG_LOCALVERSION from.
	make -s -C "$tree" syncconfig > /dev/null
	while IFS='=' read -r sym val; do
		got=$(grep -E "^$sym=" "$tree/.config" | cut -d= -f2-) || got=n
		[ "$val" = "$got" ] || { lab_log "$sym=$val is $got after Kconfig"; bad=1; }
	done < <(grep -E '^CONFIG_[A-Z0-9_]+=' "$fragment")
	[ $bad -eq 0 ] || lab_die "the debug configuration does not hold (see above)"
}

# build TREE KDIR RELEASE: the image, the modules, their installation
# into KDIR/root and the ELF kernel QEMU boots through PVH.
build() {
	local tree=$1 kdir=$2 release=$3 jobs=${LAB_DEBUG_JOBS:-$(nproc)} start

	start=$(date +%s)
	lab_log "building debug kernel $release with make -j$jobs (some 17 min on 2 busy cores)"
	[ "$(make -s -C "$tree" kernelrelease)" = "$release" ] ||
		lab_die "the tree builds $(make -s -C "$tree" kernelrelease), not $release"
	make -s -C "$tree" -j"$jobs" bzImage modules > "$kdir/build.log" 2>&1 ||
		{ tail -n 40 "$kdir/build.log" >&2; lab_die "the debug kernel does not build"; }
	# Stripped of DWARF (not of BTF, an allocated section): the guests'
	# initramfs carries them; the build tree keeps the full ones.
	make -s -C "$tree" INSTALL_MOD_PATH="$kdir/root" INSTALL_MOD_STRIP=1 \
		DEPMOD=/sbin/depmod modules_install >> "$kdir/build.log" 2>&1
	mkdir -p "$kdir/root/boot"
	cp "$tree/arch/x86/boot/bzImage" "$kdir/root/boot/vmlinuz-$release"
	cp "$tree/System.map" "$kdir/root/boot/System.map-$release"
	cp "$tree/.config" "$kdir/root/boot/config-$release"
	objcopy --strip-debug "$tree/vmlinux" "$kdir/vmlinux"
	echo "$(( $(date +%s) - start ))" > "$kdir/build-seconds"
	lab_log "debug kernel $release built in $(cat "$kdir/build-seconds") s"
}

main() {
	local ver hash release kdir tree deb

	lab_apt_init bookworm
	mkdir -p "$LAB_CACHE/kernels/by-name" "$LAB_CACHE/debs"
	# Offline, the lists read before still name the version.
	lab_apt_update || lab_log "cannot read Debian's package lists: using those read before"
	ver=$(source_version) || lab_die "Debian 12 has no linux-source-6.12"
	hash=$( { cat "$fragment"; echo "linux-source-6.12 $ver"; } | sha256sum | cut -c1-10)
	# 6.12.117-1~deb12u1 builds 6.12.117-debug-HASH.
	release="${ver%%-*}-debug-$hash"
	kdir="$LAB_CACHE/kernels/$release"
	if [ ! -f "$kdir/complete" ]; then
		deb=$(fetch_source "$ver")
		rm -rf "$kdir"
		tree=$(lab_kernel_build_dir "$release")
		mkdir -p "$tree" "$kdir/src"
		dpkg-deb -x "$deb" "$kdir/src"
		tar -xJf "$kdir/src/usr/src/linux-source-6.12.tar.xz" -C "$tree" --strip-components=1
		rm -rf "$kdir/src"
		echo "linux-source-6.12 $ver" > "$kdir/source"
		configure "$tree" "$release"
		build "$tree" "$kdir" "$release"
		touch "$kdir/complete"
	fi
	# Not part of the build: a change takes effect without one.
	echo "$DEBUG_CMDLINE" > "$kdir/cmdline"
	echo "$release" > "$LAB_CACHE/kernels/by-name/debug"
	echo "$release"
}

main "$@"
