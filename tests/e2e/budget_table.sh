#!/bin/sh
# End-to-end: the Budget by cost type (as soroban-sdk's
# cost_estimate().budget() prints it: iterations, inputs, CPU, memory).
# On every run here -- a single call, a cross-contract call, a scenario's
# calls recorded and signed on a network, a run over the CPU limit -- the
# JSON report's table has one row per cost type charged and its CPU and
# memory columns sum to the run's CPU and memory totals (read from the
# report's metrics, which the run core checks against the Budget
# independently of the cost-type trackers).  A few rows are worked out
# from the cost models (docs/reference/cost-params.txt).
# Prints one PASS/FAIL line per check (tests/run.sh counts them).
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 10
. "$(dirname "$0")/lib/token_flow.sh"

# Every report.json under $1: a "Budget by cost type" table whose CPU and
# memory columns (metric 0 and 1) sum to the metrics' totals, no type
# twice, no empty row.  Prints the number of reports checked.
sums_hold() {
  python3 - "$1" <<'PY'
import json, os, sys
n = 0
for d, _, files in sorted(os.walk(sys.argv[1])):
    if "report.json" not in files:
        continue
    j = json.load(open(os.path.join(d, "report.json")))
    t = [x for x in j.get("tables", []) if x["title"] == "Budget by cost type"]
    if len(t) != 1:
        sys.exit("%s: no budget table" % d)
    t = t[0]
    cols = [c["name"] for c in t["columns"]]
    if cols != ["iterations", "input", "CPU", "memory"] or [c["metric"] for c in t["columns"]] != [-1, -1, 0, 1]:
        sys.exit("%s: columns %s" % (d, cols))
    names = [r["name"] for r in t["rows"]]
    if len(set(names)) != len(names) or any(not any(r["values"]) for r in t["rows"]):
        sys.exit("%s: a type twice or an empty row" % d)
    for col, m in ((2, 0), (3, 1)):
        s = sum(r["values"][col] for r in t["rows"])
        if s != j["metrics"][m]["total"]:
            sys.exit("%s: %s column %d != %s total %d" % (d, cols[col], s, j["metrics"][m]["name"], j["metrics"][m]["total"]))
    n += 1
print(n)
PY
}

# A row of the report's table: NAME ITERATIONS INPUT CPU MEMORY.
row() { grep -q "^  $1  *$2  *$3  *$4  *$5\$" "$6"; }

"$BIN" profile -q -o "$T/runs/demo" "$B/examples/demo.wasm" run u32:200 2>"$T/err"; rc=$?
NAME="demo run(200) runs (exit $rc)"; ok [ "$rc" -eq 0 ]
R="$T/runs/demo/report.txt"
# WasmInsnExec: 4 CPU per instruction, no memory: 54,541 instructions
# = 218,164.  ComputeSha256Hash (3,636 + 7,013 x input / 128 per charge):
# the PRNG seed's one charge of 2 x 64 bytes, 7,272 + 7,013 = 14,285, and
# one of 256 bytes, 3,636 + 14,026 = 17,662: 31,947 over 384 input bytes.
# InvokeVmFunction: 1,945 CPU and 14 bytes, once.
NAME="report: WasmInsnExec 54,541 x 4 = 218,164; ComputeSha256Hash 14,285 + 17,662 = 31,947; InvokeVmFunction 1,945 / 14"
ok eval 'row WasmInsnExec 54,541 0 218,164 0 "$R" && row ComputeSha256Hash 3 384 31,947 0 "$R" &&
         row InvokeVmFunction 1 0 1,945 14 "$R"'
NAME="report: the table's total row is the run's CPU and memory (413,850 and 214,132)"
ok sh -c "sed -n '/^Budget by cost type/,\$p' '$R' | grep -q '^  total  *413,850  *214,132\$' &&
          grep -q '^  CPU  *413,850 ' '$R' && grep -q '^  Memory  *214,132 ' '$R'"

cp "$B/examples/caller.wasm" "$B/examples/counter.wasm" "$T/"
ID=CCPLZZHAPQQN32L6WKKJN45KLHUTUFSCECQWX42DSULQ7RMO72ZAMIRJ
"$BIN" profile -q -o "$T/runs/cross" "$T/caller.wasm" run "str:$ID" u32:3 --contract "$T/counter.wasm" 2>"$T/err"; rc=$?
NAME="a cross-contract call runs (exit $rc)"; ok [ "$rc" -eq 0 ]

cp "$B/examples/token.wasm" "$T/"
token_flow "$T/token.json"
"$BIN" profile -q -o "$T/runs/token" --network mainnet --scenario "$T/token.json" 2>"$T/err"; rc=$?
NAME="the token scenario on mainnet runs (exit $rc)"; ok [ "$rc" -eq 0 ]
# the signed transfer checks an ed25519 signature: one VerifyEd25519Sig
# of 377,551 + 4,059 x input / 128 CPU
NAME="the signed transfer's table has its signature check (VerifyEd25519Sig, 1 iteration)"
ok grep -q '^  VerifyEd25519Sig  *1 ' "$T/runs/token/04-transfer/report.txt"

"$BIN" profile -q -o "$T/runs/over" --cpu-limit 300000 "$B/examples/demo.wasm" run u32:200 2>"$T/err"; rc=$?
NAME="a run over the CPU limit fails (11) and keeps its profile"
ok sh -c "[ $rc -eq 11 ] && [ -f '$T/runs/over/report.json' ]"

n=$(sums_hold "$T/runs" 2>"$T/err"); rc=$?
NAME="every report's cost types sum to its CPU and memory (7 reports: demo, cross, 4 token calls, over the limit)"
ok sh -c "[ $rc -eq 0 ] && [ '$n' = 7 ]"
cat "$T/err" >&2

# the check can fail: a table one instruction short is caught (by the
# same check and by every reader of the JSON report)
sed 's/"name":"WasmInsnExec","values":\[54541,0,218164,0\]/"name":"WasmInsnExec","values":[54541,0,218163,0]/' \
  "$T/runs/demo/report.json" >"$T/bad.json"
mkdir -p "$T/bad" && cp "$T/bad.json" "$T/bad/report.json"
sums_hold "$T/bad" >/dev/null 2>&1; rc=$?
NAME="a table off by one is caught by the sum check"
ok sh -c "! cmp -s '$T/bad.json' '$T/runs/demo/report.json' && [ $rc -ne 0 ]"
"$BIN" check "$T/bad.json" --max-cpu 1000000 >"$T/out" 2>"$T/err"; rc=$?
NAME="... and refused by scprof's JSON reader (65)"
ok one_line_error 65 "a table's column does not sum to its metric's total"
