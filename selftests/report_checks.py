# SPDX-License-Identifier: GPL-2.0
"""The numeric checks of ntprof's report --json that the lab's checkers
make (selftests/integration), run as json-check.py CHECK REPORT.

Each check prints what it found, one line, and returns 0 when the report
passes it and 1 when it does not. Its unit test is
selftests/unit/test_json_check.sh.
"""
import argparse
import json
import sys


def host_groups(doc):
    """The report's groups of host records."""
    return [g for g in doc.get("groups") or [] if g.get("side") == "host"]


def stage(group, sid):
    """The stage @sid of @group, or None."""
    for s in group.get("stages") or []:
        if s.get("id") == sid:
            return s
    return None


def component(group, cid):
    """The first component @cid of @group, or None."""
    for c in group.get("components") or []:
        if c.get("id") == cid:
            return c
    return None


def stage_sums(doc, args):
    """stage_sums() - in each host group with an end-to-end mean, the
    stages' means add up to that mean within a fraction of it.

    A rounding of the means is all that may separate them: a stage that is
    counted twice or left out moves the sum by a whole stage. Without
    --need-group a report without any host group passes.
    """
    bad = []
    groups = host_groups(doc)
    for g in groups:
        mean = g["latency_us"]["mean"]
        if mean <= 0:
            continue
        total = sum(s["mean_us"] for s in g["stages"])
        if abs(total - mean) > args.tolerance * mean:
            bad.append("%s: %s vs %s" % (g.get("label"), total, mean))
    if args.need_group and not groups:
        bad.append("no host group")
    print("; ".join(bad) if bad else
          "%d host groups add up" % len(groups))
    return 1 if bad else 0


def no_loss(doc, args):
    """no_loss() - no file of the report lost a record: its drops and
    evictions are 0 in each, and there are --files files if given."""
    files = doc.get("files") or []
    print(", ".join("%s %s %s" % (f.get("role"), f.get("drops"),
                                  f.get("evictions")) for f in files))
    lost = [f for f in files
            if f.get("drops") != 0 or f.get("evictions") != 0]
    if not files or lost:
        return 1
    if args.files is not None and len(files) != args.files:
        return 1
    return 0


def groups(doc, args):
    """groups() - the host groups are one per op and size, each an op of
    --ops and a size of --sizes. Prints those given twice or not asked
    for."""
    ops = args.ops.split()
    sizes = args.sizes.split()
    seen = set()
    bad = []
    for g in host_groups(doc):
        key = "%s %s" % (g.get("op"), g.get("size"))
        if key in seen and key not in bad:
            bad.append(key)
        seen.add(key)
        if (g.get("op") not in ops or str(g.get("size")) not in sizes) \
                and key not in bad:
            bad.append(key)
    print(", ".join(bad))
    return 1 if bad else 0


def write_data(doc, args):
    """write_data() - in each host group, the host's data transfer is a
    network component of every command of the table, no component merged
    anything, and the target driver's share is below --max-target-pct.
    A report without a host group fails."""
    bad = []
    hg = host_groups(doc)
    for g in hg:
        data = component(g, "network_host_data_transfer")
        td = stage(g, "target_driver")
        merged = sum(c.get("merged_n") or 0
                     for c in g.get("components") or [])
        if data is None or data.get("n") != g.get("n_table") or \
                merged > 0 or td is None or \
                td["share_pct"] >= args.max_target_pct:
            bad.append("%s: host's data in %s of %s, target driver %s %%" %
                       (g.get("label"), (data or {}).get("n", 0),
                        g.get("n_table"), (td or {}).get("share_pct")))
    if not hg:
        bad.append("no group")
    print("; ".join(bad))
    return 1 if bad else 0


# The status codes an aborted attempt may end with, without the DNR and
# More bits (status % 2048): the host's aborts (0x301 to 0x303, the
# path's and the controller's), and a path's errors (0x370 to 0x37f).
ABORT_STATUSES = (range(0x301, 0x304), range(0x370, 0x380))


def aborted(doc, _args):
    """aborted() - each status of the aborted attempts is a path's error
    or the host's abort. Prints the statuses and their counts, "STATUS N"
    in decimal, then those of another kind."""
    statuses = (doc.get("aborted") or {}).get("statuses") or []
    print(", ".join("%s %s" % (s["status"], s["n"]) for s in statuses))
    other = [str(s["status"]) for s in statuses
             if not any(s["status"] % 2048 in r for r in ABORT_STATUSES)]
    if other:
        print("not a path's or the host's: " + " ".join(other))
        return 1
    return 0


CHECKS = {
    "stage-sums": stage_sums,
    "no-loss": no_loss,
    "groups": groups,
    "write-data": write_data,
    "aborted": aborted,
}


def parser():
    """The command line of the checks, one subcommand each."""
    p = argparse.ArgumentParser(
        prog="json-check.py",
        description="Check the numbers of an ntprof report --json.")
    sub = p.add_subparsers(dest="check", required=True)
    c = sub.add_parser("stage-sums", help=stage_sums.__doc__.split("\n")[0])
    c.add_argument("--tolerance", type=float, default=0.001,
                   help="the fraction of the mean the sum may be off")
    c.add_argument("--need-group", action="store_true",
                   help="fail a report without a host group")
    c = sub.add_parser("no-loss", help="no drop and no eviction in a file")
    c.add_argument("--files", type=int, help="how many files there are")
    c = sub.add_parser("groups", help="one host group per op and size")
    c.add_argument("--ops", required=True, help="the ops, such as 'read write'")
    c.add_argument("--sizes", required=True, help="the sizes in bytes")
    c = sub.add_parser("write-data", help="the host's data of every write")
    c.add_argument("--max-target-pct", type=float, required=True,
                   help="the target driver's largest share")
    sub.add_parser("aborted", help="the aborted attempts' statuses")
    for c in sub.choices.values():
        c.add_argument("report", help="a file of report --json")
    return p


def main(argv):
    args = parser().parse_args(argv)
    try:
        with open(args.report, encoding="utf-8") as f:
            doc = json.load(f)
        return CHECKS[args.check](doc, args)
    except (OSError, ValueError) as e:
        sys.stderr.write("json-check.py: %s: %s\n" % (args.report, e))
        return 2
    except (KeyError, TypeError) as e:
        sys.stderr.write("json-check.py: %s: not a report of ntprof "
                         "(%s: %s)\n" % (args.report, type(e).__name__, e))
        return 2
