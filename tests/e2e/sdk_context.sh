#!/bin/sh
# End-to-end: --context sdk-test, what a soroban-sdk test's cost_estimate()
# measures, on the project's kv_store contract (tests/fixtures/wasm/
# kv_store.c, shaped like the SDK's test_contract_data: put, get with a
# has() first, del over persistent storage).  During development the same
# path reproduced the SDK's own test_cost_estimate_with_storage exactly on
# its test_contract_data.wasm (docs/fees.md); that Wasm is not shipped.
#
# Which checks are which:
#   - pins of scprof's own output: the four calls' instructions and peak
#     memory, and their fee totals;
#   - hand-derived from the cost model (docs/reference/cost-params.txt):
#     the PRNG seed's ComputeSha256Hash row only in the default context
#     (2 x 3,636 + 7,013 x 128 / 128 = 14,285), Host::call's two
#     VisitObject (2 x 60 = 120) only in sdk-test, the fee's instruction
#     component (ceil(CPU x 7 / 10,000)), write_bytes 80 (the k1/v1
#     LedgerEntry XDR: 12 + 4 + 36 + 12 + 4 + 12) and its fee
#     ceil(80 x 875 / 1,024) = 69, rent bytes 80 x 4,095 = 327,600;
#   - independent evidence: the storage and rent parts of put's fee (1,563,
#     2,500, 69, 5,702) and del's (1,563 + 2,500) are the SDK test's own
#     for an entry of the same shape; the default context is 18,251 CPU /
#     642 bytes above sdk-test, the sum of the per-difference deltas worked
#     out for the SDK's contract (+14,285 +1,703 +525 -693 -1,837 +243
#     -521 +4,546; +600 +32 -32 -234 -324 -16 +616), which do not depend
#     on the contract's code (the last: the instance read through encoded
#     and decoded by its first get, ValDeser(104) 3,880 / 312,
#     MemAlloc(288) 470 / 304, MemCpy(48) 48, MemCpy(96) 54, MemCmp(48) 50,
#     MemCmp(4) 44).
# Prints one PASS/FAIL line per check (tests/run.sh counts them).
set -u
. "$(dirname "$0")/lib/check.sh"
. "$(dirname "$0")/lib/kv_scenario.sh"
e2e_setup 15

cp "$B/tests/fixtures/wasm/kv_store.wasm" "$T/kv.wasm"
kv_scenario "$T/sc.json"
"$BIN" profile -q -o "$T/sc" --scenario "$T/sc.json" 2>"$T/err"
rc=$?

NAME="sdk_context: the scenario runs"
ok [ "$rc" -eq 0 ]

