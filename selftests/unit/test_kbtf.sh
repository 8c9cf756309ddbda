#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The BTF layout reader (tools/ntprof/lib/sites/kbtf.c) on the real BTF of the
# Debian kernels in the lab's cache (selftests/lab/fetch-kernel.sh):
# for each release there, the .BTF sections of its vmlinux and of the
# nvme modules become a directory laid out as /sys/kernel/btf is (raw
# BTF, one file per module, named as the kernel names modules, with '_'),
# and test_kbtf checks the offsets it reads there. A module without a
# .BTF section (before 5.11) gets no file, as a kernel shows none.
# Without the cache, one skip says so.
# Prints TAP; exits 1 if any test failed.
#
# usage: test_kbtf.sh [RELEASE...]   (default: every release cached)
# LAB_CACHE: the lab's cache, default /var/cache/ntprof-lab.

set -u

UNIT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
KERNELS=${LAB_CACHE:-/var/cache/ntprof-lab}/kernels
# The BTF files wanted: BTF name, then the module's path under drivers/nvme.
MODULES="nvme_core:host/nvme-core nvme_rdma:host/nvme-rdma nvmet:target/nvmet
	nvmet_tcp:target/nvmet-tcp nvmet_rdma:target/nvmet-rdma"

make -s -C "$UNIT_DIR" test_kbtf >&2 ||
	{ echo "Bail out! cannot build test_kbtf"; exit 1; }

tmp=$(mktemp -d) || { echo "Bail out! mktemp"; exit 1; }
trap 'rm -rf "$tmp"' EXIT

# Copies the .BTF section of ELF file $1 to $2, if it has one; more options
# for objcopy may follow. -O binary writes only sections that take memory:
# a module's .BTF does not (the module loader reads it from the file), so
# it is marked as if it did; vmlinux's does, and takes no options.
extract_btf() {
	readelf -S -W "$1" 2>/dev/null | grep -q ' \.BTF ' || return 0
	objcopy -O binary --only-section=.BTF "${@:3}" "$1" "$2"
}

# Lays out the BTF of release $1 in directory $2; fails when a file is missing.
extract_release() {
	local rel=$1 dir=$2 m name ko alloc=(--set-section-flags .BTF=alloc)
	local nvme=$KERNELS/$rel/root/lib/modules/$rel/kernel/drivers/nvme

	[ -f "$KERNELS/$rel/vmlinux" ] || return 1
	extract_btf "$KERNELS/$rel/vmlinux" "$dir/vmlinux" || return 1
	for m in $MODULES; do
		name=${m%%:*}
		ko=$nvme/${m#*:}.ko
		if [ -f "$ko" ]; then
			extract_btf "$ko" "$dir/$name" "${alloc[@]}" || return 1
		elif [ -f "$ko.xz" ]; then
			xz -dc "$ko.xz" > "$tmp/module.ko" &&
				extract_btf "$tmp/module.ko" "$dir/$name" "${alloc[@]}" ||
				return 1
		else
			return 1
		fi
	done
}

if [ $# -eq 0 ]; then
	for d in "$KERNELS"/*/; do
		[ -f "$d/vmlinux" ] && set -- "$@" "$(basename "$d")"
	done
fi
if [ $# -eq 0 ]; then
	echo "ok 1 - kernel BTF # SKIP no kernels in $KERNELS (selftests/lab/fetch-kernel.sh)"
	echo "1..1"
	exit 0
fi

ret=0
n=0
for rel in "$@"; do
	n=$((n + 1))
	dir=$tmp/$n
	mkdir "$dir"
	if ! extract_release "$rel" "$dir"; then
		echo "not ok 1 - $rel: cannot extract its BTF from $KERNELS/$rel"
		echo "1..1"
		ret=1
		continue
	fi
	"$UNIT_DIR/test_kbtf" "$dir" "$rel" || ret=1
done
exit $ret
