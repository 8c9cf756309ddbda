#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build what the lab's guests boot for one kernel release: ntprof.ko built
# against that kernel's headers, and an uncompressed initramfs holding
# busybox, dash, bash, fio, nvme-cli, iproute2, the rdma tools, kmod, mdadm,
# the NVMe-oF and md raid1 modules, ntprof.ko and the ntprof tool.
#
# Usage: build-guest.sh RELEASE OUTDIR    (writes OUTDIR/initrd.cpio)
#        build-guest.sh --manifest RELEASE   (prints what the image's key covers)
#
# Everything is built inside OUTDIR, or inside a new entry of the image
# cache (image-cache.sh), so labs may run side by side. The cache
# reuses an image, and a module build, made of the same inputs; off
# with LAB_IMAGE_CACHE=0 (Documentation/lab.rst, "The image cache").
# LAB_EXTRA="bpftrace": more programs, with their libraries, that only some
# runs need (tools/bench/overhead.sh); off by default, as bpftrace's
# libraries (LLVM, clang) add some 200 MB to the image.
# LAB_EMPTYPROBE=1: tools/bench/emptyprobe's module too (tools/bench/icount.sh).
# LAB_HOOK_COST=1: ntprof.ko as a cost build (tools/bench/hookcost.sh).
# LAB_DRAIN_GEN=1: ntprof.ko with the drain benchmark's load generator
# (tools/bench/drain.sh).
# LAB_TLS=1: trixie's nvme-cli and tlshd in /lab/tls (fetch-tls-tools.sh),
# where the kernel has NVMe/TCP TLS (CONFIG_NVME_TCP_TLS, since 6.7).
# LAB_PKG=DIR: the package test's guest (lab-run.sh), which mounts its
# Debian system from a virtio disk (guest/pkgroot.sh): its drivers too.
# SPDK=DIR: the SPDK build in DIR (its build/bin/nvmf_tgt and spdk_nvme_perf)
# in /lab/spdk, for the lab-spdk-target helper (Documentation/lab.rst).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

manifest_only=0
# Only a manifest printed for the unit test may leave out this machine's
# programs and packages (image-cache.sh, host_manifest).
manifest_without_host=0
if [ "${1:-}" = --manifest ] || [ "${1:-}" = --manifest-without-host ]; then
	manifest_only=1
	[ "$1" = --manifest ] || manifest_without_host=1
	shift
	set -- "${1:?usage: build-guest.sh --manifest RELEASE}" /nonexistent
fi
release=${1:?usage: build-guest.sh RELEASE OUTDIR}
out=${2:?usage: build-guest.sh RELEASE OUTDIR}
# Absolute: a chroot build binds it at the same path (lab_kmake).
[ "$manifest_only" = 1 ] || { mkdir -p "$out" && out=$(cd "$out" && pwd); }
kroot=$(lab_kernel_root "$release")
kbuild=$(lab_kernel_build_dir "$release")
# Where build_image stages the initramfs and puts the modules it holds.
stage=
kodir=

# Kernel modules the guests load, with their dependencies. A name that this
# kernel build lacks (or has built in) is skipped.
GUEST_MODULES="virtio_pci virtio_net 9p 9pnet_virtio configfs null_blk brd
	nvme_tcp nvme_rdma nvmet_tcp nvmet_rdma rdma_rxe rdma_ucm ib_uverbs
	crc32_generic crc32c_generic sch_netem veth overlay md_mod raid1"
# LAB_TLS's too: the kernel's TLS, and the AEADs a TLS 1.3 session of
# NVMe/TCP may negotiate, which tls.ko asks for by name at run time
# (crypto-gcm(aes)), so no dependency brings them.
TLS_MODULES="tls gcm ghash_generic ghash_clmulni_intel aesni_intel
	chacha20poly1305"
[ "${LAB_TLS:-0}" != 1 ] || GUEST_MODULES="$GUEST_MODULES $TLS_MODULES"
[ -z "${LAB_PKG:-}" ] || GUEST_MODULES="$GUEST_MODULES virtio_blk ext4"
# Programs copied with their shared libraries; busybox supplies the rest.
# mdadm: the chain topology's middle (guest/chain.sh).
GUEST_PROGRAMS="dash bash fio nvme ip tc rdma kmod timeout nsenter setpriv mdadm"

