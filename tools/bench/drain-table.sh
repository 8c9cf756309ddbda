#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The table of tools/bench/drain.sh, from the runs.tsv its guest part
# wrote: per rate asked, the rate the generator reached, the rate records
# reached the file (records written over the time until the buffers were
# empty again), the records dropped, and ntprof record's CPU per record
# (ns, and instructions under icount, at 4 ns each).
#
# usage: tools/bench/drain-table.sh DIR   (DIR holds runs.tsv)
set -euo pipefail
f=${1:?usage: drain-table.sh DIR}/runs.tsv
[ -s "$f" ] || { echo "drain-table: no $f" >&2; exit 1; }

awk -F'\t' '
BEGIN {
	printf "%12s %10s %12s %12s %10s %10s %12s %12s\n", "asked/s",
		"records", "generated/s", "drained/s", "dropped", "written",
		"reader ns/rec", "(instr/rec)"
}
{
	gen = $3 > 0 ? $2 / ($3 / 1e9) : 0
	drained = $4 > 0 ? $6 / ($4 / 1e9) : 0
	per = $6 > 0 ? $7 / $6 : 0
	printf "%12s %10d %12.0f %12.0f %10d %10d %12.0f %12.0f\n",
		$1 == 0 ? "flat out" : $1, $2, gen, drained, $5, $6, per, per / 4
}' "$f"
