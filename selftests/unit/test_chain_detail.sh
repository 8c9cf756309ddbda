#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# report --detail and --timeline on chains (Documentation/report.rst,
# "Chains"):
#   - --detail on test_chain --write's files (writes to two replicas, the
#     second slow, reads to the first; md's own time 3 us before the
#     legs and 1 us after): each hop's components along the critical
#     path, the middle's two parts, each leg's components, in text;
#   - --json --detail: valid, each hop's and leg's stages carrying their
#     components, which add up to the stage; without --detail, none;
#   - --timeline on ntpgen --chain with leg 1 slowed by 300 us from 0.2 s
#     on: before, both legs critical for the writes; after, leg 1 for
#     every one and hop 2's share grown, in text and in JSON;
#   - a run without chains: --detail and --timeline print no chain part.
#
# usage: test_chain_detail.sh    Prints TAP; exits 1 if any test failed.

# shellcheck source=selftests/unit/ntpgen_env.sh disable=SC1091
. "$(dirname "${BASH_SOURCE[0]}")/ntpgen_env.sh"
SCHEMA=$TOP/Documentation/schemas/ntprof-report-1.json

make -s -C "$UNIT_DIR" test_chain >&2 ||
	{ echo "Bail out! cannot build test_chain"; exit 1; }
mkdir "$TMP/run" && "$UNIT_DIR/test_chain" --write "$TMP/run" >/dev/null ||
	{ echo "Bail out! cannot write the chain's files"; exit 1; }
FILES=("$TMP/run/h.ntp" "$TMP/run/mt.ntp" "$TMP/run/mh.ntp" "$TMP/run/rt.ntp")
"$NTPGEN" --quiet --chain -n 4000 -q 1 -d 1 --slow-leg 1:300:0.2 "$TMP/slow" ||
	{ echo "Bail out! ntpgen --chain --slow-leg 1:300:0.2 failed"; exit 1; }

t_detail() {
	"$NTPROF" report --detail "${FILES[@]}" > "$TMP/detail" || return 1
	# The write group's table, from its header on.
	sed -n '/^== write 4KiB nvme0n1 through the chain/,$p' "$TMP/detail" > "$TMP/dw"
	grep -q '^  components along the critical path' "$TMP/dw" &&
	grep -Eq '^  1   host block layer, submission +4 +0\.50 ' "$TMP/dw" &&
	grep -Eq '^      middle \(md0\), submission +4 +3\.00 ' "$TMP/dw" &&
	grep -Eq '^      middle \(md0\), completion +4 +1\.00 ' "$TMP/dw" &&
	grep -Eq '^  2   host block layer, submission +4 +0\.50 ' "$TMP/dw" &&
	# Hop 2's storage along the critical path: the slow replica's.
	grep -Eq '^      storage: target block layer +4 +150\.00 ' "$TMP/dw" &&
	grep -q '^  components of leg r nullb0 (hop 2), over its 4 commands$' "$TMP/dw" &&
	grep -q '^  components of leg r nullb1 (hop 2), over its 4 commands$' "$TMP/dw" &&
	grep -Eq '^    end to end +4 +175\.50 ' "$TMP/dw" &&
	# Without --detail, the report is what it was.
	"$NTPROF" report "${FILES[@]}" > "$TMP/plain" &&
	! grep -q 'components' "$TMP/plain"
}
ktap_check "--detail: each hop's components along the critical path, the middle's parts, each leg's" t_detail

