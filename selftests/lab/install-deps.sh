#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian 12 packages that building ntprof, its checks and the
# lab need. Quick when everything is there already.
set -euo pipefail

PACKAGES="make gcc libc6-dev pkg-config libmnl-dev libyaml-dev sparse dwarves bc flex
	bison libelf-dev libdw-dev libbpf-dev libssl-dev perl dkms dpkg-dev qemu-system-x86 zlib1g-dev
	libisal-dev libzydis-dev
	clang libclang-rt-14-dev debootstrap
	busybox-static dash bash fio nvme-cli mdadm iproute2 kmod cpio xz-utils zstd
	util-linux coreutils e2fsprogs gawk groff-base man-db jq python3-jsonschema python3-docutils
	debhelper dh-dkms lintian systemd shellcheck
	prometheus prometheus-node-exporter chromium fonts-dejavu-core python3-pil
	ibverbs-providers"

# ibverbs-providers: with SPDK=DIR the lab copies soft-RoCE's libibverbs
# provider (librxe) into the guests, which SPDK's RDMA transport opens
# without naming it to ldd (build-guest.sh, stage_spdk).
# mdadm: the lab's chain topology builds an md raid1 on its middle guest
# (selftests/lab/guest/chain.sh) with it.
# libyaml-dev: selftests/tools/nlfuzz reads the family's YAML spec.
# libzydis-dev: the SPDK agent decodes and re-encodes x86 with Zydis.
# bc, flex, bison, libelf-dev, libssl-dev, dwarves (pahole, for BTF),
# cpio, xz-utils, kmod: debug-kernel.sh builds the lab's debug kernel
# from Debian's linux-source-6.12 with them.
# debootstrap: make-chroot.sh makes the chroot where the module builds
# against trixie's kernels (7.x) for the build test, and make-pkg-root.sh
# the Debian 12 system of the package test; e2fsprogs: pkg-image.sh
# makes that test's disk with mkfs.ext4 -d.
# debhelper, dh-dkms: make deb builds the Debian packages with them;
# lintian checks them, and systemd's systemd-analyze verifies the unit
# (selftests/unit/test_deb.sh).
# python3-docutils: test_docs.sh builds Documentation/*.rst.
# The package shellcheck: make shellcheck (selftests/shellcheck.sh, test_shellcheck.sh)
# checks every shell script of the tree.
# python3-jsonschema: selftests/json-check.py validates the --json
# outputs against Documentation/schemas (4.10 has JSON Schema 2020-12).
# prometheus: its promtool checks what record --prom writes, and its server
# runs the recording rules in the lab's test with prometheus-node-exporter
# serving the files (integration/prom_fleet/test.sh); chromium renders
# report --html for its test, with a font for its text; python3-pil:
# test_html_browser.sh reads the screenshot's pixels.
# The lab's QEMU must be 8.1 or newer: under the TCG of 7.2 (Debian 12's),
# a page that QEMU translated code from and that a device wrote at the same
# time could leave stale code behind (fixed by QEMU's "accel/tcg: Always
# lock pages before translation"): the guests oopsed or lost their network
# now and then under NVMe/RDMA traffic (Documentation/lab.rst).
# On Debian 12 it comes from bookworm-backports, read through a private
# apt configuration that leaves the system's sources alone.
. "$(dirname "$0")/lib.sh"
QEMU_MIN=8.1
APT_DIR=$LAB_CACHE/apt-qemu

qemu_recent() {
	local v

	v=$(qemu-system-x86_64 --version 2>/dev/null |
	    sed -n '1s/.*version \([0-9]*\.[0-9]*\).*/\1/p')
	[ -n "$v" ] && [ "$(printf '%s\n%s\n' "$QEMU_MIN" "$v" | sort -V | head -n 1)" = "$QEMU_MIN" ]
}

install_backports_qemu() {
	local opts=(-o "Dir::Etc::SourceList=$APT_DIR/sources.list"
		    -o "Dir::Etc::SourceParts=/dev/null"
		    -o "Dir::State::Lists=$APT_DIR/lists")

	mkdir -p "$APT_DIR/lists/partial"
	lab_bookworm_sources > "$APT_DIR/sources.list"
	echo "ntprof: installing QEMU from bookworm-backports (the lab needs $QEMU_MIN or newer)" >&2
	apt-get "${opts[@]}" update -qq
	DEBIAN_FRONTEND=noninteractive apt-get "${opts[@]}" install -y -qq \
		--no-install-recommends -t bookworm-backports qemu-system-x86 > /dev/null
}

missing=()
for p in $PACKAGES; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && qemu_recent && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "ntprof: missing packages: ${missing[*]:-none}; QEMU $QEMU_MIN or newer:" \
		"run as root or install them" >&2
	exit 1
fi
if [ ${#missing[@]} -gt 0 ]; then
	echo "ntprof: installing ${missing[*]}" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
fi
qemu_recent || install_backports_qemu
qemu_recent || { echo "ntprof: QEMU $QEMU_MIN or newer is needed for the lab" >&2; exit 1; }
