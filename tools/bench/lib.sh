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

# The tables' awk functions: median(LIST) of space-separated numbers,
# setting MIN and MAX to its extremes; instr(IOPS), the instructions a
# command took at QD1 under -icount shift=2 (a guest instruction is 4 ns).
# shellcheck disable=SC2016,SC2034 # awk's code, used by the tables
BENCH_AWK_STATS='
function median(list,   n, a, i, j, t) {
	n = split(list, a, " ")
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	MIN = a[1]; MAX = a[n]
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function instr(iops) { return 1e9 / (4 * iops) }
'

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

# bench_hit_table TSV BASE HITS: the table of a site-cost run (columns
# rep, mode, N, guest ns, ...: uprobe-icount.sh, agent-icount.sh): per
# mode, each repetition's instructions an iteration (4 ns each at -icount
# shift=2), what the median adds to BASE's, and that over HITS hits.
bench_hit_table() {
	awk -F'\t' -v base="$2" -v hits="$3" "$BENCH_AWK_STATS"'
	NR > 1 { v[$2] = v[$2] " " $4 / $3 / 4; m[++n] = $2 }
	END {
		b = median(v[base])
		printf "%-10s %-44s %10s %10s\n", "mode", "instructions an iteration, each rep", "added", "a hit"
		for (i = 1; i <= n; i++) {
			if (m[i] in done) continue
			done[m[i]] = 1
			x = median(v[m[i]])
			printf "%-10s %-44s %10.1f %10.1f\n", m[i], v[m[i]], x - b, (x - b) / hits
		}
	}' "$1"
}

# bench_hit_run NAME RUN_DIR SCRIPT BASE: a site-cost run, the one-guest
# lab under icount on one vCPU with SCRIPT as the guest's part, then
# bench_hit_table of RUN_DIR/share/xfer/NAME/runs.tsv against mode BASE,
# three hits an iteration. Returns the lab run's status.
bench_hit_run() {
	local name=$1 run_dir=$2 script=$3 base=$4 rc=0

	TOPOLOGY=one LAB_ONE_SMP=1 LAB_ACCEL=icount LAB_TIMEOUT=1800 \
		LAB_RUN_DIR=$run_dir bash "$TOP/selftests/lab/lab-run.sh" \
		--host "$script" || rc=$?
	[ $rc = 0 ] || echo "$name: the lab run failed ($rc)" >&2
	bench_hit_table "$run_dir/share/xfer/$name/runs.tsv" "$base" 3
	return $rc
}
