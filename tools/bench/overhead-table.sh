#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The tables of tools/bench/overhead.sh, from what its guests left in the
# share (DIR: the run's share/xfer/bench).
#
# usage: tools/bench/overhead-table.sh DIR
#
# 1. Overhead: per transport and queue depth, IOPS and mean latency of each
#    mode as a ratio to the no-profiler run of the same alternation: the
#    median over the alternations, [min, max]; then ntprof's overhead
#    (1 - IOPS ratio) as a share of bpftrace's.
# 2. Hook cost: the CPU time per I/O that a mode adds to the no-profiler
#    run of its alternation (from /proc/stat, 10 ms ticks), per side, over
#    the hook hits per I/O (<debugfs>/ntprof/hooks): ns per hit, median
#    [min, max]. -s 100 hits are nearly all of unsampled commands, -s 1
#    ones all of sampled commands.
# 3. Drain: ntprof record -s 1 on both sides under the heaviest fio:
#    commands per second, records written, drops.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

dir=${1:?usage: overhead-table.sh DIR}
[ -s "$dir/runs.tsv" ] || { echo "overhead-table: no runs in $dir" >&2; exit 1; }

# One line per fio run: k a t m qd ios iops lat_us, then per side over
# the marks' window: CPU ticks, hook hits, reads; then the window's length.
join_runs() {
	local k a t m qd n0 n1 f

	while IFS=$'\t' read -r k a t m qd n0 n1; do
		f=$dir/fio-$k-$qd.fio
		[ -s "$f" ] || continue
		awk -F';' -v k="$k" -v a="$a" -v t="$t" -v m="$m" -v qd="$qd" \
			'{ printf "%s %s %s %s %s %d %s %s ", k, a, t, m, qd, $6 / 4, $8, $40 }' "$f"
		awk -v k="$k" -v n0="$n0" -v n1="$n1" -F'\t' '
			{ side = FILENAME ~ /host.tsv$/ ? "h" : "t" }
			$1 == k && $2 == n0 { c0[side] = $3; h0[side] = $4; r0[side] = $5; u0[side] = $6 }
			$1 == k && $2 == n1 { c1[side] = $3; h1[side] = $4; r1[side] = $5; u1[side] = $6 }
			END { printf "%d %d %d %d %d %d %.2f\n",
			      c1["h"] - c0["h"], h1["h"] - h0["h"], r1["h"] - r0["h"],
			      c1["t"] - c0["t"], h1["t"] - h0["t"], r1["t"] - r0["t"],
			      u1["h"] - u0["h"] }' "$dir/host.tsv" "$dir/target.tsv"
	done < "$dir/runs.tsv"
}

join_runs > "$dir/runs.joined"

