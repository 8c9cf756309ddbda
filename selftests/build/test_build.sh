#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The module builds with zero warnings at W=1 and zero sparse reports (C=2)
# against each kernel of the matrix, the kernel sources are checkpatch
# --strict clean, the tool and the SPDK agent's library build without
# warnings, and DKMS adds, builds and installs the module for each kernel
# of the matrix, as a user would.
#
# CHECK_KERNELS="5.10 6.1 6.12 7.2 7.3" names the kernel matrix: Debian's
# bullseye, bookworm and its backports, trixie's backports. The kernels of
# trixie (7.x) build in a forky chroot (selftests/lab/make-chroot.sh),
# the others on this machine; DKMS runs where the module builds, the
# forky chroot's dkms for 7.x. On a cached machine the matrix takes some
# five minutes on 2 cores, DKMS some 10 s more per kernel; the first run
# also downloads the kernels and debootstraps the chroot, a few minutes
# more.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
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
	check_features "$release" "$src"

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

# dkms_check RELEASE: make dkms-install, dkms add, build and install for
# RELEASE (dkms-check.sh), where the build matrix builds it: the 7.x
# kernels in the forky chroot, with its dkms, the others on this machine,
# with its dkms.
dkms_check() {
	local release=$1 kdir modules res=$work/dkms.res log=$work/dkms.log
	local root vermagic args start=$SECONDS

	kdir=$(lab_kernel_build_dir "$release")
	modules=$(lab_kernel_root "$release")/lib/modules/$release
	args=("$release" "$kdir" "$modules" "$res")
	rm -f "$res"
	if lab_kernel_needs_chroot "$release"; then
		if ! root=$(bash selftests/lab/make-chroot.sh 2> "$log"); then
			ktap_fail "dkms add and build against $release (no forky chroot)"
			sed 's/^/# /' "$log"
			return
		fi
		# lab_in_chroot's mount namespace is the script's own.
		lab_in_chroot "$root" "$LAB_CACHE/kernels" "$TOP_DIR" "$work" -- \
			env NTPROF_DKMS_NS=1 \
			bash "$TOP_DIR/selftests/build/dkms-check.sh" "${args[@]}" \
			> "$log" 2>&1
	elif lab_kernel_needs_cc "$release"; then
		# As the build matrix does (lab_kmake): make CC=, which
		# MAKEFLAGS hands to every make that dkms runs, over the
		# CC that dkms takes from the headers' .kernelvariables.
		ktap_diag "$release: dkms builds with MAKEFLAGS=CC=x86_64-linux-gnu-gcc (gcc $(x86_64-linux-gnu-gcc -dumpfullversion)), not $(lab_headers_cc "$kdir")"
		MAKEFLAGS=CC=x86_64-linux-gnu-gcc \
			bash selftests/build/dkms-check.sh "${args[@]}" > "$log" 2>&1
	else
		bash selftests/build/dkms-check.sh "${args[@]}" > "$log" 2>&1
	fi
	if ! grep -qx 'build ok' "$res" 2> /dev/null; then
		ktap_fail "dkms add and build against $release"
		tail -n 30 "$log" | sed 's/^/# /'
		return
	fi
	ktap_pass "dkms add and build against $release"
	# The module dkms installed is the one for RELEASE: its vermagic
	# starts with the release (a module built against the wrong headers
	# would not load).
	vermagic=$(sed -n 's/^vermagic //p' "$res")
	if grep -qx 'install ok' "$res" && [ "${vermagic%% *}" = "$release" ]; then
		ktap_pass "dkms install for $release: modinfo finds ntprof, vermagic $release"
		ktap_diag "$release: $(sed -n 's/^module //p' "$res"), $(sed -n 's/^compiler //p' "$res"), dkms in $((SECONDS - start))s"
	else
		ktap_fail "dkms install for $release: modinfo finds ntprof, vermagic $release"
		ktap_diag "vermagic: ${vermagic:-none}"
		tail -n 30 "$log" | sed 's/^/# /'
	fi
}