# build_module DIR: ntprof.ko (and the benchmark's empty probes) built
# into DIR, which must be absolute: a chroot build binds it (lab_kmake).
build_module() {
	local dir=$1 src="$1/ntprof-src"

	copy_module_sources "$src"
	# In a chroot for 7.x, with gcc-12 for 5.10: lab_kmake.
	lab_kmake "$release" "$dir" -s M="$src" \
		NTPROF_VERSION="$(ntprof_version)" \
		NTPROF_HOOK_COST="${LAB_HOOK_COST:-0}" \
		NTPROF_DRAIN_GEN="${LAB_DRAIN_GEN:-0}" modules >&2
	cp "$src/kmod/ntprof.ko" "$dir/ntprof.ko"
	# The benchmark's empty probes (tools/bench/icount.sh), on request.
	if [ "${LAB_EMPTYPROBE:-0}" = 1 ]; then
		mkdir -p "$src/tools/bench"
		cp -r "$TOP_DIR/tools/bench/emptyprobe" "$src/tools/bench/"
		lab_kmake "$release" "$dir" -s M="$src/tools/bench/emptyprobe" \
			modules >&2
		cp "$src/tools/bench/emptyprobe/ntprof_emptyprobe.ko" "$dir/"
	fi
	rm -rf "$src"
}

ntprof_version() {
	git -C "$TOP_DIR" describe --always --dirty 2>/dev/null || cat "$TOP_DIR/VERSION"
}

copy_file() {
	local f=$1

	[ -e "$stage$f" ] && return 0
	mkdir -p "$stage$(dirname "$f")"
	cp -aL "$f" "$stage$f"
}

# copy_program PATH [DEST]: the program (at DEST in the guest) and its libraries.
copy_program() {
	local prog=$1 dest=${2:-$1} lib

	mkdir -p "$stage$(dirname "$dest")"
	cp -L "$prog" "$stage$dest"
	for lib in $(ldd "$prog" 2>/dev/null | grep -o '/[^ ]*'); do
		copy_file "$lib"
	done
}

