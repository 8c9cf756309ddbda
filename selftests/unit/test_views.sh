#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every view of a report tells the same numbers (issue 36, items 8 to 11):
# the groups' rates and queue depths are over the span the commands ran
# in, not over a recording that outlasts them; --tail, --hist, --timeline
# and the HTML page take the commands of the tables, without the host's
# aborted attempts; --tail splits at the table's percentile, and says it
# with every digit; --json has the text's warnings and notes, counts the
# records as the text does, and gives the share matched of the sampled
# records as the text does. Each view streamed as loaded.
#
# usage: test_views.sh    Prints TAP; exits 1 if any test failed.

# shellcheck source=selftests/unit/split_env.sh disable=SC1091
. "$(dirname "${BASH_SOURCE[0]}")/split_env.sh"
SCHEMA=$TOP/Documentation/schemas/ntprof-report-1.json
PY=python3

gen() {
	"$NTPGEN" --quiet "$@"
}

# json_valid FILE: FILE is an ntprof-report/1 document.
json_valid() {
	$PY "$TOP/selftests/json-check.py" "$SCHEMA" "$1"
}

# Item 8: the target's recording stopped last, a second after the host's,
# which stopped a second after its last command. The rates and queue
# depths are those of the same workload recorded without the wait.
t_span() {
	gen -n 20000 --seed 51 "$TMP/s_h.ntp" "$TMP/s_t.ntp" &&
	gen -n 20000 --seed 51 --linger 1s "$TMP/l_h.ntp" "$TMP/l_t.ntp" || return 1
	for f in "s_h.ntp s_t.ntp" "l_h.ntp l_t.ntp" "s_h.ntp" "l_h.ntp" \
		 "s_t.ntp" "l_t.ntp"; do
		# shellcheck disable=SC2086
		(cd "$TMP" && "$NTPROF" report --json $f) > "$TMP/${f// /+}.json" ||
			return 1
		json_valid "$TMP/${f// /+}.json" || return 1
	done
	$PY - "$TMP" << 'EOF'
import json, sys
tmp = sys.argv[1]
def load(name):
    with open(f"{tmp}/{name}.json") as f:
        return json.load(f)
bad = 0
for short, long_ in (("s_h.ntp+s_t.ntp", "l_h.ntp+l_t.ntp"),
                     ("s_h.ntp", "l_h.ntp"), ("s_t.ntp", "l_t.ntp")):
    a, b = load(short), load(long_)
    if not b["duration_s"] > 10 * b["span_s"]:
        print(f"# {long_}: recording {b['duration_s']} s, commands {b['span_s']} s")
        bad = 1
    pairs = [(g["label"], g["rate_per_s"], h["rate_per_s"]) for g, h in
             zip(a["groups"], b["groups"])]
    pairs += [(g["label"] + " " + s["id"] + " QD", s["avg_qd"], t["avg_qd"])
              for g, h in zip(a["groups"], b["groups"])
              for s, t in zip(g["stages"], h["stages"])]
    pairs += [("throughput " + x["op"], x["commands_per_s"], y["commands_per_s"])
              for x, y in zip(a["throughput"], b["throughput"])]
    for what, x, y in pairs:
        if abs(x - y) > 0.01 * x:
            print(f"# {long_}: {what} {y}, without the wait {x}")
            bad = 1
sys.exit(bad)
EOF
}
ktap_check "item 8: rates, queue depths and throughput over the commands' span, not a recording that outlasts them" t_span

t_span_text() {
	(cd "$TMP" && "$NTPROF" report l_h.ntp l_t.ntp) > "$TMP/l.txt" &&
	grep -q '^  (over the 0\.0[0-9]* s that had commands, of a recording of 1\.0 s)$' "$TMP/l.txt"
}
ktap_check "item 8: the throughput says the recording is longer than its commands" t_span_text

