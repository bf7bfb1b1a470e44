#!/usr/bin/env python3
"""size_check.py -- compares `scprof size` output with the file itself and
with the standard tools' view of it (independent evidence, not scprof's own
numbers):

  size_check.py FILE FOLDED REPORT_JSON

  * the folded stacks sum to the file's length;
  * every section's bytes (its node's total, less its "[section header]"
    child for WASM) equal the size `wasm-objdump -h` / `llvm-objdump -h`
    prints for it (sections of one name summed, as scprof merges them);
  * the functions' totals, as a multiset, equal the code section's body
    sizes (`wasm-objdump -x`: "func[N] size=S") or the symbol table's
    sized FUNC symbols, one per address (`llvm-readelf -s`).
Prints one line per check, PASS or FAIL, naming the file.
"""
import json
import os
import re
import subprocess
import sys
from collections import Counter, defaultdict

path, folded, report = sys.argv[1:4]
name = os.path.basename(path)
ok = True


def check(what, good, detail=""):
    global ok
    print(("PASS" if good else "FAIL") + " size %s: %s%s" % (name, what, "" if good else ": " + detail))
    ok &= good


total = 0
sec = defaultdict(int)
hdr = defaultdict(int)
for line in open(folded, encoding="utf-8"):
    stack, n = line.rstrip("\n").rsplit(" ", 1)
    n = int(n)
    total += n
    frames = stack.split(";")
    if len(frames) > 1:
        sec[frames[1]] += n
        if len(frames) > 2 and frames[2] == "[section header]":
            hdr[frames[1]] += n
size = os.path.getsize(path)
check("sum of the tree == file size %d" % size, total == size, "tree holds %d" % total)

wasm = open(path, "rb").read(4) == b"\0asm"
theirs = defaultdict(int)
if wasm:
    out = subprocess.run(["wasm-objdump", "-h", path], capture_output=True, text=True).stdout
    for m in re.finditer(r'^\s*(\w+) start=\S+ end=\S+ \(size=(0x[0-9a-f]+)\)(.*)$', out, re.M):
        key = m.group(1)
        if key == "Custom":
            key = "Custom:" + re.search(r'"(.*)"', m.group(3)).group(1)
        theirs[key] += int(m.group(2), 16)
    ours = {k: sec[k] - hdr[k] for k in sec if not k.startswith("[")}
else:
    out = subprocess.run(["llvm-objdump", "-h", path], capture_output=True, text=True).stdout
    for m in re.finditer(r'^\s*\d+ (\S+)\s+([0-9a-f]{8,}) [0-9a-f]+\s*(\w*)$', out, re.M):
        if m.group(3) != "BSS" and int(m.group(2), 16):
            theirs[m.group(1)] += int(m.group(2), 16)
    ours = {k: v for k, v in sec.items() if not k.startswith("[")}
check("%d sections' sizes == %s -h" % (len(theirs), "wasm-objdump" if wasm else "llvm-objdump"),
      ours == dict(theirs) and len(theirs) > 0,
      "ours %s, theirs %s" % (sorted(set(ours.items()) - set(theirs.items())),
                              sorted(set(theirs.items()) - set(ours.items()))))

rep = json.load(open(report, encoding="utf-8"))
kinds = {f["id"]: f["kind"] for f in rep["frames"]}
mine = Counter(n["total"][0] for n in rep["nodes"] if kinds[n["frame"]] == "guest")
if wasm:
    out = subprocess.run(["wasm-objdump", "-x", path], capture_output=True, text=True).stdout
    code = out.split("\nCode[", 1)
    bodies = Counter(int(s) for s in re.findall(r"^ - func\[\d+\] size=(\d+)", code[1] if len(code) > 1 else "", re.M))
else:
    out = subprocess.run(["llvm-readelf", "-s", "--wide", path], capture_output=True, text=True).stdout
    tab = out.split("Symbol table '.symtab'", 1)
    tab = tab[1] if len(tab) > 1 else out
    seen = {}
    for m in re.finditer(r"^\s*\d+: ([0-9a-f]+)\s+(\d+) FUNC\s+\w+\s+\w+\s+(\d+)", tab, re.M):
        seen.setdefault(int(m.group(1), 16), int(m.group(2)))
    bodies = Counter(v for v in seen.values())
if not wasm and 0 in bodies:
    # unsized symbols run to the next one: only the sized ones are evidence
    del bodies[0]
    good = all(mine[k] >= v for k, v in bodies.items())
else:
    good = mine == bodies
check("%d function sizes == %s" % (sum(bodies.values()), "code section bodies" if wasm else "symbol table"),
      good, "ours %s, theirs %s" % (sorted((mine - bodies).elements()), sorted((bodies - mine).elements())))
sys.exit(0 if ok else 1)
