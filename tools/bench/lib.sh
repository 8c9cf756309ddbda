# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# What the lab benchmarks' launchers share (icount.sh, hookcost.sh,
# drain.sh, overhead.sh): where things are, the guest script made of the
# settings and the guest's part, the line that says what ran, and the
# lab run that ends with the table, even of a run that failed.

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$BENCH_DIR/../.." && pwd)
LAB_CACHE=${LAB_CACHE:-/var/cache/ntprof-lab}

# bench_settings VAR...: the variables as assignments, for the guest.
bench_settings() {
	local v

	for v in "$@"; do
		printf '%s=%q\n' "$v" "${!v}"
	done
}

# bench_bpftrace_programs: here-documents that write the bpftrace
# programs of tools/bench/bpftrace to /tmp/bench-NAME.bt in the guest.
bench_bpftrace_programs() {
	local f

	for f in "$BENCH_DIR"/bpftrace/*.bt; do
		echo "cat > /tmp/bench-$(basename "$f") <<'NTPROF_BENCH_BT'"
		cat "$f"
		echo "NTPROF_BENCH_BT"
	done
}

# bench_versions NAME [MORE]: which ntprof and QEMU ran, on stderr.
bench_versions() {
	echo "$1: ntprof $(git -C "$TOP" describe --always --dirty 2>/dev/null || cat "$TOP/VERSION")," \
		"${2:+$2, }$(qemu-system-x86_64 --version | head -n 1)" >&2
}

# bench_run NAME TABLE DIR LAB-RUN-ARGS...: the lab run (its settings in
# the caller's environment), then TABLE's table of DIR. Returns the lab
# run's status.
bench_run() {
	local name=$1 table=$2 dir=$3 rc=0

	shift 3
	bash "$TOP/selftests/lab/lab-run.sh" "$@" || rc=$?
	[ $rc = 0 ] || echo "$name: the lab run failed ($rc); the tables of what it left:" >&2
	bash "$BENCH_DIR/$table" "$dir"
	return $rc
}
