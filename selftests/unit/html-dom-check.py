#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What test_html_browser.sh checks in a page, as Chromium built it.

usage: html-dom-check.py wellformed PAGE
       html-dom-check.py report DOM REPORT.json
       html-dom-check.py compare DOM
       html-dom-check.py compare-answer DOM COMPARE.json
       html-dom-check.py chain DOM REPORT.json
       html-dom-check.py events DOM REPORT.json

wellformed: ntprof's own output, before any browser repairs it: every
element closed in the order it was opened, no script, nothing fetched.
report, compare: the DOM that chromium --dump-dom printed; each chart's
axes, ticks in units, legends, marks and hover titles. compare-answer:
the page of a compare --json (one transport per group) names the stage
that changed the most as the JSON does: outlined in both bars, its legend,
its row, its line, and each group's answer line the JSON's, word for word;
with --detail, the largest component's row. chain: each chained group's
bar per hop (a row per hop of the JSON's hops) and its legs' chart, with
axes, legends and hover titles, and a column per leg of the JSON's legs.
events: the control path in report --html, against report --json
--timeline's "events" and "timeline"."marks": on each group's timeline
a band per mark, its hover title the mark's name and times, its label
the name, its left edge and width where the x axis' ticks put the mark's
start and end (within 1.5 pixels); the events chart a bar per event,
labelled with its type, its title and place as its start_s and
duration_s say; the events table
a row per event. (Without marks in the JSON, a page without a group's
timeline: the events chart and the table alone.)
Prints a line per problem; exits 1 if there was any.
"""

import json
import re
import sys
from html.parser import HTMLParser

VOID = {"meta", "br", "hr", "img", "input", "link", "area", "base", "col",
        "embed", "source", "track", "wbr"}
# A tick label: a number and its unit.
TICK = re.compile(r"^-?[0-9]+(\.[0-9]+)? (µs|ms|s|%)$")
# A hover title: a value and its unit somewhere in it.
VALUE = re.compile(r"[0-9]+(\.[0-9]+)? (µs|ms|s)\b")


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag = tag
        self.attrs = dict(attrs)
        self.parent = parent
        self.children = []
        self.text = ""

    def classes(self):
        return (self.attrs.get("class") or "").split()

    def all_text(self):
        return self.text + "".join(c.all_text() for c in self.children)

    def find(self, tag=None, cls=None):
        """Every descendant with @tag and class @cls, in document order."""
        out = []
        for c in self.children:
            if (tag is None or c.tag == tag) and \
               (cls is None or cls in c.classes()):
                out.append(c)
            out.extend(c.find(tag, cls))
        return out

    def title(self):
        t = [c for c in self.children if c.tag == "title"]
        return t[0].all_text() if t else None


class Tree(HTMLParser):
    """The page as nodes; @errors: the elements closed out of order."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", [], None)
        self.cur = self.root
        self.errors = []

    def handle_starttag(self, tag, attrs):
        node = Node(tag, attrs, self.cur)
        self.cur.children.append(node)
        if tag not in VOID:
            self.cur = node

    def handle_startendtag(self, tag, attrs):
        self.cur.children.append(Node(tag, attrs, self.cur))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if self.cur.tag != tag:
            self.errors.append(f"</{tag}> closes <{self.cur.tag}>")
            return
        self.cur = self.cur.parent

    def handle_data(self, data):
        self.cur.text += data


def parse(path):
    tree = Tree()
    with open(path, encoding="utf-8") as f:
        tree.feed(f.read())
    tree.close()
    return tree


