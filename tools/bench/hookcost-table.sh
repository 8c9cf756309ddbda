#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The table of tools/bench/hookcost.sh from what its guest left.
# usage: tools/bench/hookcost-table.sh DIR   (RUN_DIR/share/xfer/hookcost)
#
# Per transport and mode, over the alternations (median [min, max]): the
# IOPS ratio to the alternation's run with no session; hook hits per read
# (both sides); the latency added per read; that over the hits, the cost
# of a hit under TCG; and that cost scaled by the yardstick (the guest's
# system call against this machine's, tools/bench/syscall-ns.sh): what a
# hit would cost on the machine itself, an estimate only, as TCG slows
# some code far more than other.
set -euo pipefail
export LC_ALL=C

dir=${1:?usage: hookcost-table.sh DIR}
[ -f "$dir/hits.tsv" ] || { echo "hookcost-table: no $dir/hits.tsv" >&2; exit 1; }
command -v jq > /dev/null || { echo "hookcost-table: jq is needed" >&2; exit 1; }

guest=$(cat "$dir/syscall-guest.txt" 2>/dev/null || echo 0)
here=$(cat "$dir/syscall-here.txt" 2>/dev/null || echo 0)

# One line per run: alternation, transport, mode, hits, reads, IOPS,
# mean latency in ns.
while read -r a t mode hits; do
	f=$dir/$a-$t-$mode.json
	[ -s "$f" ] || continue
	printf '%s %s %s %s %s\n' "$a" "$t" "$mode" "$hits" \
		"$(jq -r '.jobs[0].read | "\(.total_ios) \(.iops) \(.lat_ns.mean)"' "$f")"
done < "$dir/hits.tsv" > "$dir/runs.txt"

echo "Hook cost: fio 4 KiB random reads at QD1, host and target in one guest (loopback)"
printf 'yardstick: a system call pair (dd, 1-byte copy) takes %s ns in the guest, %s ns here: TCG x%s\n' \
	"$guest" "$here" "$(awk -v g="$guest" -v h="$here" 'BEGIN { print (h > 0 ? sprintf("%.1f", g / h) : "?") }')"
echo
printf '%-5s %-9s %22s %10s %26s %26s %14s\n' xport mode "IOPS ratio" \
	hits/read "added us/read" "ns per hit (TCG)" "ns/hit, scaled"
awk -v g="$guest" -v h="$here" '
function med(s,    v, n, i, j, x) {
	n = split(s, v, " ")
	for (i = 2; i <= n; i++) {
		x = v[i]
		for (j = i - 1; j >= 1 && v[j] > x; j--)
			v[j + 1] = v[j]
		v[j + 1] = x
	}
	lo = v[1]; hi = v[n]
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
function cell(s, fmt,    m) {
	m = med(s)
	return sprintf(fmt " [" fmt ", " fmt "]", m, lo, hi)
}
{
	key = $1 SUBSEP $2
	if ($3 == "off") { off_iops[key] = $6; off_lat[key] = $7; next }
	run[NR] = $0
}
END {
	for (r in run) {
		split(run[r], f, " ")
		key = f[1] SUBSEP f[2]
		if (!(key in off_lat) || f[5] == 0 || f[4] == 0)
			continue
		m = f[2] " " f[3]
		modes[m] = 1
		hpi = f[4] / f[5]
		added = f[7] - off_lat[key]
		ratio[m] = ratio[m] " " f[6] / off_iops[key]
		hits[m] = hits[m] " " hpi
		add[m] = add[m] " " added / 1000
		ns[m] = ns[m] " " added / hpi
	}
	for (m in modes) {
		split(m, k, " ")
		c = cell(ns[m], "%.0f")
		scaled = h > 0 && g > 0 ? sprintf("%.0f", med(ns[m]) * h / g) : "?"
		printf "%-5s %-9s %22s %10.2f %26s %26s %14s\n", k[1], k[2],
			cell(ratio[m], "%.3f"), med(hits[m]), cell(add[m], "%.1f"),
			c, scaled
	}
}' "$dir/runs.txt" | sort

# The function graph tracer's runs: per top-level call of an ntprof
# function (a hook's handler), its duration, which holds what it called
# outside the module.
graphs=("$dir"/graph-*.trace)
[ -e "${graphs[0]}" ] || exit 0
echo
echo "Hook handlers timed by the function graph tracer, per call (median [min, max]"
echo "of the calls; TCG us, and the median scaled by the yardstick, ns)"
echo
printf '%-5s %-9s %-28s %8s %28s %10s\n' xport mode handler calls "us per call (TCG)" "scaled ns"
for f in "${graphs[@]}"; do
	m=${f##*/graph-}
	m=${m%.trace}
	awk -F'|' '
	# A call: "name();" with its duration, or "name() {" ... "}" with the
	# duration on the closing line; depth from the indentation.
	NF >= 2 {
		r = $2
		sub(/^ /, "", r)
		ind = r
		sub(/[^ ].*/, "", ind)
		depth = length(ind)
		sub(/^ */, "", r)
		d = ""
		if ($1 ~ / us/) {
			d = $1
			sub(/ us.*/, "", d)
			sub(/.* /, "", d)
		}
		name = r
		sub(/ \[ntprof\]/, "", name)
		sub(/\(.*/, "", name)
		if (r ~ /\(\);/) {
			if (depth == 1 && d != "")
				print name, d
		} else if (r ~ /\(\) \{/) {
			open[depth] = name
		} else if (r ~ /^\}/) {
			if (depth == 1 && d != "" && open[depth] != "")
				print open[depth], d
			open[depth] = ""
		}
	}' "$f" | sort -k1,1 -k2,2n |
	awk -v x="${m%%-*}" -v mode="${m#*-}" -v g="$guest" -v h="$here" '
	function row(    med, scaled) {
		med = k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
		scaled = g > 0 && h > 0 ? sprintf("%.0f", med * 1000 * h / g) : "?"
		printf "%-5s %-9s %-28s %8d %28s %10s\n", x, mode, name, k,
			sprintf("%.2f [%.2f, %.2f]", med, a[1], a[k]), scaled
	}
	$1 != name { if (k) row(); name = $1; k = 0 }
	{ a[++k] = $2 + 0 }
	END { if (k) row() }'
done
