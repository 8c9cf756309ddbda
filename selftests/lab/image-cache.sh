# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2154 # release, GUEST_*: build-guest.sh's.
#
# The cache of guest images and module builds, sourced by build-guest.sh
# after it has set release, kroot, GUEST_MODULES and GUEST_PROGRAMS.
#
# A lab run with the same inputs as an earlier one reuses that run's
# ntprof.ko and initramfs instead of building them again. Each entry is
# a directory LAB_CACHE/images/KEY, where KEY is the SHA-256 of a
# manifest (image_manifest, module_manifest) that names every input: a
# file of this tree by its contents, a file outside it (the kernel's
# tree, the chroot's stamp, this machine's programs and libraries, an
# SPDK build) by its size, modification time and inode, and each setting
# that changes what is built. An entry is built in a temporary directory
# and renamed into place, so a reader sees only complete entries; a lock
# per key makes a second run with the same key wait for the first one's
# build rather than build it again. The newest LAB_IMAGE_CACHE_KEEP
# entries of each kind stay (12 by default: a make check makes some ten
# images), older ones go.
# LAB_IMAGE_CACHE=0 builds everything anew and caches nothing.
# Documentation/lab.rst, "The image cache"; selftests/unit/test_lab_image_key.sh.

# The settings that change what build-guest.sh builds. The unit test
# checks that every LAB_* setting and SPDK that build-guest.sh reads is
# here.
IMAGE_KEY_ENV="LAB_EXTRA LAB_EMPTYPROBE LAB_HOOK_COST LAB_DRAIN_GEN LAB_TLS
	LAB_PKG SPDK"
MODULE_KEY_ENV="LAB_EMPTYPROBE LAB_HOOK_COST LAB_DRAIN_GEN"

lab_image_cache_on() { [ "${LAB_IMAGE_CACHE:-1}" != 0 ]; }