def check_axis(svg, axis, what, problems):
    """@svg has a <g class="axis axis-@axis"> with ticks in units and a title."""
    axes = svg.find("g", "axis-" + axis)
    if len(axes) != 1:
        problems.append(f"{what}: {len(axes)} {axis} axes")
        return
    ticks = [t.all_text() for t in axes[0].find("text", "tick-label")]
    bad = [t for t in ticks if not TICK.match(t)]
    if len(ticks) < 3 or bad:
        problems.append(f"{what}: {axis} axis ticks {ticks}")
    titles = axes[0].find("text", "axis-title")
    if len(titles) != 1 or not titles[0].all_text().strip():
        problems.append(f"{what}: {axis} axis has no title")
    if not axes[0].find("line", "axis-line"):
        problems.append(f"{what}: {axis} axis has no line")


def check_legend(svg, what, problems, least=1):
    items = [i.all_text().strip() for g in svg.find("g", "legend")
             for i in g.find("g", "legend-item")]
    if len(items) < least or not all(items):
        problems.append(f"{what}: legend {items}")


def check_titles(nodes, what, problems, unit=VALUE):
    """Every node of @nodes has a hover title with a value in a unit."""
    if not nodes:
        problems.append(f"{what}: none")
    for n in nodes:
        t = n.title()
        if t is None or not unit.search(t):
            problems.append(f"{what}: title {t!r}")
            return


def check_cdf(svg, group, what, problems):
    check_axis(svg, "x", what, problems)
    check_axis(svg, "y", what, problems)
    check_legend(svg, what, problems, least=2)
    check_titles(svg.find("circle", "point"), what + " points", problems)
    lat = group["latency_us"]
    want = [f"p50 {lat['p50']:.1f} µs", f"p99 {lat['p99']:.1f} µs",
            f"p99.9 {lat['p999']:.1f} µs"]
    got = [m.all_text() for m in svg.find("text", "pmark-label")]
    if got != want:
        problems.append(f"{what}: percentile marks {got}, want {want}")
    check_titles(svg.find("g", "pmark"), what + " marks", problems)


def cells(tr):
    return [c.all_text().strip() for c in tr.children if c.tag in ("td", "th")]


