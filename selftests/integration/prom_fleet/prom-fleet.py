#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The Prometheus side of check.sh: asks a Prometheus server's
HTTP API (/api/v1/query) for the recording rules' series, and compares
them with ntprof report --json of the same run's recordings.

  prom-fleet.py wait URL EXPR N SECONDS  until EXPR has N samples that are
                                         numbers (not NaN), at most SECONDS
  prom-fleet.py compare URL REPORT.json  each stage's mean, total and
                                         rate5m, against the report's

Prints TAP-like verdicts, "PASS text" or "FAIL text", and "# " notes.
"""
import json
import math
import sys
import time
import urllib.parse
import urllib.request

STAGES = ["host_block_layer", "host_driver", "network", "target_driver",
          "storage", "end_to_end"]
TOLERANCE = 0.02


def query(url, expr):
    """The instant vector of EXPR, as [(labels, value)]."""
    q = urllib.parse.urlencode({"query": expr})
    with urllib.request.urlopen(f"{url}/api/v1/query?{q}", timeout=5) as r:
        doc = json.load(r)
    if doc.get("status") != "success":
        raise RuntimeError(f"query {expr}: {doc}")
    return [(s["metric"], float(s["value"][1]))
            for s in doc["data"]["result"]]


def wait(url, expr, n, seconds):
    deadline = time.monotonic() + seconds
    got = []
    while time.monotonic() < deadline:
        try:
            got = [v for _, v in query(url, expr) if not math.isnan(v)]
        except (OSError, RuntimeError) as e:
            print(f"# {e}")
        if len(got) >= n:
            print(f"PASS {expr}: {len(got)} samples")
            return 0
        time.sleep(0.5)
    print(f"FAIL {expr}: {len(got)} samples after {seconds} s, {n} wanted")
    return 1


def report_means(path):
    """Each stage's mean in seconds over the report's joined commands."""
    with open(path) as f:
        doc = json.load(f)
    sums, n = {}, 0
    for g in doc["groups"]:
        if g["kind"] != "joined":
            print(f"# group {g['label']} is {g['kind']}, not joined")
            continue
        n += g["n_table"]
        for s in g["stages"]:
            sums[s["id"]] = sums.get(s["id"], 0) + s["mean_us"] * g["n_table"]
        sums["end_to_end"] = (sums.get("end_to_end", 0) +
                              g["latency_us"]["mean"] * g["n_table"])
    return {k: v / n / 1e6 for k, v in sums.items()} if n else {}


def compare(url, report):
    want = report_means(report)
    bad = 0
    for win in ("total", "rate5m"):
        got = {m["stage"]: v for m, v in
               query(url, f"ntprof:stage_mean_seconds:{win}")}
        for stage in STAGES:
            w, g = want.get(stage), got.get(stage)
            ok = (w is not None and g is not None and
                  abs(g - w) <= TOLERANCE * abs(w))
            bad += not ok
            fmt = (lambda x: "none" if x is None else f"{x * 1e6:.3f} us")
            print(f"{'PASS' if ok else 'FAIL'} {win}: {stage}'s mean "
                  f"{fmt(g)}, the report's {fmt(w)} (within 2 %)")
    shares = query(url, "sum(ntprof:stage_share_ratio:total"
                        '{stage!="end_to_end"})')
    s = shares[0][1] if shares else None
    ok = s is not None and abs(s - 1) < 1e-6
    print(f"{'PASS' if ok else 'FAIL'} the stages' shares add up to 1 ({s})")
    return 1 if bad or not ok else 0


def main(argv):
    if len(argv) == 6 and argv[1] == "wait":
        return wait(argv[2], argv[3], int(argv[4]), float(argv[5]))
    if len(argv) == 4 and argv[1] == "compare":
        return compare(argv[2], argv[3])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