# key_stat FILE...: each file (symlinks followed) by path, size,
# modification time and inode, or as absent. One stat for all: a
# process per file costs seconds on a loaded machine.
key_stat() {
	local f there=()

	for f in "$@"; do
		if [ -e "$f" ]; then
			there+=("$f")
		else
			echo "$f absent"
		fi
	done
	[ ${#there[@]} -eq 0 ] || stat -L -c '%n %s %.9Y %i' "${there[@]}"
}

# key_content FILE...: each file by its path in the tree and its contents.
key_content() {
	local f there=()

	for f in "$@"; do
		if [ -f "$f" ]; then
			there+=("$f")
		else
			echo "${f#"$TOP_DIR"/} absent"
		fi
	done
	[ ${#there[@]} -eq 0 ] || sha256sum "${there[@]}" | sed "s| $TOP_DIR/| |"
}

# key_tree DIR: every file and symlink under DIR by its contents, mode
# and target, in a fixed order.
key_tree() {
	local f

	[ -d "$1" ] || { echo "$1 absent"; return 0; }
	find "$1" \( -type f -o -type l \) -printf '%P %m %l\n' | LC_ALL=C sort
	find "$1" -type f -print0 | LC_ALL=C sort -z | xargs -0r sha256sum |
		sed "s| $TOP_DIR/| |"
}

# key_env NAME...: each setting's value, unset told apart from empty.
key_env() {
	local v

	for v in "$@"; do
		if [ -n "${!v+set}" ]; then
			printf 'env %s=%q\n' "$v" "${!v}"
		else
			printf 'env %s unset\n' "$v"
		fi
	done
}

# key_programs PROGRAM...: each program of this machine that goes into
# the guest and every library it loads, as ldd lists them: ldd's own
# steps, run here without its script, which costs a second or two for
# all of them on a loaded machine.
key_programs() {
	local p libs=() rtld=/lib64/ld-linux-x86-64.so.2

	for p in "$@"; do
		# A static program (busybox) has no libraries to name.
		"$rtld" --verify "$p" > /dev/null 2>&1 || continue
		# shellcheck disable=SC2207 # paths without blanks.
		libs+=($(LD_TRACE_LOADED_OBJECTS=1 "$rtld" "$p" 2>/dev/null |
			 { grep -o '/[^ ]*' || true; }))
	done
	# shellcheck disable=SC2046
	key_stat "$@" $(printf '%s\n' "${libs[@]}" | LC_ALL=C sort -u)
}

# host_manifest packages | key_programs PROGRAM...: this machine's
# packages (by name and version: the compiler among them), or its
# programs. The unit test, which cannot change either, leaves them out
# with --manifest-without-host to run in seconds: a real key never does.
host_manifest() {
	[ "${manifest_without_host:-0}" = 0 ] || return 0
	case "$1" in
	packages)
		echo "packages $(dpkg-query -W -f '${Package}:${Architecture} ${Version}\n' 2>/dev/null |
			sha256sum | cut -d' ' -f1)"
		;;
	*) "$@" ;;
	esac
}

# The module's own sources, as copy_module_sources copies them.
module_sources() {
	local f

	echo "$TOP_DIR/Kbuild" "$TOP_DIR/kmod/Kbuild" "$TOP_DIR/include/uapi/linux/ntprof.h"
	for f in "$TOP_DIR"/kmod/*.[ch]; do
		case "$f" in
		*.mod.c) ;;
		*) echo "$f" ;;
		esac
	done
}

# What ntprof.ko (and the benchmark's empty probes) are built from: the
# kernel's tree (headers, config, kbuild tools), the compiler (this
# machine's packages, or the chroot's stamp for 7.x), the sources, the
# version string built in, and the build's settings.
module_manifest() {
	echo "kind module"
	echo "kernel $release"
	# The whole unpacked kernel, by each file's size and time: a kernel
	# fetched or built again (debug-kernel.sh) is another input.
	echo "kernel-tree $(find "$LAB_CACHE/kernels/$release" -printf '%P %s %T@ %l\n' 2>/dev/null |
		LC_ALL=C sort | sha256sum | cut -d' ' -f1)"
	if lab_kernel_needs_chroot "$release"; then
		key_stat "$LAB_CACHE/chroots/forky/.ntprof-chroot"
		cat "$LAB_CACHE/chroots/forky/.ntprof-chroot" 2>/dev/null || true
	fi
	host_manifest packages
	echo "version $(ntprof_version)"
	# shellcheck disable=SC2086 # a list of variables' names.
	key_env $MODULE_KEY_ENV
	# What the kernel's make reads from the environment: the compiler,
	# flags and kbuild settings, and the variables that a make above
	# this one (make check W=1) hands down in MAKEFLAGS, without its
	# job server, which differs from run to run.
	env | grep -E '^(CC|LD|AR|HOSTCC|LLVM|ARCH|CROSS_COMPILE|[A-Z]*CFLAGS[A-Z_]*|KCPPFLAGS|KBUILD_[A-Z_]*|KCONFIG_[A-Z_]*|INSTALL_MOD_[A-Z_]*|NTPROF_[A-Z_]*|W|C|V|O|M)=' |
		LC_ALL=C sort || true
	case "${MAKEFLAGS:-}" in
	*" -- "*) echo "make-variables ${MAKEFLAGS#* -- }" ;;
	esac
	# shellcheck disable=SC2046
	key_content $(module_sources) "$LAB_DIR/build-guest.sh" \
		"$LAB_DIR/lib.sh" "$LAB_DIR/image-cache.sh" "$LAB_DIR/make-chroot.sh"
	[ "${LAB_EMPTYPROBE:-0}" != 1 ] || key_tree "$TOP_DIR/tools/bench/emptyprobe"
}

# Everything the initramfs is made of: the module's inputs, the kernel
# modules named, the programs of this machine and the tree's, the lab's
# guest scripts, and what SPDK= and LAB_TLS= bring.
image_manifest() {
	local p progs=()

	module_manifest
	echo "kind image"
	# The lists of names, their words joined by single spaces (echo's
	# doing), so that the key does not depend on how they are laid out.
	# shellcheck disable=SC2086,SC2116
	{
		key_env $IMAGE_KEY_ENV
		echo "modules $(echo $GUEST_MODULES)"
		echo "programs $(echo $GUEST_PROGRAMS)"
	}
	for p in $GUEST_PROGRAMS ${LAB_EXTRA:-}; do
		p=$(PATH=/usr/sbin:/usr/bin:/sbin:/bin command -v "$p") || p="absent:$p"
		progs+=("$p")
	done
	host_manifest key_programs "${progs[@]}" /bin/busybox
	key_content "$TOP_DIR/tools/ntprof/ntprof" \
		"$TOP_DIR/tools/agent/libntprof-agent.so" \
		"$TOP_DIR"/selftests/tools/{testclient,uprobe-target,spdk-model,nlfuzz} \
		"$TOP_DIR/Documentation/netlink/specs/ntprof.yaml" \
		"$TOP_DIR/selftests/ktap.sh" \
		"$TOP_DIR"/selftests/integration/*/guest/*.sh
	key_tree "$LAB_DIR/guest"
	if [ -n "${SPDK:-}" ]; then
		key_programs "$SPDK"/build/bin/{nvmf_tgt,spdk_nvme_perf,spdk_tgt} \
			/usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so
		key_stat /etc/libibverbs.d/rxe.driver
	fi
	if [ "${LAB_TLS:-0}" = 1 ]; then
		key_stat "$LAB_CACHE/tls/complete"
		cat "$LAB_CACHE/tls/complete" 2>/dev/null || true
		echo "tls-tree $(find "$LAB_CACHE/tls/root" -printf '%P %s %T@ %l\n' 2>/dev/null |
			LC_ALL=C sort | sha256sum | cut -d' ' -f1)"
	fi
}

# lab_cache_use NAME MANIFEST BUILD-FUNCTION DEST: links the files of
# the complete entry NAME (KIND-KEY) into DEST, after building it with
# BUILD-FUNCTION DIR when there is none yet, and keeps the file MANIFEST
# in it. Sets LAB_CACHE_BUILT to 1 if it built the entry, else to 0.
# Never called as a condition: set -e must stop a failing build.
lab_cache_use() {
	local name=$1 manifest=$2 build=$3 dest=$4 dir=$LAB_CACHE/images
	local lock tmp f

	LAB_CACHE_BUILT=0
	mkdir -p "$dir" "$dest"
	exec {lock}> "$dir/.$name.lock"
	flock "$lock"
	if [ ! -f "$dir/$name/complete" ]; then
		tmp=$(mktemp -d "$dir/.new-$name.XXXXXX")
		chmod 755 "$tmp"
		# A build that fails leaves no half-made entry behind.
		LAB_CACHE_TMPS="$LAB_CACHE_TMPS $tmp"
		trap 'rm -rf $LAB_CACHE_TMPS' EXIT
		"$build" "$tmp"
		cp "$manifest" "$tmp/manifest"
		touch "$tmp/complete"
		# Renamed into place whole; should another run have made the
		# same entry meanwhile, that one stays.
		mv -T "$tmp" "$dir/$name" 2>/dev/null || rm -rf "$tmp"
		LAB_CACHE_TMPS=${LAB_CACHE_TMPS/ $tmp/}
		# shellcheck disable=SC2034 # build-guest.sh reads it.
		LAB_CACHE_BUILT=1
	fi
	touch "$dir/$name"
	for f in "$dir/$name"/*; do
		case "${f##*/}" in
		manifest | complete) continue ;;
		esac
		# A hard link stays valid when the entry is pruned later.
		ln -f "$f" "$dest/" 2>/dev/null || cp "$f" "$dest/"
	done
	exec {lock}>&-
	lab_cache_prune "${name%%-*}"
}
LAB_CACHE_TMPS=

