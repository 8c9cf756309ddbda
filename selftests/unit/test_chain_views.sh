#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The report of a chain (Documentation/report.rst, "Chains") on the four
# files test_chain --write makes: an origin host h, a middle m recorded
# as a target and as a host, the replicas' machine r, six commands
# (writes to two replicas, the second slow, one of them 400 us slower
# still; reads to the first).
#   - the text has the hops table, the middle's own time and the legs
#     with the critical one and how long it held the writes;
#   - --json is an ntprof-report/1 document whose groups' hops add up to
#     their end to end, with the legs' critical counts;
#   - --csv has a row per origin command, its hops adding up to its end
#     to end, its critical leg;
#   - --tail names the hop, stage and leg of the slow write, in text and
#     in JSON;
#   - --by leg splits the groups by critical leg;
#   - without the replicas' recording, one line names what is missing;
#   - the files in any order, or as a directory, give the same report.
#
# usage: test_chain_views.sh    Prints TAP; exits 1 if any test failed.

set -u

UNIT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$UNIT_DIR/../.." && pwd)
# shellcheck source=selftests/ktap.sh disable=SC1091
. "$UNIT_DIR/../ktap.sh"
NTPROF=$TOP/tools/ntprof/ntprof
SCHEMA=$TOP/Documentation/schemas/ntprof-report-1.json

ktap_header
make -s -C "$TOP/tools/ntprof" ntprof >&2 && make -s -C "$UNIT_DIR" test_chain >&2 ||
	{ echo "Bail out! cannot build ntprof and test_chain"; exit 1; }
TMP=$(mktemp -d) || exit 1
[ -n "${KEEP_TMP:-}" ] || trap 'rm -rf "$TMP"' EXIT
mkdir "$TMP/run" && "$UNIT_DIR/test_chain" --write "$TMP/run" ||
	{ echo "Bail out! cannot write the chain's files"; exit 1; }
FILES=("$TMP/run/h.ntp" "$TMP/run/mt.ntp" "$TMP/run/mh.ntp" "$TMP/run/rt.ntp")

t_text() {
	"$NTPROF" report "${FILES[@]}" > "$TMP/text" || return 1
	grep -q '^  middle m: 11 downstream commands, 10 linked to the command that caused them; not linked: 1 without one' "$TMP/text" &&
	grep -q '^== write 4KiB nvme0n1 through the chain: 4 commands, 4 followed to a leaf$' "$TMP/text" &&
	grep -Eq '^  1   h -> m +tcp +host block layer +1\.00 ' "$TMP/text" &&
	grep -Eq '^  2   m -> r +tcp +host block layer ' "$TMP/text" &&
	grep -Eq '^ +middle \(md0\) +4\.00 ' "$TMP/text" &&
	# The slow replica: critical for every write, held them 30 us, and
	# 130 us on average with the one 400 us slower.
	grep -Eq '^  r nullb1 +2 +4 +4 +130\.00 ' "$TMP/text" &&
	grep -Eq '^  r nullb0 +2 +4 +0 +- ' "$TMP/text" &&
	# The middle's host records are legs: in no group of their own.
	[ "$(grep -c '^== .* commands sampled' "$TMP/text")" = 2 ] &&
	! grep -q nvme1n1 "$TMP/text"
}
ktap_check "the text: hops with the middle's own time, legs with the critical one" t_text

t_json() {
	"$NTPROF" report --json "${FILES[@]}" > "$TMP/json" &&
	python3 "$TOP/selftests/json-check.py" "$SCHEMA" "$TMP/json" &&
	python3 - "$TMP/json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
bad = 0
for g in d["groups"]:
    if g["n_followed"] != g["n"]:
        print(f"# {g['label']}: {g['n_followed']} followed of {g['n']}"); bad = 1
    total = sum(s["mean_us"] for h in g["hops"] for s in h["stages"])
    if abs(total - g["latency_us"]["mean"]) > 0.01:
        print(f"# {g['label']}: hops sum to {total}, latency {g['latency_us']['mean']}"); bad = 1
    if [h["machines"] for h in g["hops"]] != [["h", "m"], ["m", "r"]]:
        print(f"# {g['label']}: hops {g['hops']}"); bad = 1
    legs = {l["label"]: (l["n"], l["critical"], l["held_n"]) for l in g["legs"]}
    want = {"r nullb0": (4, 0, 0), "r nullb1": (4, 4, 4)} if g["op"] == "write" \
        else {"r nullb0": (2, 2, 0)}
    if legs != want:
        print(f"# {g['label']}: legs {legs}"); bad = 1
c = d["chain"]
if (c["origin"], c["followed"], c["notes"]) != (6, 6, []) or \
   c["middles"][0]["no_upstream"] != 1 or c["middles"][0]["linked_n"] != 10:
    print(f"# chain {c}"); bad = 1
sys.exit(bad)
EOF
}
ktap_check "--json: valid, hops adding up to the latency, legs and their critical counts" t_json