# med(KEY): the median of the values add(KEY, X) collected, setting mn
# and mx to their extremes. The values are kept as text at full
# precision (awk would round them to CONVFMT's six digits).
awk "$BENCH_AWK_STATS"'
function med(key,    r) {
	r = median(val[key])
	mn = MIN; mx = MAX
	return r
}
function add(key, x) { val[key] = val[key] " " sprintf("%.17g", x); cnt[key]++ }
{
	k = $1; a = $2; t = $3; m = $4; qd = $5
	ios[a, t, m, qd] = $6; iops[a, t, m, qd] = $7; lat[a, t, m, qd] = $8
	if (a == 0) next
	# Per fio I/O on both sides: the device statistics are not
	# reliable (a multipath head node keeps none).
	hcpu[a, t, m, qd] = $9; hhit[a, t, m, qd] = $10; hios[a, t, m, qd] = $6
	tcpu[a, t, m, qd] = $12; thit[a, t, m, qd] = $13; tios[a, t, m, qd] = $6
	seen[a, t, m, qd] = 1
	if (!(t in T)) { T[t] = 1; tl[++nt] = t }
	if (!(qd in Q)) { Q[qd] = 1; ql[++nq] = qd }
	if (!(m in M)) { M[m] = 1 }
	if (!(a in A)) { A[a] = 1; na++ }
}
END {
	nm = 0
	split("base s100 s1 bpf", order, " ")
	for (i = 1; i <= 4; i++) if (order[i] in M) ml[++nm] = order[i]
	name["base"] = "no profiler"; name["s100"] = "ntprof -s 100"
	name["s1"] = "ntprof -s 1"; name["bpf"] = "bpftrace"

	for (a in A) for (ti = 1; ti <= nt; ti++) for (qi = 1; qi <= nq; qi++) {
		t = tl[ti]; qd = ql[qi]
		if (!seen[a, t, "base", qd]) continue
		b = a SUBSEP t SUBSEP "base" SUBSEP qd
		if (!hios[b] || !tios[b]) continue
		bcpu_h = hcpu[b] * 10000 / hios[b]; bcpu_t = tcpu[b] * 10000 / tios[b]
		for (mi = 1; mi <= nm; mi++) {
			m = ml[mi]; r = a SUBSEP t SUBSEP m SUBSEP qd
			if (!seen[r] || !hios[r] || !tios[r]) continue
			add("iops" SUBSEP t SUBSEP m SUBSEP qd, iops[r] / iops[b])
			add("lat" SUBSEP t SUBSEP m SUBSEP qd, lat[r] / lat[b])
			add("abs" SUBSEP t SUBSEP m SUBSEP qd, iops[r])
			add("abslat" SUBSEP t SUBSEP m SUBSEP qd, lat[r])
			add("cpuh" SUBSEP t SUBSEP m SUBSEP qd, hcpu[r] * 10000 / hios[r])
			add("cput" SUBSEP t SUBSEP m SUBSEP qd, tcpu[r] * 10000 / tios[r])
			if (m == "s100" || m == "s1") {
				hh = hhit[r] / hios[r]; th = thit[r] / tios[r]
				add("hitsh" SUBSEP t SUBSEP m SUBSEP qd, hh)
				add("hitst" SUBSEP t SUBSEP m SUBSEP qd, th)
				if (hh > 0) add("nsh" SUBSEP t SUBSEP m SUBSEP qd,
					(hcpu[r] * 10000 / hios[r] - bcpu_h) * 1000 / hh)
				if (th > 0) add("nst" SUBSEP t SUBSEP m SUBSEP qd,
					(tcpu[r] * 10000 / tios[r] - bcpu_t) * 1000 / th)
				# At QD1 every hit of both sides is on the one
				# command in flight: latency added per hit.
				if (qd == 1 && hh + th > 0)
					add("nsl" SUBSEP t SUBSEP m SUBSEP qd,
					    (lat[r] - lat[b]) * 1000 / (hh + th))
			}
			if (qd == 1)
				add("dlat" SUBSEP t SUBSEP m SUBSEP qd, lat[r] - lat[b])
		}
	}

	printf "1. Overhead: ratio to the no-profiler runs, median [min, max] of %d alternations\n\n", na
	printf "%-5s %3s %-14s %9s %24s %24s\n", "xport", "QD", "mode", "IOPS", "IOPS ratio", "mean lat ratio"
	for (ti = 1; ti <= nt; ti++) for (qi = 1; qi <= nq; qi++) {
		t = tl[ti]; qd = ql[qi]
		for (mi = 1; mi <= nm; mi++) {
			m = ml[mi]; key = t SUBSEP m SUBSEP qd
			if (!cnt["iops" SUBSEP key]) continue
			ab = med("abs" SUBSEP key)
			ri = med("iops" SUBSEP key); rimn = mn; rimx = mx
			rl = med("lat" SUBSEP key); rlmn = mn; rlmx = mx
			ratio[t, m, qd] = ri
			printf "%-5s %3s %-14s %9.0f %6.3f [%.3f, %.3f] %6.3f [%.3f, %.3f]\n",
			       t, qd, name[m], ab, ri, rimn, rimx, rl, rlmn, rlmx
		}
	}
	printf "\ntargets: -s 100 IOPS ratio >= 0.99, -s 1 >= 0.95, ntprof overhead <= 0.3 x bpftrace\n"
	for (ti = 1; ti <= nt; ti++) for (qi = 1; qi <= nq; qi++) {
		t = tl[ti]; qd = ql[qi]
		line = sprintf("%-5s QD%-3s", t, qd)
		if ((t, "s100", qd) in ratio)
			line = line sprintf("  -s 100 %.3f %s", ratio[t, "s100", qd],
				ratio[t, "s100", qd] >= 0.99 ? "met" : "MISSED")
		if ((t, "s1", qd) in ratio)
			line = line sprintf("  -s 1 %.3f %s", ratio[t, "s1", qd],
				ratio[t, "s1", qd] >= 0.95 ? "met" : "MISSED")
		if ((t, "bpf", qd) in ratio) {
			ob = 1 - ratio[t, "bpf", qd]
			for (mi = 1; mi <= nm; mi++) {
				m = ml[mi]
				if ((m != "s100" && m != "s1") || !((t, m, qd) in ratio)) continue
				on = 1 - ratio[t, m, qd]
				if (ob <= 0) {
					line = line sprintf("  %s/bpftrace: bpftrace overhead <= 0", m)
					continue
				}
				line = line sprintf("  %s/bpftrace %.2f %s", m, on / ob,
					on / ob <= 0.3 ? "met" : "MISSED")
			}
		}
		print line
	}

	printf "\n2a. Hook cost from latency, QD1: mean latency added per I/O, and over both sides\n"
	printf "    hook hits per I/O (every hit is on the critical path at QD1); median [min, max]\n\n"
	printf "%-5s %-14s %10s %10s %24s %24s\n", "xport", "mode", "host h/IO", "tgt h/IO", "added us/IO", "ns per hit"
	for (ti = 1; ti <= nt; ti++) for (mi = 1; mi <= nm; mi++) {
		t = tl[ti]; m = ml[mi]; key = t SUBSEP m SUBSEP 1
		if (m == "base" || !cnt["dlat" SUBSEP key]) continue
		d = med("dlat" SUBSEP key); dmn = mn; dmx = mx
		if (cnt["nsl" SUBSEP key]) {
			hh = med("hitsh" SUBSEP key); th = med("hitst" SUBSEP key)
			ns = med("nsl" SUBSEP key)
			printf "%-5s %-14s %10.2f %10.2f %8.0f [%.0f, %.0f] %8.0f [%.0f, %.0f]\n",
			       t, name[m], hh, th, d, dmn, dmx, ns, mn, mx
		} else
			printf "%-5s %-14s %10s %10s %8.0f [%.0f, %.0f] %24s\n",
			       t, name[m], "-", "-", d, dmn, dmx, "-"
	}

	printf "\n2b. Hook cost from CPU time: CPU time added per I/O over hook hits per I/O\n"
	printf "    (/proc/stat in 10 ms ticks, over all of a fio run, its start included;\n"
	printf "    median [min, max])\n\n"
	printf "%-5s %3s %-14s %-6s %10s %12s %26s\n", "xport", "QD", "mode", "side", "hits/IO", "CPU us/IO", "ns per hit"
	for (ti = 1; ti <= nt; ti++) for (qi = 1; qi <= nq; qi++) {
		t = tl[ti]; qd = ql[qi]
		for (mi = 1; mi <= nm; mi++) {
			m = ml[mi]; key = t SUBSEP m SUBSEP qd
			if (!cnt["iops" SUBSEP key]) continue
			for (s = 1; s <= 2; s++) {
				side = s == 1 ? "host" : "target"; c = s == 1 ? "h" : "t"
				cpu = med("cpu" c SUBSEP key)
				if (m == "s100" || m == "s1") {
					hits = cnt["hits" c SUBSEP key] ? med("hits" c SUBSEP key) : 0
					if (cnt["ns" c SUBSEP key]) {
						ns = med("ns" c SUBSEP key)
						printf "%-5s %3s %-14s %-6s %10.2f %12.1f %8.0f [%.0f, %.0f]\n",
						       t, qd, name[m], side, hits, cpu, ns, mn, mx
					} else
						printf "%-5s %3s %-14s %-6s %10.2f %12.1f %26s\n",
						       t, qd, name[m], side, hits, cpu, "-"
				} else
					printf "%-5s %3s %-14s %-6s %10s %12.1f %26s\n",
					       t, qd, name[m], side, "", cpu, ""
			}
		}
	}
}' "$dir/runs.joined"

