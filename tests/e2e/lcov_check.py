#!/usr/bin/env python3
"""lcov_check.py -- an lcov tracefile against the profiles it came from:

  lcov_check.py LCOV_INFO REPORT_JSON...

Every DA line's count equals the sum over the profiles of that source
line's ran cost (metric 0 less "ahead") and every FNDA the calls of that
guest function's nodes; the tracefile lists no line and no function the
profiles do not have, and LF/LH/FNF/FNH count its own records.  Exit 0
when all hold, else 1 with what differs.
"""
import json
import sys
from collections import Counter

info, reports = sys.argv[1], sys.argv[2:]
lines, fns = Counter(), Counter()
for path in reports:
    rep = json.load(open(path, encoding="utf-8"))
    frames = {f["id"]: f for f in rep["frames"]}
    for n in rep["nodes"]:
        f = frames[n["frame"]]
        if f["kind"] == "guest" and f["file"] and f["decl_line"]:
            fns[(f["file"], f["name"])] += n["calls"]
        for ln in n["lines"]:
            if ln["line"] and ln["file"]:
                lines[(ln["file"], ln["line"])] += ln["cost"][0] - ln.get("ahead", 0)

da, fnda, bad = {}, {}, []
sf = None
counts = Counter()
for raw in open(info, encoding="utf-8"):
    tag, _, val = raw.rstrip("\n").partition(":")
    if tag == "SF":
        sf = val
        counts.clear()
    elif tag == "DA":
        ln, c = val.split(",")
        da[(sf, int(ln))] = int(c)
        counts["LF"] += 1
        counts["LH"] += int(c) > 0
    elif tag == "FNDA":
        c, name = val.split(",", 1)
        fnda[(sf, name)] = int(c)
        counts["FNF"] += 1
        counts["FNH"] += int(c) > 0
    elif tag in ("LF", "LH", "FNF", "FNH") and int(val) != counts[tag]:
        bad.append("%s: %s:%s, records say %d" % (sf, tag, val, counts[tag]))
if da != dict(lines):
    bad.append("DA differs: %s" % sorted(set(da.items()) ^ set(lines.items()))[:6])
if fnda != dict(fns):
    bad.append("FNDA differs: %s" % sorted(set(fnda.items()) ^ set(fns.items()))[:6])
if not da:
    bad.append("no DA lines")
print("\n".join(bad) if bad else "%d lines, %d functions" % (len(da), len(fnda)))
sys.exit(1 if bad else 0)