def check_report_text(dom, report, problems):
    """The text report's lines and tables: files, hosts, kernels, throughput,
    each group's line, stage table with avg QD, largest, components with L
    and indented sub-rows, the records and notes; times in µs only."""
    origin = dom.find("p", "origin")
    if len(origin) != 1 or not origin[0].all_text().startswith("recorded on "):
        problems.append("no 'recorded on' line")
    hosts = {f["hostname"] for f in report["files"]}
    if origin and not all(h in origin[0].all_text() for h in hosts):
        problems.append(f"'recorded on' names not {hosts}")
    files = dom.find("table", "files")
    rows = [cells(r) for r in files[0].find("tr")][1:] if files else []
    want = [[f["role"], f["hostname"], f["kernel"], str(f["records"])]
            for f in report["files"]]
    if [[r[1], r[3], r[4], r[5]] for r in rows] != want:
        problems.append(f"files table {rows}, want {want}")
    tp = dom.find("p", "throughput")
    if not tp or not tp[0].all_text().startswith("throughput (estimated"):
        problems.append("no throughput line")
    rec = dom.find("p", "records")
    if len(rec) != 1 or not rec[0].all_text().startswith("records: "):
        problems.append("no records line")
    groups = {g["label"]: g for g in report["groups"]}
    for sec in dom.find("section", "group"):
        label = sec.find("h2")[0].all_text()
        g = groups.get(label)
        if not g:
            continue
        head = sec.find("p", "group-head")
        if len(head) != 1 or not re.match(
                re.escape(label) + r": [0-9]+ commands sampled \(from about [0-9.]+[kM]? commands/s\)",
                head[0].all_text()):
            problems.append(f"{label}: group line {[h.all_text() for h in head]}")
        st = sec.find("table", "stages")
        rows = [cells(r) for r in st[0].find("tr")] if st else []
        if not rows or rows[0] != ["stage", "mean µs", "share", "avg QD"]:
            problems.append(f"{label}: stage table head {rows[:1]}")
        elif len(rows) - 1 != len(g["stages"]) or any(
                r[0] != s["name"] or abs(float(r[3]) - s["avg_qd"]) > 0.006
                for r, s in zip(rows[1:], g["stages"])):
            problems.append(f"{label}: stage table {rows[1:]}")
        big = [cells(r)[0] for r in st[0].find("tr", "largest")] if st else []
        lg = sec.find("p", "largest")
        if big != [g["largest"]] or len(lg) != 1 or \
           not lg[0].all_text().startswith(f"largest: {g['largest']}, "):
            problems.append(f"{label}: largest {big}, {[x.all_text() for x in lg]}")
        comp = sec.find("table", "components")
        rows = [cells(r) for r in comp[0].find("tr")] if comp else []
        if not rows or rows[0] != ["component", "n", "mean µs", "L", "p50 µs", "p99 µs"]:
            problems.append(f"{label}: component table head {rows[:1]}")
            continue
        ls = {c["name"]: c["L"] for c in g["components"] if c["n"]}
        for r in rows[1:]:
            if r[0] in ls and abs(float(r[3]) - ls[r[0]]) > 0.006:
                problems.append(f"{label}: {r[0]} L {r[3]}, JSON's {ls[r[0]]}")
        subs = [cells(r)[0] for r in comp[0].find("tr", "sub")]
        want = [c["name"] for c in g["components"] if c["n"] and c["id"] in
                ("data_transfer_at_target", "handoff_to_nvme_complete_rq")]
        cap = comp[0].find("caption")
        if sorted(subs) != sorted(want) or not cap or "indented" not in cap[0].all_text():
            problems.append(f"{label}: indented rows {subs}, want {want}")
        # The marks' labels over every dashed line, not under one.
        for svg in sec.find("svg", "cdf"):
            kids = svg.children
            marks = [i for i, c in enumerate(kids) if "pmark" in c.classes()]
            texts = [i for i, c in enumerate(kids) if "pmark-label" in c.classes()]
            if not marks or not texts or max(marks) > min(texts):
                problems.append(f"{label}: a dashed mark drawn over a label")
    text = dom.all_text()
    if re.search(r"[0-9] us\b|\bus\)|[a-z] us<", text):
        problems.append("'us' beside 'µs': " + re.search(r".{30}([0-9] us\b|\bus\)).{10}", text).group(0))


def check_report(dom, report):
    problems = []
    check_report_text(dom, report, problems)
    groups = {g["label"]: g for g in report["groups"]}
    sections = dom.find("section", "group")
    if len(sections) != len(groups):
        problems.append(f"{len(sections)} sections, {len(groups)} groups")
    for sec in sections:
        label = sec.find("h2")[0].all_text()
        charts = {c: sec.find("svg", c) for c in ("stagebar", "cdf", "timeline")}
        missing = [c for c, v in charts.items() if len(v) != 1]
        if missing or label not in groups:
            problems.append(f"{label}: no {missing} or not in the report")
            continue
        bar, cdf, tl = (charts[c][0] for c in ("stagebar", "cdf", "timeline"))
        check_axis(bar, "x", label + " stage bar", problems)
        check_legend(bar, label + " stage bar", problems)
        check_titles(bar.find("rect", "stage"), label + " bar", problems)
        check_cdf(cdf, groups[label], label + " CDF", problems)
        check_axis(tl, "x", label + " timeline", problems)
        check_axis(tl, "y", label + " timeline", problems)
        if not all(t.all_text().endswith(" s") for t in tl.find("text", "tick-label")[:1]):
            problems.append(f"{label} timeline: x not in seconds")
        check_legend(tl, label + " timeline", problems)
        check_titles(tl.find("circle", "point"), label + " timeline points",
                     problems)
    return problems