# bpftrace's records against the commands fio did in the step.
if [ -s "$dir/bpf-host.records" ]; then
	echo
	echo "bpftrace records (host, target) against fio's I/Os, per step:"
	awk 'FILENAME ~ /bpf-host/ { h[$1] = $2; hl[$1] = $3; next }
	     FILENAME ~ /bpf-target/ { tg[$1] = $2; tl[$1] = $3; next }
	     { ios[$1] += $6 }
	     END { for (k in h) printf "  step %s: %d I/Os, host %d, target %d records%s\n",
		   k, ios[k], h[k], tg[k], hl[k] tl[k] == "" ? "" :
		   sprintf(" (lost: host %d, target %d)", hl[k], tl[k]) }' \
		"$dir/bpf-host.records" "$dir/bpf-target.records" "$dir/runs.joined" | sort -k2n
fi

# 3. The drain.
shopt -s nullglob
drains=("$dir"/fio-drain-*-*.fio)
if [ ${#drains[@]} -gt 0 ]; then
	echo
	echo "3. Drain: ntprof record -s 1 on both sides under the heaviest fio"
	echo
	printf '%-5s %10s %10s %12s %12s %10s %10s\n' xport "IOPS" "secs" "host recs" "target recs" "host drop" "tgt drop"
	for f in "${drains[@]}"; do
		t=${f##*/fio-drain-}; t=${t%%-*}
		k=drain-$t
		iops=$(awk -F';' '{ print $8 }' "$f")
		rt=$(awk -F';' '{ printf "%.1f", $9 / 1000 }' "$f")
		hrec=$(sed -n 's/^ntprof: \([0-9]*\) records written.*/\1/p' "$dir/record-host-$k.out" | head -n 1)
		trec=$(sed -n 's/^ntprof: \([0-9]*\) records written.*/\1/p' "$dir/record-target-$k.out" | head -n 1)
		hdrop=$(awk '{ for (i = 1; i < NF; i++) if ($i == "drops") s += $(i + 1) } END { print s + 0 }' "$dir/buffers-host-$k" 2>/dev/null || echo '?')
		tdrop=$(awk '{ for (i = 1; i < NF; i++) if ($i == "drops") s += $(i + 1) } END { print s + 0 }' "$dir/buffers-target-$k" 2>/dev/null || echo '?')
		printf '%-5s %10s %10s %12s %12s %10s %10s\n' "$t" "$iops" "$rt" "${hrec:-?}" "${trec:-?}" "$hdrop" "$tdrop"
		grep -h 'WARNING' "$dir/record-host-$k.out" "$dir/record-target-$k.out" 2>/dev/null | sed 's/^/  /' || true
	done
fi