# check_features RELEASE SRC: kmod/Kbuild's feature tests (NTPROF_HAVE_*,
# which kmod/compat.h uses instead of versions) found in RELEASE's
# headers and exports the features that its version has, as the
# kernels' own changes say; a test that found nothing would fall back to
# the older API, which for some (ftrace_free_filter(), resv_start_op)
# builds without a word.
check_features() {
	local release=$1 src=$2 v have want=
	local major=${1%%.*} minor

	minor=${release#*.}
	minor=${minor%%[!0-9]*}
	v=$((major * 256 + minor))
	# Each feature and the first version that has it (!: that lacks it).
	while read -r feature since; do
		local neg='' s=$since
		[ "${s#!}" != "$s" ] && { neg=1; s=${s#!}; }
		local sv=$(( ${s%%.*} * 256 + ${s#*.} ))
		if { [ -z "$neg" ] && [ "$v" -ge "$sv" ]; } ||
		   { [ -n "$neg" ] && [ "$v" -lt "$sv" ]; }; then
			want="$want $feature"
		fi
	done <<- 'EOF_FEATURES'
		FTRACE_REGS 5.11
		FTRACE_RECURSION_SAFE !5.11
		FTRACE_FREE_FILTER 6.1
		QUEUE_DISK 5.15
		GENL_RESV_START_OP 6.1
		RB_COMMIT_BUFFER_ONLY 6.2
		UPROBE_NOSYNC 6.12
		UPROBE_FILTER_CTX !6.12
		UPROBE_HANDLER_DATA 6.13
	EOF_FEATURES
	have=$(grep -oh -- '-DNTPROF_HAVE_[A-Z_]*' "$src"/kmod/.main.o.cmd 2> /dev/null |
		sed 's/^-DNTPROF_HAVE_//' | sort -u | tr '\n' ' ')
	# shellcheck disable=SC2086 # one feature a word.
	want=$(printf '%s\n' $want | sort -u | tr '\n' ' ')
	if [ "$have" = "$want" ]; then
		ktap_pass "the feature tests find what $release has"
	else
		ktap_fail "the feature tests find what $release has"
		ktap_diag "found: ${have:-none}"
		ktap_diag "expected: $want"
	fi
}

# build_without_uprobes RELEASE: the module builds, with no warning at
# W=1, for a kernel without CONFIG_UPROBES: Kbuild leaves uprobes.c out
# and the stubs of kmod/uprobes.h stand in. Every kernel of the matrix
# has uprobes, so the option is turned off for this build alone: in make
# (Kbuild's ntprof-$(CONFIG_UPROBES)) and in the preprocessor, by a
# header forced in after the kernel's autoconf.h (KCFLAGS come later on
# the compiler's command line). The module is only built, never loaded.
build_without_uprobes() {
	local release=$1 src="$work/$1-nouprobes" log="$work/$1-nouprobes.log"

	copy_module_sources "$src"
	echo '#undef CONFIG_UPROBES' > "$work/nouprobes.h"
	if lab_kmake "$release" "$work" M="$src" W=1 NTPROF_VERSION=check \
		CONFIG_UPROBES= KCFLAGS="-include $work/nouprobes.h" \
		modules > "$log" 2>&1 &&
	   ! grep -q 'uprobes\.o' "$log" &&
	   ! grep -E 'warning:|error:' "$log" > "$log.w"; then
		ktap_pass "module builds against $release without CONFIG_UPROBES"
	else
		ktap_fail "module builds against $release without CONFIG_UPROBES"
		grep -E 'uprobes\.o|warning:|error:|ERROR:' "$log" | head -n 20 |
			sed 's/^/# /'
	fi
}

ktap_header
for k in $CHECK_KERNELS; do
	if release=$(KERNEL=$k bash selftests/lab/fetch-kernel.sh 2> "$work/fetch.log"); then
		build_module "$release"
		last_release=$release
	else
		ktap_fail "kernel $k fetched"
		sed 's/^/# /' "$work/fetch.log"
	fi
done
[ -n "${last_release:-}" ] && build_without_uprobes "$last_release"

# LINUX_VERSION_CODE: the rule is for code merged into one kernel; this
# module builds for many, with its version tests in kmod/compat.h.
checkpatch=$(bash selftests/lab/fetch-checkpatch.sh)
sources=()
for f in kmod/*.[ch] tools/bench/emptyprobe/*.c; do
	[[ $f == *.mod.c ]] || sources+=("$f")
done
if out=$("$checkpatch" --no-tree --strict --quiet --show-types \
		--ignore LINUX_VERSION_CODE -f "${sources[@]}" \
		include/uapi/linux/ntprof.h 2>&1); then
	ktap_pass "checkpatch --strict is clean"
else
	ktap_fail "checkpatch --strict is clean"
	printf '%s\n' "$out" | head -n 40 | sed 's/^/# /'
fi

# The tool and the agent's library build in a copy of the tree: their make
# clean must not take away the programs that the lab tests running beside
# this one (run_tests.sh) copy into their guests.
copy_tree_files "$work/tree"
if out=$(make -s -C "$work/tree/tools/ntprof" clean all 2>&1) &&
   ! grep -q 'warning:' <<< "$out"; then
	ktap_pass "the tool builds without warnings"
else
	ktap_fail "the tool builds without warnings"
	printf '%s\n' "$out" | head -n 30 | sed 's/^/# /'
fi

if out=$(make -s -C "$work/tree/tools/agent" clean all 2>&1) &&
   ! grep -q 'warning:' <<< "$out"; then
	ktap_pass "the SPDK agent's library builds without warnings"
else
	ktap_fail "the SPDK agent's library builds without warnings"
	printf '%s\n' "$out" | head -n 40 | sed 's/^/# /'
fi

# The releases dkms.conf builds for: every one from 5.10 on.
re=$(sed -n 's/^BUILD_EXCLUSIVE_KERNEL="\(.*\)"$/\1/p' dkms.conf)
bad=
for r in 5.10.0-46-amd64 5.15.0-1 6.1.0-57-amd64 6.8.0-50-generic \
	 6.12.95+deb12-amd64 6.16.12+deb13-amd64 7.2.12+deb13-amd64 \
	 7.3.4+deb13-amd64 6.13.1 6.14.0-1 6.15.9 10.1.0; do
	[[ $r =~ $re ]] || bad="$bad $r"
done
for r in 5.4.0-1 4.19.0-27-amd64 5.9.16; do
	[[ $r =~ $re ]] && bad="$bad +$r"
done
if [ -n "$re" ] && [ -z "$bad" ]; then
	ktap_pass "dkms.conf builds for 5.10 and later"
else
	ktap_fail "dkms.conf builds for 5.10 and later (wrong:${bad:- no BUILD_EXCLUSIVE_KERNEL})"
fi

# DKMS for every kernel of the matrix, where the matrix builds it; a
# kernel that is not fetched has no headers to build against: a skip.
for k in $CHECK_KERNELS; do
	if release=$(KERNEL=$k bash selftests/lab/fetch-kernel.sh 2> "$work/fetch.log"); then
		dkms_check "$release"
	else
		ktap_skip "dkms add, build and install for $k" \
			"no headers: $(tail -n1 "$work/fetch.log")"
	fi
done
ktap_finished