def check_compare(dom):
    """The first section: both transports' base and load bars, storage's LAD."""
    problems = []
    sections = dom.find("section", "group")
    if not sections:
        return ["no section"]
    for sec in sections:
        what = sec.find("h2")[0].all_text()
        svgs = sec.find("svg", "compare")
        if len(svgs) != 1:
            problems.append(f"{what}: {len(svgs)} figures")
            continue
        svg = svgs[0]
        check_axis(svg, "x", what, problems)
        check_legend(svg, what, problems, least=3)
        check_titles(svg.find("rect", "stage"), what + " bars", problems)
        rows = [t.all_text() for t in svg.find("text", "bar-label")]
        if rows != ["tcp, base", "tcp, load", "rdma, base", "rdma, load"]:
            problems.append(f"{what}: bars {rows}")
        top = svg.find("rect", "largest")
        if len(top) != 4 or not all("storage" in (t.title() or "") for t in top):
            problems.append(f"{what}: {len(top)} outlined segments, not storage's")
        legend = [i.all_text() for i in svg.find("g", "largest")]
        if len(legend) != 1 or not re.match(r"storage: largest LAD tcp [0-9.]+, rdma [0-9.]+$", legend[0]):
            problems.append(f"{what}: largest's legend {legend}")
        if len(svg.find("text", "lad-label")) != 2:
            problems.append(f"{what}: no LAD label on each loaded bar")
        tables = sec.find("table", "lad")
        if len(tables) != 2 or not all("storage" in t.find("tr", "largest")[0].all_text()
                                       for t in tables if t.find("tr", "largest")):
            problems.append(f"{what}: not a LAD table per transport, storage largest")
    return problems


def check_compare_answer(dom, js):
    """Each group's largest change and answer, as compare --json has them."""
    problems = []
    answers = [p.all_text() for p in dom.find("p", "answer")]
    # The page writes the text's "us" as "µs", nothing else.
    want = [re.sub(r"(?<=[0-9]) us(?![A-Za-z0-9])", " µs", g["answer"])
            for g in js["groups"]]
    if answers != want:
        problems.append(f"answers {answers}, not {want}")
    text = dom.all_text()
    if re.search(r"[0-9] us\b|\bus\)|\bbase us\b|\bload us\b", text):
        problems.append("'us' beside 'µs' on the compare page")
    for sec in dom.find("section", "group"):
        cells = [td.all_text() for t in sec.find("table", "lad") for td in t.find("td")]
        notes = [p.all_text() for p in sec.find("p", "note")]
        has_na = any(c.startswith("n/a") for c in cells)
        has_foot = any("n/a: under 0.5 µs at the baseline" in n for n in notes)
        if has_na != has_foot:
            problems.append(f"a LAD n/a {'without' if has_na else 'and no n/a, but'} the footnote")
    sections = dom.find("section", "group")
    if len(sections) != len(js["groups"]):
        return problems + [f"{len(sections)} sections for {len(js['groups'])} groups"]
    for sec, g in zip(sections, js["groups"]):
        top = g["largest"]
        what = g["label"]
        if top is None:
            if sec.find("rect", "largest") or sec.find("tr", "largest"):
                problems.append(f"{what}: a largest outlined, none in the JSON")
            continue
        name = top["name"]
        rects = sec.find("rect", "largest")
        if len(rects) != 2 or not all((r.title() or "").split(": ")[1] == name
                                      for r in rects):
            problems.append(f"{what}: outlined {[r.title() for r in rects]}, not {name}")
        if top["largest_lad"]:
            label = f"{name}: largest LAD {top['lad']:.2f}"
            line = f"largest LAD: {name}, {top['lad']:.2f}"
        else:
            lad = "n/a" if top["lad"] is None else f"{top['lad']:.2f}"
            label = f"{name}: largest change {top['delta_us']:+.2f} µs"
            line = f"largest change: {name}, {top['delta_us']:+.2f} µs (LAD {lad})"
        legend = [i.all_text() for i in sec.find("g", "largest")]
        if legend != [label]:
            problems.append(f"{what}: legend {legend}, not {label!r}")
        rows = [r.all_text() for r in sec.find("table", "lad")[0].find("tr", "largest")]
        if len(rows) != 1 or name not in rows[0]:
            problems.append(f"{what}: largest row {rows}, not {name}")
        lines = [p.all_text() for p in sec.find("p", "largest")]
        if lines != [line]:
            problems.append(f"{what}: {lines}, not {line!r}")
        if "components" not in g:
            continue
        comps = sec.find("table", "components")
        comp = g["largest_component"]
        rows = [r.all_text() for t in comps for r in t.find("tr", "largest")]
        if len(comps) != 1 or comp is None or len(rows) != 1 or \
           comp["name"] not in rows[0]:
            problems.append(f"{what}: components' largest row {rows}, not {comp}")
    return problems


