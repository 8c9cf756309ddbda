#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The module builds with zero warnings at W=1 and zero sparse reports (C=2)
# against each kernel of the matrix, the kernel sources are checkpatch
# --strict clean, the tool builds without warnings, and DKMS adds, builds
# and installs the module for a lab kernel.
#
# CHECK_KERNELS="5.10 6.1 6.12 7.2 7.3" names the kernel matrix: Debian's
# bullseye, bookworm and its backports, trixie's backports. The kernels of
# trixie (7.x) build in a forky chroot (selftests/lab/make-chroot.sh),
# the others on this machine. On a cached machine the matrix takes some
# five minutes on 2 cores; the first run also downloads the kernels and
# debootstraps the chroot, a few minutes more.
set -uo pipefail
cd "$(dirname "$0")/../.."
. selftests/ktap.sh
. selftests/lab/lib.sh

CHECK_KERNELS=${CHECK_KERNELS:-5.10 6.1 6.12 7.2 7.3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

build_module() {
	local release=$1 src="$work/$1" log="$work/$1.log" start

	copy_module_sources "$src"
	# The benchmark's empty probes are kernel code too.
	mkdir -p "$src/tools/bench"
	cp -r tools/bench/emptyprobe "$src/tools/bench/"
	lab_kernel_needs_cc "$release" &&
		ktap_diag "$release: its headers name $(lab_headers_cc "$(lab_kernel_build_dir "$release")"), not in Debian 12: built with gcc $(x86_64-linux-gnu-gcc -dumpfullversion)"
	start=$SECONDS
	if ! lab_kmake "$release" "$work" M="$src" W=1 C=2 NTPROF_VERSION=check \
		modules > "$log" 2>&1 ||
	   ! lab_kmake "$release" "$work" M="$src/tools/bench/emptyprobe" W=1 C=2 \
		modules >> "$log" 2>&1; then
		ktap_fail "module builds against $release"
		tail -n 30 "$log" | sed 's/^/# /'
		return
	fi
	ktap_pass "module builds against $release"
	ktap_diag "$release: built in $((SECONDS - start))s"

	# A C=2 that checked nothing would pass too: sparse must have run
	# (a kernel's Makefile turns C=2 off for a sparse it finds too old).
	grep -q '^  CHECK ' "$log" ||
		grep -i 'sparse\|checker' "$log" > "$log.w" ||
		echo "sparse did not run" > "$log.w"
	if grep -E 'warning:|error:' "$log" >> "$log.w" || [ -s "$log.w" ]; then
		ktap_fail "W=1 and sparse (C=2) report nothing on $release"
		sed 's/^/# /' "$log.w"
	else
		ktap_pass "W=1 and sparse (C=2) report nothing on $release"
	fi
}

dkms_check() {
	local release=$1 kdir version src out lib=/lib/modules/$1 made_lib=

	kdir=$(lab_kernel_build_dir "$release")
	version=$(cat VERSION)
	src=/usr/src/ntprof-$version
	# dkms installs into /lib/modules/RELEASE and runs depmod there: lay
	# out the lab kernel's module indexes if this machine lacks them, and
	# take them away again afterwards.
	if [ ! -d "$lib" ]; then
		mkdir -p "$lib"
		cp "$(lab_kernel_root "$release")$lib"/modules.* "$lib/"
		ln -s "$kdir" "$lib/build"
		made_lib=1
	fi
	dkms remove -m ntprof -v "$version" --all > /dev/null 2>&1
	make -s dkms-install DKMS_SRC="$src" > "$work/dkms.log" 2>&1 &&
	dkms add -m ntprof -v "$version" >> "$work/dkms.log" 2>&1 &&
	dkms build -m ntprof -v "$version" -k "$release" \
		--kernelsourcedir "$kdir" >> "$work/dkms.log" 2>&1
	if ! out=$(find "/var/lib/dkms/ntprof/$version/$release" -name 'ntprof.ko*' 2>/dev/null | head -n1) ||
	   [ -z "$out" ]; then
		ktap_fail "dkms add and build against $release"
		tail -n 30 "$work/dkms.log" | sed 's/^/# /'
	else
		ktap_pass "dkms add and build against $release"
		if dkms install -m ntprof -v "$version" -k "$release" \
			--kernelsourcedir "$kdir" >> "$work/dkms.log" 2>&1 &&
		   /sbin/modinfo -k "$release" -F version ntprof > /dev/null 2>&1; then
			ktap_pass "dkms install for $release: modinfo finds ntprof"
		else
			ktap_fail "dkms install for $release: modinfo finds ntprof"
			tail -n 30 "$work/dkms.log" | sed 's/^/# /'
		fi
	fi
	dkms remove -m ntprof -v "$version" --all > /dev/null 2>&1
	rm -rf "$src"
	[ -z "$made_lib" ] || rm -rf "$lib"
}

ktap_header
for k in $CHECK_KERNELS; do
	if release=$(KERNEL=$k bash selftests/lab/fetch-kernel.sh 2> "$work/fetch.log"); then
		build_module "$release"
	else
		ktap_fail "kernel $k fetched"
		sed 's/^/# /' "$work/fetch.log"
	fi
done

# LINUX_VERSION_CODE: the rule is for code merged into one kernel; this
# module builds for many, with its version tests in kmod/compat.h.
checkpatch=$(bash selftests/lab/fetch-checkpatch.sh)
if out=$("$checkpatch" --no-tree --strict --quiet --show-types \
		--ignore LINUX_VERSION_CODE -f \
		$(ls kmod/*.[ch] tools/bench/emptyprobe/*.c | grep -v '\.mod\.c$') \
		include/uapi/linux/ntprof.h 2>&1); then
	ktap_pass "checkpatch --strict is clean"
else
	ktap_fail "checkpatch --strict is clean"
	printf '%s\n' "$out" | head -n 40 | sed 's/^/# /'
fi

if out=$(make -s -C tools/ntprof clean all 2>&1) && ! grep -q 'warning:' <<< "$out"; then
	ktap_pass "the tool builds without warnings"
else
	ktap_fail "the tool builds without warnings"
	printf '%s\n' "$out" | head -n 30 | sed 's/^/# /'
fi

# The releases dkms.conf builds for: every one from 5.10 on that
# kmod/Kbuild takes.
re=$(sed -n 's/^BUILD_EXCLUSIVE_KERNEL="\(.*\)"$/\1/p' dkms.conf)
bad=
for r in 5.10.0-46-amd64 5.15.0-1 6.1.0-57-amd64 6.8.0-50-generic \
	 6.12.95+deb12-amd64 6.16.12+deb13-amd64 7.2.12+deb13-amd64 \
	 7.3.4+deb13-amd64 10.1.0; do
	[[ $r =~ $re ]] || bad="$bad $r"
done
for r in 5.4.0-1 4.19.0-27-amd64 6.13.1 6.14.0-1 6.15.9; do
	[[ $r =~ $re ]] && bad="$bad +$r"
done
if [ -n "$re" ] && [ -z "$bad" ]; then
	ktap_pass "dkms.conf builds for 5.10 and later, but 6.13 to 6.15"
else
	ktap_fail "dkms.conf builds for 5.10 and later, but 6.13 to 6.15 (wrong:${bad:- no BUILD_EXCLUSIVE_KERNEL})"
fi

# DKMS builds with the machine's compiler, as it will on the user's:
# here Debian 12's, which is the one of bookworm's 6.1 and 6.12.
for k in 6.1 6.12; do
	dkms_check "$(KERNEL=$k bash selftests/lab/fetch-kernel.sh)"
done
ktap_finished