t_detail_json() {
	"$NTPROF" report --json --detail "${FILES[@]}" > "$TMP/detail.json" &&
	python3 "$TOP/selftests/json-check.py" "$SCHEMA" "$TMP/detail.json" &&
	"$NTPROF" report --json "${FILES[@]}" > "$TMP/plain.json" &&
	python3 - "$TMP/detail.json" "$TMP/plain.json" <<'EOF'
import json, sys
SUB = {"data_transfer_at_target", "handoff_to_nvme_complete_rq"}
d = json.load(open(sys.argv[1]))
bad = 0
def check(where, stages):
    global bad
    for s in stages:
        comps = s.get("components")
        if not comps:
            print(f"# {where} {s['id']}: no components"); bad = 1; continue
        total = sum(c["mean_us"] * c["n"] for c in comps if c["id"] not in SUB)
        n = max(c["n"] for c in comps)
        if abs(total / n - s["mean_us"]) > 0.01:
            print(f"# {where} {s['id']}: components {total / n}, stage {s['mean_us']}"); bad = 1
for g in d["groups"]:
    for h in g["hops"]:
        check(f"{g['label']} hop {h['hop']}", h["stages"])
    mid = [s for s in g["hops"][0]["stages"] if s["id"] == "middle"][0]
    if [(c["id"], c["mean_us"]) for c in mid["components"]] != \
       [("middle_submission", 3.0), ("middle_completion", 1.0)]:
        print(f"# {g['label']}: middle {mid}"); bad = 1
    for l in g["legs"]:
        check(f"{g['label']} leg {l['label']}", l["stages"])
p = json.load(open(sys.argv[2]))
for g in p["groups"]:
    for s in [s for h in g["hops"] for s in h["stages"]] + \
             [s for l in g["legs"] for s in l["stages"]]:
        if "components" in s:
            print(f"# without --detail: {g['label']} {s['id']} has components"); bad = 1
sys.exit(bad)
EOF
}
ktap_check "--json --detail: valid, each stage's components adding up to it; none without --detail" t_detail_json

t_timeline() {
	"$NTPROF" report --timeline 0.1 "$TMP/slow" > "$TMP/tl" || return 1
	sed -n '/^== write 4KiB nvme1n1 through the chain, every 0.1 s: /,/^$/p' "$TMP/tl" > "$TMP/tlw"
	grep -Eq '^ +time +cmds/s +mean us +hop 1 +middle \(md0\) +hop 2 +ntpgen-leg0 nullb0 +ntpgen-leg1 nullb0$' "$TMP/tlw" &&
	# Before 0.2 s both legs complete last by turns; from then on the
	# slow one every time.
	awk '$1 ~ /s$/ { t = $1 + 0; l0 = $(NF - 1); l1 = $NF
		if (t < 0.15 && (l0 == 0 || l1 == 0)) bad = 1
		if (t > 0.15 && (l0 != 0 || l1 == 0)) bad = 1
		rows++ }
	     END { exit bad || rows < 8 }' "$TMP/tlw"
}
ktap_check "--timeline: the slice in which a leg became the critical one" t_timeline

t_timeline_json() {
	"$NTPROF" report --json --timeline 0.1 "$TMP/slow" > "$TMP/tl.json" &&
	python3 "$TOP/selftests/json-check.py" "$SCHEMA" "$TMP/tl.json" &&
	python3 - "$TMP/tl.json" <<'EOF'
import json, sys
t = json.load(open(sys.argv[1]))["chain_timeline"]
w = [g for g in t["groups"] if g["label"] == "write 4KiB nvme1n1"][0]
bad = 0
for s in w["slices"]:
    crit = {l["label"]: l["critical"] for l in s["legs"]}
    shares = sum(h["share_pct"] + (h["middle_share_pct"] or 0) for h in s["hops"])
    if s["n_followed"] and abs(shares - 100) > 0.05:
        print(f"# {s['start_s']}: shares {shares}"); bad = 1
    if sum(crit.values()) != s["n"]:
        print(f"# {s['start_s']}: critical {crit} of {s['n']}"); bad = 1
    late = s["start_s"] >= 0.2
    if late != (crit["ntpgen-leg0 nullb0"] == 0):
        print(f"# {s['start_s']}: critical {crit}"); bad = 1
hop2 = [s["hops"][1]["share_pct"] for s in w["slices"]]
if not hop2[-2] > hop2[0] + 10:
    print(f"# hop 2's share {hop2}"); bad = 1
sys.exit(bad)
EOF
}
ktap_check "--json --timeline: chain_timeline valid, shares adding up, the critical leg changing at 0.2 s" t_timeline_json

t_no_chain() {
	"$NTPGEN" --quiet -n 2000 "$TMP/h1.ntp" "$TMP/t1.ntp" &&
	"$NTPROF" report --detail --timeline 0.01 "$TMP/h1.ntp" "$TMP/t1.ntp" > "$TMP/one" &&
	"$NTPROF" report --json --detail --timeline 0.01 "$TMP/h1.ntp" "$TMP/t1.ntp" > "$TMP/one.json" || return 1
	! grep -q 'through the chain\|components along\|components of leg' "$TMP/one" &&
	! grep -q '"chain_timeline"' "$TMP/one.json"
}
ktap_check "a run without chains: no chain part with --detail or --timeline" t_no_chain

ktap_finished