def check_wellformed(path):
    tree = parse(path)
    problems = tree.errors[:5]
    if tree.cur is not tree.root:
        problems.append(f"<{tree.cur.tag}> never closed")
    with open(path, encoding="utf-8") as f:
        page = f.read()
    if not page.startswith("<!DOCTYPE html>"):
        problems.append("no <!DOCTYPE html>")
    if re.search(r"<script|<link|<iframe|<img|://|url\(", page, re.I):
        problems.append("a script, or something fetched")
    return problems


def check_chain(dom, report):
    """Each chained group's hops and legs charts (the page's head, of
    several machines, is test_chain_views.sh's to check)."""
    problems = []
    groups = {g["label"]: g for g in report["groups"]}
    chained = 0
    for sec in dom.find("section", "group"):
        label = sec.find("h2")[0].all_text()
        g = groups.get(label)
        if not g or "hops" not in g:
            continue
        chained += 1
        hops, legs = sec.find("svg", "chain-hops"), sec.find("svg", "chain-legs")
        if len(hops) != 1 or len(legs) != 1:
            problems.append(f"{label}: {len(hops)} hop charts, {len(legs)} leg charts")
            continue
        for svg, what in ((hops[0], "hops"), (legs[0], "legs")):
            check_axis(svg, "x", f"{label} {what}", problems)
            check_legend(svg, f"{label} {what}", problems)
            check_titles(svg.find("rect", "stage"), f"{label} {what} bars", problems)
        rows = hops[0].find("g", "hop")
        if len(rows) != len(g["hops"]) or any(
                len(r.find("rect", "stage")) != len(h["stages"])
                for r, h in zip(rows, g["hops"])):
            problems.append(f"{label}: {len(rows)} hop bars, JSON {len(g['hops'])}")
        table = sec.find("table", "chain-legs")
        head = cells(table[0].find("tr")[0])[1:] if table else []
        if head != [leg["label"] for leg in g["legs"]]:
            problems.append(f"{label}: legs columns {head}")
    if not chained:
        problems.append("no chained group")
    return problems


def tick_map(svg):
    """The x axis' pixel of a value, fitted on its ticks ("2 s" at x)."""
    axes = svg.find("g", "axis-x")
    pts = [(float(t.all_text().split()[0]), float(t.attrs["x"]))
           for t in (axes[0].find("text", "tick-label") if axes else [])]
    if len(pts) < 2:
        return None
    (v0, x0), (v1, x1) = pts[0], pts[-1]
    return lambda v: x0 + (v - v0) * (x1 - x0) / (v1 - v0)


def mark_name(m):
    return f"{m['type']} {m['controller']}"


