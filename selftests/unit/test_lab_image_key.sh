#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The lab's image cache (selftests/lab/image-cache.sh): the key of a
# guest image changes when any input of the image changes (a source of
# the module, a guest script, a program of the tree, the kernel's tree,
# a setting that build-guest.sh reads) and stays the same otherwise;
# an entry is built once, by one of two runs that want it at once, and
# never left half-made by a failed build; pruning keeps the newest.
# Works on a copy of the tree's inputs and a made-up kernel in a
# temporary lab cache: no kernel, no guest, a few seconds.
#
# usage: test_lab_image_key.sh    Prints TAP; exits 1 if any test failed.

set -u

# shellcheck source=selftests/unit/scratch.sh
. "$(dirname "${BASH_SOURCE[0]}")/scratch.sh"

# The tree's inputs of an image, copied without .git: the version
# string comes from VERSION, and no git state of this checkout matters.
T=$TMP/tree
mkdir -p "$T"
(cd "$TOP" && cp -r --parents Kbuild VERSION kmod include selftests/ktap.sh \
	selftests/lab selftests/integration/*/guest Documentation/netlink \
	tools/bench/emptyprobe "$T/")
mkdir -p "$T/tools/ntprof" "$T/tools/agent" "$T/selftests/tools"
for p in tools/ntprof/ntprof tools/agent/libntprof-agent.so \
	 selftests/tools/testclient selftests/tools/uprobe-target \
	 selftests/tools/spdk-model selftests/tools/nlfuzz; do
	echo "built $p" > "$T/$p"
done
export GIT_CEILING_DIRECTORIES=$TMP

# A made-up lab cache: two kernels' trees, the chroot's stamp, the TLS
# tools, an SPDK build.
CACHE=$TMP/cache
REL=6.1.0-99-amd64
REL7=7.2.99+deb13-amd64
for r in $REL $REL7; do
	mkdir -p "$CACHE/kernels/$r/root/lib/modules/$r/kernel" \
		 "$CACHE/kernels/$r/root/usr/src/linux-headers-$r"
	echo "obj" > "$CACHE/kernels/$r/root/lib/modules/$r/kernel/null_blk.ko"
	echo "all:" > "$CACHE/kernels/$r/root/usr/src/linux-headers-$r/Makefile"
	touch "$CACHE/kernels/$r/complete"
done
mkdir -p "$CACHE/chroots/forky" "$CACHE/tls/root/usr/sbin" "$TMP/spdk/build/bin"
echo "forky: make" > "$CACHE/chroots/forky/.ntprof-chroot"
echo "nvme-cli ktls-utils" > "$CACHE/tls/complete"
echo tlshd > "$CACHE/tls/root/usr/sbin/tlshd"
for p in nvmf_tgt spdk_nvme_perf; do
	echo "$p" > "$TMP/spdk/build/bin/$p"
	chmod +x "$TMP/spdk/build/bin/$p"
done

# Settings that must not leak in from the caller's environment.
unset LAB_EXTRA LAB_EMPTYPROBE LAB_HOOK_COST LAB_DRAIN_GEN LAB_TLS LAB_PKG \
	SPDK W C KCFLAGS MAKEFLAGS

# key [RELEASE]: the image key for RELEASE (REL by default), without
# this machine's programs and packages, which take a second to list.
key() {
	LAB_CACHE=$CACHE bash "$T/selftests/lab/build-guest.sh" \
		--manifest-without-host "${1:-$REL}" | sha256sum | cut -d' ' -f1
}

BASE=$(key)
[ -n "$BASE" ] && [ "$BASE" != "$(printf '' | sha256sum | cut -d' ' -f1)" ] ||
	{ ktap_fail "the manifest is made"; ktap_finished; exit; }
ktap_check "the key is the same when nothing changed" [ "$(key)" = "$BASE" ]

# changes DESC COMMAND...: after COMMAND, the key differs from BASE; the
# tree and cache are put back from a copy afterwards, and the key must
# be BASE again.
changes() {
	local desc=$1 k

	shift
	rm -rf "$TMP/save"
	mkdir -p "$TMP/save"
	cp -a "$T" "$CACHE" "$TMP/spdk" "$TMP/save/"
	k=$("$@" && key)
	rm -rf "$T" "$CACHE" "$TMP/spdk"
	cp -a "$TMP/save/tree" "$TMP/save/cache" "$TMP/save/spdk" "$TMP/"
	if [ -n "$k" ] && [ "$k" != "$BASE" ]; then
		ktap_pass "the key changes: $desc"
	else
		ktap_fail "the key changes: $desc"
	fi
}

# same DESC COMMAND...: after COMMAND, the key is still BASE.
same() {
	local desc=$1 k

	shift
	k=$("$@" && key)
	ktap_check "the key stays: $desc" [ "$k" = "$BASE" ]
}

append() { echo "# changed" >> "$1"; }
# shellcheck disable=SC2163 # $1 is NAME=VALUE.
in_env() { local k; k=$(export "$1"; key); [ "$k" != "$BASE" ] && echo "$k"; }
env_changes() {
	if [ -n "$(in_env "$1")" ]; then
		ktap_pass "the key changes: $1"
	else
		ktap_fail "the key changes: $1"
	fi
}

# The whole manifest: this machine's programs with their libraries, and
# its packages, once.
full() { LAB_CACHE=$CACHE bash "$T/selftests/lab/build-guest.sh" --manifest "$REL"; }
full > "$TMP/full1"
ktap_check "the full manifest names the programs, libraries and packages" \
	grep -q -e '^/bin/busybox ' -e '/libc\.so\.6 ' "$TMP/full1" -e '^packages [0-9a-f]'
full > "$TMP/full2"
ktap_check "the full manifest is the same when nothing changed" cmp "$TMP/full1" "$TMP/full2"

changes "a module source edited" append "$T/kmod/main.c"
changes "a module source added" touch "$T/kmod/new.c"
changes "the uapi header edited" append "$T/include/uapi/linux/ntprof.h"
changes "kmod/Kbuild edited" append "$T/kmod/Kbuild"
changes "the version" sh -c "echo 9.9.9 > '$T/VERSION'"
changes "a guest script edited" append "$T/selftests/lab/guest/guest.sh"
changes "a guest script added" touch "$T/selftests/lab/guest/new.sh"
changes "a guest script's mode" chmod +x "$T/selftests/lab/guest/guest.sh"
changes "a test's guest helper edited" append "$T/selftests/integration/configs/guest/configs-lib.sh"
changes "ktap.sh edited" append "$T/selftests/ktap.sh"
changes "build-guest.sh edited" append "$T/selftests/lab/build-guest.sh"
changes "lib.sh edited" append "$T/selftests/lab/lib.sh"
changes "image-cache.sh edited" append "$T/selftests/lab/image-cache.sh"
changes "the ntprof tool rebuilt" append "$T/tools/ntprof/ntprof"
changes "the agent rebuilt" append "$T/tools/agent/libntprof-agent.so"
changes "the test client rebuilt" append "$T/selftests/tools/testclient"
changes "the netlink spec edited" append "$T/Documentation/netlink/specs/ntprof.yaml"
changes "a kernel module replaced" sh -c \
	"echo new > '$CACHE/kernels/$REL/root/lib/modules/$REL/kernel/null_blk.ko'"
changes "the kernel's headers changed" touch -d @1 \
	"$CACHE/kernels/$REL/root/usr/src/linux-headers-$REL/Makefile"
ktap_check "the key changes: another kernel" [ "$(key "$REL7")" != "$BASE" ]
for v in LAB_EXTRA=bpftrace LAB_TLS=1 LAB_HOOK_COST=1 LAB_DRAIN_GEN=1 \
	 LAB_EMPTYPROBE=1 LAB_PKG=/srv/debs SPDK="$TMP/spdk" W=1 \
	 KCFLAGS=-O1 "MAKEFLAGS=j2 --jobserver-auth=3,4 -- W=1"; do
	env_changes "$v"
done
same "a run's own settings" env LAB_RUN_DIR=/x LAB_TIMEOUT=5 LAB_CMDLINE=quiet true
same "make's job server" env "MAKEFLAGS=j2 --jobserver-auth=5,6" true
same "a file the image does not hold" append "$T/selftests/lab/fetch-checkpatch.sh"

# With a setting on, what it brings is part of the key too.
K7=$(key "$REL7")
echo "forky: make gcc" > "$CACHE/chroots/forky/.ntprof-chroot"
ktap_check "the key changes: the chroot made again (7.x)" [ "$(key "$REL7")" != "$K7" ]
ktap_check "the chroot is no input of a 6.1 image" [ "$(key)" = "$BASE" ]
KS=$(SPDK=$TMP/spdk key)
append "$TMP/spdk/build/bin/nvmf_tgt"
ktap_check "the key changes: SPDK's nvmf_tgt rebuilt" [ "$(SPDK=$TMP/spdk key)" != "$KS" ]
KT=$(LAB_TLS=1 key)
append "$CACHE/tls/root/usr/sbin/tlshd"
touch -d @2 "$CACHE/tls/root/usr/sbin/tlshd"
ktap_check "the key changes: the TLS tools unpacked again" [ "$(LAB_TLS=1 key)" != "$KT" ]
KE=$(LAB_EMPTYPROBE=1 key)
append "$T/tools/bench/emptyprobe/ntprof_emptyprobe.c"
ktap_check "the key changes: the empty probes' source" [ "$(LAB_EMPTYPROBE=1 key)" != "$KE" ]

# Every setting that build-guest.sh reads is in the key's list: a new
# LAB_* switch of the image must be added there.
missing=
known=" $(bash -c ". '$T/selftests/lab/image-cache.sh'; echo \$IMAGE_KEY_ENV") "
# shellcheck disable=SC2016 # a regular expression, not an expansion.
for v in $(grep -oE '\$\{?(LAB_[A-Z_]+|SPDK)\b' "$TOP/selftests/lab/build-guest.sh" |
	   tr -d '${' | sort -u); do
	case "$v" in
	LAB_DIR | LAB_CACHE | LAB_CACHE_BUILT) continue ;;
	esac
	case "$known" in
	*[[:space:]]"$v"[[:space:]]*) ;;
	*) missing="$missing $v" ;;
	esac
done
ktap_check "every setting of build-guest.sh is in IMAGE_KEY_ENV${missing:+ (missing:$missing)}" \
	[ -z "$missing" ]

# The cache itself: lab_cache_use with a build that counts its runs.
# build and fail are called by name, through lab_cache_use (SC2317).
# shellcheck disable=SC2317
(
	LAB_CACHE=$CACHE
	. "$TOP/selftests/lab/lib.sh"
	LAB_CACHE=$CACHE
	. "$TOP/selftests/lab/image-cache.sh"
	echo m > "$TMP/manifest"
	build() { sleep 1; echo x >> "$TMP/builds"; echo "$BASHPID" > "$1/initrd.cpio"; }
	fail() { echo "$1" > "$TMP/failed-dir"; false; }
	lab_cache_use image-k1 "$TMP/manifest" build "$TMP/d1" &
	lab_cache_use image-k1 "$TMP/manifest" build "$TMP/d2" &
	wait
	[ "$(wc -l < "$TMP/builds")" = 1 ] && cmp -s "$TMP/d1/initrd.cpio" "$TMP/d2/initrd.cpio" &&
		echo once > "$TMP/r-once"
	lab_cache_use image-k1 "$TMP/manifest" build "$TMP/d3"
	[ "$LAB_CACHE_BUILT" = 0 ] && [ "$(wc -l < "$TMP/builds")" = 1 ] && echo reused > "$TMP/r-reuse"
	( set -e; lab_cache_use image-k2 "$TMP/manifest" fail "$TMP/d4" ) 2>/dev/null
	[ ! -e "$CACHE/images/image-k2" ] && [ ! -e "$(cat "$TMP/failed-dir")" ] && echo clean > "$TMP/r-fail"
	for i in 3 4 5 6; do
		sleep 0.01
		LAB_IMAGE_CACHE_KEEP=2 lab_cache_use "image-k$i" "$TMP/manifest" build "$TMP/d$i"
	done
	ls -d "$CACHE"/images/image-* | sed 's|.*/||' | sort | tr '\n' ' ' > "$TMP/r-prune"
)
ktap_check "two runs at once build an entry once and both use it" [ -e "$TMP/r-once" ]
ktap_check "a later run reuses the entry" [ -e "$TMP/r-reuse" ]
ktap_check "a failed build leaves no entry and no temporary directory" [ -e "$TMP/r-fail" ]
ktap_check "pruning keeps the newest entries ($(cat "$TMP/r-prune" 2>/dev/null))" \
	[ "$(cat "$TMP/r-prune" 2>/dev/null)" = "image-k5 image-k6 " ]

ktap_finished
