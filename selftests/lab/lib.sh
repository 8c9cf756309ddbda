# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Common settings of the virtual NVMe-oF lab, sourced by its scripts.

LAB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP_DIR=$(cd "$LAB_DIR/../.." && pwd)

# Downloads and builds survive between runs here, so a rerun starts in seconds.
LAB_CACHE=${LAB_CACHE:-/var/cache/ntprof-lab}
# KERNEL names the guests' kernel: a series (6.1, 6.12) or an exact release.
KERNEL=${KERNEL:-6.1}

lab_log() { printf 'lab: %s\n' "$*" >&2; }
lab_die() { printf 'lab: error: %s\n' "$*" >&2; exit 1; }

# Debian 12's suites with its backports, for the lab's private apt
# configurations (kernels, QEMU): the system's sources stay untouched.
lab_bookworm_sources() {
	cat <<SRC
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm main
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm-updates main
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian-security bookworm-security main
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm-backports main
SRC
}

# The Debian release a kernel series or exact release is read from:
# bullseye for 5.10, trixie (its backports) for 7.x and +deb13 builds,
# bookworm (with its backports) for the rest.
lab_kernel_dist() {
	case "$1" in
	5.10 | 5.10.*) echo bullseye ;;
	7.* | *+deb13-*) echo trixie ;;
	*) echo bookworm ;;
	esac
}

# The suites of a Debian release, for a private apt configuration.
lab_dist_sources() {
	local key=/usr/share/keyrings/debian-archive-keyring.gpg

	case "$1" in
	bookworm) lab_bookworm_sources ;;
	bullseye | trixie)
		cat <<SRC
deb [signed-by=$key] http://deb.debian.org/debian $1 main
deb [signed-by=$key] http://deb.debian.org/debian $1-updates main
deb [signed-by=$key] http://deb.debian.org/debian-security $1-security main
SRC
		[ "$1" = bullseye ] ||
			echo "deb [signed-by=$key] http://deb.debian.org/debian $1-backports main"
		;;
	*) lab_die "no apt sources for Debian release '$1'" ;;
	esac
}

# lab_apt_init DIST: LAB_APT_OPTS, a private apt configuration reading the
# suites of Debian release DIST (lab_dist_sources) into LAB_APT_DIR under
# the cache, and never the system's sources or its state.
lab_apt_init() {
	LAB_APT_DIST=$1
	# bookworm's keeps the directory it always had.
	LAB_APT_DIR="$LAB_CACHE/apt"
	[ "$1" = bookworm ] || LAB_APT_DIR="$LAB_CACHE/apt-$1"
	LAB_APT_OPTS=(-o "Dir::Etc::SourceList=$LAB_APT_DIR/sources.list"
		      -o "Dir::Etc::SourceParts=/dev/null"
		      -o "Dir::Etc::Preferences=/dev/null"
		      -o "Dir::Etc::PreferencesParts=/dev/null"
		      -o "Dir::State=$LAB_APT_DIR/state"
		      -o "Dir::Cache=$LAB_APT_DIR/cache"
		      -o "APT::Architecture=amd64"
		      -o "Debug::NoLocking=1"
		      -o "APT::Sandbox::User=root")
}

# lab_fetch_lock: holds, until the calling script ends, the lock that
# every writer of the cache's downloads takes (fetch-kernel.sh,
# fetch-tls-tools.sh): labs that run side by side never fetch, unpack or
# read package lists into one place at once.
lab_fetch_lock() {
	mkdir -p "$LAB_CACHE"
	exec {LAB_FETCH_LOCK}> "$LAB_CACHE/.fetch.lock"
	flock "$LAB_FETCH_LOCK"
}

# lab_apt_update: read the package lists of lab_apt_init's configuration,
# at most once a day, and again when its suites changed.
lab_apt_update() {
	local dir=$LAB_APT_DIR stamp="$LAB_APT_DIR/state/updated"

	mkdir -p "$dir/state/lists/partial" "$dir/cache/archives/partial"
	lab_dist_sources "$LAB_APT_DIST" > "$dir/sources.list.new"
	cmp -s "$dir/sources.list.new" "$dir/sources.list" || rm -f "$stamp"
	mv "$dir/sources.list.new" "$dir/sources.list"
	if [ -z "$(find "$stamp" -mmin -1440 2>/dev/null)" ]; then
		lab_log "reading Debian's package lists (private apt configuration)"
		apt-get "${LAB_APT_OPTS[@]}" -qq update
		touch "$stamp"
	fi
}

