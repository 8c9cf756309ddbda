#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# compare and report --html of chains (Documentation/report.rst,
# "Comparing chains" and "Chains"), on ntpgen --chain runs of one seed:
# a baseline, the same with leg 1's replica 50 us slower (--slow-leg),
# and the same with the middle's own time 30 us longer (--middle-us).
#   - compare names the slow leg's stage and its hop: the chain answer
#     of the writes is hop 2's storage, and the leg that moved is leg 1's
#     replica, its storage +50 us, now critical for every write; leg 0
#     did not move;
#   - a slower middle is hop 1's middle (md0) in the chain answer;
#   - --json holds the same as each group's "chain" (ntprof-compare/2's
#     schema), its hops adding up to the end to end in both runs;
#   - --legs compares two legs of one run (given twice): leg 1's storage
#     against leg 0's; an unknown label is one line and exit 1, naming
#     the run's legs;
#   - compare --html has each chain's hops table, its largest row marked,
#     and its answer, as --json's;
#   - report --html draws per chained group a bar per hop, each part the
#     report's hop stage in path order, and a column per leg.
#
# usage: test_compare_chain.sh    Prints TAP; exits 1 if any test failed.

# Each test is "checks && ... || { diag; return 1; }".
# shellcheck disable=SC2015

# shellcheck source=selftests/unit/ntpgen_env.sh disable=SC1091
. "$(dirname "${BASH_SOURCE[0]}")/ntpgen_env.sh"
SCHEMA=$TOP/Documentation/schemas/ntprof-compare-2.json
LEG0="ntpgen-leg0 nullb0"
LEG1="ntpgen-leg1 nullb0"