t_csv() {
	"$NTPROF" report --csv - "${FILES[@]}" > "$TMP/csv" &&
	python3 - "$TMP/csv" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bad = len(rows) != 6
for r in rows:
    hops = sum(int(v) for k, v in r.items() if k.startswith("hop") and v)
    if r["chain_followed"] != "1" or hops != int(r["end_to_end_ns"]):
        print(f"# cid {r['cid']}: hops {hops}, end to end {r['end_to_end_ns']}"); bad = 1
    leg = "r nullb1" if r["opcode"] == "1" else "r nullb0"
    if r["critical_leg"] != leg or r["hop1_middle_ns"] != "4000":
        print(f"# cid {r['cid']}: {r['critical_leg']}, middle {r['hop1_middle_ns']}"); bad = 1
sys.exit(bad)
EOF
}
ktap_check "--csv: a row per origin command, its hops adding up to its end to end" t_csv

t_tail() {
	"$NTPROF" report --tail=50 "${FILES[@]}" > "$TMP/tail" || return 1
	grep -q '^== tail of write 4KiB nvme0n1 through the chain: the command above p50' "$TMP/tail" &&
	grep -q '^  grows the most: hop 2 (m -> r), storage (target block layer, drive), by 400.00 us$' "$TMP/tail" &&
	grep -q '^  critical leg r nullb1: 1 of the tail.s 1 (100 %)' "$TMP/tail"
}
ktap_check "--tail: the hop, stage and leg of the slow write" t_tail

t_tail_json() {
	"$NTPROF" report --json --tail=50 "${FILES[@]}" > "$TMP/tail.json" &&
	python3 "$TOP/selftests/json-check.py" "$SCHEMA" "$TMP/tail.json" &&
	python3 - "$TMP/tail.json" <<'EOF'
import json, sys
t = json.load(open(sys.argv[1]))["chain_tail"]
w = [g for g in t["groups"] if g["label"].startswith("write")][0]
legs = {l["label"]: (l["critical_tail"], l["critical_rest"]) for l in w["legs"]}
ok = (t["percentile"] == 50 and (w["n_tail"], w["n_rest"]) == (1, 3) and
      w["largest"] == {"hop": 2, "id": "storage", "growth_us": 400.0} and
      legs == {"r nullb0": (0, 0), "r nullb1": (1, 3)})
if not ok:
    print(f"# {w}")
sys.exit(0 if ok else 1)
EOF
}
ktap_check "--json --tail: the chain's tail, valid, the same hop, stage and legs" t_tail_json

t_by_leg() {
	"$NTPROF" report --by op,leg "${FILES[@]}" > "$TMP/byleg" || return 1
	grep -q '^== write, critical leg r nullb1 through the chain: 4 commands' "$TMP/byleg" &&
	grep -q '^== read, critical leg r nullb0 through the chain: 2 commands' "$TMP/byleg"
}
ktap_check "--by leg: the chained groups per critical leg" t_by_leg

t_missing() {
	"$NTPROF" report "$TMP/run/h.ntp" "$TMP/run/mt.ntp" "$TMP/run/mh.ntp" > "$TMP/miss" || return 1
	[ "$(grep -c 'missing: ' "$TMP/miss")" = 1 ] &&
	grep -q "^  missing: the replicas' target recordings for $TMP/run/mh.ntp (m's host side): none of its 11 commands matched a target record$" "$TMP/miss" &&
	grep -q '^== write 4KiB nvme0n1: 4 commands sampled' "$TMP/miss"
}
ktap_check "without the replicas: what joins, and one line for what is missing" t_missing

t_order() {
	"$NTPROF" report "$TMP/run/rt.ntp" "$TMP/run/mh.ntp" "$TMP/run/h.ntp" "$TMP/run/mt.ntp" > "$TMP/order" &&
	"$NTPROF" report "$TMP/run" > "$TMP/dir" || return 1
	# The first line names the machines, the sampling lines the files,
	# in the files' order.
	diff <(sed -e 1d -e '/^sampling: /d' "$TMP/text") \
	     <(sed -e 1d -e '/^sampling: /d' "$TMP/order") &&
	diff <(sed -e 1d -e '/^sampling: /d' "$TMP/text") \
	     <(sed -e 1d -e '/^sampling: /d' "$TMP/dir")
}
ktap_check "any order, or a directory: the same report" t_order

ktap_finished
