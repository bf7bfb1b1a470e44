#!/usr/bin/env python3
"""size_cover_check.py -- `scprof size --profile` against the run's own
coverage:

  size_cover_check.py SIZE_REPORT_JSON LCOV_INFO FUNCTION BYTES

  * FUNCTION (a guest frame's name) never ran: its Never run total equals
    its Size total equals BYTES (the caller takes BYTES from wasm-objdump
    or llvm-readelf, not from scprof);
  * every source line of code in the size tree is run (Never run 0) in
    some frame exactly when the run's lcov tracefile (written from the
    same profile) gives it a count above 0.
Prints one PASS/FAIL line per check.
"""
import json
import sys
from collections import defaultdict

size_json, info, func, want = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
rep = json.load(open(size_json, encoding="utf-8"))
frames = {f["id"]: f for f in rep["frames"]}
ok = True


def check(what, good, detail=""):
    global ok
    print(("PASS" if good else "FAIL") + " size --profile: " + what + ("" if good else ": " + detail))
    ok &= good


hits = [n for n in rep["nodes"] if frames[n["frame"]]["kind"] == "guest" and frames[n["frame"]]["name"] == func]
check("%s never ran, all its %d bytes" % (func, want),
      len(hits) == 1 and hits[0]["total"] == [want, want],
      "nodes %s" % [n["total"] for n in hits])

ran_size = defaultdict(bool)
for n in rep["nodes"]:
    if frames[n["frame"]]["kind"] not in ("guest", "inlined"):
        continue
    for ln in n["lines"]:
        if ln["line"] and ln["file"]:
            ran_size[(ln["file"], ln["line"])] |= ln["cost"][1] == 0
ran_lcov = defaultdict(bool)
sf = None
for raw in open(info, encoding="utf-8"):
    tag, _, val = raw.rstrip("\n").partition(":")
    if tag == "SF":
        sf = val
    elif tag == "DA":
        ln, c = val.split(",")
        ran_lcov[(sf, int(ln))] |= int(c) > 0
lines = set(ran_size) | set(ran_lcov)
differ = sorted(k for k in lines if ran_size[k] != ran_lcov[k])
check("%d source lines: run in the size tree == count > 0 in lcov" % len(lines),
      not differ and any(ran_size.values()), "differ at %s" % differ[:8])
sys.exit(0 if ok else 1)