# lab_apt_unpack DEBDIR ROOT PACKAGE...: download the packages with
# lab_apt_init's configuration into DEBDIR (kept there) and unpack the
# newest of each into ROOT, which is made anew. Fails if the download does.
lab_apt_unpack() {
	local debs=$1 root=$2 p deb

	shift 2
	mkdir -p "$debs"
	(cd "$debs" && apt-get "${LAB_APT_OPTS[@]}" -qq download "$@") || return 1
	rm -rf "$root"
	mkdir -p "$root"
	for p in "$@"; do
		# The newest download, which ls can sort and a glob cannot.
		# shellcheck disable=SC2012 # Debian's file names have no spaces.
		deb=$(ls -t "$debs/${p}_"*.deb | head -n1)
		dpkg-deb -x "$deb" "$root"
	done
}

# The file holding the resolved release of $KERNEL, written by fetch-kernel.sh.
lab_kernel_release() {
	local f="$LAB_CACHE/kernels/by-name/$KERNEL"

	[ -s "$f" ] || lab_die "kernel '$KERNEL' is not fetched (run selftests/lab/fetch-kernel.sh)"
	cat "$f"
}

# lab_chroot_ready ROOT STAMP LOCK WHAT: whether the debootstrap root
# ROOT is made, with the stamp STAMP in its .ntprof-chroot. If it is not,
# checks that WHAT (making it) can be done here, takes the lock file LOCK
# on descriptor 9 until the caller exits, and checks again: another
# caller may have made it while this one waited.
lab_chroot_ready() {
	local root=$1 stamp=$2 lock=$3 what=$4

	[ "$(cat "$root/.ntprof-chroot" 2>/dev/null)" != "$stamp" ] || return 0
	[ "$(id -u)" -eq 0 ] || lab_die "$what needs root"
	command -v debootstrap > /dev/null ||
		lab_die "debootstrap is missing (selftests/lab/install-deps.sh installs it)"
	mkdir -p "$LAB_CACHE/chroots"
	exec 9> "$lock"
	flock 9
	[ "$(cat "$root/.ntprof-chroot" 2>/dev/null)" = "$stamp" ]
}

# lab_chroot_done ROOT STAMP: puts the root made in ROOT.new in place of
# ROOT, stamped with STAMP, without the package caches (nothing installs
# into it later).
lab_chroot_done() {
	chroot "$1.new" apt-get -qq clean
	rm -rf "$1.new/var/lib/apt/lists/"*_Packages
	echo "$2" > "$1.new/.ntprof-chroot"
	rm -rf "$1"
	mv "$1.new" "$1"
}

lab_kernel_root() { echo "$LAB_CACHE/kernels/$1/root"; }
lab_kernel_build_dir() { echo "$LAB_CACHE/kernels/$1/root/usr/src/linux-headers-$1"; }

# Whether a kernel's modules build in a chroot of its Debian release
# (make-chroot.sh), not on this machine: its kbuild tools need a newer
# glibc, its headers a newer gcc.
lab_kernel_needs_chroot() {
	[ "$(lab_kernel_dist "$1")" = trixie ]
}

# lab_in_chroot ROOT DIR... -- COMMAND...: run COMMAND in the chroot ROOT,
# with each DIR of this machine bind-mounted at the same path inside, in
# a mount namespace of its own, so that the mounts go when COMMAND ends.
lab_in_chroot() {
	local root=$1 dirs=()

	shift
	while [ "$1" != -- ]; do
		dirs+=("$1")
		shift
	done
	shift
	# shellcheck disable=SC2016 # the inner bash expands them.
	unshare --mount --propagation private bash -c '
		root=$1 n=$2
		shift 2
		for ((i = 0; i < n; i++)); do
			mkdir -p "$root$1" && mount --bind "$1" "$root$1" || exit 1
			shift
		done
		mount -t proc proc "$root/proc" || exit 1
		exec chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root LC_ALL=C.UTF-8 "$@"' \
		lab-chroot "$root" "${#dirs[@]}" "${dirs[@]}" "$@"
}

# The compiler a kernel's headers name (Debian's .kernelvariables), as
# x86_64-linux-gnu-gcc-N.
lab_headers_cc() {
	sed -n 's/^CC = .*)\(gcc-[0-9]*\)$/x86_64-linux-gnu-\1/p' "$1/.kernelvariables" 2>/dev/null
}

# Whether RELEASE's headers name a compiler this machine lacks: bullseye's
# gcc-10, where Debian 12 has gcc-12, which builds them instead.
lab_kernel_needs_cc() {
	local cc

	lab_kernel_needs_chroot "$1" && return 1
	cc=$(lab_headers_cc "$(lab_kernel_build_dir "$1")")
	[ -n "$cc" ] && ! command -v "$cc" > /dev/null
}

# lab_kmake RELEASE DIR MAKE-ARGS...: make against RELEASE's headers for
# the module sources in DIR: in the chroot (DIR bind-mounted) where the
# kernel's kbuild tools need one, with this machine's gcc where its
# headers name one Debian 12 lacks.
lab_kmake() {
	local release=$1 dir=$2 kdir root

	shift 2
	kdir=$(lab_kernel_build_dir "$release")
	if lab_kernel_needs_chroot "$release"; then
		root=$(bash "$LAB_DIR/make-chroot.sh") || return 1
		lab_in_chroot "$root" "$LAB_CACHE/kernels" "$dir" -- \
			make -C "$kdir" "$@"
	elif lab_kernel_needs_cc "$release"; then
		make -C "$kdir" CC=x86_64-linux-gnu-gcc "$@"
	else
		make -C "$kdir" "$@"
	fi
}

