#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Download a Debian kernel's image and headers packages and unpack them into
# the lab cache, without touching the system's apt sources: a private apt
# configuration per Debian release reads its suites (lab_dist_sources).
#
# KERNEL=6.1 (default) is bookworm's current 6.1 ABI, KERNEL=6.12 the newest
# 6.12 of bookworm-backports, KERNEL=5.10 bullseye's newest (security
# updates included), KERNEL=7.2 and 7.3 the newest of trixie-backports; an
# exact release (6.1.0-57-amd64, 5.10.0-32-amd64) works too. KERNEL=debug
# is not fetched but built, from Debian's sources: debug-kernel.sh.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dist=$(lab_kernel_dist "$KERNEL")
lab_apt_init "$dist"
apt_opts=("${LAB_APT_OPTS[@]}")

# The newest linux-image-<release> named by linux-image-amd64 of a series,
# else the newest linux-image-<release> of the series (a backports suite
# only lists the newest linux-image-amd64: 7.3's, not 7.2's).
resolve_release() {
	local series=$1 ver dep

	for ver in $(apt-cache "${apt_opts[@]}" madison linux-image-amd64 |
		     awk -F'|' '{gsub(/ /, "", $2); print $2}' | sort -rV); do
		dep=$(apt-cache "${apt_opts[@]}" show "linux-image-amd64=$ver" |
		      sed -n 's/^Depends: *linux-image-\([^ ,]*\).*/\1/p' | head -n1)
		case "$dep" in
		"$series".*) echo "$dep"; return 0 ;;
		esac
	done
	apt-cache "${apt_opts[@]}" pkgnames "linux-image-$series." |
		sed -n "s/^linux-image-\\($series\\.[0-9.]*\\(+deb[0-9]*\\)\\{0,1\\}-amd64\\)\$/\\1/p" |
		sort -V | tail -n1 | grep .
}

# The package and the linux-* packages it depends on, recursively.
linux_closure() {
	local pkg=$1

	echo "$pkg"
	apt-cache "${apt_opts[@]}" depends --no-recommends --no-suggests \
		--no-conflicts --no-breaks --no-replaces --no-enhances "$pkg" |
		sed -n "s/^ *Depends: \\(linux-\\(image\\|headers\\|kbuild\\|modules\\|binary\\|base-[0-9]\\)[^ <>]*\\).*/\\1/p" |
		while read -r dep; do linux_closure "$dep"; done
}

# cached_release: prints the release of $KERNEL and succeeds when it is
# fetched and unpacked whole.
cached_release() {
	local release

	[ -s "$LAB_CACHE/kernels/by-name/$KERNEL" ] || return 1
	release=$(cat "$LAB_CACHE/kernels/by-name/$KERNEL")
	[ -f "$LAB_CACHE/kernels/$release/complete" ] || return 1
	echo "$release"
}

main() {
	local release kdir pkgs

	# Not a Debian package: built from Debian's linux-source.
	[ "$KERNEL" != debug ] || exec bash "$LAB_DIR/debug-kernel.sh"

	mkdir -p "$LAB_CACHE/kernels/by-name" "$LAB_CACHE/debs"
	cached_release && return 0
	lab_fetch_lock
	# Another lab run may have fetched it while this one waited.
	cached_release && return 0
	lab_apt_update
	case "$KERNEL" in
	*-amd64) release=$KERNEL ;;
	*) release=$(resolve_release "$KERNEL") ||
		lab_die "no Debian kernel of series $KERNEL in $dist, its updates or backports" ;;
	esac
	kdir="$LAB_CACHE/kernels/$release"
	if [ ! -f "$kdir/complete" ]; then
		lab_log "fetching kernel $release"
		pkgs=$( (linux_closure "linux-image-$release"
			 linux_closure "linux-headers-$release") | sort -u)
		rm -rf "$kdir"
		# shellcheck disable=SC2086
		lab_apt_unpack "$LAB_CACHE/debs" "$kdir/root" $pkgs ||
			lab_die "cannot download the packages of kernel $release"
		merged_usr "$release" "$kdir/root"
		fix_headers "$release" "$kdir"
		/sbin/depmod -b "$kdir/root" "$release"
		extract_vmlinux "$kdir/root/boot/vmlinuz-$release" "$kdir/vmlinux"
		touch "$kdir/complete"
	fi
	echo "$release" > "$LAB_CACHE/kernels/by-name/$KERNEL"
	echo "$release"
}