# lab_cache_prune KIND: deletes all but the newest LAB_IMAGE_CACHE_KEEP
# entries of KIND (image, module), each under its lock so that no run is
# linking its files meanwhile, and what runs that died left behind.
lab_cache_prune() {
	local dir=$LAB_CACHE/images keep=${LAB_IMAGE_CACHE_KEEP:-12} e lock n=0

	# Newest first, which ls can sort and a glob cannot; the entries'
	# names are KIND-KEY, a hexadecimal key, without spaces.
	# shellcheck disable=SC2045
	for e in $(ls -dt "$dir/$1"-*/ 2>/dev/null); do
		e=${e%/}
		n=$((n + 1))
		[ "$n" -gt "$keep" ] || continue
		exec {lock}> "$dir/.${e##*/}.lock"
		if flock -n "$lock"; then
			mv -T "$e" "$dir/.old-${e##*/}.$$" && rm -rf "$dir/.old-${e##*/}.$$"
		fi
		exec {lock}>&-
	done
	find "$dir" -maxdepth 1 \( -name '.new-*' -o -name '.old-*' \) -mmin +120 \
		-exec rm -rf {} + 2>/dev/null || true
	# The lock files of entries gone for a day.
	for e in "$dir"/.*.lock; do
		[ -e "$e" ] || continue
		n=${e##*/.}
		[ -e "$dir/${n%.lock}" ] || [ -z "$(find "$e" -mmin +1440)" ] || rm -f "$e"
	done
}