for run in "base:" "slow:--slow-leg 1:50" "mid:--middle-us 36"; do
	# shellcheck disable=SC2086
	"$NTPGEN" --quiet --chain -n 3000 --seed 5 ${run#*:} "$TMP/${run%%:*}" ||
		{ echo "Bail out! ntpgen --chain ${run#*:} failed"; exit 1; }
done

# section OUT GROUP: the text of compare's group GROUP, from $TMP/OUT.
section() {
	awk -v g="== $2:" 'index($0, g) == 1 { on = 1; print; next }
		on && /^== / { exit } on && /^answer/ { exit } on' "$TMP/$1"
}

t_slow_leg() {
	"$NTPROF" compare "$TMP/base" "$TMP/slow" > "$TMP/slow.txt" || return 1
	section slow.txt "write 4KiB nvme1n1" > "$TMP/w.txt"
	grep -q '^  chain answer: 1\.[0-9]*x slower end to end .*: hop 2: storage (target block layer, drive) +[0-9.]* us ([0-9]* % of the growth' "$TMP/w.txt" &&
	grep -q "the leg that moved the most: $LEG1, .* storage (target block layer, drive) +\(49\|50\)\.[0-9]* us (LAD 1\.[0-9]*), critical for [0-9]* of \([0-9]*\) -> \2 of \2" "$TMP/w.txt" ||
		{ echo "# $(grep 'chain answer' "$TMP/w.txt")"; return 1; }
	# Both legs' tables, leg 0 unchanged.
	awk -v l="  leg $LEG0:" 'index($0, l) == 1 { on = 1; next }
		on && /storage/ { print $NF; exit }' "$TMP/w.txt" | grep -qx '1\.0[0-2]' &&
	grep -Eq '^  hop 1: middle \(md0\) +[0-9.]+ +[0-9.]+ +1\.0[0-9]$' "$TMP/w.txt" ||
		{ echo "# the legs' or hops' rows:"; sed 's/^/# /' "$TMP/w.txt"; return 1; }
	grep -q "^chain answer (read 4KiB nvme1n1): .*hop 2: storage" "$TMP/slow.txt"
}
ktap_check "compare: the slow leg's stage and hop in the chain answer" t_slow_leg

t_slow_middle() {
	"$NTPROF" compare "$TMP/base" "$TMP/mid" > "$TMP/mid.txt" || return 1
	section mid.txt "write 4KiB nvme1n1" |
		grep -q '^  chain answer: 1\.[0-9]*x slower end to end .*: hop 1: middle (md0) +\(29\|30\)\.[0-9]* us (' ||
		{ echo "# $(grep -m1 'chain answer' "$TMP/mid.txt")"; return 1; }
}
ktap_check "compare: a slower middle is hop 1's middle" t_slow_middle

t_json() {
	"$NTPROF" compare --json "$TMP/base" "$TMP/slow" > "$TMP/slow.json" &&
	python3 "$TOP/selftests/json-check.py" "$SCHEMA" "$TMP/slow.json" &&
	python3 - "$TMP/slow.json" "$LEG0" "$LEG1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
leg0, leg1 = sys.argv[2], sys.argv[3]
bad = 0
for g in d["groups"]:
    c = g["chain"]
    hops = c["hops"]
    e2e = hops[-1]
    for side in ("base_us", "load_us"):
        total = sum(r[side] for r in hops[:-1])
        if e2e["id"] != "end_to_end" or abs(total - e2e[side]) > 0.01:
            print(f"# {g['label']}: {side} hops {total}, end to end {e2e[side]}"); bad = 1
    if (c["largest"]["hop"], c["largest"]["id"]) != (2, "storage"):
        print(f"# {g['label']}: largest {c['largest']}"); bad = 1
    if c["moved_leg"] != leg1:
        print(f"# {g['label']}: moved leg {c['moved_leg']}"); bad = 1
    legs = {l["label"]: l for l in c["legs"]}
    if set(legs) != {leg0, leg1} or legs[leg1]["largest"]["id"] != "storage":
        print(f"# {g['label']}: legs {list(legs)}"); bad = 1
    if g["op"] == "write" and legs[leg1]["load_critical"] != g["load_n"]:
        print(f"# {g['label']}: leg 1 critical {legs[leg1]['load_critical']} of {g['load_n']}"); bad = 1
if d.get("chain_answer") != d["groups"][0]["chain"]["answer"]:
    print("# chain_answer"); bad = 1
sys.exit(bad)
EOF
}
ktap_check "compare --json: each group's chain, hops adding up, the slow leg" t_json

t_legs() {
	"$NTPROF" compare --legs "$LEG0,$LEG1" "$TMP/slow" "$TMP/slow" > "$TMP/legs.txt" || return 1
	section legs.txt "write 4KiB nvme1n1" > "$TMP/lw.txt"
	[ "$(grep -c '^  leg ' "$TMP/lw.txt")" = 1 ] &&
	grep -q '^  leg ntpgen-leg0 -> ntpgen-leg1 nullb0: n [0-9]* -> [0-9]*, critical 0 -> \([0-9]*\)' "$TMP/lw.txt" &&
	grep -q "the leg that moved the most: ntpgen-leg0 -> ntpgen-leg1 nullb0, .*storage (target block layer, drive) +\(49\|50\)\." "$TMP/lw.txt" ||
		{ sed 's/^/# /' "$TMP/lw.txt"; return 1; }
	"$NTPROF" compare --legs "$LEG0,nope" "$TMP/base" "$TMP/slow" > /dev/null 2> "$TMP/err"
	[ $? = 1 ] && [ "$(wc -l < "$TMP/err")" = 1 ] &&
	grep -q "^ntprof: compare: --legs: no leg 'nope' in the load run (its legs: '.*')$" "$TMP/err" &&
	grep -q "'$LEG0'" "$TMP/err" && grep -q "'$LEG1'" "$TMP/err" ||
		{ echo "# $(cat "$TMP/err")"; return 1; }
	"$NTPROF" compare --legs "$LEG0" "$TMP/base" "$TMP/slow" > /dev/null 2> "$TMP/err"
	[ $? = 1 ] && grep -q "^ntprof: compare: --legs takes two leg labels" "$TMP/err" ||
		{ echo "# $(cat "$TMP/err")"; return 1; }
}
ktap_check "compare --legs: two legs of one run; a label of no leg is one line" t_legs

t_html() {
	"$NTPROF" report --json "$TMP/slow" > "$TMP/r.json" &&
	"$NTPROF" report --html "$TMP/r.html" "$TMP/slow" > /dev/null &&
	python3 - "$TMP/r.html" "$TMP/r.json" <<'EOF'
import json, re, sys
from html.parser import HTMLParser

page = open(sys.argv[1]).read()
rep = json.load(open(sys.argv[2]))

class P(HTMLParser):
    """Per group section: its chain's hops (a title per stage rect) and legs."""
    def __init__(self):
        super().__init__()
        self.groups, self.cls, self.in_title, self.in_h2 = [], [], False, False
    def handle_starttag(self, tag, a):
        a = dict(a)
        self.cls.append(a.get("class"))
        if tag == "h2":
            self.groups.append({"hops": {}, "legs_th": [], "h2": ""})
            self.in_h2 = True
        if tag == "g" and a.get("class") == "hop":
            self.hop = int(a["data-hop"])
            self.groups[-1]["hops"][self.hop] = []
        if tag == "title" and "hop" in self.cls:
            self.in_title = True
    def handle_endtag(self, tag):
        if self.cls:
            self.cls.pop()
        self.in_title &= tag != "title"
        self.in_h2 &= tag != "h2"
    def handle_data(self, d):
        g = self.groups[-1] if self.groups else None
        if self.in_title and g is not None:
            m = re.search(r": ([0-9.]+) µs mean", d)
            g["hops"][self.hop].append(float(m.group(1)))
        if self.in_h2:
            g["h2"] += d
        if self.lasttag == "th" and "chain-legs" in [x for x in self.cls if x] and \
           g is not None and d.strip():
            g["legs_th"].append(d)

p = P()
p.feed(page)
bad = 0
by_label = {g["h2"]: g for g in p.groups}
for rg in rep["groups"]:
    g = by_label.get(rg["label"])
    if g is None:
        print(f"# no section {rg['label']}"); bad = 1; continue
    if sorted(g["hops"]) != [1, 2]:
        print(f"# {rg['label']}: hops {sorted(g['hops'])}"); bad = 1; continue
    # Each part the report's hop stage, in path order.
    got = [v for h in sorted(g["hops"]) for v in g["hops"][h]]
    want = [s["mean_us"] for h in rg["hops"] for s in h["stages"]]
    if len(got) != len(want) or any(abs(a - b) > 0.006 for a, b in zip(got, want)):
        print(f"# {rg['label']}: the hops' parts {got}, the report's {want}"); bad = 1
    want = [l["label"] for l in rg["legs"]]
    if g["legs_th"] != want:
        print(f"# {rg['label']}: legs columns {g['legs_th']}, want {want}"); bad = 1
if page.count('<svg class="chain-hops"') != len(rep["groups"]):
    print("# not a chain-hops chart per group"); bad = 1
sys.exit(bad)
EOF
}
ktap_check "report --html: a bar per hop of the report's hop stages, legs side by side" t_html

t_compare_html() {
	"$NTPROF" compare --html "$TMP/c.html" "$TMP/base" "$TMP/slow" > /dev/null &&
	python3 - "$TMP/c.html" "$TMP/slow.json" <<'EOF'
import json, re, sys
from html.parser import HTMLParser

page = open(sys.argv[1]).read()
d = json.load(open(sys.argv[2]))

class P(HTMLParser):
    """Each chain's hops table (rows, the marked one) and its answer."""
    def __init__(self):
        super().__init__()
        self.chains, self.where, self.cell, self.row = [], None, None, None
    def handle_starttag(self, tag, a):
        a = dict(a)
        c = a.get("class") or ""
        if tag == "div" and c == "chain":
            self.chains.append({"rows": [], "largest": None, "answer": ""})
        elif tag == "table" and "chain-hops" in c:
            self.where = "hops"
        elif tag == "tr" and self.where == "hops":
            self.row = {"largest": c == "largest", "cells": []}
        elif tag == "td" and self.row is not None:
            self.cell = ""
        elif tag == "p" and "chain-answer" in c:
            self.where = "answer"
    def handle_endtag(self, tag):
        if tag == "td" and self.cell is not None:
            self.row["cells"].append(self.cell)
            self.cell = None
        elif tag == "tr" and self.row is not None:
            if self.row["cells"]:
                self.chains[-1]["rows"].append(self.row["cells"][0])
                if self.row["largest"]:
                    self.chains[-1]["largest"] = self.row["cells"][0]
            self.row = None
        elif tag in ("table", "p"):
            self.where = None
    def handle_data(self, t):
        if self.cell is not None:
            self.cell += t
        elif self.where == "answer":
            self.chains[-1]["answer"] += t

p = P()
p.feed(page)
groups = [g for g in d["groups"] if "chain" in g]
bad = 0
if len(p.chains) != len(groups):
    print(f"# {len(p.chains)} chains on the page, {len(groups)} in JSON")
    sys.exit(1)
for c, g in zip(p.chains, groups):
    j = g["chain"]
    if c["rows"] != [r["name"] for r in j["hops"]]:
        print(f"# {g['label']}: rows {c['rows']}"); bad = 1
    if c["largest"] != j["largest"]["name"]:
        print(f"# {g['label']}: marked {c['largest']}, JSON's {j['largest']['name']}"); bad = 1
    if c["answer"] != "chain answer: " + re.sub(r"(\d) us\b", r"\1 µs", j["answer"]):
        print(f"# {g['label']}: answer {c['answer']}"); bad = 1
sys.exit(bad)
EOF
}
ktap_check "compare --html: each chain's hops table and answer, as --json's" t_compare_html

ktap_finished
