#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Whether a host's record --prom file counts the control-path episodes
# that ntprof report --json of its recording lists (Documentation/
# prometheus.rst, "Control-path events"): per controller and event, the
# episodes (ntprof_ctrl_events_total) and the summed durations of those
# that ended (ntprof_ctrl_event_seconds_total, within 1 us per episode:
# the report rounds each to 6 decimals), the episodes still open
# (ntprof_ctrl_out) and the events lost (ntprof_ctrl_events_dropped_total).
# A controller's series with different path labels are added up. The
# target's controllers (nvmet-ctrl) are left out: they have no series.
#
# usage: prom-events-check.sh REPORT.json FILE.prom
# Prints one line, what agreed, or each difference; exits 0 when they
# agree, 1 when they do not, 2 on bad usage or unreadable input.

set -uo pipefail

if [ $# -ne 2 ] || [ ! -r "$1" ] || [ ! -r "$2" ]; then
	echo "usage: prom-events-check.sh REPORT.json FILE.prom (readable files)" >&2
	exit 2
fi

# The report's side: "R CONTROLLER EVENT EPISODES SECONDS", "R
# CONTROLLER out OPEN" and "R - lost N".
report=$(jq -r '[(.events // [])[] | select(.type != "nvmet-ctrl")] as $e |
	(($e | map(.controller) | unique[]) as $c |
	 (("connect", "reset", "loss", "recovery", "delete") as $k |
	  [$e[] | select(.controller == $c and .type == $k)] as $m |
	  "R \($c) \($k) \($m | length) \($m | map(.duration_s // 0) | add // 0)"),
	 "R \($c) out \([$e[] | select(.controller == $c and .type != "delete" and .end == "none")] | length)"),
	"R - lost \(.events_lost // 0)"' "$1") || {
	echo "prom-events-check: $1: not a report's JSON" >&2
	exit 2
}

# label TEXT NAME: the value of label NAME in a sample's TEXT.
awk -v report="$report" '
function label(s, name,    i, r) {
	i = index(s, name "=\"")
	if (!i)
		return ""
	r = substr(s, i + length(name) + 2)
	return substr(r, 1, index(r, "\"") - 1)
}
BEGIN {
	n = split(report, lines, "\n")
	for (i = 1; i <= n; i++) {
		split(lines[i], f, " ")
		key = f[2] " " f[3]
		keys[key] = 1
		rn[key] = f[4]
		if (f[3] != "out" && f[3] != "lost")
			rs[key] = f[5]
	}
}
/^ntprof_ctrl_events_total\{/ {
	key = label($0, "controller") " " label($0, "event")
	keys[key] = 1; pn[key] += $NF; next
}
/^ntprof_ctrl_event_seconds_total\{/ {
	key = label($0, "controller") " " label($0, "event")
	ps[key] += $NF; next
}
/^ntprof_ctrl_out\{/ {
	key = label($0, "controller") " out"
	keys[key] = 1; pn[key] += $NF; next
}
/^ntprof_ctrl_events_dropped_total\{/ {
	keys["- lost"] = 1; pn["- lost"] += $NF; next
}
END {
	bad = 0
	for (key in keys) {
		if (rn[key] + 0 != pn[key] + 0) {
			printf "%s: the report %d, the prom file %d\n", key, rn[key], pn[key]
			bad = 1
		}
		d = rs[key] - ps[key]
		if (d < 0)
			d = -d
		if (d > 1e-6 * (rn[key] + 1)) {
			printf "%s: the report %.6f s, the prom file %.6f s\n", key, rs[key], ps[key]
			bad = 1
		}
		if (key !~ / (out|lost)$/) {
			episodes += pn[key]; seconds += ps[key]
		}
	}
	if (!bad)
		printf "the prom file counts the report'"'"'s %d episodes, %.6f s of them\n", episodes, seconds
	exit bad
}' "$2"