# Item 9: a host-only run with aborted (requeued) attempts, sampled.
# Every view counts the table's commands: n_table.
t_one_set() {
	gen -n 20000 --aborted-pct 3 --seed 52 "$TMP/a_h.ntp" "$TMP/a_t.ntp" &&
	"$NTPROF" report --json --tail --hist --timeline 0.005 "$TMP/a_h.ntp" \
		> "$TMP/a.json" &&
	json_valid "$TMP/a.json" &&
	"$NTPROF" report --html "$TMP/a.html" "$TMP/a_h.ntp" > /dev/null || return 1
	$PY - "$TMP/a.json" "$TMP/a.html" << 'EOF'
import json, re, sys
d = json.load(open(sys.argv[1]))
page = open(sys.argv[2], encoding="utf-8").read()
bad = 0
if not d["aborted"]["sampled"]:
    print("# no aborted command in the sample")
    bad = 1
tail = {g["label"]: g for g in d["tail"]["groups"]}
hist = {g["label"]: g for g in d["histograms"]["groups"]}
tl = {g["label"]: g for g in d["timeline"]["groups"]}
caps = re.findall(r'<table class="tail"><caption>the ([0-9]+) commands above '
                  r'p99 \(([0-9.]+) µs\) against the other ([0-9]+)</caption>', page)
for i, g in enumerate(d["groups"]):
    n, label = g["n_table"], g["label"]
    got = {"--tail": tail[label]["n_tail"] + tail[label]["n_rest"],
           "--hist": hist[label]["n"],
           "--timeline": sum(s["n"] for s in tl[label]["slices"]),
           "--html tail": int(caps[i][0]) + int(caps[i][2]) if i < len(caps) else -1}
    for view, m in got.items():
        if m != n:
            print(f"# {label}: {view} counts {m}, the table {n}")
            bad = 1
sys.exit(bad)
EOF
}
ktap_check "item 9: --tail, --hist, --timeline and the HTML page count the table's commands, aborted ones out" t_one_set

# Item 10: --tail's threshold is the table's percentile, in every group,
# and the HTML page's tail is split at the table's p99.
t_estimator() {
	"$NTPROF" report --json --tail "$TMP/a_h.ntp" "$TMP/a_t.ntp" > "$TMP/p99.json" &&
	"$NTPROF" report --json --tail=50 "$TMP/a_h.ntp" "$TMP/a_t.ntp" > "$TMP/p50.json" &&
	"$NTPROF" report --json --tail=99.9 "$TMP/a_h.ntp" "$TMP/a_t.ntp" > "$TMP/p999.json" &&
	"$NTPROF" report --html "$TMP/e.html" "$TMP/a_h.ntp" "$TMP/a_t.ntp" > /dev/null &&
	"$NTPROF" report "$TMP/a_h.ntp" "$TMP/a_t.ntp" > "$TMP/e.txt" || return 1
	$PY - "$TMP" << 'EOF'
import json, re, sys
tmp = sys.argv[1]
bad = 0
for name, key in (("p99", "p99"), ("p50", "p50"), ("p999", "p999")):
    d = json.load(open(f"{tmp}/{name}.json"))
    for g, t in zip(d["groups"], d["tail"]["groups"]):
        if t["threshold_us"] != g["latency_us"][key]:
            print(f"# {g['label']}: --tail {name} at {t['threshold_us']}, the table's {g['latency_us'][key]}")
            bad = 1
page = open(f"{tmp}/e.html", encoding="utf-8").read()
caps = re.findall(r'commands above p99 \(([0-9.]+) µs\)', page)
want = re.findall(r'^  latency \(us\): .* p99 ([0-9.]+),', open(f"{tmp}/e.txt").read(), re.M)
if caps != want:
    print(f"# the page's tails at {caps}, the tables' p99 {want}")
    bad = 1
sys.exit(bad)
EOF
}
ktap_check "item 10: --tail and the HTML page split at the table's percentile (one estimator)" t_estimator

