#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Distro headers packages carry no checkpatch.pl: take it, with the data
# files it reads, from Debian's linux-source-6.12 package into the lab
# cache. Prints the path of checkpatch.pl.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dir="$LAB_CACHE/checkpatch"
if [ ! -x "$dir/scripts/checkpatch.pl" ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	lab_log "fetching checkpatch.pl from linux-source-6.12"
	(cd "$tmp" && apt-get download -qq -o APT::Sandbox::User=root linux-source-6.12) ||
		lab_die "cannot download linux-source-6.12 (apt-get update first?)"
	dpkg-deb --fsys-tarfile "$tmp"/linux-source-6.12_*.deb |
		tar -x -C "$tmp" --wildcards '*/linux-source-6.12.tar.xz'
	mkdir -p "$dir"
	tar -xJf "$tmp"/usr/src/linux-source-6.12.tar.xz -C "$dir" --strip-components=1 \
		--wildcards '*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch'
fi
echo "$dir/scripts/checkpatch.pl"
