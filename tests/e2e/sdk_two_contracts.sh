#!/bin/sh
# End-to-end: a soroban-sdk test Env with two contracts ("context":
# "sdk-test", two "contracts"): examples/caller.c calling
# examples/counter.c.  Each contract is one e.register(WASM, ()) in the
# file's order: CreateContractV2 from the test generator's next address
# (contract 00..01, then 00..02; soroban-sdk testutils.rs
# Generators::address) with a zero salt, each leaving its four entries in
# the Env's map, both codes in the module cache (rs-soroban-env v28
# ensure_module_cache_contains_host_storage_contracts after each root
# invocation).
#
# Which checks are which:
#   - independent evidence: the counter's id is worked out here from the
#     SDK's rule (SHA-256 of the HashIdPreimage::ContractId XDR: envelope
#     type 8, network id zero, FromAddress(Contract(00..0N)), salt zero;
#     strkey with CRC16-XModem), and the caller reaches the counter by it;
#     with the order swapped the counter is 00..02's and 00..01's id is
#     the caller's own (re-entry refused);
#   - hand-derived from the rules: four VM instantiations in the first
#     call (the caller, two increments, the try_call of fail), all on the
#     module cache's branch (InstantiateWasm* rows, no ParseWasm* row);
#   - behaviour: the map is kept from call to call (2, then 3);
#   - pins of scprof's own output: the two calls' CPU and memory.
# Prints one PASS/FAIL line per check (tests/run.sh counts them).
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 7

cp "$B/examples/counter.wasm" "$B/examples/caller.wasm" "$T/"
# the id of e.register number N in a test Env
test_id() { python3 - "$1" <<'PY'
import base64, hashlib, struct, sys
def crc16(d):
    c = 0
    for b in d:
        c ^= b << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) & 0xFFFF if c & 0x8000 else (c << 1) & 0xFFFF
    return c
pre = struct.pack(">I", 8) + bytes(32) + struct.pack(">II", 0, 1) + bytes(24) + struct.pack(">Q", int(sys.argv[1])) + bytes(32)
p = bytes([2 << 3]) + hashlib.sha256(pre).digest()
print(base64.b32encode(p + struct.pack("<H", crc16(p))).decode())
PY
}
ID1=$(test_id 1) ID2=$(test_id 2)
scen() { # FIRST SECOND COUNTER_ID
  cat >"$T/sc.json" <<J
{"context": "sdk-test",
 "contracts": [{"name": "$1", "wasm": "$1.wasm"}, {"name": "$2", "wasm": "$2.wasm"}],
 "calls": [
  {"contract": "caller", "function": "run", "args": ["str:$3", "u32:2"]},
  {"contract": "caller", "function": "run", "args": ["str:$3", "u32:1"]}
 ]}
J
}

NAME="sdk_two_contracts: the first register's id as worked out (the mocked-auth run names it)"
ok [ "$ID1" = "CBKMUZNFQIAL775XBB2W2GP5CNHBM5YGH6C3XB7AY6SUVO2IBU3VYK2V" ]

scen counter caller "$ID1"
"$BIN" profile -q -o "$T/a" --scenario "$T/sc.json" 2>"$T/err"
rc=$?
R=$T/a/01-run/report.json

NAME="sdk_two_contracts: the caller reaches the counter at 00..01's id; the map is kept (2, then 3)"
ok [ "$rc/$(report_meta "$R" result)/$(report_meta "$T/a/02-run/report.json" result)" = "0/u32:2/u32:3" ]

NAME="[pin] sdk_two_contracts: the two calls"
ok [ "$(cut -f3-5 "$T/a/scenario.txt")" = "run	CPU 627159	memory 854243
run	CPU 463052	memory 639675" ]

NAME="[derived] sdk_two_contracts: four instantiations, all from the module cache (no ParseWasm row)"
cost_types() { python3 -c 'import json,sys
t = [x for x in json.load(open(sys.argv[1]))["tables"] if x["title"] == "Budget by cost type"][0]
print(" ".join("%s:%d" % (r["name"], r["values"][0]) for r in t["rows"] if r["name"].startswith(("ParseWasm", "InstantiateWasmFunctions"))))' "$1"; }
ok [ "$(cost_types "$R")" = "InstantiateWasmFunctions:4" ]

scen caller counter "$ID2"
"$BIN" profile -q -o "$T/b" --scenario "$T/sc.json" 2>"$T/err"
r1=$?
scen caller counter "$ID1"
"$BIN" profile -q -o "$T/c" --scenario "$T/sc.json" 2>"$T/err"
r2=$?

NAME="sdk_two_contracts: registered second, the counter is 00..02's; 00..01's is the caller itself"
ok [ "$r1/$(report_meta "$T/b/01-run/report.json" result)/$r2" = "0/u32:2/10" ]

NAME="sdk_two_contracts: a network file's contracts with --context sdk-test are refused"
sed 's/"sdk-test"/"network"/' "$T/sc.json" >"$T/net.json"
"$BIN" profile -q -o "$T/x" --context sdk-test --scenario "$T/net.json" 2>"$T/err"
rc=$?
ok one_line_error 66 'several contracts need "context": "sdk-test" in the file'

NAME="sdk_two_contracts: a salt in a sdk-test file is refused"
sed 's/"wasm": "counter.wasm"/"wasm": "counter.wasm", "salt": "'"$(printf '%064d' 1)"'"/' "$T/sc.json" >"$T/salt.json"
"$BIN" profile -q -o "$T/x" --scenario "$T/salt.json" 2>"$T/err"
rc=$?
ok one_line_error 66 "context sdk-test: a scenario of contracts with no deployer, salt"