# Kernel log lines that fail a lab run.
LAB_BAD_DMESG='WARNING:|BUG:|Oops|KASAN|blocked for more than|general protection fault|Call Trace:'
# And those of the debug kernel's checkers (KERNEL=debug, debug-kernel.sh):
# lockdep, UBSAN, KFENCE, debugobjects, kmemleak's scans.
LAB_DEBUG_BAD_DMESG="$LAB_BAD_DMESG|UBSAN:|KFENCE:|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|sleeping function called from invalid context|DEBUG_LOCKS_WARN_ON|ODEBUG:|unreferenced object|suspected memory leak|Kernel panic"

# lab_dmesg_unknown LOG: the kernel log without the reports of known
# bugs of the distribution's own kernels that ntprof has no part in, each
# replaced by a line that names it. Known: Debian 5.10's nvmet_tcp flushes
# its workqueue from a work item of another (nvmet_tcp_install_queue(),
# on a controller's connect), which check_flush_dependency() warns about,
# now and then, while the lab connects, whether ntprof is loaded or not.
# And Debian's 6.12 (PREEMPT_RCU): io_uring's polling of an NVMe/TCP poll
# queue, iocb_bio_iopoll() under rcu_read_lock(), reaches lock_sock() in
# nvme_tcp_try_recv(), which sleeps while the queue's io_work owns the
# socket: rcu_note_context_switch() warns of a voluntary context switch
# in an RCU read-side critical section. It comes with ntprof never
# loaded (stages.rst, Configurations).
# A report with an ntprof frame in it is never left out (the list of
# loaded modules is no frame).
lab_dmesg_unknown() {
	awk '
	function flush(known) {
		if (known)
			print "[known kernel bug, not ntprof: " known "]"
		else
			printf "%s", buf
		buf = ""; frames = ""; inrep = 0
	}
	/WARNING: CPU:/ { if (inrep) flush(""); inrep = 1 }
	inrep { buf = buf $0 "\n" }
	inrep && !/Modules linked in:/ { frames = frames $0 "\n" }
	!inrep { print }
	inrep && /---\[ end trace/ {
		known = ""
		if (frames ~ /ntprof/)
			known = ""
		else if (buf ~ /check_flush_dependency/ &&
			 buf ~ /nvmet_tcp_install_queue/)
			known = "nvmet_tcp_install_queue() flush_workqueue() warning (Debian 5.10)"
		else if (buf ~ /rcu_note_context_switch/ &&
			 buf ~ /nvme_tcp_try_recv/ && buf ~ /iocb_bio_iopoll/)
			known = "nvme_tcp_poll() lock_sock() under iocb_bio_iopoll()\x27s rcu_read_lock() (Debian 6.12)"
		flush(known)
	}
	END { if (inrep) flush("") }
	' "$1"
}

# The pattern of bad kernel log lines for $KERNEL.
lab_bad_dmesg() {
	if [ "$KERNEL" = debug ]; then
		echo "$LAB_DEBUG_BAD_DMESG"
	else
		echo "$LAB_BAD_DMESG"
	fi
}

# copy_module_sources DEST: exactly the module's sources, so builds for
# several kernels neither meet each other nor leave objects in the tree.
copy_module_sources() {
	local f

	rm -rf "$1"
	mkdir -p "$1/kmod" "$1/include/uapi/linux"
	cp "$TOP_DIR/Kbuild" "$1/"
	cp "$TOP_DIR/kmod/Kbuild" "$1/kmod/"
	for f in "$TOP_DIR"/kmod/*.[ch]; do
		case "$f" in
		*.mod.c) ;;
		*) cp "$f" "$1/kmod/" ;;
		esac
	done
	cp "$TOP_DIR/include/uapi/linux/ntprof.h" "$1/include/uapi/linux/"
}

# copy_tree_files DEST: the tree's files as git sees them (changes and new
# files included, ignored ones such as build products left out), or, out
# of git, every file but build/'s: a tree of its own for a build whose
# make clean must not touch this one's programs, which lab runs beside it
# copy into their guests.
copy_tree_files() {
	rm -rf "$1"
	mkdir -p "$1"
	if git -C "$TOP_DIR" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
		git -C "$TOP_DIR" ls-files -z --cached --others --exclude-standard |
			tar -C "$TOP_DIR" --null -T - --ignore-failed-read -cf - |
			tar -C "$1" -xf -
	else
		tar -C "$TOP_DIR" --exclude=./build -cf - . | tar -C "$1" -xf -
	fi
}