# Trixie's kernel packages (7.x) ship everything under /usr: the modules
# in /usr/lib/modules, the image, System.map and config beside them. Lay
# out the paths of the older packages, which the lab and depmod use.
merged_usr() {
	local release=$1 root=$2 f

	[ -e "$root/lib" ] || [ ! -d "$root/usr/lib/modules" ] ||
		ln -s usr/lib "$root/lib"
	[ ! -e "$root/boot/vmlinuz-$release" ] || return 0
	mkdir -p "$root/boot"
	for f in vmlinuz System.map config; do
		[ ! -e "$root/usr/lib/modules/$release/$f" ] ||
			ln -s "../usr/lib/modules/$release/$f" "$root/boot/$f-$release"
	done
}

# The headers' Makefile includes the -common tree by an absolute path under
# /usr/src; point it into our unpacked tree instead.
fix_headers() {
	local release=$1 kdir=$2 mk

	mk="$kdir/root/usr/src/linux-headers-$release/Makefile"
	[ -f "$mk" ] || lab_die "headers of $release have no Makefile"
	sed -i "s|/usr/src/|$kdir/root/usr/src/|g" "$mk"
	# Debian's kbuild tools live in /usr/lib/linux-kbuild-*; the headers
	# reach them through symlinks that are absolute too.
	find "$kdir/root/usr/src" -maxdepth 2 -type l | while read -r l; do
		case "$(readlink "$l")" in
		/usr/*) ln -sfn "$kdir/root$(readlink "$l")" "$l" ;;
		esac
	done
	for mk in "$kdir"/root/usr/src/linux-headers-*/Makefile; do
		add_checker_valid "$mk"
	done
}

# Since 7.0 the kernel's Makefile runs scripts/checker-valid.sh before
# it lets C=1 or C=2 run sparse, and turns them off when the script says
# no; Debian's linux-kbuild packages of 7.2 and 7.3 lack the script, so
# C=2 would check nothing. Where it is missing, write one that makes the
# same test: the checker runs, and parses __typeof_unqual__ without an
# error (sparse 0.6.5 does, 0.6.4 does not).
add_checker_valid() {
	local mk=$1 script

	grep -q 'scripts/checker-valid\.sh' "$mk" || return 0
	script=$(dirname "$mk")/scripts/checker-valid.sh
	[ ! -e "$script" ] || return 0
	cat > "$script" <<'SH'
#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Written by ntprof's lab (fetch-kernel.sh): prints 1 if the checker
# "$@" parses __typeof_unqual__ without an error, 0 otherwise.
command -v "$1" > /dev/null 2>&1 || { echo 0; exit 0; }
src=$(mktemp --suffix=.c) || { echo 0; exit 0; }
printf 'int f(const int *p)\n{\n\t__typeof_unqual__(*p) x = *p;\n\n\treturn x;\n}\n' > "$src"
if "$@" "$src" 2>&1 | grep -q error; then echo 0; else echo 1; fi
rm -f "$src"
SH
	chmod +x "$script"
}

# QEMU boots the uncompressed ELF kernel through PVH, which skips the
# decompressor: seconds per boot under TCG.
extract_vmlinux() {
	local bz=$1 out=$2 pattern decompress off

	for pattern in '\xfd7zXZ\x00' '\x28\xb5\x2f\xfd'; do
		case "$pattern" in
		*7zXZ*) decompress="xz -dc --single-stream" ;;
		*) decompress="zstd -dc" ;;
		esac
		# Try every occurrence: the magic may also appear by chance.
		while read -r off; do
			tail -c +$((off + 1)) "$bz" | $decompress > "$out" 2>/dev/null || true
			if [ "$(head -c4 "$out" | od -An -tx1 | tr -d ' ')" = 7f454c46 ]; then
				return 0
			fi
		done < <(LC_ALL=C grep -obUaP "$pattern" "$bz" | cut -d: -f1)
	done
	lab_die "cannot extract an ELF kernel from $bz"
}

main "$@"