def check_events(dom, report):
    problems = []
    marks = report.get("timeline", {}).get("marks", [])
    events = report.get("events", [])
    if not events:
        problems.append("the report has no events")
    tls = dom.find("svg", "timeline")
    if marks and not tls:
        problems.append("no timeline")
    for i, svg in enumerate(tls):
        bands = svg.find("g", "event-band")
        if len(bands) != len(marks):
            problems.append(f"timeline {i}: {len(bands)} bands, {len(marks)} marks")
            continue
        pos = tick_map(svg)
        if pos is None:
            problems.append(f"timeline {i}: no ticks on its x axis")
            continue
        for b, m in zip(bands, marks):
            name = mark_name(m)
            want = f"{name}: {m['start_s']:.3f} s to {m['end_s']:.3f} s"
            title = b.title() or ""
            if not title.startswith(want):
                problems.append(f"band title {title!r}, want {want!r}")
            label = [t.all_text() for t in b.find("text", "band-label")]
            if label != [name]:
                problems.append(f"band label {label}, want {name!r}")
            rect = b.find("rect", "band")
            if len(rect) != 1:
                problems.append(f"{name}: {len(rect)} rects")
                continue
            x, w = float(rect[0].attrs["x"]), float(rect[0].attrs["width"])
            x0, x1 = pos(m["start_s"]), pos(m["end_s"])
            if abs(x - x0) > 1.5 or abs(x + w - max(x1, x0 + 1.5)) > 1.5:
                problems.append(f"{name}: band {x:.1f}+{w:.1f}, the axis puts it at {x0:.1f} to {x1:.1f}")
        items = [t.all_text() for t in svg.find("text", "legend-label")]
        if not any("control path" in t for t in items):
            problems.append(f"timeline {i}: no legend for the bands: {items}")
    charts = dom.find("svg", "events-chart")
    if len(charts) != 1:
        problems.append(f"{len(charts)} events charts")
    else:
        check_axis(charts[0], "x", "events chart", problems)
        check_legend(charts[0], "events chart", problems)
        bars = charts[0].find("g", "event-bar")
        pos = tick_map(charts[0])
        if len(bars) != len(events) or pos is None:
            problems.append(f"events chart: {len(bars)} bars, {len(events)} events")
            bars = []
        for b, e in zip(bars, events):
            name = mark_name(e)
            d = e["duration_s"]
            want = f"{name}: " + (f"at {e['start_s']:.3f} s" if e["type"] == "delete"
                                  else f"{e['start_s']:.3f} s to ")
            if d is not None:
                want += f"{e['start_s'] + d:.3f} s, {d:.3f} s"
            title = b.title() or ""
            if not title.startswith(want):
                problems.append(f"events chart: title {title!r}, want {want!r}")
            label = [t.all_text() for t in b.find("text", "bar-label")]
            if label != [e["type"]]:
                problems.append(f"events chart: label {label}, want {e['type']!r}")
            rect = b.find("rect", "bar")
            x = float(rect[0].attrs["x"]) if rect else -1
            w = float(rect[0].attrs["width"]) if rect else -1
            if abs(x - pos(e["start_s"])) > 1.5 or \
               (d is not None and abs(x + w - max(pos(e["start_s"] + d), x + 1.5)) > 1.5):
                problems.append(f"events chart: {name} at {x:.1f}+{w:.1f}")
    tables = dom.find("table", "events")
    rows = [cells(r) for r in tables[0].find("tr", "event")] if tables else []
    want = [[f"{e['start_s']:.6f}", e["controller"], e["type"],
             "-" if e["duration_s"] is None else f"{e['duration_s']:.6f}"]
            for e in events]
    if [r[:4] for r in rows] != want:
        problems.append(f"events table {rows}, want {want}")
    return problems


def main():
    mode, path = sys.argv[1], sys.argv[2]
    if mode == "wellformed":
        problems = check_wellformed(path)
    elif mode == "report":
        with open(sys.argv[3], encoding="utf-8") as f:
            problems = check_report(parse(path).root, json.load(f))
    elif mode == "chain":
        with open(sys.argv[3], encoding="utf-8") as f:
            problems = check_chain(parse(path).root, json.load(f))
    elif mode == "events":
        with open(sys.argv[3], encoding="utf-8") as f:
            problems = check_events(parse(path).root, json.load(f))
    elif mode == "compare-answer":
        with open(sys.argv[3], encoding="utf-8") as f:
            problems = check_compare_answer(parse(path).root, json.load(f))
    else:
        problems = check_compare(parse(path).root)
    for p in problems[:20]:
        print(f"# {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
