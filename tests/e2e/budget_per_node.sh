#!/bin/sh
# End-to-end: the Budget by cost type per node in report.json.  A
# cross-contract call (examples/caller.c calling examples/counter.c) has
# host functions, two contracts' guest code, VM instantiations and
# storage; for every node the rows give each cost type's iterations,
# inputs, CPU and memory.
# Evidence (independent of scprof's own check, recomputed here from the
# JSON): every node's rows sum to its self CPU and memory; every cost
# type's rows over all nodes sum to the run's "Budget by cost type" row;
# the VM nodes carry the instantiation types, the guest nodes only
# WasmInsnExec (4 CPU per fuel unit).  Then the JSON reader refuses a
# report whose node rows do not sum.
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 10
ID=CCPLZZHAPQQN32L6WKKJN45KLHUTUFSCECQWX42DSULQ7RMO72ZAMIRJ
"$BIN" profile "$B/examples/caller.wasm" run "str:$ID" u32:3 --contract "$B/examples/counter.wasm" \
  -o "$T/a" -q -f json 2>"$T/err"
rc=$?
NAME="the cross-contract call runs (exit $rc)"; ok [ "$rc" -eq 0 ]

python3 - "$T/a/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
def check(name, cond):
    print(("PASS " if cond else "FAIL ") + name)
tables = {t["title"]: t for t in r["tables"]}
pn = tables.get("Budget by cost type per node")
run = tables.get("Budget by cost type")
check("the per-node table is there, marked per_node, CPU and memory columns tied to the metrics",
      pn is not None and pn.get("per_node") is True and
      [c["metric"] for c in pn["columns"]] == [-1, -1, 0, 1])
if pn is None:
    sys.exit(0)
nodes = {n["id"]: n for n in r["nodes"]}
frames = r["frames"]
cpu, mem = {}, {}
by_node = {}
for row in pn["rows"]:
    n = row["node"]
    cpu[n] = cpu.get(n, 0) + row["values"][2]
    mem[n] = mem.get(n, 0) + row["values"][3]
    by_node.setdefault(n, {})[row["name"]] = row["values"]
bad = [i for i, n in nodes.items() if cpu.get(i, 0) != n["self"][0] or mem.get(i, 0) != n["self"][1]]
check("every node's rows sum to its self CPU and memory (%d nodes)" % len(nodes), not bad)
tot = {}
for row in pn["rows"]:
    t = tot.setdefault(row["name"], [0, 0, 0, 0])
    for k in range(4):
        t[k] += row["values"][k]
want = {row["name"]: row["values"] for row in run["rows"]}
check("every cost type's rows sum to the run's Budget by cost type (%d types)" % len(want), tot == want)
kind = lambda i: frames[nodes[i]["frame"]]["kind"]
name = lambda i: frames[nodes[i]["frame"]]["name"]
guest = [i for i in by_node if kind(i) in ("guest", "inlined")]
check("guest nodes carry only WasmInsnExec, 4 CPU per fuel unit (%d nodes)" % len(guest),
      guest and all(set(by_node[i]) == {"WasmInsnExec"} and
                    by_node[i]["WasmInsnExec"][2] == 4 * by_node[i]["WasmInsnExec"][0] for i in guest))
vms = [i for i in by_node if name(i) == "vm:instantiate"]
check("vm:instantiate nodes carry the instantiation types, no WasmInsnExec (%d nodes)" % len(vms),
      vms and all("InstantiateWasmInstructions" in by_node[i] and "WasmInsnExec" not in by_node[i]
                  for i in vms))
puts = [i for i in by_node if name(i) == "host:put_contract_data"]
check("host:put_contract_data nodes: DispatchHostFunction once per call, no WasmInsnExec",
      puts and all(by_node[i].get("DispatchHostFunction", [0])[0] == nodes[i]["calls"] and
                   "WasmInsnExec" not in by_node[i] for i in puts))
PY

# The reader checks the sums: one row's CPU moved to another node's
# row is refused.
python3 - "$T/a/report.json" "$T/bad.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for t in r["tables"]:
    if t["title"] == "Budget by cost type per node":
        rows = t["rows"]
        other = next((x for x in rows if x["node"] != rows[0]["node"] and x["values"][2]), None)
        print("PASS the tampered copy moves one CPU unit between two nodes' rows" if other
              else "FAIL no second node with CPU")
        if other:
            rows[0]["values"][2] += 1
            other["values"][2] -= 1
json.dump(r, open(sys.argv[2], "w"))
PY
"$BIN" check "$T/a/report.json" --max-cpu 10000000 >"$T/out" 2>"$T/err"
rc=$?
NAME="the report reads back with its per-node sums (exit $rc)"; ok [ "$rc" -eq 0 ]
"$BIN" check "$T/bad.json" --max-cpu 10000000 >"$T/out" 2>"$T/err"
rc=$?
NAME="a node whose rows do not sum to its self CPU is refused (exit $rc)"
ok one_line_error 65 "does not sum"
