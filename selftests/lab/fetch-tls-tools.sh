#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The programs an NVMe/TCP TLS connection needs in the guests, from
# Debian 13 (trixie): nvme-cli 2.13 (gen-tls-key, check-tls-key,
# connect --tls; bookworm's 2.4 has none of them) and ktls-utils' tlshd,
# the handshake daemon (not in bookworm). Their packages and the library
# packages they depend on are downloaded with the lab's private apt
# configuration (lab_apt_init) and unpacked under LAB_CACHE/tls/root,
# which this prints. build-guest.sh copies what the programs load into
# the guest, beside bookworm's userland (Documentation/lab.rst, TLS).
#
# The unpacked tree is kept: a later call checks its stamp and returns at
# once; a changed package list unpacks it again.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# The programs' packages; the library packages they need (lib*, zlib1g)
# are followed from these, and no other dependency (debconf, adduser):
# nothing of those is loaded.
TLS_PACKAGES="nvme-cli ktls-utils"
# Bumped when the closure's rule changes: the tree is unpacked again.
TLS_STAMP="$TLS_PACKAGES (libraries, zlib1g)"

root=$LAB_CACHE/tls/root
stamp=$LAB_CACHE/tls/complete

# closure PKG...: the packages and, recursively, the libraries (lib*,
# zlib1g) they depend on.
closure() {
	local seen=" " todo=("$@") p dep

	while [ ${#todo[@]} -gt 0 ]; do
		p=${todo[0]}
		todo=("${todo[@]:1}")
		case "$seen" in *" $p "*) continue ;; esac
		seen="$seen$p "
		echo "$p"
		for dep in $(apt-cache "${LAB_APT_OPTS[@]}" depends --no-recommends \
				--no-suggests --no-conflicts --no-breaks --no-replaces \
				--no-enhances "$p" |
			     sed -n 's/^ *\(Pre\)\{0,1\}Depends: \(lib[^ <>]*\|zlib1g\).*/\2/p'); do
			todo+=("$dep")
		done
	done
}

main() {
	local pkgs p

	if [ "$(cat "$stamp" 2>/dev/null)" = "$TLS_STAMP" ]; then
		echo "$root"
		return 0
	fi
	lab_fetch_lock
	# Another lab run may have unpacked it while this one waited.
	if [ "$(cat "$stamp" 2>/dev/null)" = "$TLS_STAMP" ]; then
		echo "$root"
		return 0
	fi
	lab_apt_init trixie
	lab_apt_update
	# shellcheck disable=SC2086 # TLS_PACKAGES is a list of names.
	pkgs=$(closure $TLS_PACKAGES | sort -u)
	lab_log "fetching trixie's $TLS_PACKAGES and their libraries for the TLS guests"
	# shellcheck disable=SC2086
	lab_apt_unpack "$LAB_CACHE/tls/debs" "$root" $pkgs ||
		lab_die "cannot download trixie's packages: $(tr '\n' ' ' <<< "$pkgs")"
	for p in usr/sbin/nvme usr/sbin/tlshd usr/lib64/ld-linux-x86-64.so.2; do
		[ -e "$root/$p" ] || lab_die "trixie's packages have no /$p"
	done
	echo "$TLS_STAMP" > "$stamp"
	echo "$root"
}

main "$@"
