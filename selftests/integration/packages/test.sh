#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034 # run.sh reads KERNELS and TOPOLOGY here.
# The Debian packages as an operator uses them, on one guest booted into
# a Debian 12 system with systemd and the headers of kernel KERNEL
# (selftests/lab/pkg-image.sh): 'make deb' here, then in the guest
# dpkg -i, DKMS's build, ntprof-record@host and @target recording in
# rotated parts across fio runs, report, and dpkg --purge leaving
# nothing behind (guest/pkg-host.sh).
KERNELS="6.1 6.12"
TOPOLOGY=one
# 'make deb' here, and the Debian 12 disk the guest boots
# (make-pkg-root.sh debootstraps it, pkg-image.sh makes it with mkfs.ext4).
requires() {
	require_program dpkg-buildpackage dpkg-dev
	require_program debootstrap debootstrap
	require_program mkfs.ext4 e2fsprogs
}

. "$(dirname "$0")/../common/lib.sh"
scenario_start "$@"

# tree_debs: the directory (else make deb's errors, as TAP diagnostics) of ntprof's and ntprof-dkms's .deb files that
# 'make deb' built from the tree as it is (the files git sees, changes
# included), built once for each state of the tree outside selftests/,
# which no package holds: the test's two
# kernels take the same packages, and 'make deb' takes minutes. Those of
# a state a day old go.
tree_debs() {
	local key dir=$LAB_CACHE/pkg-debs out

	key=$(cd ../../.. && git ls-files -z --cached --others --exclude-standard -- . ':!selftests' |
	      xargs -0 sha256sum 2>/dev/null | sha256sum | cut -c1-16)
	out=$dir/$key
	if ! ls "$out"/ntprof_*.deb "$out"/ntprof-dkms_*.deb > /dev/null 2>&1; then
		mkdir -p "$dir"
		find "$dir" -mindepth 1 -maxdepth 1 -mtime +0 -exec rm -rf {} +
		rm -rf "$out" "$out.build"
		make -s -C ../../.. deb DEB_DIR="$out.build" > "$out.log" 2>&1 || {
			tail -n 30 "$out.log" | sed 's/^/# make deb: /'
			return 1
		}
		mkdir -p "$out"
		mv "$out".build/ntprof_*.deb "$out".build/ntprof-dkms_*.deb "$out/"
		rm -rf "$out.build"
	fi
	echo "$out"
}

start=$(date +%s)
if ! debs=$(tree_debs); then
	ktap_header
	KTAP_PREFIX="packages-$KERNEL: "
	ktap_fail "make deb builds the packages"
	echo "$debs"
	ktap_finished
	exit 1
fi
echo "# the packages: $(cd "$debs" && echo *.deb) ($(( $(date +%s) - start )) s)"
# DKMS's build in the TCG guest takes minutes (Documentation/lab.rst).
LAB_TIMEOUT=${LAB_TIMEOUT:-1200} LAB_PKG=$debs lab_scenario "packages-$KERNEL" guest/pkg-host.sh ../common/guest/rec-one-target.sh
rc=$?
echo "# the test took $(( $(date +%s) - start )) s"
exit $rc
