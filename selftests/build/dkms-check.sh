#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dkms-check.sh RELEASE KDIR MODULES RESULTS: install ntprof by DKMS for
# the kernel RELEASE as a user does (README.md): make dkms-install, which
# copies the sources to /usr/src/ntprof-VERSION, then dkms add, dkms build
# and dkms install against the headers in KDIR; MODULES holds the kernel's
# module indexes (modules.*), which the install's depmod reads. Writes
# "build ok", "install ok", "module PATH", "compiler GCC" and "vermagic V"
# lines to RESULTS for test_build.sh, and the commands' output to stdout.
#
# It runs in a mount namespace of its own, on this machine or in the
# forky chroot (test_build.sh): there /usr/src, DKMS's tree /var/lib/dkms and
# /lib/modules/RELEASE are empty tmpfs mounts, so DKMS starts from nothing,
# nothing of it stays on the system or in the cached chroot, and two runs
# (two checkouts, CI and a developer) never meet in those trees.
set -euo pipefail

release=$1 kdir=$2 modules=$3 results=$4
top=$(cd "$(dirname "$0")/../.." && pwd)
version=$(cat "$top/VERSION")
lib=/lib/modules/$release
made=()
# modinfo and depmod live in sbin, which a user's PATH may lack.
PATH=$PATH:/usr/sbin:/sbin

# In a mount namespace of its own, so that the mounts below go with it
# even if this script is killed. NTPROF_DKMS_NS=1 says the caller made
# one already (lab_in_chroot: in a chroot, whose / is no mount point,
# unshare cannot make / private).
if [ -z "${NTPROF_DKMS_NS:-}" ]; then
	NTPROF_DKMS_NS=1 exec unshare --mount --propagation private \
		bash "$0" "$@"
fi

cleanup() {
	local d i

	for d in /var/lib/dkms /usr/src "$lib"; do
		umount "$d" 2> /dev/null || true
	done
	# The mount points this run had to make, each with the parents
	# it made (made[] holds "DIR TOP" pairs).
	for ((i = 0; i < ${#made[@]}; i += 2)); do
		d=${made[i]}
		while rmdir "$d" 2> /dev/null && [ "$d" != "${made[i + 1]}" ]; do
			d=$(dirname "$d")
		done
	done
}
trap cleanup EXIT

# A machine without /lib/modules (a container) needs the mount point
# made: note the first missing directory of each, to take it away again.
for d in /var/lib/dkms /usr/src "$lib"; do
	p=$d
	while [ ! -d "$(dirname "$p")" ]; do p=$(dirname "$p"); done
	[ -d "$d" ] || { made+=("$d" "$p"); mkdir -p "$d"; }
	mount -t tmpfs -o mode=0755 ntprof-dkms "$d"
done
cp "$modules"/modules.* "$lib/"
ln -s "$kdir" "$lib/build"

: > "$results"
src=/usr/src/ntprof-$version
make -s -C "$top" dkms-install DKMS_SRC="$src"
dkms add -m ntprof -v "$version"
# One make job, not one a CPU: make check counts test_build as one CPU's
# load beside the lab's guests (run_tests.sh), and a guest starved of its
# CPU fails timing-sensitive checks.
dkms build -j 1 -m ntprof -v "$version" -k "$release" --kernelsourcedir "$kdir" ||
	exit 0
# dkms reports a build that made no module as a failure too; check the
# module is there all the same, as a user would find it.
find "/var/lib/dkms/ntprof/$version/$release" -name 'ntprof.ko*' | grep -q . ||
	exit 0
echo "build ok" >> "$results"
dkms install -m ntprof -v "$version" -k "$release" --kernelsourcedir "$kdir" ||
	exit 0
echo "install ok" >> "$results"
mod=$(modinfo -k "$release" -n ntprof)
echo "module $mod" >> "$results"
# The compiler that built it, from its .comment (dkms may compress it).
case "$mod" in
*.xz) xz -dc "$mod" > "$mod.elf" ;;
*.zst) zstd -qdc "$mod" > "$mod.elf" ;;
*) cp "$mod" "$mod.elf" ;;
esac
echo "compiler $(readelf -p .comment "$mod.elf" | sed -n 's/.*\(GCC: .*\)/\1/p' | sort -u | head -n1)" >> "$results"
rm -f "$mod.elf"
echo "vermagic $(modinfo -k "$release" -F vermagic ntprof)" >> "$results"
dkms status -m ntprof -v "$version"
