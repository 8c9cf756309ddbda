#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian 12 packages that building ntprof, its checks and the
# lab need. Quick when everything is there already.
set -euo pipefail

PACKAGES="make gcc libc6-dev pkg-config libmnl-dev sparse dwarves bc flex
	bison libelf-dev libssl-dev perl dkms dpkg-dev qemu-system-x86 zlib1g-dev
	clang libclang-rt-14-dev
	busybox-static dash bash fio nvme-cli iproute2 kmod cpio xz-utils zstd
	util-linux coreutils gawk groff-base man-db jq"

missing=()
for p in $PACKAGES; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "ntprof: missing packages: ${missing[*]}; run as root or install them" >&2
	exit 1
fi
echo "ntprof: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