NAME="sdk_context: the four calls' CPU and peak memory (pins)"
ok [ "$(cut -f3-5 "$T/sc/scenario.txt")" = "put	CPU 114379	memory 208691
get	CPU 112377	memory 207740
del	CPU 110318	memory 207928
get	CPU 110273	memory 207572" ]

R1=$T/sc/01-put/report.json R2=$T/sc/02-get/report.json R3=$T/sc/03-del/report.json R4=$T/sc/04-get/report.json

NAME="sdk_context: the test's map is kept (get after put finds v1, get after del finds none)"
ok [ "$(report_meta "$R2" result)/$(report_meta "$R4" result)" = "sym:v1/void" ]

NAME="sdk_context: every report states the context"
ok [ "$(report_meta "$R1" context)" = "sdk-test (soroban-sdk cost_estimate(): Host::call in a test Env)" ]

NAME="sdk_context: put's resources (write_bytes 80, rent bytes 80 x 4,095)"
ok [ "$(report_meta "$R1" "sdk resources")" = "instructions 114379, mem_bytes 208691, disk_read_entries 0, memory_read_entries 3, write_entries 1, disk_read_bytes 0, write_bytes 80, contract_events_size_bytes 0, persistent_rent_ledger_bytes 327600, persistent_entry_rent_bumps 1, temporary_rent_ledger_bytes 0, temporary_entry_rent_bumps 0" ]

NAME="sdk_context: put's fee (storage and rent parts as the SDK's test)"
ok [ "$(report_meta "$R1" "sdk fee estimate")" = "total 9915 = instructions 81 + disk_read_entries 1563 + write_entries 2500 + disk_read_bytes 0 + write_bytes 69 + contract_events 0 + persistent_entry_rent 5702 + temporary_entry_rent 0" ]

NAME="sdk_context: the fees of get, del, get"
ok [ "$(report_meta "$R2" "sdk fee estimate" | cut -d' ' -f2)/$(report_meta "$R3" "sdk fee estimate")/$(report_meta "$R4" "sdk fee estimate" | cut -d' ' -f2)" = "79/total 4141 = instructions 78 + disk_read_entries 1563 + write_entries 2500 + disk_read_bytes 0 + write_bytes 0 + contract_events 0 + persistent_entry_rent 0 + temporary_entry_rent 0/78" ]

NAME="sdk_context: the instruction fee is ceil(CPU x 7 / 10,000) on every call"
ok python3 - "$R1" "$R2" "$R3" "$R4" <<'PY'
import json, sys
for p in sys.argv[1:]:
    m = {x["key"]: x["value"] for x in json.load(open(p))["meta"]}
    cpu = int(m["sdk resources"].split(",")[0].split()[1])
    fee = int(m["sdk fee estimate"].split(" instructions ")[1].split()[0])
    if fee != -(-cpu * 7 // 10000):
        sys.exit(1)
PY

# One put in each context, on a fresh contract.
"$BIN" profile -q -o "$T/net" "$T/kv.wasm" put sym:k1 sym:v1 2>"$T/err"
r1=$?
"$BIN" profile -q -o "$T/sdk" --context sdk-test "$T/kv.wasm" put sym:k1 sym:v1 2>"$T/err"
r2=$?
row() { python3 -c 'import json,sys
t = [x for x in json.load(open(sys.argv[1]))["tables"] if x["title"] == "Budget by cost type"][0]
print(" ".join(map(str, next((r["values"] for r in t["rows"] if r["name"] == sys.argv[2]), []))))' "$1" "$2"; }

NAME="sdk_context: the default context is the network's, and says so"
ok [ "$r1/$r2/$(report_meta "$T/net/report.json" context)" = \
     "0/0/network (the recording-mode invocation simulation runs)" ]

NAME="sdk_context: the PRNG seed (2 x ComputeSha256Hash(64) = 14,285) only in the network's context"
ok [ "$(row "$T/net/report.json" ComputeSha256Hash)/$(row "$T/sdk/report.json" ComputeSha256Hash)" = "2 128 14285 0/" ]

NAME="sdk_context: Host::call's two VisitObject (2 x 60) only in sdk-test"
ok [ "$(row "$T/sdk/report.json" VisitObject)/$(row "$T/net/report.json" VisitObject)" = "2 0 120 0/" ]

NAME="sdk_context: the contexts differ by 18,251 CPU and 642 bytes (the per-difference deltas' sum)"
ok python3 - "$(report_totals "$T/net/report.json")" "$(report_totals "$T/sdk/report.json")" <<'PY'
import sys
a = list(map(int, sys.argv[1].split())); b = list(map(int, sys.argv[2].split()))
cpu = 14285 + 1703 + 525 - 693 - 1837 + 243 - 521 + 4546
mem = 600 + 32 - 32 - 234 - 324 - 16 + 616
sys.exit(0 if (a[0] - b[0], a[1] - b[1]) == (cpu, mem) == (18251, 642) else 1)
PY

NAME="sdk_context: a bad --context is a usage error"
"$BIN" profile -q -o "$T/x" --context mainnet "$T/kv.wasm" put sym:k1 sym:v1 2>"$T/err"
rc=$?
ok one_line_error 2 "--context: 'mainnet' is not a context"

NAME="sdk_context: sdk-test with a network is refused"
"$BIN" profile -q -o "$T/x" --context sdk-test --network mainnet "$T/kv.wasm" put sym:k1 sym:v1 2>"$T/err"
rc=$?
ok one_line_error 3 "context sdk-test: a network"

NAME="sdk_context: a scenario's bad \"context\" is refused"
sed 's/"sdk-test"/"test"/' "$T/sc.json" >"$T/bad.json"
"$BIN" profile -q -o "$T/x" --scenario "$T/bad.json" 2>"$T/err"
rc=$?
ok one_line_error 65 '"context" must be "network" or "sdk-test"'