t_labels() {
	gen -n 300 --seed 53 "$TMP/w_h.ntp" "$TMP/w_t.ntp" &&
	"$NTPROF" report --tail=99.99999 "$TMP/w_h.ntp" "$TMP/w_t.ntp" > "$TMP/w.txt" ||
		return 1
	grep -q '^== read 4KiB nvme1n1: the command above p99\.99999 ([0-9.]* us) against the other [0-9]*$' "$TMP/w.txt" &&
	! grep -E 'p100|the 1 commands' "$TMP/w.txt"
}
ktap_check "item 10: --tail=99.99999 says p99.99999, and 'the command', not 'the 1 commands'" t_labels

# Item 11: a rotated host recording whose second part is missing, with
# failed commands outside the sample: the warning is in the JSON, and
# the records are counted as the text counts them.
t_json_notes() {
	local text
	gen -n 20000 -s 10 --failed-pct 2 --seed 54 "$TMP/f_h.ntp" "$TMP/f_t.ntp" &&
	mkdir -p "$TMP/rot" &&
	"$SPLIT" "$TMP/f_h.ntp" "$TMP/rot/host" 400 > /dev/null &&
	rm "$TMP/rot/host.0002.ntp" &&
	"$NTPROF" report "$TMP/rot" "$TMP/f_t.ntp" > "$TMP/rot.txt" &&
	"$NTPROF" report --json "$TMP/rot" "$TMP/f_t.ntp" > "$TMP/rot.json" &&
	json_valid "$TMP/rot.json" || return 1
	text=$(grep '^records: ' "$TMP/rot.txt")
	$PY - "$TMP/rot.json" "$text" "$TMP/rot.txt" << 'EOF'
import json, re, sys
d = json.load(open(sys.argv[1]))
text = sys.argv[2]
lines = open(sys.argv[3]).read().splitlines()
bad = 0
warn = [l[len("WARNING: "):] for l in lines if l.startswith("WARNING: ")]
if not warn or not any("missing" in w for w in warn) or d["warnings"] != warn:
    print(f"# JSON warnings {d['warnings']}, the text's {warn}")
    bad = 1
notes = [l for l in lines if l.startswith(("note: ", "failed: "))]
if not notes or d["notes"] != notes:
    print(f"# JSON notes {d['notes']}, the text's {notes}")
    bad = 1
r = d["records"]
m = re.match(r"records: ([0-9]+) host, ([0-9]+) target; ([0-9]+) matched "
             r"\(([0-9]+) % of the host's ([0-9]+) sampled\)$", text)
if not m:
    print(f"# the text's records line: {text}")
    sys.exit(1)
host, target, matched, pct, sampled = map(int, m.groups())
if (r["host"], r["target"], r["matched"], r["sampled"]) != (host, target, matched, sampled):
    print(f"# JSON records {r}, the text's {m.groups()}")
    bad = 1
if int(r["matched_pct"]) != pct or pct < 95 or host == sampled:
    print(f"# matched {r['matched_pct']} %, the text's {pct} %, of {sampled} sampled of {host}")
    bad = 1
sys.exit(bad)
EOF
}
ktap_check "item 11: --json has the text's warnings and notes, its record counts and its share matched of the sampled" t_json_notes

# The same views streamed through the files as loaded.
t_stream() {
	local v d
	for v in "--json --tail --hist --timeline 0.005" "--tail=99.99999" "-D"; do
		# shellcheck disable=SC2086
		"$NTPROF" report --load $v "$TMP/rot" "$TMP/f_t.ntp" > "$TMP/load" 2>&1 &&
		NTPROF_STREAM_CHUNK=997 "$NTPROF" report --stream $v "$TMP/rot" \
			"$TMP/f_t.ntp" > "$TMP/stream" 2>&1 || return 1
		d=$(diff <(grep -v -e '^clocks: ' -e '"windows": ' -e '"pairs": ' \
				-e '"theta_' "$TMP/load") \
			 <(grep -v -e '^clocks: ' -e '"windows": ' -e '"pairs": ' \
				-e '"theta_' "$TMP/stream"))
		[ -z "$d" ] || { ktap_diag "$v: $(head -5 <<< "$d")"; return 1; }
	done
}
ktap_check "the same views streamed (--stream) as loaded, a part missing" t_stream

ktap_finished