stage_modules() {
	local m line moddir="/lib/modules/$release"

	mkdir -p "$stage$moddir"
	cp "$kroot$moddir"/modules.order "$kroot$moddir"/modules.builtin* "$stage$moddir/"
	for m in $GUEST_MODULES; do
		if ! line=$(/sbin/modprobe -S "$release" -d "$kroot" --show-depends "$m" 2>/dev/null); then
			lab_log "kernel $release has no module $m (skipped)"
			continue
		fi
		echo "$line" | sed -n 's/^insmod \([^ ]*\).*/\1/p' | while read -r ko; do
			mkdir -p "$stage$(dirname "${ko#"$kroot"}")"
			cp "$ko" "$stage${ko#"$kroot"}"
		done
	done
	mkdir -p "$stage$moddir/extra"
	cp "$kodir"/*.ko "$stage$moddir/extra/"
	/sbin/depmod -b "$stage" "$release"
}

# The SPDK build in $SPDK (a user's, never built here): its NVMe-oF target
# (and spdk_tgt if it has one) and perf tool, their system libraries, and what SPDK opens at run time
# without naming it to ldd: soft-RoCE's libibverbs provider with its driver
# file, and an OpenSSL configuration (SPDK's env init fails without one).
stage_spdk() {
	local p prov=/usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so

	for p in nvmf_tgt spdk_nvme_perf; do
		[ -x "$SPDK/build/bin/$p" ] ||
			lab_die "SPDK=$SPDK has no build/bin/$p (give an SPDK build's top directory)"
		copy_program "$SPDK/build/bin/$p" "/lab/spdk/$p"
	done
	# spdk_tgt, SPDK's all-in-one target (Longhorn's), where the build has it.
	[ ! -x "$SPDK/build/bin/spdk_tgt" ] ||
		copy_program "$SPDK/build/bin/spdk_tgt" /lab/spdk/spdk_tgt
	[ -e "$prov" ] || lab_die "SPDK over RDMA needs $prov (apt-get install ibverbs-providers)"
	copy_program "$prov"
	copy_file /etc/libibverbs.d/rxe.driver
	if [ ! -e "$stage/usr/lib/ssl/openssl.cnf" ]; then
		mkdir -p "$stage/usr/lib/ssl"
		: > "$stage/usr/lib/ssl/openssl.cnf"
	fi
	mkdir -p "$stage/var/tmp" "$stage/var/run/dpdk"
}

# Trixie's nvme-cli and tlshd (fetch-tls-tools.sh) in /lab/tls: each
# with the libraries it loads, trixie's glibc among them, which bookworm's
# userland beside them cannot share. So each runs through trixie's
# dynamic loader, named in its wrapper in /lab/tls/bin, with the library
# path /lab/tls/lib. A kernel without NVMe/TCP TLS gets none of them: the
# guests see /lab/tls missing and say why (integration/configs/guest/
# configs-lib.sh).
stage_tls() {
	local troot prog lib libdir=/usr/lib/x86_64-linux-gnu
	local loader=usr/lib64/ld-linux-x86-64.so.2

	grep -q '^CONFIG_NVME_TCP_TLS=y' "$kroot/boot/config-$release" || {
		lab_log "kernel $release has no NVMe/TCP TLS: no TLS tools in its guests"
		return 0
	}
	troot=$(bash "$LAB_DIR/fetch-tls-tools.sh")
	mkdir -p "$stage/lab/tls/bin" "$stage/lab/tls/lib" "$stage/lab/tls/libexec"
	cp "$troot/$loader" "$stage/lab/tls/lib/"
	for prog in nvme tlshd; do
		cp "$troot/usr/sbin/$prog" "$stage/lab/tls/libexec/"
		for lib in $("$troot/$loader" --library-path "$troot$libdir" --list \
				"$troot/usr/sbin/$prog" | sed -n "s|.* => \($troot$libdir/[^ ]*\) .*|\1|p"); do
			cp -L "$lib" "$stage/lab/tls/lib/"
		done
		printf '#!/bin/sh\nexec /lab/tls/lib/ld-linux-x86-64.so.2 --library-path /lab/tls/lib /lab/tls/libexec/%s "$@"\n' \
			"$prog" > "$stage/lab/tls/bin/$prog"
		chmod +x "$stage/lab/tls/bin/$prog"
	done
}

stage_userland() {
	local p

	mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,lib/busybox,proc,sys,dev,tmp,run,etc,lab/share,var/run}
	for p in $GUEST_PROGRAMS; do
		p=$(PATH=/usr/sbin:/usr/bin:/sbin:/bin command -v "$p") ||
			lab_die "the guest needs $p: install it"
		copy_program "$p"
	done
	for p in ${LAB_EXTRA:-}; do
		p=$(PATH=/usr/sbin:/usr/bin:/sbin:/bin command -v "$p") ||
			lab_die "LAB_EXTRA names $p: install it (apt-get install $p)"
		copy_program "$p"
	done
	copy_program "$TOP_DIR/tools/ntprof/ntprof" /usr/sbin/ntprof
	copy_program "$TOP_DIR/selftests/tools/testclient" /lab/bin/testclient
	# The uprobe sites' test program: the very file whose offsets the
	# lab tests take with nm and readelf on this machine.
	copy_program "$TOP_DIR/selftests/tools/uprobe-target" /lab/bin/uprobe-target
	# The agent where 'make install' puts it, and the SPDK model it is
	# tested on without SPDK.
	copy_program "$TOP_DIR/tools/agent/libntprof-agent.so" \
		/usr/local/lib/ntprof/libntprof-agent.so
	copy_program "$TOP_DIR/selftests/tools/spdk-model" /lab/bin/spdk-model
	# The netlink fuzzer (libyaml comes along), and the spec it reads.
	copy_program "$TOP_DIR/selftests/tools/nlfuzz" /lab/bin/nlfuzz
	cp "$TOP_DIR/Documentation/netlink/specs/ntprof.yaml" "$stage/lab/ntprof.yaml"
	[ -z "${SPDK:-}" ] || stage_spdk
	[ "${LAB_TLS:-0}" != 1 ] || stage_tls
	# busybox's applets come last on PATH, so iproute2, kmod and the rest
	# are never shadowed; dash is /bin/sh for the same reason.
	cp /bin/busybox "$stage/lib/busybox/busybox"
	for p in $(/bin/busybox --list); do
		[ -e "$stage/lib/busybox/$p" ] || ln -s busybox "$stage/lib/busybox/$p"
	done
	ln -sf /usr/bin/dash "$stage/bin/sh"
	[ -e "$stage/bin/bash" ] || ln -s /usr/bin/bash "$stage/bin/bash"
	for p in modprobe insmod rmmod lsmod depmod modinfo; do
		ln -sf /usr/bin/kmod "$stage/sbin/$p"
	done
	mkdir -p "$stage/lab"
	cp -r "$LAB_DIR/guest/." "$stage/lab/"
	cp "$TOP_DIR/selftests/ktap.sh" "$stage/lab/ktap.sh"
	# The lab tests' guest scripts, for the scripts they hand to lab-run:
	# each test's (selftests/integration/TEST/guest/) and the shared ones
	# (common/guest/), in one folder. They source each other as
	# /lab/tests/NAME.sh, so no two of them may have the same name.
	mkdir -p "$stage/lab/tests"
	for p in "$TOP_DIR"/selftests/integration/*/guest/*.sh; do
		[ ! -e "$stage/lab/tests/${p##*/}" ] ||
			lab_die "two lab tests have a guest script named ${p##*/}"
		cp "$p" "$stage/lab/tests/"
	done
	mv "$stage/lab/init" "$stage/init"
	chmod +x "$stage/init" "$stage"/lab/bin/*
	echo "root:x:0:0:root:/root:/bin/sh" > "$stage/etc/passwd"
	echo "root:x:0:" > "$stage/etc/group"
	echo "$release" > "$stage/lab/kernel"
}

main() {
	local key

	[ -f "$kbuild/Makefile" ] || lab_die "no headers for $release (run fetch-kernel.sh)"
	[ -x "$TOP_DIR/tools/ntprof/ntprof" ] || lab_die "the ntprof tool is not built (make tools)"
	[ -x "$TOP_DIR/selftests/tools/testclient" ] ||
		lab_die "the test client is not built (make -C selftests/tools)"
	[ -x "$TOP_DIR/selftests/tools/uprobe-target" ] ||
		lab_die "the uprobe test program is not built (make -C selftests/tools)"
	[ -x "$TOP_DIR/selftests/tools/spdk-model" ] ||
		lab_die "selftests/tools/spdk-model is missing (make -C selftests/tools)"
	[ -f "$TOP_DIR/tools/agent/libntprof-agent.so" ] ||
		lab_die "the SPDK agent is not built (make tools)"
	[ -x "$TOP_DIR/selftests/tools/nlfuzz" ] ||
		lab_die "the netlink fuzzer is not built (make -C selftests/tools)"
	mkdir -p "$out"
	if ! lab_image_cache_on; then
		build_image "$out"
		return 0
	fi
	image_manifest > "$out/image.manifest"
	key=image-$(sha256sum < "$out/image.manifest" | cut -d' ' -f1)
	lab_cache_use "$key" "$out/image.manifest" build_image "$out"
	if [ "$LAB_CACHE_BUILT" = 1 ]; then
		lab_log "guest image for $release built, cached as $key"
	else
		lab_log "guest image for $release from the cache: $key"
	fi
	rm -f "$out/image.manifest"
}

# build_image DIR: DIR/initrd.cpio, with the module built for it (or the
# cache's build of the same inputs: image-cache.sh).
build_image() {
	local dir=$1 key

	kodir="$dir/ko"
	if lab_image_cache_on; then
		module_manifest > "$dir/module.manifest"
		key=module-$(sha256sum < "$dir/module.manifest" | cut -d' ' -f1)
		lab_cache_use "$key" "$dir/module.manifest" build_module "$kodir"
		[ "$LAB_CACHE_BUILT" = 1 ] ||
			lab_log "ntprof.ko for $release from the cache: $key"
	else
		mkdir -p "$kodir"
		build_module "$kodir"
	fi
	stage="$dir/stage"
	rm -rf "$stage"
	mkdir -p "$stage"
	stage_modules
	stage_userland
	(cd "$stage" && find . -print0 | cpio --null -o -H newc --quiet) > "$dir/initrd.cpio"
	rm -rf "$stage" "$kodir" "$dir/module.manifest"
}

. "$LAB_DIR/image-cache.sh"
if [ "$manifest_only" = 1 ]; then
	image_manifest
	exit 0
fi
main "$@"
